import { createHash, randomUUID } from 'node:crypto'
import { dirname } from 'node:path'
import { AppErrorException } from '../../src-shared/ipc/result'
import type {
  ApiReferenceTarget,
  FileVersion,
  RecentSiteFile,
  SavedSiteFile,
  SaveTarget,
  SiteDocument,
  SiteDraft,
  SiteDraftSummary,
} from '../../src-shared/ipc/site-calls'
import type { Diagnosis } from '../../src-shared/site-config/diagnose'
import { jsonErrorSentence, parseJsonText } from '../../src-shared/site-config/json-text'
import type { RuleSet } from '../../src-shared/site-config/rule-sets'
import { SITE_CONFIG_TEMPLATE } from '../../src-shared/site-config/serialize'
import { createSerialQueue } from '../storage/serial-queue'
import { FileAccessPolicy, resolveUserPath, writeTextAtomically } from '../user-files/file-access'
import type { FileDialogs } from '../user-files/file-dialogs'
import { UserFileWrites } from '../user-files/user-file-writes'
import { apiReferencePath, writeApiReferenceFiles, type WrittenApiReference } from './api-reference-files'
import { type DraftStore, openDraftStore } from './draft-store'
import { createOpenDocuments } from './open-documents'
import { openRecentFiles, type RecentFiles } from './recent-files'
import { type LoadedRef, readRefFiles } from './ref-files'
import { openRuleChoices, type RuleChoices } from './rule-choices'
import { chooseSaveTarget } from './save-targets'
import { diagnoseSiteText, requireExportable } from './site-file-diagnosis'
import { recoverInterruptedSave, refPathOf, type RefSave, type SavedRef, saveJournalsIn, writeDocumentSet } from './site-file-saves'

export interface SaveRequest {
  documentId: string
  text: string
  byteOrderMark: boolean
}

export interface SiteFileService {
  create(): SiteDocument
  open(path: string): Promise<SiteDocument>
  openWithDialog(): Promise<SiteDocument | null>
  save(request: SaveRequest & { expectedVersion: FileVersion; refs?: RefSave[] }): Promise<SavedSiteFile & { refs?: SavedRef[] }>
  /** The files a docs.json's `$ref`s name, read from its folder. */
  readRefs(documentId: string, refs: readonly string[]): Promise<LoadedRef[]>
  saveAs(request: SaveRequest & { target: SaveTarget }): Promise<SavedSiteFile | null>
  /** What is wrong with the document and its folder: the answer an export is refused on (diagnose.ts). */
  diagnose(request: { documentId: string; text: string; rules: RuleSet }): Promise<Diagnosis>
  exportValid(request: SaveRequest & { rules: RuleSet; target: SaveTarget }): Promise<{ path: string; warnings: number } | null>
  setRules(documentId: string, rules: RuleSet): Promise<void>
  /** Where the document's API reference goes (openapi.json beside its file), and what is there now. */
  apiReferenceTarget(documentId: string): Promise<ApiReferenceTarget>
  /**
   * Writes the API reference there (a file already there only with the token of the question that
   * asked), and an endpoint page for each operation that has none yet (a page there is kept).
   */
  writeApiReference(request: { documentId: string; serverUrl: string | null; replaceToken?: string }): Promise<WrittenApiReference>
  /** The file an open document belongs to: only paths main itself opened or chose are ever written. */
  pathOf(documentId: string): string | null
  /** Refuses the data folder, resolving links first: every path from the renderer goes through it. */
  resolveAllowed(path: string): Promise<string>
  recent(): Promise<RecentSiteFile[]>
  forgetRecent(path: string): Promise<RecentSiteFile[]>
  drafts(): Promise<SiteDraftSummary[]>
  draft(documentId: string): Promise<SiteDraft>
  saveDraft(draft: Omit<SiteDraft, 'savedAt'>): Promise<{ savedAt: string }>
  discardDraft(documentId: string): Promise<void>
}

export interface SiteFileServiceOptions {
  drafts: DraftStore
  recent: RecentFiles
  rules: RuleChoices
  /** The app's data folder: never read from or written to by a file call (only the journals of saves that span files live there). */
  dataDir: string
  /** The system's file dialogs (the desktop app); without them, paths are typed. */
  dialogs?: FileDialogs
  now?: () => Date
  home?: string
}

/** A file's document id: the same path gives the same id in every session, so its draft is found again. */
export const documentIdForPath = (path: string) => `file-${createHash('sha256').update(path).digest('hex').slice(0, 40)}`

/**
 * The text must be JSON at least (its errors against the rules do not stop a save, only an
 * export); it is written exactly as given, so an unedited file is written back byte for byte.
 */
function requireJson(text: string, purpose: 'saving' | 'exporting'): void {
  const parsed = parseJsonText(text)
  if (parsed.ok) return
  throw new AppErrorException('invalid_config', `The text ${jsonErrorSentence(parsed.error)}; fix it before ${purpose}.`, parsed.error)
}

/** The service with its drafts, recent files and rule choices kept in the app's data folder. */
export const openSiteFiles = (dataDir: string, dialogs?: FileDialogs) =>
  createSiteFileService({
    drafts: openDraftStore(dataDir),
    recent: openRecentFiles(dataDir),
    rules: openRuleChoices(dataDir),
    dataDir,
    dialogs,
  })

/**
 * New, Open, Save, Save As and Export of site.json files, plus recent files, autosaved drafts and
 * rule choices. Its parts: the open documents and their files (open-documents.ts), saves with
 * their $ref files (site-file-saves.ts), where a Save as or an Export goes (save-targets.ts), the
 * diagnosis an export is refused on (site-file-diagnosis.ts) and the API reference
 * (api-reference-files.ts); every path goes through one FileAccessPolicy.
 */
