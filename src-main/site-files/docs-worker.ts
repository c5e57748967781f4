import { Worker } from 'node:worker_threads'
import { AppErrorException, type ErrorCode } from '../../src-shared/ipc/result'
import type { IndexMessage, IndexRequest, WorkerMessage, WorkerRequest } from './docs-index-worker'

/**
 * The docs folder's worker thread (docs-index-worker.ts): started at the first request and kept
 * while requests come, since loading the indexer's modules cost a new thread 1.5–3 s of CPU on
 * these 2 cores, once per index and once per page read. Idle for `idleMs`, it ends, and its
 * memory with it; while idle it keeps no process alive. Requests share it, each answered by id.
 */
export interface DocsWorker {
  run<T>(request: IndexRequest, onProgress: (progress: { done: number; total: number }) => void): Promise<T>
  /** Ends the thread, and with it every request still running (each rejected). */
  close(): Promise<void>
}

interface Pending {
  /** The thread it was posted to: only that thread's end rejects it. */
  thread: Worker
  /** The folder it is about, named in a failure's sentence. */
  root: string
  onMessage(message: IndexMessage): void
  reject(error: AppErrorException): void
}

export function createDocsWorker(workerFile: string, { idleMs = 60_000 }: { idleMs?: number } = {}): DocsWorker {
  let worker: Worker | null = null
  let idle: NodeJS.Timeout | undefined
  let nextId = 0
  const pending = new Map<number, Pending>()

  /** Every request still waiting on `thread`, rejected with what ended it. */
  const failAll = (thread: Worker, reason: (root: string) => AppErrorException) => {
    for (const [id, { thread: its, root, reject }] of pending) {
      if (its !== thread) continue
      pending.delete(id)
      reject(reason(root))
    }
  }

  /** No longer the thread new requests go to; ended. */
  const retire = (thread: Worker) => {
    if (worker === thread) worker = null
    return thread.terminate()
  }

  const start = (): Worker => {
    const started = new Worker(workerFile)
    started.on('message', ({ id, message }: WorkerMessage) => pending.get(id)?.onMessage(message))
    started.on('error', (error) => {
      void retire(started)
      failAll(
        started,
        (root) => new AppErrorException('file_io', `The docs folder ${root} could not be indexed: ${error.message}`, { root }),
      )
    })
    started.on('exit', (code) => {
      if (worker === started) worker = null
      failAll(started, (root) => new AppErrorException('internal', `The docs-folder indexer stopped (exit code ${code}).`, { root }))
    })
    return started
  }

  const settled = (id: number) => {
    pending.delete(id)
    if (pending.size > 0 || !worker) return
    const current = worker
    current.unref()
    idle = setTimeout(() => void retire(current), idleMs)
    idle.unref()
  }

  return {
    run<T>(request: IndexRequest, onProgress: (progress: { done: number; total: number }) => void): Promise<T> {
      clearTimeout(idle)
      const thread = (worker ??= start())
      thread.ref()
      const id = nextId++
      return new Promise<T>((resolve, reject) => {
        pending.set(id, {
          thread,
          root: request.root,
          reject,
          onMessage(message) {
            if (message.kind === 'progress') return onProgress(message)
            settled(id)
            if (message.kind === 'done') resolve(message.index as T)
            else if (message.kind === 'pages') resolve(message.facts as T)
            else reject(new AppErrorException(message.code as ErrorCode, message.message, { root: request.root }))
          },
        })
        thread.postMessage({ id, request } satisfies WorkerRequest)
      })
    },
    async close() {
      clearTimeout(idle)
      if (worker) await retire(worker)
    },
  }
}
