import { createHash, randomUUID } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { basename, dirname, join, relative, sep } from 'node:path'
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
import { isLoopbackUrl } from '../../src-shared/net/loopback'
import { API_REFERENCE_FILE } from '../../src-shared/site-config/api-reference'
import { apiReferenceGroups, apiReferencePageText } from '../../src-shared/site-config/api-reference-pages'
import { detectConfigFormat } from '../../src-shared/site-config/config-format'
import { countsOf, diagnoseDocument, type Diagnosis, readDocumentText } from '../../src-shared/site-config/diagnose'
import { SITE_CONFIG_TEMPLATE } from '../../src-shared/site-config/format'
import { jsonErrorSentence, parseJsonText } from '../../src-shared/site-config/json-text'
import type { RuleSet } from '../../src-shared/site-config/rule-sets'
import { RULE_SET_LABELS } from '../../src-shared/site-config/rule-sets'
import { plural } from '../../src-shared/text/plural'
import { buildOpenApiDocument, openApiFileText } from '../../src-shared/user-api/openapi'
import { type RecoveredSet, recoverFileSets } from '../storage/file-set'
import { createSerialQueue } from '../storage/serial-queue'
import {
  currentVersion,
  FileAccessPolicy,
  fileExists,
  isInside,
  readVersionedText,
  resolveUserPath,
  sameContent,
  writeTextAtomically,
  writeTextsTogether,
} from '../user-files/file-access'
import type { FileDialogs } from '../user-files/file-dialogs'
import { UserFileWrites } from '../user-files/user-file-writes'
import { gatherDocumentFacts } from './document-facts'
import { type DraftStore, openDraftStore } from './draft-store'
import { openRecentFiles, type RecentFiles } from './recent-files'
import { type LoadedRef, readRefFiles } from './ref-files'
import { openRuleChoices, type RuleChoices } from './rule-choices'

export interface SaveRequest {
  documentId: string
  text: string
  byteOrderMark: boolean
}

export interface WrittenApiReference {
  path: string
  replaced: boolean
  serverUrl: string | null
  /** The endpoint pages written, relative to the docs folder; `pagesKept` were there already and left as they are. */
  pagesWritten: string[]
  pagesKept: string[]
}

export interface RefSave {
  ref: string
  text: string
  byteOrderMark: boolean
  expectedVersion: FileVersion | null
}

