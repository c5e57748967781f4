import { createHash } from 'node:crypto'
import { constants, type Stats } from 'node:fs'
import { type FileHandle, open, realpath, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { FileVersion } from '../../src-shared/ipc/site-calls'
import { MAX_SITE_FILE_CHARACTERS } from '../../src-shared/site-config/file-limits'
import { byteName, firstInvalidUtf8, lineAt } from '../../src-shared/text/utf8'
import { writeError, writeFileAtomically } from '../storage/atomic-write'
import { writeFileSet } from '../storage/file-set'
import { refuseSystemFolder, systemFolderOfDevice } from './system-folders'

/**
 * Paths arrive typed or pasted (browser mode has no file dialog), so `~` is expanded; anything
 * still relative is refused, since "relative to where main happens to run" is never what was meant.
 */
export function resolveUserPath(path: string, home = homedir()): string {
  const expanded = path === '~' ? home : /^~[\\/]/.test(path) ? resolve(home, path.slice(2)) : path
  if (!isAbsolute(expanded)) {
    throw new AppErrorException('refused', `Give the full path of the file, like ${resolve(home, 'docs', 'site.json')}.`, { path })
  }
  return resolve(expanded)
}

const BYTE_ORDER_MARK = '\uFEFF'
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const sameFileSystemCase = process.platform === 'win32' || process.platform === 'darwin'

/**
 * Whether `path` is `folder` or inside it (both already real paths). `ignoreCase` is the file
 * system's rule (Windows and macOS ignore case). A name inside that starts with two dots
 * (`..notes`) is inside: only `..` itself, as a whole segment, leads out.
 */
export function isInside(path: string, folder: string, ignoreCase = sameFileSystemCase): boolean {
  const [a, b] = ignoreCase ? [path.toLowerCase(), folder.toLowerCase()] : [path, folder]
  const between = relative(b, a)
  return between !== '..' && !between.startsWith(`..${sep}`) && !isAbsolute(between)
}

/**
 * The real path of `path`, a file of the folder `root`, when it is inside it: a link (or a folder
 * linked) that leads out of the folder is never read through, whatever it points at. `not_found`
 * when nothing is there.
 */
export async function realPathInside(root: string, path: string): Promise<string> {
  const [realRoot, real] = await Promise.all([
    realpath(root).catch((error: unknown) => rethrowAsAppError(error, root, 'read')),
    realpath(path).catch((error: unknown) => rethrowAsAppError(error, path, 'read')),
  ])
  if (!isInside(real, realRoot))
    throw new AppErrorException(
      'refused',
      `${relative(root, path).split(sep).join('/')} is a link out of the docs folder: links that lead out of it are never read through.`,
      { path },
    )
  return real
}

/**
 * Where the site editor may read and write. The app's data folder holds the secret vault and the
 * sandbox's tokens, so no file call reaches it, however the path is spelled: links are resolved
 * first (a symlink into the folder, or a folder linked to it, is the folder).
 */
export class FileAccessPolicy {
  private realDataDir: Promise<string | null>
  constructor(dataDir: string | null) {
    this.realDataDir = dataDir === null ? Promise.resolve(null) : realpath(dataDir).catch(() => resolve(dataDir))
  }

  /** The real path of `path`, or of its folder plus its name when it does not exist yet; refused inside the data folder. */
  async resolve(path: string): Promise<string> {
    const real = await realPathOf(path)
    refuseSystemFolder(path, real)
    const dataDir = await this.realDataDir
    if (dataDir !== null && isInside(real, dataDir)) {
      throw new AppErrorException(
        'refused',
        `${basename(path)} is in Embed Console’s own data folder, which holds its secrets: the site editor never opens or writes files there.`,
        { path },
      )
    }
    return real
  }
}

async function realPathOf(path: string): Promise<string> {
  try {
    return await realpath(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return rethrowAsAppError(error, path, 'read')
    // A file still to be written: its folder must be real, and is where the check looks.
    const folder = dirname(path)
    // Stryker disable next-line all: reachable only on Windows (a drive that does not exist); a POSIX walk ends at /, which exists.
    if (folder === path) return path
    return join(await realPathOf(folder), basename(path))
  }
}

export interface VersionedText {
  /** The text without a byte order mark. */
  text: string
  byteOrderMark: boolean
  version: FileVersion
}

/** Why a path that exists is not a file the editor can read or replace, or null for a regular file. */
function notARegularFile(info: Stats, path: string): string | null {
  if (info.isFile()) return null
  // basename is empty only for the root, a folder, whose sentence names the whole path.
  const name = basename(path)
  if (info.isDirectory()) return `${path} is a folder, not a file.`
  if (info.isFIFO()) return `${name} is a pipe (FIFO), not a file: it is not opened, since reading it could wait forever.`
  if (info.isCharacterDevice() || info.isBlockDevice()) return `${name} is a device, not a file.`
  // A socket, the one kind left where a path can be opened.
  return `${name} is not a regular file.`
}

const CHUNK_BYTES = 64 * 1024

/** A size as a sentence says it: 10 MB, 1.5 MB, 64 kB. */
export const megabytes = (bytes: number) =>
  bytes >= 1e6 ? `${Number((bytes / 1e6).toFixed(1)).toLocaleString('en')} MB` : `${Math.round(bytes / 1e3).toLocaleString('en')} kB`

/**
 * A file's text and version, read from one open handle so the two describe the same bytes. Only
 * a regular file is read: the path is checked before it is opened, and the open handle again
 * (the path could be swapped meanwhile), and it is opened non-blocking so even a pipe put there
 * at the last moment cannot hang the read. The size is enforced while reading, never trusted from
 * the file system (files under /proc say 0 bytes and hold more).
 */
export async function readVersionedText(path: string, maxBytes = MAX_SITE_FILE_CHARACTERS): Promise<VersionedText> {
  const { bytes, info } = await readRegularFile(path, maxBytes)
  const decoded = decodeUtf8(bytes, path)
  const byteOrderMark = decoded.startsWith(BYTE_ORDER_MARK)
  return {
    text: byteOrderMark ? decoded.slice(1) : decoded,
    byteOrderMark,
    version: { mtimeMs: info.mtimeMs, size: bytes.length, sha256: sha256(bytes) },
  }
}

export interface ReadFileOptions {
  /** What the file is meant to be, as the too-large sentence names it. */
  kind?: string
  /**
   * How the checked path is looked at and opened. Default: node's `stat` and `open`. Tests pass
   * wrappers that swap the file between the check and the open, as another process could.
   */
  stat?: (path: string) => Promise<Stats>
  open?: (path: string, flags: number) => Promise<FileHandle>
}

/** The bytes of a regular file of at most `maxBytes` with what the open handle said of it, or an error that says why not. */
export async function readRegularFile(
  path: string,
  maxBytes: number,
  options: ReadFileOptions = {},
): Promise<{ bytes: Buffer; info: Stats }> {
  const { kind = 'a site.json file', stat: statPath = stat, open: openPath = open } = options
  const real = await realpath(path).catch((error: unknown) => rethrowAsAppError(error, path, 'read'))
  refuseSystemFolder(path, real)
  const before = await statPath(real).catch((error: unknown) => rethrowAsAppError(error, path, 'read'))
  const refusal = notARegularFile(before, path)
  if (refusal) throw new AppErrorException('file_io', refusal, { path })
  // O_NONBLOCK is POSIX only; Windows has no FIFOs to fear here.
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)
  const handle = await openPath(real, flags).catch((error: unknown) => rethrowAsAppError(error, path, 'read'))
  try {
    const opened = await handle.stat()
    const changed = notARegularFile(opened, path)
    if (changed) throw new AppErrorException('file_io', changed, { path })
    // The path could have been swapped for a link since it was checked: the open file says where it is.
    const systemFolder = await systemFolderOfDevice(opened.dev)
    if (systemFolder) refuseSystemFolder(path, systemFolder)
    const chunks: Buffer[] = []
    let total = 0
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total))
      const { bytesRead } = await handle
        .read(chunk, 0, chunk.length, null)
        .catch((error: unknown) => rethrowAsAppError(error, path, 'read'))
      if (bytesRead === 0) break
      chunks.push(chunk.subarray(0, bytesRead))
      total += bytesRead
      if (total > maxBytes) {
        throw new AppErrorException('file_io', `${basename(path)} is larger than ${megabytes(maxBytes)}: too large to be ${kind}.`, {
          path,
          maxBytes,
        })
      }
    }
    return { bytes: Buffer.concat(chunks, total), info: opened }
  } finally {
    await handle.close()
  }
}

