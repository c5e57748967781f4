import { resolve } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { IndexRequest } from '../../../src-main/site-files/docs-index-worker'
import { createDocsWorker, type DocsWorker } from '../../../src-main/site-files/docs-worker'
import { failureOf } from '../../helpers/failure-of'

// The docs folder's worker thread kept between requests, on real threads: a stand-in worker
// (support/thread-id-worker.mjs) answers each request with the id of the thread that answered.

const STAND_IN = resolve(import.meta.dirname, 'support/thread-id-worker.mjs')
const request = (root: string, waitMs = 0) => ({ root, dataDir: null, limits: { waitMs } }) as unknown as IndexRequest
type Answer = { root: string; threadId: number }

let worker: DocsWorker
afterEach(() => worker.close())

describe('the docs folder’s worker thread', () => {
  it('answers request after request, side by side too, on one thread, each with its own progress', async () => {
    worker = createDocsWorker(STAND_IN)
    const progress: string[] = []
    const first = await worker.run<Answer>(request('a'), () => progress.push('a'))
    const [second, third] = await Promise.all([
      worker.run<Answer>(request('b', 50), () => progress.push('b')),
      worker.run<Answer>(request('c'), () => progress.push('c')),
    ])
    expect([first.root, second.root, third.root]).toEqual(['a', 'b', 'c'])
    expect(new Set([first.threadId, second.threadId, third.threadId]).size).toBe(1)
    expect(progress.sort()).toEqual(['a', 'b', 'c'])
  })

  it('ends once idle, and the next request starts another thread', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      worker = createDocsWorker(STAND_IN, { idleMs: 60_000 })
      const first = await worker.run<Answer>(request('a'), () => {})
      vi.advanceTimersByTime(59_999)
      const again = await worker.run<Answer>(request('b'), () => {})
      vi.advanceTimersByTime(60_000)
      const next = await worker.run<Answer>(request('c'), () => {})
      expect(again.threadId).toBe(first.threadId)
      expect(next.threadId).not.toBe(first.threadId)
    } finally {
      vi.useRealTimers()
    }
  })

  it('rejects a failed request with its sentence, and goes on answering the others', async () => {
    worker = createDocsWorker(STAND_IN)
    expect(await failureOf(worker.run(request('fail'), () => {}))).toMatchObject({
      code: 'not_found',
      message: 'There is no folder at fail.',
      details: { root: 'fail' },
    })
    expect((await worker.run<Answer>(request('a'), () => {})).root).toBe('a')
  })

  it('rejects every request of a thread that stopped, and answers the next on a new one', async () => {
    worker = createDocsWorker(STAND_IN)
    const slow = worker.run(request('slow', 5_000), () => {})
    const crash = worker.run(request('crash'), () => {})
    for (const stopped of [slow, crash]) expect((await failureOf(stopped)).message).toBe('The docs-folder indexer stopped (exit code 3).')
    expect((await worker.run<Answer>(request('a'), () => {})).root).toBe('a')
  })

  it('ends the thread on close, with the requests it was answering', async () => {
    worker = createDocsWorker(STAND_IN)
    const running = worker.run(request('slow', 5_000), () => {})
    await worker.close()
    expect((await failureOf(running)).message).toMatch(/^The docs-folder indexer stopped \(exit code \d+\)\.$/)
  })
})
