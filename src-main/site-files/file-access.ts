import { createHash } from 'node:crypto'
import { open, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { basename, isAbsolute, resolve } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import { AppErrorException } from '../../src-shared/ipc/result'
import { MAX_SITE_FILE_CHARACTERS, type FileVersion } from '../../src-shared/ipc/site-calls'

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

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

export interface VersionedText {
  text: string
  version: FileVersion
}

/** A file's text and version, read from one open handle so the two describe the same bytes. */
export async function readVersionedText(path: string): Promise<VersionedText> {
  const handle = await open(path, 'r').catch((error: unknown) => rethrowAsAppError(error, path, 'read'))
  try {
    const info = await handle.stat()
    if (info.isDirectory()) throw new AppErrorException('file_io', `${path} is a folder, not a file.`, { path })
    // A byte is at most one character, so this bounds the text before it is read at all.
    if (info.size > MAX_SITE_FILE_CHARACTERS) {
      throw new AppErrorException('file_io', `${basename(path)} is ${(info.size / 1e6).toFixed(1)} MB: too large to be a site.json file.`, { path })
    }
    const bytes = await handle.readFile().catch((error: unknown) => rethrowAsAppError(error, path, 'read'))
    return { text: decodeUtf8(bytes, path), version: { mtimeMs: info.mtimeMs, size: bytes.length, sha256: sha256(bytes) } }
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

/** Temp file, fsync, rename (write-file-atomic): a crash leaves the old file or the new one, never half. */
export async function writeTextAtomically(path: string, text: string): Promise<FileVersion> {
  const bytes = Buffer.from(text, 'utf8')
  await writeFileAtomic(path, bytes, { fsync: true }).catch((error: unknown) => rethrowAsAppError(error, path, 'write'))
  const info = await stat(path)
  return { mtimeMs: info.mtimeMs, size: bytes.length, sha256: sha256(bytes) }
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

// Refuses rather than replacing bytes with U+FFFD: saving such a text would silently change the file.
function decodeUtf8(bytes: Uint8Array, path: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new AppErrorException('file_io', `${basename(path)} is not UTF-8 text, so it cannot be a site.json file.`, { path })
  }
}

function rethrowAsAppError(error: unknown, path: string, action: 'read' | 'write'): never {
  if (error instanceof AppErrorException) throw error
  const code = (error as NodeJS.ErrnoException).code
  const details = { path, errno: code }
  if (code === 'ENOENT') {
    if (action === 'read') throw new AppErrorException('not_found', `There is no file at ${path}.`, details)
    throw new AppErrorException('file_io', `The folder of ${path} does not exist.`, details)
  }
  if (code === 'EACCES' || code === 'EPERM') {
    throw new AppErrorException('file_io', `Embed Console is not allowed to ${action} ${path}.`, details)
  }
  if (code === 'EISDIR') throw new AppErrorException('file_io', `${path} is a folder, not a file.`, details)
  if (code === 'ENOTDIR') throw new AppErrorException('file_io', `Part of ${path} is a file, not a folder.`, details)
  throw new AppErrorException('file_io', `Could not ${action} ${path}: ${(error as Error).message}`, details)
}