/** The version of the file now on disk, or null when there is none. */
export async function currentVersion(path: string): Promise<FileVersion | null> {
  try {
    return (await readVersionedText(path)).version
  } catch (error) {
    if (error instanceof AppErrorException && error.code === 'not_found') return null
    throw error
  }
}

/**
 * Whether the file still holds what the editor last read or wrote. The content decides: a touch,
 * or a checkout that rewrites the same bytes, changes the time but overwrites nothing of value.
 */
export const sameContent = (a: FileVersion, b: FileVersion) => a.size === b.size && a.sha256 === b.sha256

/**
 * Written whole or not at all (writeFileAtomically): a crash or a full disk leaves the old file or
 * the new one, never half. Only a regular file is replaced: a folder, a device or a pipe at the path is refused. A
 * file replaced keeps its mode; a new one gets `newFileMode` when given (else the umask decides).
 */
export async function writeTextAtomically(path: string, text: string, byteOrderMark = false, newFileMode?: number): Promise<FileVersion> {
  refuseSystemFolder(path, await realPathOf(path))
  const existing = await stat(path).catch(() => null)
  const refusal = existing && notARegularFile(existing, path)
  if (refusal) throw new AppErrorException('file_io', refusal, { path })
  const bytes = Buffer.from(byteOrderMark ? `${BYTE_ORDER_MARK}${text}` : text)
  await writeFileAtomically(path, bytes, { mode: existing === null ? newFileMode : undefined })
  const info = await stat(path)
  return { mtimeMs: info.mtimeMs, size: bytes.length, sha256: sha256(bytes) }
}

