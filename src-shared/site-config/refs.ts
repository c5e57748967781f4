import { isPlainObject } from './mint-schema'
import { formatProblemPath } from './problem-path'

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
  /** `$ref`s that could not be followed: the file is missing or not JSON, outside the folder, the refs go round, or the cap is reached. */
  problems: RefProblem[]
  /** Where a `$ref` waits for its file to be read: nothing there is judged yet. */
  pending: RefPath[]
  /** `$ref`s left as written because the document reached its cap before them (one problem says so): nothing there is judged. */
  unfollowed: RefPath[]
}

/**
 * What one document may expand to through its `$ref`s, in values (every object, list, string,
 * number…) and in characters of JSON: six times the largest real docs.json (crewAI's, 40,564
 * values in 2.3 MB), and the largest file the editor opens. Three files of 80 kB whose refs fan
 * out 1,000 × 1,000 would otherwise expand to billions of values; past the cap, no more are followed.
 */
export const MAX_EXPANDED_VALUES = 250_000
export const MAX_EXPANDED_CHARACTERS = 10_000_000
/** The files one document's `$ref`s may name in all (each read once however often it is named). */
export const MAX_REF_FILES = 1000

/** Why a `$ref` file was left unread once the document's files reached their cap (the reason follows its name). */
export const PAST_REF_FILES = `was not read: the $refs of one document name at most ${MAX_REF_FILES.toLocaleString('en')} files`
export const PAST_REF_CHARACTERS = `was not read: the $ref files of one document hold at most ${MAX_EXPANDED_CHARACTERS / 1_000_000} MB in all`

/** The caps as a sentence says them. */
export const REF_CAPS = `${MAX_EXPANDED_VALUES.toLocaleString('en')} values or ${MAX_EXPANDED_CHARACTERS / 1_000_000} MB of JSON`

interface Size {
  values: number
  characters: number
}
const sizes = new WeakMap<object, Size>()

/** How many values a JSON value holds and about how long its JSON is; remembered per object, so a file is measured once. */
function sizeOf(value: unknown): Size {
  if (typeof value !== 'object' || value === null)
    return { values: 1, characters: typeof value === 'string' ? value.length + 2 : String(value).length }
  const known = sizes.get(value)
  if (known) return known
  const size = { values: 1, characters: 2 }
  const add = (child: unknown, extra: number) => {
    const inner = sizeOf(child)
    size.values += inner.values
    size.characters += inner.characters + extra
  }
  if (Array.isArray(value)) for (const item of value) add(item, 1)
  else for (const [key, child] of Object.entries(value)) add(child, key.length + 4)
  sizes.set(value, size)
  return size
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
  const unfollowed: RefPath[] = []
  const spent: Size = { values: 0, characters: 0 }
  let capped: RefProblem | null = null
  const resolve = (node: unknown, at: RefPath, fromFile: string, chain: readonly string[]): unknown => {
    const ref = refOf(node)
    if (ref !== undefined) {
      const target = refTarget(ref, fromFile)
      const fail = (message: string) => {
        const problem = { path: formatProblemPath([...at, '$ref']), at: [...at, '$ref'], message }
        problems.push(problem)
        return problem
      }
      if (capped) {
        unfollowed.push([...at, '$ref'])
        return node
      }
      if (outside(target)) return (fail(`points outside the docs folder (${ref}): Mintlify refuses it`), node)
      if (chain.includes(target)) return (fail(`goes round: ${[...chain, target].join(' → ')}`), node)
      const file = files.get(target)
      if (!file) return (fail(`names ${target}, which is not in the docs folder`), node)
      if (file.ok === 'pending') {
        pending.push(at)
        return node
      }
      if (!file.ok) return (fail(`names ${target}, which ${file.reason}`), node)
      const size = sizeOf(file.value)
      spent.values += size.values
      spent.characters += size.characters
      if (spent.values > MAX_EXPANDED_VALUES || spent.characters > MAX_EXPANDED_CHARACTERS) {
        capped = fail(
          `names ${target}, which would take the document past ${REF_CAPS} (docs.json → ${[...chain, target].join(' → ')}): $ref files are followed up to that much in all, so it is not followed`,
        )
        return node
      }
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
  if (!hasRefs(value)) return { value, sites, problems, pending, unfollowed }
  const resolved = resolve(value, [], '', [])
  const cap = capped as RefProblem | null
  if (cap && unfollowed.length) cap.message += `, nor ${unfollowed.length.toLocaleString('en')} more after it`
  return { value: resolved, sites, problems, pending, unfollowed }
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

/**
 * Whether a problem's path lies where the document's content is unknown: under a `$ref` that could
 * not be followed, is still being read, or was left as written at the cap. Nothing there is judged.
 * The test looks up the path and each of its ancestors (each prefix ending before a . or [) once.
 */
export function unknownUnder(resolved: ResolvedRefs): (path: string) => boolean {
  const unknown = new Set(
    [...[...resolved.problems, ...resolved.unfollowed.map((at) => ({ at }))].map(({ at }) => at.slice(0, -1)), ...resolved.pending].map(
      (at) => formatProblemPath(at),
    ),
  )
  return (path) => {
    if (unknown.has('$') || unknown.has(path)) return true
    for (let at = 0; at < path.length; at++) if ((path[at] === '.' || path[at] === '[') && unknown.has(path.slice(0, at))) return true
    return false
  }
}
