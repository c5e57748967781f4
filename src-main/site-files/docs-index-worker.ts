import { parentPort, workerData } from 'node:worker_threads'
import { messageOf } from '../../src-shared/ipc/error-message'
import { indexDocsFolder, type IndexLimits } from './docs-folder'

/*
 * The docs-folder index, on a thread of its own: listing and reading the front matter of tens of
 * thousands of pages took main 4.3 s at 100,000 files, and every other call waited. Here it
 * reads, reports its progress and posts the index back; main's thread only receives it.
 */

export interface IndexRequest {
  root: string
  dataDir: string | null
  limits: Omit<IndexLimits, 'onProgress'>
}

export type IndexMessage =
  | { kind: 'progress'; done: number; total: number }
  | { kind: 'done'; index: Awaited<ReturnType<typeof indexDocsFolder>> }
  | { kind: 'failed'; code: string; message: string }

const post = (message: IndexMessage) => parentPort!.postMessage(message)
const { root, dataDir, limits } = workerData as IndexRequest

indexDocsFolder(root, dataDir, { ...limits, onProgress: (progress) => post({ kind: 'progress', ...progress }) }).then(
  (index) => post({ kind: 'done', index }),
  (error: unknown) => post({ kind: 'failed', code: (error as { code?: string }).code ?? 'file_io', message: messageOf(error) }),
)
