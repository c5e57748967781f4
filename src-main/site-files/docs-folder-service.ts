import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { FSWatcher } from 'chokidar'
import { AppErrorException, type ErrorCode } from '../../src-shared/ipc/result'
import type { DocsIndex, ImageCheck, OpenApiCheck } from '../../src-shared/site-config/docs-files'
import type { EventHub } from '../event-hub'
// The indexer, watcher and OpenAPI parser load on the first docs-folder call: the app's start and
// a CLI call through a profile do not pay for them.
const docsFolder = () => import('./docs-folder')
import type { SiteFileDialogs } from './file-dialogs'
import type { SiteFileService } from './site-file-service'
import type { IndexMessage, IndexRequest } from './docs-index-worker'

/**
 * The index runs on a worker thread from the build (out/main/docs-index-worker.js, beside every
 * chunk of main). Run from source (unit tests), where there is no built worker, it runs here.
 */
const BUILT_WORKER = fileURLToPath(new URL('./docs-index-worker.js', import.meta.url))

export type DocsFolderChoice = { kind: 'dialog' } | { kind: 'path'; path: string }

export interface DocsFolderService {
  /** `watch`: the folders the document can name (relative), the only ones watched; none, the whole tree. */
  index(documentId: string, folder?: DocsFolderChoice, watch?: readonly string[]): Promise<DocsIndex | null>
  checkOpenApi(documentId: string, files: readonly string[]): Promise<OpenApiCheck[]>
  checkImages(documentId: string, files: readonly string[]): Promise<ImageCheck[]>
  /** The document's docs folder (its file's folder unless another was chosen), or null for an untitled one. */
  rootOf(documentId: string): Promise<string | null>
  /** Resolves once the watcher has scanned what it watches: changes from then on are announced. */
  watching(): Promise<void>
  close(): Promise<void>
}

export interface DocsFolderServiceOptions {
  files: SiteFileService
  dataDir: string | null
  dialogs?: SiteFileDialogs
  events?: EventHub
  /** The worker script (tests point at a build of their own); null runs the index on this thread. */
  workerFile?: string | null
}

/** Indexes on a worker thread, relaying its progress; the worker ends with its answer. */
function indexOnWorker(
  workerFile: string,
  request: IndexRequest,
  onProgress: (progress: { done: number; total: number }) => void,
): Promise<DocsIndex> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: request })
    let settled = false
    const settle = (work: () => void) => {
      if (settled) return
      settled = true
      work()
      void worker.terminate()
    }
    worker.on('message', (message: IndexMessage) => {
      if (message.kind === 'progress') onProgress(message)
      else if (message.kind === 'done') settle(() => resolve(message.index))
      else settle(() => reject(new AppErrorException(message.code as ErrorCode, message.message, { root: request.root })))
    })
    worker.on('error', (error) =>
      settle(() =>
        reject(
          new AppErrorException('file_io', `The docs folder ${request.root} could not be indexed: ${error.message}`, {
            root: request.root,
          }),
        ),
      ),
    )
    worker.on('exit', (code) =>
      settle(() =>
        reject(new AppErrorException('internal', `The docs-folder indexer stopped (exit code ${code}).`, { root: request.root })),
      ),
    )
  })
}

/**
 * The docs folder of each open document: its file's folder unless the writer picked another.
 * One folder is watched at a time (the editor shows one document), and a change is announced
 * with a `site.docsChanged` event.
 */
export function createDocsFolderService({ files, dataDir, dialogs, events, ...options }: DocsFolderServiceOptions): DocsFolderService {
  const chosen = new Map<string, string>()
  let watched: { root: string; folders: string; watcher: FSWatcher; ready: Promise<void> } | null = null
  const workerFile = options.workerFile !== undefined ? options.workerFile : existsSync(BUILT_WORKER) ? BUILT_WORKER : null

  const rootOf = async (documentId: string, folder?: DocsFolderChoice): Promise<string | null> => {
    if (folder?.kind === 'dialog') {
      if (!dialogs) throw new AppErrorException('refused', 'This window has no file dialogs: type the folder’s path instead.')
      const picked = await dialogs.chooseDocsFolder(chosen.get(documentId) ?? null)
      if (picked === null) return null
      chosen.set(documentId, await files.resolveAllowed(picked))
    } else if (folder?.kind === 'path') {
      chosen.set(documentId, await files.resolveAllowed(folder.path))
    }
    const path = files.pathOf(documentId)
    return chosen.get(documentId) ?? (path === null ? null : dirname(path))
  }

  const watchOnly = async (root: string, folders: readonly string[] | undefined) => {
    const key = JSON.stringify(folders ?? null)
    if (watched?.root === root && watched.folders === key) return
    await watched?.watcher.close()
    const { watchDocsFolder } = await docsFolder()
    const watcher = watchDocsFolder(root, dataDir, () => events?.emit('site.docsChanged', { root }), folders)
    watched = { root, folders: key, watcher, ready: new Promise((resolve) => watcher.once('ready', () => resolve())) }
  }

  const indexOf = async (root: string): Promise<DocsIndex> => {
    const onProgress = (progress: { done: number; total: number }) => events?.emit('site.docsProgress', { root, ...progress })
    if (workerFile) return indexOnWorker(workerFile, { root, dataDir, limits: {} }, onProgress)
    return (await docsFolder()).indexDocsFolder(root, dataDir, { onProgress })
  }

  return {
    async index(documentId, folder, watch) {
      const root = await rootOf(documentId, folder)
      if (root === null) return null
      const index = await indexOf(root)
      await watchOnly(root, watch)
      // Answered once the watcher has scanned what it watches (or after 2 s at most): from then
      // on the screen's "Watching for changes" is true, and a change made after it is announced.
      await Promise.race([watched!.ready, new Promise((resolve) => setTimeout(resolve, 2000).unref())])
      return index
    },
    async checkOpenApi(documentId, references) {
      const root = await rootOf(documentId)
      if (root === null) throw new AppErrorException('not_found', 'This document has no docs folder yet: save it, or choose the folder.')
      const { checkOpenApiFile } = await docsFolder()
      return Promise.all(references.map((reference) => checkOpenApiFile(root, reference)))
    },
    async checkImages(documentId, references) {
      const root = await rootOf(documentId)
      if (root === null) throw new AppErrorException('not_found', 'This document has no docs folder yet: save it, or choose the folder.')
      const { checkImageFile } = await docsFolder()
      return Promise.all(references.map((reference) => checkImageFile(root, reference)))
    },
    rootOf: (documentId) => rootOf(documentId),
    watching: () => watched?.ready ?? Promise.resolve(),
    async close() {
      await watched?.watcher.close()
      watched = null
    },
  }
}
