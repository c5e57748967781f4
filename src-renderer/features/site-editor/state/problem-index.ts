import {
  createDiagnosisCache,
  diagnoseDocument,
  type DiagnosedProblem,
  type DiagnosisPart,
  type FolderFacts,
} from '../../../../src-shared/site-config/diagnose'
import type { DocsLookup, ImageCheck, OpenApiCheck } from '../../../../src-shared/site-config/docs-files'
import type { DuplicateKey } from '../../../../src-shared/site-config/duplicate-keys'
import type { JsonSyntaxError } from '../../../../src-shared/site-config/json-text'
import { formatProblemPath, parseProblemPath } from '../../../../src-shared/site-config/problem-path'
import type { RefFile } from '../../../../src-shared/site-config/refs'
import type { RuleSet } from '../../../../src-shared/site-config/rule-sets'
import type { PageFacts } from '../../../../src-shared/site-config/site-pages'
import type { Path } from './json-path'

/** The document's docs folder as last indexed, and what main checked in it: not part of undo. */
export interface DocsContext {
  lookup: DocsLookup
  openapi: readonly OpenApiCheck[]
  /** The images the document names, checked for being there and being images. */
  images?: readonly ImageCheck[]
  /** What the folder's pages hold (links, anchors, front matter), once main has read them. */
  pages?: PageFacts | null
}

export type ProblemSeverity = 'error' | 'warning' | 'info'

export interface Problem extends DiagnosedProblem {
  severity: ProblemSeverity
  /** Which part of the check said it (diagnose.ts). */
  part?: DiagnosisPart
  segments: Path
  /** Set for a JSON syntax error: where the text breaks. */
  position?: { line: number; column: number }
}

export interface ProblemCounts {
  errors: number
  warnings: number
  info: number
}

/**
 * The validator's report arranged for the form: every problem in order (errors first), the
 * messages at each exact path for the field there, and counts under every path for collapsed
 * rows (a navigation group shows "2 errors" without rendering its pages).
 */
/** Looks a path up; answers the same object for the same path while the index stands (selectors compare by identity). */
export interface PathLookup<T> {
  get(path: string): T | undefined
}

export interface ProblemIndex {
  /** Every problem, errors first, then warnings, then information. */
  readonly problems: Problem[]
  /**
   * The first `limit` problems to fix (errors, then warnings) and the first `limit` kept as
   * information, without putting the whole list together (a large docs.json has 23,000).
   */
  listed(limit: number): { toFix: Problem[]; info: Problem[] }
  counts: ProblemCounts
  at: PathLookup<Problem[]>
  within: PathLookup<ProblemCounts>
  /** Set when the file breaks the site.json spec (docs/site-json.md) but follows Mintlify's rules: the sentence offering the switch. */
  mintlifySuggestion: string | null
}

/** The problems of one part of a report, indexed: parts that did not change are indexed once (see buildProblemIndex). */
export interface IndexedPart {
  severity: ProblemSeverity
  problems: Problem[]
  at: Map<string, Problem[]>
  within: Map<string, ProblemCounts>
}

function indexPart(problems: Problem[], severity: ProblemSeverity): IndexedPart {
  const at = new Map<string, Problem[]>()
  const within = new Map<string, ProblemCounts>()
  for (const problem of problems) {
    const here = at.get(problem.path)
    if (here) here.push(problem)
    else at.set(problem.path, [problem])
    for (let depth = 0; depth <= problem.segments.length; depth++) {
      const key = formatProblemPath(problem.segments.slice(0, depth))
      const counts = within.get(key) ?? { errors: 0, warnings: 0, info: 0 }
      if (problem.severity === 'error') counts.errors++
      else if (problem.severity === 'warning') counts.warnings++
      else counts.info++
      within.set(key, counts)
    }
  }
  return { severity, problems, at, within }
}

/** Parts indexed before, by the array of problems they came from and their severity. */
const indexedParts = new WeakMap<readonly DiagnosedProblem[], Map<ProblemSeverity, IndexedPart>>()

export function partOf(source: readonly DiagnosedProblem[], severity: ProblemSeverity, part?: DiagnosisPart): IndexedPart {
  let bySeverity = indexedParts.get(source)
  if (!bySeverity) indexedParts.set(source, (bySeverity = new Map()))
  let indexed = bySeverity.get(severity)
  if (!indexed)
    bySeverity.set(
      severity,
      (indexed = indexPart(
        source.map((problem) => withSegments(problem, severity, part)),
        severity,
      )),
    )
  return indexed
}

const EMPTY_PART: IndexedPart = { severity: 'info', problems: [], at: new Map(), within: new Map() }

