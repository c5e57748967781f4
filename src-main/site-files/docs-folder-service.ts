import { dirname } from 'node:path'
import type { FSWatcher } from 'chokidar'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { DocsIndex, ImageCheck, OpenApiCheck } from '../../src-shared/site-config/docs-files'
import type { EventHub } from '../event-hub'
// The indexer, watcher and OpenAPI parser load on the first docs-folder call: the app's start and
// a CLI call through a profile do not pay for them.
const docsFolder = () => import('./docs-folder')
import type { SiteFileDialogs } from './file-dialogs'
import type { SiteFileService } from './site-file-service'

export type DocsFolderChoice = { kind: 'dialog' } | { kind: 'path'; path: string }

export interface DocsFolderService {
  index(documentId: string, folder?: DocsFolderChoice): Promise<DocsIndex | null>
  checkOpenApi(documentId: string, files: readonly string[]): Promise<OpenApiCheck[]>
  checkImages(documentId: string, files: readonly string[]): Promise<ImageCheck[]>
  close(): Promise<void>
}

export interface DocsFolderServiceOptions {
  files: SiteFileService
  dataDir: string | null
  dialogs?: SiteFileDialogs
  events?: EventHub
}

/**
 * The docs folder of each open document: its file's folder unless the writer picked another.
 * One folder is watched at a time (the editor shows one document), and a change is announced
 * with a `site.docsChanged` event.
 */
export function createDocsFolderService({ files, dataDir, dialogs, events }: DocsFolderServiceOptions): DocsFolderService {
  const chosen = new Map<string, string>()
  let watched: { root: string; watcher: FSWatcher } | null = null

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

  const watchOnly = async (root: string) => {
    if (watched?.root === root) return
    await watched?.watcher.close()
    const { watchDocsFolder } = await docsFolder()
    watched = { root, watcher: watchDocsFolder(root, dataDir, () => events?.emit('site.docsChanged', { root })) }
  }

  return {
    async index(documentId, folder) {
      const root = await rootOf(documentId, folder)
      if (root === null) return null
      const index = await (await docsFolder()).indexDocsFolder(root, dataDir)
      await watchOnly(root)
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
    async close() {
      await watched?.watcher.close()
      watched = null
    },
  }
}
