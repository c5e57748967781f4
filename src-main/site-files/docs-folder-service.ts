import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { DocsIndex, ImageCheck, OpenApiCheck } from '../../src-shared/site-config/docs-files'
import type { PageFacts } from '../../src-shared/site-config/site-pages'
import type { EventHub } from '../event-hub'
// The indexer, watcher and OpenAPI parser load on the first docs-folder call: the app's start and
// a CLI call through a profile do not pay for them.
const docsFolder = () => import('./docs-folder')
import type { FileDialogs } from '../user-files/file-dialogs'
import { createDocsWorker } from './docs-worker'
import type { FolderWatcher } from './folder-watcher'
import type { SiteFileService } from './site-file-service'
const folderWatcher = () => import('./folder-watcher')

/**
 * The index runs on a worker thread from the build (out/main/docs-index-worker.js, beside every
 * chunk of main). Run from source (unit tests), where there is no built worker, it runs here.
 */
const BUILT_WORKER = fileURLToPath(new URL('./docs-index-worker.js', import.meta.url))

export type DocsFolderChoice = { kind: 'dialog' } | { kind: 'path'; path: string }

export interface DocsFolderService {
  /** `watch`: the folders the document can name (relative), the only ones watched; none, the folder itself. */
  index(documentId: string, folder?: DocsFolderChoice, watch?: readonly string[]): Promise<DocsIndex | null>
  /** What the pages of the document's docs folder hold, as last indexed (indexed first if it was not). */
  pages(documentId: string): Promise<PageFacts | null>
  checkOpenApi(documentId: string, files: readonly string[]): Promise<OpenApiCheck[]>
  checkImages(documentId: string, files: readonly string[]): Promise<ImageCheck[]>
  /** The document's docs folder (its file's folder unless another was chosen), or null for an untitled one. */
  rootOf(documentId: string): Promise<string | null>
  /** Resolves once the watcher watches what it was given: changes from then on are announced. */
  watching(): Promise<void>
  /** Stops watching and ends any index still running (its worker), so the process can exit at once. */
  close(): Promise<void>
}

export interface DocsFolderServiceOptions {
  files: SiteFileService
  dataDir: string | null
  dialogs?: FileDialogs
  events?: EventHub
  /** The worker script (tests point at a build of their own); null runs the index on this thread. */
  workerFile?: string | null
}

/**
 * The docs folder of each open document: its file's folder unless the writer picked another.
 * One folder is watched at a time (the editor shows one document), and a change is announced
 * with a `site.docsChanged` event naming the files it saw change.
 */
export function createDocsFolderService({ files, dataDir, dialogs, events, ...options }: DocsFolderServiceOptions): DocsFolderService {
  const chosen = new Map<string, string>()
  /** The last index of each folder, and its pages' facts once read. */
  const indexes = new Map<string, { index: DocsIndex; pages: Promise<PageFacts> | null }>()
  let watched: { root: string; folders: string; watcher: Promise<FolderWatcher> } | null = null
  let closed = false
  const workerFile = options.workerFile !== undefined ? options.workerFile : existsSync(BUILT_WORKER) ? BUILT_WORKER : null
  const worker = workerFile === null ? null : createDocsWorker(workerFile)

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

  const watchOnly = async (root: string, folders: readonly string[]): Promise<FolderWatcher> => {
    const key = JSON.stringify(folders)
    if (watched?.root === root && watched.folders === key) return watched.watcher
    const previous = watched?.watcher
    const { watchFolders } = await folderWatcher()
    const watcher = watchFolders(root, dataDir, folders, (change) => events?.emit('site.docsChanged', { root, ...change }))
    watched = { root, folders: key, watcher }
    await previous?.then(
      (old) => old.close(),
      () => undefined,
    )
    return watcher
  }

  const indexOf = async (root: string): Promise<DocsIndex> => {
    const onProgress = (progress: { done: number; total: number }) => events?.emit('site.docsProgress', { root, ...progress })
    const index = worker
      ? await worker.run<DocsIndex>({ root, dataDir, limits: {} }, onProgress)
      : await (await docsFolder()).indexDocsFolder(root, dataDir, { onProgress })
    indexes.set(root, { index, pages: null })
    return index
  }

  /** What the pages of the folder's last index hold, read once per index (on the worker: parsing thousands of pages is slow). */
  const pagesOf = (root: string, index: DocsIndex): Promise<PageFacts> => {
    const known = indexes.get(root)
    if (known?.index === index && known.pages) return known.pages
    const pages = worker
      ? worker.run<PageFacts>({ root, dataDir, limits: {}, pagesOf: index }, () => {})
      : import('./page-checks').then(({ readPageFacts }) => readPageFacts(index))
    if (known?.index === index) known.pages = pages
    // A failure is not kept: the next call reads again.
    pages.catch(() => {
      if (indexes.get(root)?.pages === pages) indexes.get(root)!.pages = null
    })
    return pages
  }

  return {
    async index(documentId, folder, watch = ['']) {
      if (closed) throw new AppErrorException('refused', 'Embed Console is stopping: the docs folder is not indexed.')
      const root = await rootOf(documentId, folder)
      if (root === null) return null
      const index = await indexOf(root)
      // Answered once the watcher watches (from then on the screen's "Watching for changes" is
      // true, and a change made after it is announced), with what it could not watch.
      const { notices } = await watchOnly(root, watch)
      return notices.length ? { ...index, notices: [...(index.notices ?? []), ...notices] } : index
    },
    async pages(documentId) {
      const root = await rootOf(documentId)
      if (root === null) return null
      const index = indexes.get(root)?.index ?? (await indexOf(root))
      return pagesOf(root, index)
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
    watching: async () => void (await watched?.watcher),
    async close() {
      closed = true
      const watcher = watched?.watcher
      watched = null
      ;(await watcher?.catch(() => null))?.close()
      await worker?.close()
    },
  }
}