/**
 * Texts written as one (a docs.json and its $ref files): all or none, through a kill or a power
 * cut, by writeFileSet with its journal in `journals`; checked as writeTextAtomically checks each.
 */
export async function writeTextsTogether(
  files: readonly { path: string; text: string; byteOrderMark: boolean }[],
  journals: string,
  key: string,
): Promise<FileVersion[]> {
  const set = await Promise.all(
    files.map(async ({ path, text, byteOrderMark }) => {
      refuseSystemFolder(path, await realPathOf(path))
      const existing = await stat(path).catch(() => null)
      const refusal = existing && notARegularFile(existing, path)
      if (refusal) throw new AppErrorException('file_io', refusal, { path })
      return { path, data: Buffer.from(byteOrderMark ? `${BYTE_ORDER_MARK}${text}` : text) }
    }),
  )
  await writeFileSet(set, journals, key)
  return Promise.all(set.map(async ({ path, data }) => ({ mtimeMs: (await stat(path)).mtimeMs, size: data.length, sha256: sha256(data) })))
}

export async function fileExists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    return rethrowAsAppError(error, path, 'read')
  }
}

/**
 * The one UTF-8 rule for the files of a site (its configuration, its $ref files, its pages), in the
 * app and in `validate` alike: refused, with the line of the first byte that is not UTF-8, rather
 * than decoded with U+FFFD in its place, since saving such a text would silently change the file.
 */
export function decodeUtf8(bytes: Uint8Array, path: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    const bad = firstInvalidUtf8(bytes)
    throw new AppErrorException('file_io', `${basename(path)} ${notUtf8Sentence(bytes, bad)}`, { path, line: lineAt(bytes, bad) })
  }
}

/** What is said of bytes that are not UTF-8, `bad` the offset of the first that is not. */
export const notUtf8Sentence = (bytes: Uint8Array, bad: number) =>
  `is not UTF-8 text: line ${lineAt(bytes, bad)} holds the byte ${byteName(bytes[bad]!)}, which UTF-8 does not allow there. Save it as UTF-8 to use it here.`

export function rethrowAsAppError(error: unknown, path: string, action: 'read' | 'write'): never {
  if (error instanceof AppErrorException) throw error
  const code = (error as NodeJS.ErrnoException).code
  const details = { path, errno: code }
  if (code === 'ENOENT') {
    if (action === 'read') throw new AppErrorException('not_found', `There is no file at ${path}.`, details)
    throw new AppErrorException('file_io', `The folder of ${path} does not exist.`, details)
  }
  if (action === 'write') throw writeError(error, path)
  if (code === 'EACCES' || code === 'EPERM') {
    throw new AppErrorException('file_io', `Embed Console is not allowed to ${action} ${path}.`, details)
  }
  if (code === 'EISDIR') throw new AppErrorException('file_io', `${path} is a folder, not a file.`, details)
  if (code === 'ENOTDIR') throw new AppErrorException('file_io', `Part of ${path} is a file, not a folder.`, details)
  throw new AppErrorException('file_io', `Could not ${action} ${path}: ${(error as Error).message}`, details)
}
