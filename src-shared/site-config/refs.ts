import { formatProblemPath } from './format'
import { isPlainObject } from './schema'

// `$ref` in docs.json: an object `{ "$ref": "fr.json", …siblings }` stands for the JSON of that
// file (its path relative to the file that names it), with the siblings laid over it when both
// are objects, as Mintlify resolves them (its resolveRefs). Files are read by the caller (main,
// the CLI) and handed in, so this stays pure: the editor resolves on every keystroke with what it
// has loaded. Resolution keeps a map from every resolved place back to the file and path it came
// from, which is how a problem names its file and how an edit is saved where the value lives.

export type RefPath = readonly (string | number)[]

/** A file a `$ref` names, as loaded: its parsed value, or why there is none; `pending` while the editor reads it. */
export type RefFile = { ok: true; value: unknown } | { ok: false; reason: string } | { ok: 'pending' }

/** Where a `$ref` was spliced in: at `at` in the resolved value, the content of `file`, with the ref object's sibling keys on top. */
export interface RefSite {
  at: RefPath
  file: string
  siblings: readonly string[]
}

export interface RefProblem {
  path: string
  message: string
  at: RefPath
}

export interface ResolvedRefs {
  value: unknown
  sites: RefSite[]
  /** `$ref`s that could not be followed: the file is missing or not JSON, outside the folder, or the refs go round. */
  problems: RefProblem[]
  /** Where a `$ref` waits for its file to be read: nothing there is judged yet. */
  pending: RefPath[]
}

/** Mintlify's normalisation: forward slashes, `.` and `..` folded, a leading / kept. */
export function normalizeRefPath(path: string): string {
  const absolute = path.replace(/\\/g, '/').startsWith('/')
  const parts: string[] = []
  for (const part of path.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..' && parts.length && parts.at(-1) !== '..') parts.pop()
    else parts.push(part)
  }
  return `${absolute ? '/' : ''}${parts.join('/')}`
}

const folderOf = (file: string) => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '')

/** The file a `$ref` names, relative to the docs folder, from the file that names it ('' for the docs.json itself). */
export const refTarget = (ref: string, fromFile: string) => normalizeRefPath([folderOf(fromFile), ref].filter(Boolean).join('/'))

const outside = (path: string) => path === '..' || path.startsWith('../') || path.startsWith('/')

const refOf = (value: unknown): string | undefined => (isPlainObject(value) && typeof value.$ref === 'string' ? value.$ref : undefined)

/** Every file the `$ref`s in `value` name (itself read from `fromFile`), relative to the docs folder; files outside it left out. */
export function refsIn(value: unknown, fromFile = ''): string[] {
  const found = new Set<string>()
  const walk = (node: unknown) => {
    const ref = refOf(node)
    if (ref !== undefined) {
      const target = refTarget(ref, fromFile)
      if (!outside(target)) found.add(target)
    }
    if (Array.isArray(node)) node.forEach(walk)
    else if (isPlainObject(node)) for (const key of Object.keys(node)) if (key !== '$ref') walk(node[key])
  }
  walk(value)
  return [...found]
}

const knownRefs = new WeakMap<object, boolean>()

/**
 * Whether a value holds any `$ref`: most files do not, and then resolving is the identity.
 * Remembered per object, so after an edit (which copies only the objects on its path) only that
 * path is looked at again.
 */
export const hasRefs = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null) return false
  const known = knownRefs.get(value)
  if (known !== undefined) return known
  const found = refOf(value) !== undefined || (Array.isArray(value) ? value.some(hasRefs) : Object.values(value).some(hasRefs))
  knownRefs.set(value, found)
  return found
}

/**
 * Resolves every `$ref` in `value` with the files given. A `$ref` that cannot be followed stays
 * as written and is named in `problems`. Unchanged parts keep their identity.
 */
export function resolveRefs(value: unknown, files: ReadonlyMap<string, RefFile>): ResolvedRefs {
  const sites: RefSite[] = []
  const problems: RefProblem[] = []
  const pending: RefPath[] = []
  const resolve = (node: unknown, at: RefPath, fromFile: string, chain: readonly string[]): unknown => {
    const ref = refOf(node)
    if (ref !== undefined) {
      const target = refTarget(ref, fromFile)
      const fail = (message: string) => {
        problems.push({ path: formatProblemPath([...at, '$ref']), at: [...at, '$ref'], message })
        return node
      }
      if (outside(target)) return fail(`points outside the docs folder (${ref}): Mintlify refuses it`)
      if (chain.includes(target)) return fail(`goes round: ${[...chain, target].join(' → ')}`)
      const file = files.get(target)
      if (!file) return fail(`names ${target}, which is not in the docs folder`)
      if (file.ok === 'pending') {
        pending.push(at)
        return node
      }
      if (!file.ok) return fail(`names ${target}, which ${file.reason}`)
      const siblings = Object.keys(node as object).filter((key) => key !== '$ref')
      sites.push({ at, file: target, siblings })
      const content = resolve(file.value, at, target, [...chain, target])
      if (!isPlainObject(content) || siblings.length === 0) return content
      const merged: Record<string, unknown> = { ...content }
      for (const key of siblings) merged[key] = resolve((node as Record<string, unknown>)[key], [...at, key], fromFile, chain)
      return merged
    }
    if (Array.isArray(node)) {
      let changed = false
      const items = node.map((item, index) => {
        const resolved = resolve(item, [...at, index], fromFile, chain)
        changed ||= resolved !== item
        return resolved
      })
      return changed ? items : node
    }
    if (isPlainObject(node)) {
      let changed = false
      const entries = Object.entries(node).map(([key, child]) => {
        const resolved = resolve(child, [...at, key], fromFile, chain)
        changed ||= resolved !== child
        return [key, resolved] as const
      })
      return changed ? Object.fromEntries(entries) : node
    }
    return node
  }
  if (!hasRefs(value)) return { value, sites, problems, pending }
  return { value: resolve(value, [], '', []), sites, problems, pending }
}

/**
 * The file (null for the docs.json itself) and the path inside it where the resolved value's
 * `path` is written: inside the deepest `$ref` that holds it, unless the key is one of that ref
 * object's own siblings. With `node`, the path names a node to replace or remove whole.
 */
export function locateInFiles(
  path: RefPath,
  sites: readonly RefSite[],
  { node = false }: { node?: boolean } = {},
): { file: string | null; path: RefPath } {
  let best: RefSite | null = null
  for (const site of sites) {
    // For a node replaced or removed as a whole (`node`), a $ref object at the path itself is written in the file that holds it.
    if (site.at.length > path.length || (node && site.at.length === path.length) || (best && site.at.length <= best.at.length)) continue
    if (!site.at.every((segment, index) => path[index] === segment)) continue
    const next = path[site.at.length]
    if (typeof next === 'string' && site.siblings.includes(next)) continue
    best = site
  }
  if (!best) return { file: null, path }
  // A sibling under an outer site's ref lives where that ref object is written: found by the outer site.
  return { file: best.file, path: path.slice(best.at.length) }
}
