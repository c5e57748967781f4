import type { FileVersion, SavedSiteFile, SiteDocument } from '../../src-shared/ipc/site-calls'
import { readVersionedText } from '../user-files/file-access'
import type { DraftStore } from './draft-store'
import type { RecentFiles } from './recent-files'
import type { RuleChoices } from './rule-choices'

/**
 * The documents of this session and the files they belong to: only a path main itself opened or
 * chose is ever written. Opening or saving one keeps its draft and the recent files in step.
 */
export interface OpenDocuments {
  /** The file the document was opened from or saved to in this session; null when it has none. */
  pathOf(documentId: string): string | null
  /** Reads the file at `path` (already allowed) as the document `documentId`, with its draft when it differs. */
  read(opened: { documentId: string; path: string; recovered: string | null }): Promise<SiteDocument>
  /** After a document is written: its draft is saved, and it belongs to its path. */
  saved(written: { documentId: string; path: string; text: string; version: FileVersion }): Promise<SavedSiteFile>
}

export function createOpenDocuments({
  drafts,
  recent,
  rules,
}: {
  drafts: DraftStore
  recent: RecentFiles
  rules: RuleChoices
}): OpenDocuments {
  /** documentId → the file it was opened from or saved to, in this session. */
  const paths = new Map<string, string>()

  return {
    pathOf: (documentId) => paths.get(documentId) ?? null,

    async read({ documentId, path, recovered }) {
      const { text, byteOrderMark, version } = await readVersionedText(path)
      let draft = await drafts.get(documentId)
      // A draft identical to the file is nothing to restore.
      if (draft && draft.text === text) {
        await drafts.discard(documentId)
        draft = null
      }
      paths.set(documentId, path)
      await recent.add(path)
      return {
        documentId,
        path,
        text,
        byteOrderMark,
        version,
        draft,
        rules: await rules.get(path),
        ...(recovered ? { recovered } : {}),
      }
    },

    async saved({ documentId, path, text, version }) {
      await drafts.discard(documentId)
      paths.set(documentId, path)
      await recent.add(path)
      return { documentId, path, text, version }
    },
  }
}
