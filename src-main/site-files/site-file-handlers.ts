import { AppErrorException } from '../../src-shared/ipc/result'
import type { siteCalls } from '../../src-shared/ipc/site-calls'
import type { EventHub } from '../event-hub'
import type { HandlersFor } from '../router'
import type { FileDialogs } from '../user-files/file-dialogs'
import { createDocsFolderService, type DocsFolderService } from './docs-folder-service'
import type { PreviewFiles } from './preview-files'
import { openSiteFiles, type SiteFileService } from './site-file-service'

/**
 * The site calls' handlers as the app builds them: files and docs folders, with the system's
 * dialogs where there are some; `close` stops watching and indexing, for the process to exit.
 */
export function siteHandlers(
  dataDir: string,
  options: { dialogs?: FileDialogs; events?: EventHub; workerFile?: string | null; preview?: PreviewFiles } = {},
) {
  const { preview, ...docsOptions } = options
  const files = openSiteFiles(dataDir, options.dialogs)
  const docs = createDocsFolderService({ files, dataDir, ...docsOptions })
  return { handlers: createSiteFileHandlers(files, docs, preview ?? null), close: () => docs.close() }
}

export function createSiteFileHandlers(
  files: SiteFileService,
  docs: DocsFolderService,
  preview: PreviewFiles | null = null,
): HandlersFor<typeof siteCalls> {
  /** The document's docs folder for the preview's reads, or a refusal that says why there is none. */
  const previewRoot = async (documentId: string) => {
    const root = await docs.rootOf(documentId)
    if (root === null || preview === null)
      throw new AppErrorException('not_found', 'This document has no docs folder yet: save it, or choose the folder.')
    return { root, preview }
  }
  return {
    'site.new': () => files.create(),
    'site.open': ({ path }) => files.open(path),
    'site.openWithDialog': async () => ({ document: await files.openWithDialog() }),
    'site.save': (request) => files.save(request),
    'site.saveAs': async (request) => ({ saved: await files.saveAs(request) }),
    'site.export': async (request) => ({ exported: await files.exportValid(request) }),
    'site.setRules': async ({ documentId, rules }) => {
      await files.setRules(documentId, rules)
      return {}
    },
    'site.readRefs': async ({ documentId, refs }) => ({ files: await files.readRefs(documentId, refs) }),
    'site.docsIndex': async ({ documentId, folder, watch }) => ({ index: await docs.index(documentId, folder, watch) }),
    'site.docsPages': async ({ documentId }) => ({ facts: await docs.pages(documentId) }),
    'site.checkOpenApi': async ({ documentId, files: references }) => ({ checks: await docs.checkOpenApi(documentId, references) }),
    'site.checkImages': async ({ documentId, files: references }) => ({ checks: await docs.checkImages(documentId, references) }),
    'site.previewFiles': async ({ documentId, webPictures }) => {
      const root = await docs.rootOf(documentId)
      return { base: root === null || preview === null ? null : preview.grant(documentId, root, webPictures === true) }
    },
    'site.previewText': async ({ documentId, file }) => {
      const { root, preview } = await previewRoot(documentId)
      return { text: await preview.readText(root, file) }
    },
    'site.previewOpenApi': async ({ documentId, file, operation }) => {
      const { root, preview } = await previewRoot(documentId)
      return preview.openApi(root, file, operation)
    },
    'site.apiReferenceTarget': ({ documentId }) => files.apiReferenceTarget(documentId),
    'site.writeApiReference': (request) => files.writeApiReference(request),
    'site.recent': async () => ({ files: await files.recent() }),
    'site.forgetRecent': async ({ path }) => ({ files: await files.forgetRecent(path) }),
    'site.draftList': async () => ({ drafts: await files.drafts() }),
    'site.draftGet': ({ documentId }) => files.draft(documentId),
    'site.draftSave': (draft) => files.saveDraft(draft),
    'site.draftDiscard': async ({ documentId }) => {
      await files.discardDraft(documentId)
      return {}
    },
  }
}