/** What `path` holds across `parts`, in their order: a part's own array when it is the only one. */
function problemsAt(parts: readonly IndexedPart[], path: string): Problem[] | undefined {
  let only: Problem[] | undefined
  let joined: Problem[] | undefined
  for (const part of parts) {
    const here = part.at.get(path)
    if (!here) continue
    if (!only) only = here
    else (joined ??= [...only]).push(...here)
  }
  return joined ?? only
}

/** The counts under `path` across `parts`: a part's own object when it is the only one. */
function countsWithin(parts: readonly IndexedPart[], path: string): ProblemCounts | undefined {
  let only: ProblemCounts | undefined
  let found = 0
  let errors = 0
  let warnings = 0
  let info = 0
  for (const part of parts) {
    const counts = part.within.get(path)
    if (!counts) continue
    only = counts
    found++
    errors += counts.errors
    warnings += counts.warnings
    info += counts.info
  }
  return found <= 1 ? only : { errors, warnings, info }
}

/**
 * The answers of an index over several parts, kept from one index to the next. A keystroke
 * replaces a part or two of thousands (a large docs.json's folder check comes in a part per
 * navigation list): only the paths those parts hold are worked out again, the first time a field
 * asks. Every other path keeps its answer, the very same object, so the fields there are not
 * drawn again; worked out anew, each field's lookup went through every part on every key.
 */
export class JoinedLookups {
  private parts: readonly IndexedPart[] = []
  private generation = 0
  private readonly atCache = new Map<string, Problem[] | undefined>()
  private readonly withinCache = new Map<string, ProblemCounts | undefined>()

  /** The lookups over `parts`. Those of an earlier join, asked later, work their answers out without the cache. */
  join(parts: readonly IndexedPart[]): { at: PathLookup<Problem[]>; within: PathLookup<ProblemCounts> } {
    this.forgetChanged(parts)
    this.parts = parts
    const generation = ++this.generation
    const current = () => generation === this.generation
    const remembered = <T>(cache: Map<string, T | undefined>, path: string, workOut: () => T | undefined): T | undefined => {
      if (!current()) return workOut()
      if (!cache.has(path)) cache.set(path, workOut())
      return cache.get(path)
    }
    return {
      at: { get: (path) => remembered(this.atCache, path, () => problemsAt(parts, path)) },
      within: { get: (path) => remembered(this.withinCache, path, () => countsWithin(parts, path)) },
    }
  }

  /**
   * Drops the answers of every path held by a part between the parts both lists start with and
   * those both end with, in either list. A path held only by parts outside that stretch has the
   * same parts in the same order as before; any other is worked out again, in the new order.
   */
  private forgetChanged(parts: readonly IndexedPart[]): void {
    const before = this.parts
    const shorter = Math.min(before.length, parts.length)
    let start = 0
    while (start < shorter && before[start] === parts[start]) start++
    let end = 0
    while (end < shorter - start && before[before.length - 1 - end] === parts[parts.length - 1 - end]) end++
    const changed = [...before.slice(start, before.length - end), ...parts.slice(start, parts.length - end)]
    // Most of the parts changed (another document's check, a setting that moves everything): start again.
    if (changed.length > shorter) {
      this.atCache.clear()
      this.withinCache.clear()
      return
    }
    for (const part of changed) {
      for (const path of part.at.keys()) this.atCache.delete(path)
      for (const path of part.within.keys()) this.withinCache.delete(path)
    }
  }
}

const SEVERITY_ORDER = ['error', 'warning', 'info'] as const

/** The first `limit` problems of the parts of each severity `wanted` takes, errors first, each in the parts' order. */
function firstOf(bySeverity: ReadonlyMap<ProblemSeverity, IndexedPart[]>, wanted: readonly ProblemSeverity[], limit: number): Problem[] {
  const listed: Problem[] = []
  for (const severity of SEVERITY_ORDER) {
    if (!wanted.includes(severity)) continue
    for (const part of bySeverity.get(severity) ?? []) {
      for (const problem of part.problems) {
        if (listed.length >= limit) return listed
        listed.push(problem)
      }
    }
  }
  return listed
}

/** One index over several parts (each of one severity). */
function joinParts(parts: readonly IndexedPart[], lookups: JoinedLookups, suggestion: string | null = null): ProblemIndex {
  const nonEmpty = parts.filter((part) => part.problems.length)
  const { at, within } = nonEmpty.length <= 1 ? (nonEmpty[0] ?? EMPTY_PART) : lookups.join(nonEmpty)
  let bySeverity: Map<ProblemSeverity, IndexedPart[]> | undefined
  const partsOf = () => {
    if (bySeverity) return bySeverity
    bySeverity = new Map()
    for (const part of nonEmpty) {
      const same = bySeverity.get(part.severity)
      if (same) same.push(part)
      else bySeverity.set(part.severity, [part])
    }
    return bySeverity
  }
  let all: Problem[] | undefined
  return {
    // Errors first, then warnings, then information, each in the parts' order: put together when first asked.
    get problems() {
      return (all ??= nonEmpty.length <= 1 ? (nonEmpty[0]?.problems ?? []) : firstOf(partsOf(), SEVERITY_ORDER, Infinity))
    },
    listed: (limit) => ({ toFix: firstOf(partsOf(), ['error', 'warning'], limit), info: firstOf(partsOf(), ['info'], limit) }),
    counts: within.get('$') ?? NO_COUNTS,
    at,
    within,
    mintlifySuggestion: suggestion,
  }
}

