import { createHash, randomUUID } from 'node:crypto'
import { basename } from 'node:path'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { FileVersion, RecentSiteFile, SavedSiteFile, SiteDocument, SiteDraft, SiteDraftSummary } from '../../src-shared/ipc/site-calls'
import { serializeSiteConfig, SITE_CONFIG_TEMPLATE } from '../../src-shared/site-config/format'
import { parseJsonText } from '../../src-shared/site-config/json-text'
import { validateSiteConfig } from '../../src-shared/site-config/validate'
import { createSerialQueue } from '../storage/serial-queue'
import { openDraftStore, type DraftStore } from './draft-store'
import { currentVersion, fileExists, readVersionedText, resolveUserPath, sameContent, writeTextAtomically } from './file-access'
import { openRecentFiles, type RecentFiles } from './recent-files'

export interface SiteFileService {
  create(): SiteDocument
  open(path: string): Promise<SiteDocument>
  save(request: { documentId: string; path: string; text: string; expectedVersion: FileVersion }): Promise<SavedSiteFile>
  saveAs(request: { documentId: string; path: string; text: string; overwrite: boolean }): Promise<SavedSiteFile>
  exportValid(request: { path: string; text: string; overwrite: boolean }): Promise<{ path: string; warnings: number }>
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
  now?: () => Date
  home?: string
}

/** A file's document id: the same path gives the same id in every session, so its draft is found again. */
export const documentIdForPath = (path: string) => `file-${createHash('sha256').update(path).digest('hex').slice(0, 40)}`

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/**
 * What the app writes: 2-space JSON with a final newline, keys in their order, unknown keys kept.
 * The text must be JSON at least; its errors against the spec do not stop a save (only an export).
 */
function formatForDisk(text: string, purpose: 'saving' | 'exporting'): { value: unknown; output: string } {
  const parsed = parseJsonText(text)
  if (!parsed.ok) {
    const { line, column, message } = parsed.error
    throw new AppErrorException(
      'invalid_config',
      `The text is not valid JSON at line ${line}, column ${column} (${message}); fix it before ${purpose}.`,
      parsed.error,
    )
  }
  return { value: parsed.value, output: serializeSiteConfig(parsed.value) }
}

/** The service with its drafts and recent files kept in the app's data folder. */
export const openSiteFiles = (dataDir: string) => createSiteFileService({ drafts: openDraftStore(dataDir), recent: openRecentFiles(dataDir) })

/** New, Open, Save, Save As and Export of site.json files, plus recent files and autosaved drafts. */
export function createSiteFileService(options: SiteFileServiceOptions): SiteFileService {
  const { drafts, recent } = options
  const now = options.now ?? (() => new Date())
  // Writes run one at a time, so a save's check of the disk and its write are not interleaved with another's.
  const runInTurn = createSerialQueue()
  const resolvePath = (path: string) => resolveUserPath(path, options.home)

  const refuseToReplace = async (path: string, overwrite: boolean) => {
    if (!overwrite && (await fileExists(path))) {
      throw new AppErrorException('conflict', `A file named ${basename(path)} already exists there. Replace it?`, { path })
    }
  }

  const writeDocument = async (documentId: string, path: string, text: string): Promise<SavedSiteFile> => {
    const version = await writeTextAtomically(path, text)
    await drafts.discard(documentId)
    await recent.add(path)
    return { documentId, path, text, version }
  }

  return {
    create: () => ({ documentId: `untitled-${randomUUID()}`, path: null, text: SITE_CONFIG_TEMPLATE, version: null, draft: null }),

    async open(requestedPath) {
      const path = resolvePath(requestedPath)
      const { text, version } = await readVersionedText(path)
      const documentId = documentIdForPath(path)
      let draft = await drafts.get(documentId)
      // A draft identical to the file is nothing to restore.
      if (draft && draft.text === text) {
        await drafts.discard(documentId)
        draft = null
      }
      await recent.add(path)
      return { documentId, path, text, version, draft }
    },

    async save({ documentId, path: requestedPath, text, expectedVersion }) {
      const path = resolvePath(requestedPath)
      const { output } = formatForDisk(text, 'saving')
      return runInTurn(async () => {
        const onDisk = await currentVersion(path)
        if (onDisk && !sameContent(onDisk, expectedVersion)) {
          throw new AppErrorException(
            'file_changed_on_disk',
            `${basename(path)} changed on disk since it was opened or last saved here. Reload it from disk, or keep your version with Save as.`,
            { path, onDisk },
          )
        }
        return writeDocument(documentId, path, output)
      })
    },

    async saveAs({ documentId, path: requestedPath, text, overwrite }) {
      const path = resolvePath(requestedPath)
      const { output } = formatForDisk(text, 'saving')
      return runInTurn(async () => {
        await refuseToReplace(path, overwrite)
        // The document now belongs to the new path: its old draft is saved, and so is any the new path had.
        await drafts.discard(documentId)
        return writeDocument(documentIdForPath(path), path, output)
      })
    },

    async exportValid({ path: requestedPath, text, overwrite }) {
      const path = resolvePath(requestedPath)
      const { value, output } = formatForDisk(text, 'exporting')
      const report = validateSiteConfig(value)
      if (!report.valid) {
        const count = report.errors.length
        throw new AppErrorException(
          'invalid_config',
          `The file has ${plural(count, 'error')}; fix ${count === 1 ? 'it' : 'them'} before exporting.`,
          { errors: count },
        )
      }
      return runInTurn(async () => {
        await refuseToReplace(path, overwrite)
        await writeTextAtomically(path, output)
        return { path, warnings: report.warnings.length }
      })
    },

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
