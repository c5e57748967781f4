import { basename, dirname, join, relative, sep } from 'node:path'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { FileVersion } from '../../src-shared/ipc/site-calls'
import { type RecoveredSet, recoverFileSets } from '../storage/file-set'
import {
  currentVersion,
  type FileAccessPolicy,
  isInside,
  sameContent,
  writeTextAtomically,
  writeTextsTogether,
} from '../user-files/file-access'

// Save: a document alone, or a docs.json with the $ref files it names, written all or none, and
// only once every one of them is still what was last read or saved here. A save that a killed
// process left half done is finished or undone the next time its document is opened.

export interface RefSave {
  ref: string
  text: string
  byteOrderMark: boolean
  expectedVersion: FileVersion | null
}

/** A $ref file to save, with the real path it is written to (see refPathOf). */
export interface RefFileSave extends RefSave {
  path: string
}

export interface SavedRef {
  ref: string
  text: string
  version: FileVersion
}

/** Where the journals of saves that write a docs.json with its $ref files live (storage/file-set.ts): in the data folder. */
export const saveJournalsIn = (dataDir: string) => join(dataDir, 'site-saves')

/** A $ref file of the document at `path`: inside its folder, never the data folder. */
export async function refPathOf(policy: FileAccessPolicy, path: string, ref: string): Promise<string> {
  const folder = dirname(path)
  const target = await policy.resolve(join(folder, ref))
  if (!isInside(target, folder))
    throw new AppErrorException('refused', `${ref} is outside the folder of ${basename(path)}: a $ref file is saved only there.`, { ref })
  return target
}

/**
 * A save of this document with its $ref files that a killed process left half done: finished or
 * undone, in a sentence. Null when there was none.
 */
export async function recoverInterruptedSave({
  journals,
  path,
  documentId,
}: {
  journals: string
  path: string
  documentId: string
}): Promise<string | null> {
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

export interface DocumentSetWrite {
  documentId: string
  /** The document's own file. */
  path: string
  text: string
  byteOrderMark: boolean
  /** The version last read or saved here: the file on disk must still be it. */
  expectedVersion: FileVersion
  /** Its $ref files, each with the version it was read at (null: it did not exist then). */
  refs: readonly RefFileSave[]
  journals: string
}

/**
 * Every file is compared with the disk before any is written: a change made elsewhere to one of
 * them refuses the whole save, so the docs.json and its $ref files never disagree.
 */
async function requireUnchangedOnDisk({ path, expectedVersion, refs }: Pick<DocumentSetWrite, 'path' | 'expectedVersion' | 'refs'>) {
  const onDisk = await currentVersion(path)
  if (onDisk && !sameContent(onDisk, expectedVersion)) {
    throw new AppErrorException(
      'file_changed_on_disk',
      `${basename(path)} changed on disk since it was opened or last saved here. Reload it from disk, or keep your version with Save as.`,
      { path, onDisk },
    )
  }
  for (const ref of refs) {
    const refOnDisk = await currentVersion(ref.path)
    if (refOnDisk === null ? ref.expectedVersion !== null : ref.expectedVersion === null || !sameContent(refOnDisk, ref.expectedVersion)) {
      throw new AppErrorException(
        'file_changed_on_disk',
        `${ref.ref} changed on disk since it was read here. Reload from disk to see it; nothing was saved.`,
        { path: ref.path },
      )
    }
  }
}

/**
 * Writes the document and its $ref files once none changed on disk (run it in the service's turn,
 * so no other write comes between the check and the write). `refs` is present when there were any.
 */
export async function writeDocumentSet(write: DocumentSetWrite): Promise<{ version: FileVersion; refs?: SavedRef[] }> {
  const { documentId, path, text, byteOrderMark, refs, journals } = write
  await requireUnchangedOnDisk(write)
  if (refs.length === 0) return { version: await writeTextAtomically(path, text, byteOrderMark) }
  // All or none: a kill in the middle leaves no new $ref file beside the old docs.json (file-set.ts).
  const versions = await writeTextsTogether([...refs, { path, text, byteOrderMark }], journals, documentId)
  return {
    version: versions.at(-1)!,
    refs: refs.map((ref, index) => ({ ref: ref.ref, text: ref.text, version: versions[index]! })),
  }
}
