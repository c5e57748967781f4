// A stand-in for the docs-index worker, speaking its protocol (docs-index-worker.ts): each request
// is answered with the id of the thread that answered it, after a progress message, once `waitMs`
// has passed; a root of "fail" is answered with a failure, one of "crash" ends the thread.
import { parentPort, threadId } from 'node:worker_threads'

parentPort.on('message', ({ id, request }) => {
  if (request.root === 'crash') process.exit(3)
  parentPort.postMessage({ id, message: { kind: 'progress', done: 1, total: 2 } })
  setTimeout(() => {
    const message =
      request.root === 'fail'
        ? { kind: 'failed', code: 'not_found', message: 'There is no folder at fail.' }
        : { kind: 'done', index: { root: request.root, threadId } }
    parentPort.postMessage({ id, message })
  }, request.limits.waitMs ?? 0)
})
