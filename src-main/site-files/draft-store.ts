import { mkdir, readdir, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { AppErrorException } from '../../src-shared/ipc/result'
import { type SiteDraft, SiteDraftSchema, type SiteDraftSummary } from '../../src-shared/ipc/site-calls'
import { readJsonFile, writeJsonFile } from '../storage/json-file'
import { createSerialQueue } from '../storage/serial-queue'

export const DRAFTS_FOLDER = 'site-drafts'

export interface DraftStore {
  list(): Promise<SiteDraftSummary[]>
  get(documentId: string): Promise<SiteDraft | null>
  save(draft: SiteDraft): Promise<void>
  discard(documentId: string): Promise<void>
}

/**
 * Autosaved unsaved changes, one file per document (`site-drafts/<documentId>.json`), so a crash
 * or a closed window loses at most the last second of typing. Document ids are checked by the
 * contract to be file-name safe.
 */
export function openDraftStore(dataDir: string): DraftStore {
  const folder = join(dataDir, DRAFTS_FOLDER)
  const fileOf = (documentId: string) => join(folder, `${documentId}.json`)
  // One queue for every draft: a discard never races the save it follows.
  const runInTurn = createSerialQueue()

  const read = async (documentId: string): Promise<SiteDraft | null> => {
    const outcome = await readJsonFile(fileOf(documentId), SiteDraftSchema)
    return outcome.state === 'read' ? outcome.value : null
  }

  return {
    list: () =>
      runInTurn(async () => {
        const names = await readdir(folder).catch(() => [] as string[])
        const drafts: SiteDraftSummary[] = []
        for (const name of names) {
          if (!name.endsWith('.json')) continue
          const draft = await read(name.slice(0, -'.json'.length))
          if (draft) drafts.push({ documentId: draft.documentId, path: draft.path, savedAt: draft.savedAt, baseVersion: draft.baseVersion })
        }
        return drafts.sort((a, b) => b.savedAt.localeCompare(a.savedAt))
      }),
    get: (documentId) => runInTurn(() => read(documentId)),
    save: (draft) =>
      runInTurn(async () => {
        await mkdir(folder, { recursive: true, mode: 0o700 })
        await writeJsonFile(fileOf(draft.documentId), draft)
      }),
    discard: (documentId) =>
      runInTurn(async () => {
        try {
          await unlink(fileOf(documentId))
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
            throw new AppErrorException('file_io', `The autosaved draft could not be deleted: ${(error as Error).message}`)
          }
        }
      }),
  }
}
