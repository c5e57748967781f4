import type { siteCalls } from '../../src-shared/ipc/site-calls'
import type { HandlersFor } from '../router'
import type { DocsFolderService } from './docs-folder-service'
import type { SiteFileService } from './site-file-service'

export function createSiteFileHandlers(files: SiteFileService, docs: DocsFolderService): HandlersFor<typeof siteCalls> {
  return {
    'site.environment': () => files.environment(),
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
    'site.checkOpenApi': async ({ documentId, files: references }) => ({ checks: await docs.checkOpenApi(documentId, references) }),
    'site.checkImages': async ({ documentId, files: references }) => ({ checks: await docs.checkImages(documentId, references) }),
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
