import { resolve } from 'node:path'
import { messageOf } from '../../src-shared/ipc/error-message'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { FileVersion } from '../../src-shared/ipc/site-calls'
import { readConfigText } from '../../src-shared/site-config/mint-validate'
import {
  MAX_EXPANDED_CHARACTERS,
  MAX_REF_FILES,
  PAST_REF_CHARACTERS,
  PAST_REF_FILES,
  type RefFile,
  refsIn,
} from '../../src-shared/site-config/refs'
import { isInside, readVersionedText, realPathInside } from '../user-files/file-access'

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

const unread = (ref: string, error: string | null): LoadedRef => ({ ref, text: null, byteOrderMark: false, version: null, error })

/**
 * Reads one `$ref` file of the folder; `ref` is relative to it, already normalised. At most
 * `maxBytes` are read: what the document's files may still hold.
 */
export async function readRefFile(
  root: string,
  ref: string,
  allow: (path: string) => Promise<string> = async (path) => path,
  maxBytes = MAX_EXPANDED_CHARACTERS,
): Promise<LoadedRef> {
  const path = resolve(root, ref)
  if (!isInside(path, root)) return unread(ref, 'is outside the docs folder')
  try {
    // Read where it really is, and only inside the folder: a link out of it is never read through.
    const { text, byteOrderMark, version } = await readVersionedText(await allow(await realPathInside(root, path)), maxBytes)
    return { ref, text, byteOrderMark, version, error: null }
  } catch (error) {
    if (error instanceof AppErrorException && error.code === 'not_found') return unread(ref, null)
    if (error instanceof AppErrorException && (error.details as { maxBytes?: number } | undefined)?.maxBytes)
      return unread(ref, PAST_REF_CHARACTERS)
    return unread(ref, `cannot be read: ${messageOf(error)}`)
  }
}

/**
 * Reads `$ref` files of one document in turn, within what one document may hold: at most
 * MAX_REF_FILES files and MAX_EXPANDED_CHARACTERS in all (counted across calls by `budget`).
 */
export async function readRefFiles(
  root: string,
  refs: readonly string[],
  allow?: (path: string) => Promise<string>,
  budget = { files: MAX_REF_FILES, bytes: MAX_EXPANDED_CHARACTERS },
): Promise<LoadedRef[]> {
  const loaded: LoadedRef[] = []
  for (const ref of refs) {
    if (budget.files <= 0) {
      loaded.push(unread(ref, PAST_REF_FILES))
      continue
    }
    budget.files--
    const file = budget.bytes > 0 ? await readRefFile(root, ref, allow, budget.bytes) : unread(ref, PAST_REF_CHARACTERS)
    budget.bytes -= file.text === null ? 0 : Buffer.byteLength(file.text)
    loaded.push(file)
  }
  return loaded
}

/** Every file the `$ref`s of `value` name, and theirs in turn, as the resolver takes them (missing ones left out). */
export async function loadRefFiles(
  value: unknown,
  root: string,
  allow?: (path: string) => Promise<string>,
): Promise<Map<string, RefFile & { text?: string }>> {
  const files = new Map<string, RefFile & { text?: string }>()
  const budget = { files: MAX_REF_FILES, bytes: MAX_EXPANDED_CHARACTERS }
  let pending = refsIn(value)
  while (pending.length) {
    const next: string[] = []
    for (const ref of pending) {
      if (files.has(ref)) continue
      const [loaded] = await readRefFiles(root, [ref], allow, budget)
      if (loaded!.text === null) {
        if (loaded!.error) files.set(ref, { ok: false, reason: loaded!.error })
        continue
      }
      const read = readConfigText(loaded!.text)
      if (!read.ok) {
        files.set(ref, { ok: false, reason: `is not valid JSON (line ${read.problem.line}, column ${read.problem.column})` })
        continue
      }
      files.set(ref, { ok: true, value: read.value, text: loaded!.text })
      next.push(...refsIn(read.value, ref))
    }
    pending = next
  }
  return files
}
