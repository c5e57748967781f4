import { create } from 'zustand'
import type { FileVersion } from '../../../../src-shared/ipc/site-calls'
import { parseJsonText } from '../../../../src-shared/site-config/json-text'
import { type RefFile, type ResolvedRefs, resolveRefs } from '../../../../src-shared/site-config/refs'

/**
 * The `$ref` files of the open docs.json as last read from (or written to) disk: their text,
 * version and byte order mark, or why there is none. Not part of undo: the editor store keeps the
 * edits (`refTexts`), and a file's text now is its edit, else what is here.
 */
export interface LoadedRefFile {
  baselineText: string | null
  byteOrderMark: boolean
  version: FileVersion | null
  /** Why the file could not be read; null when it was, or when it is simply missing (baselineText null). */
  error: string | null
}

interface RefStore {
  files: Readonly<Record<string, LoadedRefFile>>
  /** Refs being read now. */
  reading: ReadonlySet<string>
}

export const useRefFiles = create<RefStore>(() => ({ files: {}, reading: new Set() }))

export const refBaseline = (ref: string) => useRefFiles.getState().files[ref]?.baselineText ?? undefined

/** A ref file's text now: its edit in the editor, else as read. */
export const refTextNow = (refTexts: Readonly<Record<string, string>>, ref: string) => refTexts[ref] ?? refBaseline(ref)

const parsedTexts = new Map<string, RefFile>()
function parsed(text: string): RefFile {
  let file = parsedTexts.get(text)
  if (!file) {
    const result = parseJsonText(text)
    file = result.ok
      ? { ok: true, value: result.value }
      : { ok: false, reason: `is not valid JSON (line ${result.error.line}, column ${result.error.column})` }
    if (parsedTexts.size > 200) parsedTexts.clear()
    parsedTexts.set(text, file)
  }
  return file
}

let lastEdits: Readonly<Record<string, string>> | null = null
let lastFiles: RefStore['files'] | null = null
let lastReading: RefStore['reading'] | null = null
let lastMap: ReadonlyMap<string, RefFile> = new Map()

/** The ref files as the resolver takes them (refs.ts), the same map while nothing changed. */
export function refFilesFor(refTexts: Readonly<Record<string, string>>): ReadonlyMap<string, RefFile> {
  const { files, reading } = useRefFiles.getState()
  if (refTexts === lastEdits && files === lastFiles && reading === lastReading) return lastMap
  const map = new Map<string, RefFile>()
  for (const ref of reading) map.set(ref, { ok: 'pending' })
  for (const [ref, file] of Object.entries(files)) {
    const text = refTexts[ref] ?? file.baselineText
    if (text !== null) map.set(ref, parsed(text))
    else if (file.error) map.set(ref, { ok: false, reason: file.error })
  }
  lastEdits = refTexts
  lastFiles = files
  lastReading = reading
  lastMap = map
  return map
}

let resolvedInput: { value: unknown; refs: ReadonlyMap<string, RefFile> } | null = null
let resolvedOutput: ResolvedRefs | null = null

/** The document with its $ref files in place, worked out once per change however many rows ask. */
export function resolvedFor(value: unknown, refTexts: Readonly<Record<string, string>>): ResolvedRefs {
  const refs = refFilesFor(refTexts)
  if (resolvedOutput && resolvedInput && resolvedInput.value === value && resolvedInput.refs === refs) return resolvedOutput
  resolvedInput = { value, refs }
  resolvedOutput = resolveRefs(value, refs)
  return resolvedOutput
}
