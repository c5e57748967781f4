import { parentPort } from 'node:worker_threads'
import { messageOf } from '../../src-shared/ipc/error-message'
import type { DocsIndex } from '../../src-shared/site-config/docs-files'
import type { PageFacts } from '../../src-shared/site-config/site-pages'
import { indexDocsFolder, type IndexLimits } from './docs-folder'
import { readPageFacts } from './page-checks'

/*
 * The docs-folder index, on a thread of its own: listing and reading the front matter of tens of
 * thousands of pages took main 4.3 s at 100,000 files, and every other call waited. Here it
 * reads, reports its progress and posts the index back; main's thread only receives it. Asked
 * with an index (`pagesOf`), it reads and parses that index's pages instead (MDX parsing is the
 * slow part of the page checks) and posts what they hold. One thread answers every request while
 * it lives, each answer tagged with its request's id.
 */

export interface IndexRequest {
  root: string
  dataDir: string | null
  limits: Omit<IndexLimits, 'onProgress'>
  pagesOf?: DocsIndex
}

export type IndexMessage =
  | { kind: 'progress'; done: number; total: number }
  | { kind: 'done'; index: Awaited<ReturnType<typeof indexDocsFolder>> }
  | { kind: 'pages'; facts: PageFacts }
  | { kind: 'failed'; code: string; message: string }

/** A request as main posts it, and each message of its answer as the worker posts it back: by the request's id. */
export interface WorkerRequest {
  id: number
  request: IndexRequest
}
export interface WorkerMessage {
  id: number
  message: IndexMessage
}

function answer({ id, request: { root, dataDir, limits, pagesOf } }: WorkerRequest): void {
  const post = (message: IndexMessage) => parentPort!.postMessage({ id, message } satisfies WorkerMessage)
  const failed = (error: unknown) =>
    post({ kind: 'failed', code: (error as { code?: string }).code ?? 'file_io', message: messageOf(error) })
  if (pagesOf) readPageFacts(pagesOf).then((facts) => post({ kind: 'pages', facts }), failed)
  else
    indexDocsFolder(root, dataDir, { ...limits, onProgress: (progress) => post({ kind: 'progress', ...progress }) }).then(
      (index) => post({ kind: 'done', index }),
      failed,
    )
}

// Main keeps this thread while requests come (docs-worker.ts); requests may run side by side, each answered by its id.
parentPort!.on('message', answer)