export interface SiteFileService {
  environment(): { fileDialogs: boolean }
  create(): SiteDocument
  open(path: string): Promise<SiteDocument>
  openWithDialog(): Promise<SiteDocument | null>
  save(
    request: SaveRequest & { expectedVersion: FileVersion; refs?: RefSave[] },
  ): Promise<SavedSiteFile & { refs?: { ref: string; text: string; version: FileVersion }[] }>
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
 * The API reference is public documentation, published with the site: readable by all like the
 * site's other files, not owner-only as the app's own files are. A file replaced keeps its mode.
 */
const PUBLIC_FILE_MODE = 0o644

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

/** New, Open, Save, Save As and Export of site.json files, plus recent files, autosaved drafts and rule choices. */
export function createSiteFileService(options: SiteFileServiceOptions): SiteFileService {
  const { drafts, recent, dialogs } = options
  const now = options.now ?? (() => new Date())
  const policy = new FileAccessPolicy(options.dataDir)
  // Writes run one at a time, so a save's check of the disk and its write are not interleaved with another's.
  const runInTurn = createSerialQueue()
  /** documentId → the file it was opened from or saved to, in this session. */
  const documents = new Map<string, string>()
  const writes = new UserFileWrites(policy, () => now().getTime())

  const resolveAllowed = (path: string) => policy.resolve(resolveUserPath(path, options.home))

  /** A $ref file of the document at `path`: inside its folder, never the data folder. */
  const refPathOf = async (path: string, ref: string) => {
    const folder = dirname(path)
    const target = await policy.resolve(join(folder, ref))
    if (!isInside(target, folder))
      throw new AppErrorException('refused', `${ref} is outside the folder of ${basename(path)}: a $ref file is saved only there.`, { ref })
    return target
  }

  /** Where the journals of saves that write a docs.json with its $ref files live (storage/file-set.ts). */
  const journals = join(options.dataDir, 'site-saves')

  /** A save of this document with its $ref files that a killed process left half done: finished or undone, in a sentence. */
  const recoverSaves = async (path: string, documentId: string): Promise<string | null> => {
    const sets = await recoverFileSets(journals, documentId)
    if (sets.length === 0) return null
    const [set] = sets.slice(-1) as [RecoveredSet]
    const folder = dirname(path)
    const names = set.paths.map((file) => relative(folder, file).split(sep).join('/'))
    const others = names.filter((name) => name !== basename(path))
    const files = `${basename(path)} with ${others.length === 1 ? 'its $ref file' : 'its $ref files'} ${others.join(', ')}`
    return set.outcome === 'completed'
      ? `The last save of ${files} was interrupted (Embed Console stopped in the middle of it): it has been completed, so every file holds what was saved.`
      : `The last save of ${files} was interrupted before any file was replaced (Embed Console stopped in the middle of it): it has been undone, so the files are as they were before it.`
  }

  const readDocument = async (path: string): Promise<SiteDocument> => {
    const documentId = documentIdForPath(path)
    const recovered = await runInTurn(() => recoverSaves(path, documentId))
    const { text, byteOrderMark, version } = await readVersionedText(path)
    let draft = await drafts.get(documentId)
    // A draft identical to the file is nothing to restore.
    if (draft && draft.text === text) {
      await drafts.discard(documentId)
      draft = null
    }
    documents.set(documentId, path)
    await recent.add(path)
    return {
      documentId,
      path,
      text,
      byteOrderMark,
      version,
      draft,
      rules: await options.rules.get(path),
      ...(recovered ? { recovered } : {}),
    }
  }

  /**
   * The path a Save as or an Export writes to: the save dialog's answer, or a typed path that
   * must not replace a file unless the writer answered the replace question for that very file.
   * Null when the dialog was cancelled.
   */
  const chooseTarget = async (target: SaveTarget, purpose: 'saveAs' | 'export', current: string | null): Promise<string | null> => {
    if (target.kind === 'dialog') {
      if (!dialogs) throw new AppErrorException('refused', 'This window has no file dialogs: type the path instead.')
      const chosen = await dialogs.chooseFileToSave(purpose, current)
      // The dialog asked before replacing a file; links and the data folder are refused all the same.
      return chosen === null ? null : (await writes.allow(chosen, purpose, undefined, true)).path
    }
    if (dialogs) throw new AppErrorException('refused', 'The desktop app chooses where to write with its save dialog, not a typed path.')
    return (await writes.allow(resolveUserPath(target.path, options.home), purpose, target.replaceToken)).path
  }

  /**
   * openapi.json beside the document's file: only a file main itself opened or saved has a
   * place, and the data folder is refused there too (openapi.json could be a link into it).
   */
  const apiReferencePath = async (documentId: string) => {
    const sitePath = documents.get(documentId)
    if (!sitePath) {
      throw new AppErrorException(
        'not_found',
        `This document has no file yet: save it first, since the API reference is written next to it as ${API_REFERENCE_FILE}.`,
      )
    }
    return policy.resolve(join(dirname(sitePath), API_REFERENCE_FILE))
  }

  const writeDocument = async (documentId: string, path: string, text: string, byteOrderMark: boolean): Promise<SavedSiteFile> =>
    settleSaved(documentId, path, text, await writeTextAtomically(path, text, byteOrderMark))

  /** After a document is written: its draft is saved, and it belongs to its path. */
  const settleSaved = async (documentId: string, path: string, text: string, version: FileVersion): Promise<SavedSiteFile> => {
    await drafts.discard(documentId)
    documents.set(documentId, path)
    await recent.add(path)
    return { documentId, path, text, version }
  }

  /** The document's problems as the editor and the CLI give them: its $ref files and its docs folder (its file's folder) read first. */
  const diagnose = async ({ documentId, text, rules }: { documentId: string; text: string; rules: RuleSet }): Promise<Diagnosis> => {
    const current = documents.get(documentId) ?? null
    const document = readDocumentText(text)
    const format = document.syntaxError ? 'site' : detectConfigFormat(document.value, current)
    const allow = (path: string) => policy.resolve(path)
    const { refs, folder } = current
      ? await gatherDocumentFacts(document, { path: current, format, root: dirname(current), allow })
      : { refs: undefined, folder: null }
    return diagnoseDocument({ document, path: current, rules, refs, folder })
  }

  return {
    environment: () => ({ fileDialogs: dialogs !== undefined }),

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
      const path = documents.get(documentId)
      if (!path) throw new AppErrorException('not_found', 'This document has no file to save to yet: use Save as.')
      requireJson(text, 'saving')
      for (const ref of refs) requireJson(ref.text, 'saving')
      const refPaths = await Promise.all(refs.map(async (ref) => ({ ...ref, path: await refPathOf(path, ref.ref) })))
      return runInTurn(async () => {
        // Every file is compared with the disk before any is written: a change made elsewhere to one
        // of them refuses the whole save, so the docs.json and its $ref files never disagree.
        const onDisk = await currentVersion(path)
        if (onDisk && !sameContent(onDisk, expectedVersion)) {
          throw new AppErrorException(
            'file_changed_on_disk',
            `${basename(path)} changed on disk since it was opened or last saved here. Reload it from disk, or keep your version with Save as.`,
            { path, onDisk },
          )
        }
        for (const ref of refPaths) {
          const refOnDisk = await currentVersion(ref.path)
          if (
            refOnDisk === null ? ref.expectedVersion !== null : ref.expectedVersion === null || !sameContent(refOnDisk, ref.expectedVersion)
          ) {
            throw new AppErrorException(
              'file_changed_on_disk',
              `${ref.ref} changed on disk since it was read here. Reload from disk to see it; nothing was saved.`,
              { path: ref.path },
            )
          }
        }
        if (refs.length === 0) return writeDocument(documentId, path, text, byteOrderMark)
        // All or none: a kill in the middle leaves no new $ref file beside the old docs.json (file-set.ts).
        const versions = await writeTextsTogether([...refPaths, { path, text, byteOrderMark }], journals, documentId)
        const document = await settleSaved(documentId, path, text, versions.at(-1)!)
        return { ...document, refs: refPaths.map((ref, index) => ({ ref: ref.ref, text: ref.text, version: versions[index]! })) }
      })
    },

    async readRefs(documentId, refs) {
      const path = documents.get(documentId)
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
      const path = await chooseTarget(target, 'saveAs', documents.get(documentId) ?? null)
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
      const current = documents.get(documentId) ?? null
      // The export is refused on the answer the editor and the CLI give (diagnose.ts): with its
      // $ref files and its docs folder read.
      const diagnosis = await diagnose({ documentId, text, rules })
      const { error: errors, warning: warnings } = countsOf(diagnosis)
      if (!diagnosis.valid) {
        const under = diagnosis.format === 'docs' ? 'Mintlify’s docs.json rules' : `the ${RULE_SET_LABELS[rules]} rules`
        throw new AppErrorException(
          'invalid_config',
          `The file has ${plural(errors, 'error')} under ${under}; fix ${errors === 1 ? 'it' : 'them'} before exporting.`,
          { errors },
        )
      }
      const path = await chooseTarget(target, 'export', current)
      if (path === null) return null
      if (path === current) throw new AppErrorException('refused', 'That is the file you are editing: choose another path, or use Save.')
      return runInTurn(async () => {
        await writeTextAtomically(path, text, byteOrderMark)
        return { path, warnings }
      })
    },

    async setRules(documentId, rules) {
      const path = documents.get(documentId)
      if (path) await options.rules.set(path, rules)
    },

    async apiReferenceTarget(documentId) {
      return writes.ask(await apiReferencePath(documentId), 'apiReference')
    },

    async writeApiReference({ documentId, serverUrl, replaceToken }) {
      // The document is published: an address only this computer can reach would send every reader nowhere.
      if (serverUrl !== null && isLoopbackUrl(serverUrl)) {
        throw new AppErrorException(
          'refused',
          `${serverUrl} is an address only this computer can reach: the API reference is published with the site, so it names no server there.`,
          { serverUrl },
        )
      }
      const path = await apiReferencePath(documentId)
      const document = buildOpenApiDocument(serverUrl === null ? {} : { serverUrl })
      const text = openApiFileText(document)
      return runInTurn(async () => {
        const allowed = await writes.allow(path, 'apiReference', replaceToken)
        // The endpoint pages the navigation lists: written where there are none; a page the
        // writer has (edited) is never replaced. Each goes through the same refusal of the data
        // folder, all of them before anything is written.
        const pages = await Promise.all(
          apiReferenceGroups(document)
            .flatMap((group) => group.pages)
            .map(async (page) => ({ page, pagePath: await policy.resolve(join(dirname(path), page.file)) })),
        )
        await writeTextAtomically(allowed.path, text, false, PUBLIC_FILE_MODE)
        const pagesWritten: string[] = []
        const pagesKept: string[] = []
        for (const { page, pagePath } of pages) {
          if (await fileExists(pagePath)) {
            pagesKept.push(page.file)
            continue
          }
          await mkdir(dirname(pagePath), { recursive: true })
          await writeTextAtomically(pagePath, apiReferencePageText(page), false, PUBLIC_FILE_MODE)
          pagesWritten.push(page.file)
        }
        return { path: allowed.path, replaced: allowed.replaces, serverUrl, pagesWritten, pagesKept }
      })
    },

    pathOf: (documentId) => documents.get(documentId) ?? null,
    resolveAllowed,

    recent: () => recent.list(),
    forgetRecent: (path) => recent.forget(path),
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
