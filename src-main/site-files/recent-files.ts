import { join } from 'node:path'
import { z } from 'zod'
import { type RecentSiteFile, RecentSiteFileSchema } from '../../src-shared/ipc/site-calls'
import { readJsonFile, writeJsonFile } from '../storage/json-file'
import { createSerialQueue } from '../storage/serial-queue'

export const RECENT_FILES_FILE = 'site-recent-files.json'
export const MAX_RECENT_FILES = 10

const RecentFilesFileSchema = z.object({ version: z.literal(1), files: z.array(RecentSiteFileSchema) })

export interface RecentFiles {
  list(): Promise<RecentSiteFile[]>
  /** Puts the path first (once), keeping at most ten. */
  add(path: string): Promise<RecentSiteFile[]>
  forget(path: string): Promise<RecentSiteFile[]>
}

/** The recent site.json files, in the data folder; read once, then kept in memory and written through. */
export function openRecentFiles(dataDir: string, now = () => new Date()): RecentFiles {
  const file = join(dataDir, RECENT_FILES_FILE)
  const runInTurn = createSerialQueue()
  let files: RecentSiteFile[] | null = null

  const load = async () => {
    if (files) return files
    // A corrupt list is moved aside by readJsonFile: losing recent paths costs little.
    const outcome = await readJsonFile(file, RecentFilesFileSchema)
    files = outcome.state === 'read' ? outcome.value.files.slice(0, MAX_RECENT_FILES) : []
    return files
  }
  const change = (update: (current: RecentSiteFile[]) => RecentSiteFile[]) =>
    runInTurn(async () => {
      const next = update(await load())
      await writeJsonFile(file, { version: 1, files: next })
      files = next
      return next
    })

  return {
    list: () => runInTurn(load),
    add: (path) =>
      change((current) =>
        [{ path, openedAt: now().toISOString() }, ...current.filter((entry) => entry.path !== path)].slice(0, MAX_RECENT_FILES),
      ),
    forget: (path) => change((current) => current.filter((entry) => entry.path !== path)),
  }
}