export function createSiteFileService(options: SiteFileServiceOptions): SiteFileService {
  const { drafts, dialogs, home } = options
  const now = options.now ?? (() => new Date())
  const policy = new FileAccessPolicy(options.dataDir)
  // Writes run one at a time, so a save's check of the disk and its write are not interleaved with another's.
  const runInTurn = createSerialQueue()
  const documents = createOpenDocuments({ drafts, recent: options.recent, rules: options.rules })
  const writes = new UserFileWrites(policy, () => now().getTime())
  const journals = saveJournalsIn(options.dataDir)

  const resolveAllowed = (path: string) => policy.resolve(resolveUserPath(path, home))

  /** Opens the file at `path` (already allowed), finishing or undoing first a save of it a killed process left half done. */
  const readDocument = async (path: string): Promise<SiteDocument> => {
    const documentId = documentIdForPath(path)
    const recovered = await runInTurn(() => recoverInterruptedSave({ journals, path, documentId }))
    return documents.read({ documentId, path, recovered })
  }

  const writeDocument = async (documentId: string, path: string, text: string, byteOrderMark: boolean): Promise<SavedSiteFile> =>
    documents.saved({ documentId, path, text, version: await writeTextAtomically(path, text, byteOrderMark) })

  const diagnose = ({ documentId, text, rules }: { documentId: string; text: string; rules: RuleSet }): Promise<Diagnosis> =>
    diagnoseSiteText({ text, rules, path: documents.pathOf(documentId), policy })

  return {
    create: () => ({
      documentId: `untitled-${randomUUID()}`,
      path: null,
      text: SITE_CONFIG_TEMPLATE,
      byteOrderMark: false,
      version: null,
      draft: null,
      rules: null,
    }),

    async open(requestedPath) {
      return readDocument(await resolveAllowed(requestedPath))
    },

    async openWithDialog() {
      if (!dialogs) throw new AppErrorException('refused', 'This window has no file dialogs: type the path instead.')
      const chosen = await dialogs.chooseFileToOpen()
      return chosen === null ? null : readDocument(await policy.resolve(chosen))
    },

    async save({ documentId, text, byteOrderMark, expectedVersion, refs = [] }) {
      const path = documents.pathOf(documentId)
      if (!path) throw new AppErrorException('not_found', 'This document has no file to save to yet: use Save as.')
      requireJson(text, 'saving')
      for (const ref of refs) requireJson(ref.text, 'saving')
      const refFiles = await Promise.all(refs.map(async (ref) => ({ ...ref, path: await refPathOf(policy, path, ref.ref) })))
      return runInTurn(async () => {
        const written = await writeDocumentSet({ documentId, path, text, byteOrderMark, expectedVersion, refs: refFiles, journals })
        const document = await documents.saved({ documentId, path, text, version: written.version })
        return written.refs ? { ...document, refs: written.refs } : document
      })
    },

    async readRefs(documentId, refs) {
      const path = documents.pathOf(documentId)
      if (!path)
        throw new AppErrorException(
          'not_found',
          'This document has no folder yet: save it first, so its $ref files can be found beside it.',
        )
      // In turn and within one document's cap, whatever a call names: 200 files of 10 MB would be 2 GB.
      return readRefFiles(dirname(path), refs, (candidate) => policy.resolve(candidate))
    },

    async saveAs({ documentId, text, byteOrderMark, target }) {
      requireJson(text, 'saving')
      const path = await chooseSaveTarget({ target, purpose: 'saveAs', current: documents.pathOf(documentId), dialogs, writes, home })
      if (path === null) return null
      return runInTurn(async () => {
        // The document now belongs to the new path: its old draft is saved, and so is any the new path had.
        await drafts.discard(documentId)
        return writeDocument(documentIdForPath(path), path, text, byteOrderMark)
      })
    },

    diagnose,

    async exportValid({ documentId, text, byteOrderMark, rules, target }) {
      requireJson(text, 'exporting')
      const current = documents.pathOf(documentId)
      // The export is refused on the answer the editor and the CLI give (diagnose.ts): with its
      // $ref files and its docs folder read.
      const warnings = requireExportable(await diagnose({ documentId, text, rules }), rules)
      const path = await chooseSaveTarget({ target, purpose: 'export', current, dialogs, writes, home })
      if (path === null) return null
      if (path === current) throw new AppErrorException('refused', 'That is the file you are editing: choose another path, or use Save.')
      return runInTurn(async () => {
        await writeTextAtomically(path, text, byteOrderMark)
        return { path, warnings }
      })
    },

    async setRules(documentId, rules) {
      const path = documents.pathOf(documentId)
      if (path) await options.rules.set(path, rules)
    },

    async apiReferenceTarget(documentId) {
      return writes.ask(await apiReferencePath(policy, documents.pathOf(documentId)), 'apiReference')
    },

    writeApiReference: ({ documentId, serverUrl, replaceToken }) =>
      writeApiReferenceFiles({ sitePath: documents.pathOf(documentId), serverUrl, replaceToken, policy, writes, runInTurn }),

    pathOf: (documentId) => documents.pathOf(documentId),
    resolveAllowed,

    recent: () => options.recent.list(),
    forgetRecent: (path) => options.recent.forget(path),
    drafts: () => drafts.list(),

    async draft(documentId) {
      const draft = await drafts.get(documentId)
      if (!draft) throw new AppErrorException('not_found', 'That autosaved draft is gone: it was saved or discarded meanwhile.')
      return draft
    },

    async saveDraft(draft) {
      const savedAt = now().toISOString()
      await drafts.save({ ...draft, savedAt })
      return { savedAt }
    },

    discardDraft: (documentId) => drafts.discard(documentId),
  }
}
