import { resolve } from 'node:path'
import { messageOf } from '../../src-shared/ipc/error-message'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { FileVersion } from '../../src-shared/ipc/site-calls'
import { refsIn, type RefFile } from '../../src-shared/site-config/refs'
import { readConfigText } from '../../src-shared/site-config/validate'
import { isInside, readVersionedText } from './file-access'

// The files a docs.json's `$ref`s name, read from its folder (Mintlify's project root) and never
// outside it. The CLI and the editor's main side read them with this; the resolving itself is
// shared (src-shared/site-config/refs.ts).

export interface LoadedRef {
  ref: string
  /** Null when the file is missing or cannot be read; `error` says why. */
  text: string | null
  byteOrderMark: boolean
  version: FileVersion | null
  error: string | null
}

/** Reads one `$ref` file of the folder; `ref` is relative to it, already normalised. */
export async function readRefFile(
  root: string,
  ref: string,
  allow: (path: string) => Promise<string> = async (path) => path,
): Promise<LoadedRef> {
  const path = resolve(root, ref)
  if (!isInside(path, root)) return { ref, text: null, byteOrderMark: false, version: null, error: 'is outside the docs folder' }
  try {
    const { text, byteOrderMark, version } = await readVersionedText(await allow(path))
    return { ref, text, byteOrderMark, version, error: null }
  } catch (error) {
    if (error instanceof AppErrorException && error.code === 'not_found')
      return { ref, text: null, byteOrderMark: false, version: null, error: null }
    return { ref, text: null, byteOrderMark: false, version: null, error: `cannot be read: ${messageOf(error)}` }
  }
}

/** Every file the `$ref`s of `value` name, and theirs in turn, as the resolver takes them (missing ones left out). */
export async function loadRefFiles(
  value: unknown,
  root: string,
  allow?: (path: string) => Promise<string>,
): Promise<Map<string, RefFile & { text?: string }>> {
  const files = new Map<string, RefFile & { text?: string }>()
  let pending = refsIn(value)
  while (pending.length) {
    const next: string[] = []
    for (const ref of pending) {
      if (files.has(ref)) continue
      const loaded = await readRefFile(root, ref, allow)
      if (loaded.text === null) {
        if (loaded.error) files.set(ref, { ok: false, reason: loaded.error })
        continue
      }
      const read = readConfigText(loaded.text)
      if (!read.ok) {
        files.set(ref, { ok: false, reason: `is not valid JSON (line ${read.problem.line}, column ${read.problem.column})` })
        continue
      }
      files.set(ref, { ok: true, value: read.value, text: loaded.text })
      next.push(...refsIn(read.value, ref))
    }
    pending = next
  }
  return files
}