const withSegments = (problem: DiagnosedProblem, severity: ProblemSeverity, part?: DiagnosisPart): Problem => ({
  ...problem,
  severity,
  ...(part ? { part } : {}),
  segments: parseProblemPath(problem.path),
  // Where the text breaks, or a key written twice: the JSON view goes there.
  ...(problem.file === undefined && problem.line !== undefined && problem.column !== undefined
    ? { position: { line: problem.line, column: problem.column } }
    : {}),
})

/** What the problems of a document depend on. */
export interface ProblemInputs {
  value: unknown
  syntaxError: JsonSyntaxError | null
  duplicates: readonly DuplicateKey[]
  rules: RuleSet
  docs: DocsContext | null
  /** Why the docs folder could not be indexed, when it could not. */
  docsFailure?: string | null
  /** The document's file, whose name helps tell its format. */
  path?: string | null
  /** docs.json's $ref files, as loaded. */
  refs?: ReadonlyMap<string, RefFile>
}

/** The folder as diagnoseDocument takes it. */
function folderFacts(docs: DocsContext | null, failure: string | null | undefined): FolderFacts | null {
  if (docs)
    return {
      state: 'indexed',
      index: docs.lookup.index,
      openapi: docs.openapi,
      images: docs.images ?? NO_IMAGES,
      pages: docs.pages ?? null,
    }
  return failure ? { state: 'unreadable', reason: failure } : null
}
const NO_IMAGES: readonly ImageCheck[] = []

const sameInputs = (a: ProblemInputs, b: ProblemInputs) =>
  a.value === b.value &&
  a.syntaxError === b.syntaxError &&
  a.duplicates === b.duplicates &&
  a.rules === b.rules &&
  a.docs === b.docs &&
  a.docsFailure === b.docsFailure &&
  a.path === b.path &&
  a.refs === b.refs

/**
 * The problems of one open document (the editor store keeps one per document it loads), worked
 * out again only for what changed: the same inputs give the same index object, however many
 * fields ask; the checks of the parts a keystroke did not touch are kept (diagnose.ts's cache);
 * the folder's facts are built once per docs index.
 */
export interface ProblemIndexer {
  indexFor(inputs: ProblemInputs): ProblemIndex
}

/**
 * The editor's index of diagnoseDocument's answer (the CLI prints the same answer, the export is
 * refused on it): each part indexed once while its array stands, so a keystroke indexes what it changed.
 */
export function createProblemIndexer(): ProblemIndexer {
  let cache = createDiagnosisCache()
  let cachePath: string | null = null
  let folder: { docs: DocsContext | null; failure: string | null | undefined; facts: FolderFacts | null } | null = null
  let last: { inputs: ProblemInputs; index: ProblemIndex } | null = null
  const lookups = new JoinedLookups()
  return {
    indexFor(inputs) {
      if (last && sameInputs(last.inputs, inputs)) return last.index
      const { value, syntaxError, duplicates, rules, docs, refs } = inputs
      const path = inputs.path ?? null
      // Saved under another name, the document may be another format: its checks start again.
      if (path !== cachePath) {
        cache = createDiagnosisCache()
        cachePath = path
      }
      if (!folder || folder.docs !== docs || folder.failure !== inputs.docsFailure)
        folder = { docs, failure: inputs.docsFailure, facts: folderFacts(docs, inputs.docsFailure) }
      const diagnosis = diagnoseDocument({ document: { value, syntaxError, duplicates }, path, rules, refs, folder: folder.facts }, cache)
      const index = joinParts(
        diagnosis.chunks.map((chunk) => partOf(chunk.problems, chunk.severity, chunk.part)),
        lookups,
        diagnosis.mintlifySuggestion,
      )
      last = { inputs, index }
      return index
    },
  }
}

/** The index of one document's problems, with nothing kept: what the tests compare with the CLI's answer. */
export const buildProblemIndex = (inputs: ProblemInputs): ProblemIndex => createProblemIndexer().indexFor(inputs)

export const NO_PROBLEMS: readonly Problem[] = []
export const NO_COUNTS: ProblemCounts = { errors: 0, warnings: 0, info: 0 }
