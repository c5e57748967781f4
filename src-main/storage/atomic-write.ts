import { randomBytes } from 'node:crypto'
import type { Stats } from 'node:fs'
import { type FileHandle, open, readdir, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { AppErrorException } from '../../src-shared/ipc/result'

/*
 * The one way main writes a file, whatever the file (site files, results, the app's JSON files,
 * the OpenAPI document, a recovered token). write-file-atomic 7 and atomically 2 both issue a
 * single write() and ignore how many bytes it took: on a nearly full disk the kernel takes part
 * of the text, the rest is never written, and the short file is renamed over the original and
 * reported as saved. Neither syncs the folder, so a rename can be lost on a power cut. Hence this
 * helper: every byte written and counted (short writes looped), file and folder synced,
 * and on any failure the temporary file removed and the original left exactly as it was.
 */

export interface AtomicWriteOptions {
  /** The mode of a new file (an existing file keeps its own). Default: 0o666 less the umask. */
  mode?: number
  /** Force this mode even when replacing a file (files that hold credentials: 0o600). */
  forceMode?: boolean
  /**
   * How the temporary file and its folder are opened. Default: node's `open`. Tests pass a wrapper
   * around it to be a disk that takes part of each write or a folder that cannot be opened.
   */
  open?: OpenFile
}

export type OpenFile = (path: string, flags: string, mode?: number) => Promise<FileHandle>

/** Errors the disk answers with, as sentences that say what happened and that nothing was lost. */
const DISK_ERRORS: Record<string, (name: string) => string> = {
  ENOSPC: (name) => `The disk is full: ${name} was not saved, and the file on disk is unchanged. Free some space and save again.`,
  EDQUOT: (name) => `Your disk quota is used up: ${name} was not saved, and the file on disk is unchanged.`,
  EIO: (name) => `The disk reported an input/output error: ${name} was not saved, and the file on disk is unchanged.`,
  EROFS: (name) => `The disk is read-only: ${name} was not saved.`,
  EFBIG: (name) => `${name} is larger than this disk allows in one file: it was not saved.`,
}

export const isDiskFull = (error: unknown) => ['ENOSPC', 'EDQUOT'].includes((error as NodeJS.ErrnoException).code ?? '')

/** A failure while writing `path`, as the AppErrorException every caller answers with. */
export function writeError(error: unknown, path: string): AppErrorException {
  if (error instanceof AppErrorException) return error
  const code = (error as NodeJS.ErrnoException).code ?? ''
  const details = { path, errno: code }
  const disk = DISK_ERRORS[code]
  if (disk) return new AppErrorException('file_io', disk(basename(path)), details)
  if (code === 'EACCES' || code === 'EPERM')
    return new AppErrorException('file_io', `Embed Console is not allowed to write ${path}.`, details)
  if (code === 'ENOENT') return new AppErrorException('file_io', `The folder of ${path} does not exist.`, details)
  if (code === 'EISDIR') return new AppErrorException('file_io', `${path} is a folder, not a file.`, details)
  if (code === 'ENOTDIR') return new AppErrorException('file_io', `Part of ${path} is a file, not a folder.`, details)
  return new AppErrorException('file_io', `Could not write ${path}: ${(error as Error).message}`, details)
}

/** A write that took nothing is the disk saying no without an errno (it should not happen; never loop on it). */
const noProgress = () => Object.assign(new Error('the disk accepted no more bytes'), { code: 'ENOSPC' })

/**
 * Writes `data` to `path` through a temporary file in the same folder: every byte written and
 * counted, the file synced, renamed over `path`, and the folder synced so the rename lasts. A
 * crash or a full disk leaves the old file or the new one, never part of either.
 */
export async function writeFileAtomically(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data
  const openFile = options.open ?? open
  const existing = await stat(path).catch(() => undefined)
  await removeLeftovers(path)
  const temporary = await writeTemporaryFile(path, bytes, options, existing)
  try {
    await rename(temporary, path)
  } catch (error) {
    await unlink(temporary).catch(() => {})
    throw writeError(error, path)
  }
  await syncFolder(dirname(path), openFile)
}

/**
 * The temporary file `path` is written through: hidden, unique, and naming its writer, so it is
 * never mistaken for the file, never clashes with a second writer, and is recognisably left behind
 * once that writer is gone. `kind` tells a single write's (tmp) from a set's (set, see file-set.ts).
 */
export const temporaryNameOf = (path: string, kind: 'tmp' | 'set' = 'tmp') =>
  join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(6).toString('hex')}.${kind}`)

/**
 * Writes `bytes` to a new temporary file beside `path` (or at `temporary`), every byte counted,
 * synced, with the mode and owner the file will have; removed again on any failure. Answers its path.
 */
export async function writeTemporaryFile(
  path: string,
  bytes: Uint8Array,
  options: AtomicWriteOptions = {},
  existing?: Stats,
  temporary = temporaryNameOf(path),
): Promise<string> {
  const mode = existing && !options.forceMode ? existing.mode & 0o7777 : (options.mode ?? 0o666)
  const openFile = options.open ?? open
  let handle
  try {
    handle = await openFile(temporary, 'wx', mode)
    let written = 0
    while (written < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, written)
      if (bytesWritten === 0) throw noProgress()
      written += bytesWritten
    }
    await handle.sync()
    // The mode given to open() is narrowed by the umask: a replaced file keeps exactly its own,
    // and a mode asked for (0600 for credentials, 0644 for a document to publish) is exactly that.
    if (existing || options.mode !== undefined) await handle.chmod(mode)
    // Running as root, a replaced file keeps its owner (as write-file-atomic did).
    if (existing && process.getuid?.() === 0) await handle.chown(existing.uid, existing.gid).catch(() => {})
    await handle.close()
    return temporary
  } catch (error) {
    await handle?.close().catch(() => {})
    await unlink(temporary).catch(() => {})
    throw writeError(error, path)
  }
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Temporary files of `path` whose writer was killed mid-save (kill -9, a power cut): removed
 * before the next write, so they never pile up beside the operator's file. A writer still alive
 * (another process saving now) keeps its own.
 */
async function removeLeftovers(path: string): Promise<void> {
  const prefix = `.${basename(path)}.`
  const names = await readdir(dirname(path)).catch(() => [] as string[])
  for (const name of names) {
    if (!name.startsWith(prefix)) continue
    // The pattern checks the rest of the name; NaN (not a name this helper writes) is not > 0.
    const pid = Number(/^(\d+)-[0-9a-f]{12}\.tmp$/.exec(name.slice(prefix.length))?.[1])
    if (pid > 0 && pid !== process.pid && !isAlive(pid)) await unlink(join(dirname(path), name)).catch(() => {})
  }
}

/** Makes a rename in `folder` durable. Best effort: Windows cannot open a folder to sync it. */
export async function syncFolder(folder: string, openFile: OpenFile = open): Promise<void> {
  const handle = await openFile(folder, 'r').catch(() => null)
  if (!handle) return
  try {
    await handle.sync()
  } catch {
    // EINVAL/EISDIR where folders cannot be synced: the rename itself is done.
  } finally {
    await handle.close()
  }
}
