import { mkdir, readdir, readFile, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { AppErrorException } from '../../src-shared/ipc/result'
import { isAlive, syncFolder, temporaryNameOf, writeError, writeFileAtomically, writeTemporaryFile } from './atomic-write'

/*
 * Files that must change together (a docs.json and the $ref files it names) written all or none,
 * even through a kill -9 or a power cut. Each file is first written whole to a temporary file
 * beside it; a journal in the app's data folder names them; only once the journal says
 * "committed" (one atomic write: the commit point) are they renamed over the files. A process that
 * dies before the commit leaves the files as they were, and one that dies after leaves a journal
 * that finishes the renames. `recoverFileSets` reads the journals a dead writer left and completes
 * or undoes each set; the caller says which happened. The journal lives in the data folder, never
 * beside the files: a folder someone else made (a cloned repository) cannot hand in a journal.
 */

export interface FileInSet {
  path: string
  data: Uint8Array
  /** The mode of a new file (an existing file keeps its own). */
  mode?: number
}

interface Journal {
  state: 'prepared' | 'committed'
  files: { path: string; temporary: string }[]
}

export interface RecoveredSet {
  /** completed: every file now holds what the interrupted save wrote; undone: every file is as it was before it. */
  outcome: 'completed' | 'undone'
  paths: string[]
}

const SUFFIX = '.json'
const journalName = (key: string) => `${key}.${process.pid}-${Date.now().toString(36)}${SUFFIX}`

/** Writes `files` as one: after it returns every file holds its new bytes; after a crash, all or none do (see recoverFileSets). */
export async function writeFileSet(files: readonly FileInSet[], journals: string, key: string): Promise<void> {
  await mkdir(journals, { recursive: true, mode: 0o700 })
  const journal = join(journals, journalName(key))
  const entries = files.map((file) => ({ path: file.path, temporary: temporaryNameOf(file.path, 'set') }))
  const record = (state: Journal['state']) => writeFileAtomically(journal, JSON.stringify({ state, files: entries }), { mode: 0o600 })
  // Named before any is written: a crash while writing them leaves a journal that removes them.
  await record('prepared')
  try {
    for (const [index, file] of files.entries()) {
      const existing = await stat(file.path).catch(() => undefined)
      await writeTemporaryFile(file.path, file.data, { mode: file.mode }, existing, entries[index]!.temporary)
    }
    await record('committed')
  } catch (error) {
    await undo(entries)
    await unlink(journal).catch(() => {})
    throw error
  }
  try {
    await complete(entries)
  } catch (error) {
    // The set is committed: the journal stays, and the next open finishes it.
    const failure = writeError(error, files[0]!.path)
    throw new AppErrorException(
      'file_io',
      `${failure.message} The rest of the save is written the next time the document opens.`,
      failure.details,
    )
  }
  await unlink(journal).catch(() => {})
  await syncFolder(journals)
}

/** Renames every temporary file over its file (one already renamed is skipped), then makes the renames durable. */
async function complete(entries: Journal['files']): Promise<void> {
  for (const { path, temporary } of entries) {
    try {
      await rename(temporary, path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  for (const folder of new Set(entries.map(({ path }) => dirname(path)))) await syncFolder(folder)
}

async function undo(entries: Journal['files']): Promise<void> {
  await Promise.all(entries.map(({ temporary }) => unlink(temporary).catch(() => {})))
}

/** A journal's entries, each a temporary file of this kind beside its file, or null for a journal this code did not write. */
function readJournal(text: string): Journal | null {
  try {
    const journal = JSON.parse(text) as Journal
    if (journal.state !== 'prepared' && journal.state !== 'committed') return null
    const sound = journal.files.every(
      ({ path, temporary }) =>
        typeof path === 'string' &&
        typeof temporary === 'string' &&
        dirname(temporary) === dirname(path) &&
        basename(temporary).startsWith(`.${basename(path)}.`) &&
        temporary.endsWith('.set'),
    )
    return sound ? journal : null
  } catch {
    return null
  }
}

/**
 * Finishes the sets of `key` whose writer is gone (killed mid-save): a committed set is completed,
 * one not yet committed is undone (its temporary files removed). A writer still alive keeps its own.
 */
export async function recoverFileSets(journals: string, key: string): Promise<RecoveredSet[]> {
  const names = await readdir(journals).catch(() => [] as string[])
  const recovered: RecoveredSet[] = []
  const writerGone = (rest: string) => {
    const pid = Number(/^(\d+)-/.exec(rest)?.[1])
    return pid !== process.pid && !isAlive(pid)
  }
  for (const name of names) {
    // A journal's own temporary file, from a writer killed while writing it: that state was never reached.
    if (name.startsWith(`.${key}.`) && name.endsWith('.tmp') && writerGone(name.slice(key.length + 2)))
      await unlink(join(journals, name)).catch(() => {})
  }
  for (const name of names) {
    if (!name.startsWith(`${key}.`) || !name.endsWith(SUFFIX) || !writerGone(name.slice(key.length + 1))) continue
    const path = join(journals, name)
    const journal = readJournal(await readFile(path, 'utf8').catch(() => ''))
    if (journal?.state === 'committed') await complete(journal.files)
    else if (journal) await undo(journal.files)
    await unlink(path).catch(() => {})
    if (journal)
      recovered.push({ outcome: journal.state === 'committed' ? 'completed' : 'undone', paths: journal.files.map((file) => file.path) })
  }
  return recovered
}
