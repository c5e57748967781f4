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
  problems: Problem[]
  counts: ProblemCounts
  at: PathLookup<Problem[]>
  within: PathLookup<ProblemCounts>
  /** Set when the file breaks the site.json spec (docs/site-json.md) but follows Mintlify's rules: the sentence offering the switch. */
  mintlifySuggestion: string | null
}

/** The problems of one part of a report, indexed: parts that did not change are indexed once (see buildProblemIndex). */
interface IndexedPart {
  problems: Problem[]
  at: Map<string, Problem[]>
  within: Map<string, ProblemCounts>
}

function indexPart(problems: Problem[]): IndexedPart {
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
  return { problems, at, within }
}

/** Parts indexed before, by the array of problems they came from and their severity. */
const indexedParts = new WeakMap<readonly DiagnosedProblem[], Map<ProblemSeverity, IndexedPart>>()

function partOf(source: readonly DiagnosedProblem[], severity: ProblemSeverity, part?: DiagnosisPart): IndexedPart {
  let bySeverity = indexedParts.get(source)
  if (!bySeverity) indexedParts.set(source, (bySeverity = new Map()))
  let indexed = bySeverity.get(severity)
  if (!indexed) bySeverity.set(severity, (indexed = indexPart(source.map((problem) => withSegments(problem, severity, part)))))
  return indexed
}

/** One index over several parts: lookups are summed across parts once per path and remembered. */
function joinParts(parts: readonly IndexedPart[], suggestion: string | null = null): ProblemIndex {
  const nonEmpty = parts.filter((part) => part.problems.length)
  if (nonEmpty.length <= 1) {
    const part = nonEmpty[0] ?? { problems: [], at: new Map(), within: new Map() }
    return {
      problems: part.problems,
      counts: part.within.get('$') ?? NO_COUNTS,
      at: part.at,
      within: part.within,
      mintlifySuggestion: suggestion,
    }
  }
  const atCache = new Map<string, Problem[] | undefined>()
  const withinCache = new Map<string, ProblemCounts | undefined>()
  const at: PathLookup<Problem[]> = {
    get(path) {
      if (!atCache.has(path)) {
        const found = nonEmpty.flatMap((part) => part.at.get(path) ?? [])
        atCache.set(path, found.length ? found : undefined)
      }
      return atCache.get(path)
    },
  }
  const within: PathLookup<ProblemCounts> = {
    get(path) {
      if (!withinCache.has(path)) {
        const found = nonEmpty.map((part) => part.within.get(path)).filter((counts) => counts !== undefined)
        withinCache.set(
          path,
          found.length === 0
            ? undefined
            : found.length === 1
              ? found[0]
              : found.reduce((sum, counts) => ({
                  errors: sum.errors + counts.errors,
                  warnings: sum.warnings + counts.warnings,
                  info: sum.info + counts.info,
                })),
        )
      }
      return withinCache.get(path)
    },
  }
  // Errors first, then warnings, then information, each in the parts' order.
  const problems = (['error', 'warning', 'info'] as const).flatMap((severity) =>
    nonEmpty.flatMap((part) => (part.problems[0]?.severity === severity ? part.problems : [])),
  )
  return { problems, counts: within.get('$') ?? NO_COUNTS, at, within, mintlifySuggestion: suggestion }
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
