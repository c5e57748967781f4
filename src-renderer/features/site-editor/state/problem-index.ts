import { checkConfig, type ConfigFormat } from '../../../../src-shared/site-config/config-format'
import type { DocsCheckCache } from '../../../../src-shared/site-config/docs-validate'
import { docsProblems, type DocsLookup, type ImageCheck, type OpenApiCheck } from '../../../../src-shared/site-config/docs-files'
import { resolveRefs, type RefFile } from '../../../../src-shared/site-config/refs'
import { duplicateKeyProblems, type DuplicateKey } from '../../../../src-shared/site-config/duplicate-keys'
import { formatProblemPath } from '../../../../src-shared/site-config/format'
import { jsonErrorSentence, type JsonSyntaxError } from '../../../../src-shared/site-config/json-text'
import type { RuleSet } from '../../../../src-shared/site-config/rule-sets'
import { mintlifySuggestion } from '../../../../src-shared/site-config/rule-suggestion'
import { checkSiteConfig, type SiteConfigProblem } from '../../../../src-shared/site-config/validate'
import { parseProblemPath } from '../../../../src-shared/site-config/format'
import type { Path } from './json-path'

/** The document's docs folder as last indexed, and its OpenAPI files' checks: not part of undo. */
export interface DocsContext {
  lookup: DocsLookup
  openapi: readonly OpenApiCheck[]
  /** The images the document names, checked for being there and being images. */
  images?: readonly ImageCheck[]
}

export type ProblemSeverity = 'error' | 'warning' | 'info'

export interface Problem extends SiteConfigProblem {
  severity: ProblemSeverity
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
  /** Set when the file breaks the spec but follows Mintlify's rules: the sentence offering the switch. */
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
const indexedParts = new WeakMap<readonly SiteConfigProblem[], Map<ProblemSeverity, IndexedPart>>()

function partOf(source: readonly SiteConfigProblem[], severity: ProblemSeverity): IndexedPart {
  let bySeverity = indexedParts.get(source)
  if (!bySeverity) indexedParts.set(source, (bySeverity = new Map()))
  let part = bySeverity.get(severity)
  if (!part) bySeverity.set(severity, (part = indexPart(source.map((problem) => withSegments(problem, severity)))))
  return part
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

function indexProblems(problems: Problem[], suggestion: string | null = null): ProblemIndex {
  return joinParts([indexPart(problems)], suggestion)
}

const withSegments = (problem: SiteConfigProblem, severity: ProblemSeverity): Problem => ({
  ...problem,
  severity,
  segments: parseProblemPath(problem.path),
})

/** What the problems of a document depend on. */
export interface ProblemInputs {
  value: unknown
  syntaxError: JsonSyntaxError | null
  duplicates: readonly DuplicateKey[]
  rules: RuleSet
  docs: DocsContext | null
  /** docs.json is checked by Mintlify's rules (rules then do not apply), with its $ref files resolved. */
  format?: ConfigFormat
  refs?: ReadonlyMap<string, RefFile>
}

export function buildProblemIndex({ value, syntaxError, duplicates, rules, docs, format = 'site', refs }: ProblemInputs): ProblemIndex {
  if (syntaxError) {
    const { line, column } = syntaxError
    return indexProblems([
      { path: '$', segments: [], severity: 'error', message: jsonErrorSentence(syntaxError), position: { line, column } },
    ])
  }
  const duplicated = duplicateKeyProblems(duplicates).map(({ line, column, ...problem }) => ({
    ...withSegments(problem, 'error'),
    position: { line, column },
  }))
  if (format === 'docs') {
    // Paths are the resolved file's: a problem inside a $ref file shows at the place it fills. Only
    // the top-level keys a change touched are checked again, and only their problems indexed again
    // (a keystroke on a 23,000-page file).
    const report = checkConfig(value, { format, rules, refs, cache: docsCheckCache })
    const resolved = refs && refs.size ? resolveRefs(value, refs).value : value
    const folder = docs ? folderProblems(resolved, docs) : NO_SITE_PROBLEMS
    const keyChecks = typeof value === 'object' && value !== null && !(refs && refs.size) ? [...docsCheckCache.values()] : null
    if (!keyChecks || report.errors.length !== keyChecks.reduce((total, check) => total + check.errors.length, 0)) {
      return indexProblems([
        ...duplicated,
        ...report.errors.map((problem) => withSegments(problem, 'error')),
        ...report.warnings.map((problem) => withSegments(problem, 'warning')),
        ...folder.map((problem) => withSegments(problem, 'warning')),
      ])
    }
    const theme = report.warnings.filter((problem) => problem.path === 'variations')
    return joinParts([
      indexPart(duplicated),
      ...keyChecks.map((check) => partOf(check.errors, 'error')),
      ...keyChecks.flatMap((check) => [partOf(check.leftOut, 'warning'), partOf(check.ignored, 'warning'), partOf(check.extra, 'warning')]),
      indexPart(theme.map((problem) => withSegments(problem, 'warning'))),
      partOf(folder, 'warning'),
    ])
  }
  const report = checkSiteConfig(value, rules)
  return indexProblems(
    [
      ...duplicated,
      ...report.errors.map((problem) => withSegments(problem, 'error')),
      ...report.warnings.map((problem) => withSegments(problem, 'warning')),
      ...(docs ? docsProblems(value, docs.lookup, docs.openapi, docs.images).map((problem) => withSegments(problem, 'warning')) : []),
      ...report.info.map((problem) => withSegments(problem, 'info')),
    ],
    rules === 'spec' ? mintlifySuggestion(value, report) : null,
  )
}

const docsCheckCache: DocsCheckCache = new Map()
const NO_SITE_PROBLEMS: readonly SiteConfigProblem[] = []

/** The settings the docs folder checks read: while none changed (a colour typed), their problems stand. */
const FOLDER_KEYS = ['navigation', 'api', 'openapi', 'logo', 'favicon', 'background', 'backgroundImage', 'tabs', 'anchors']
let lastFolderInputs: unknown[] = []
let lastFolderProblems: readonly SiteConfigProblem[] = NO_SITE_PROBLEMS
function folderProblems(config: unknown, docs: DocsContext): readonly SiteConfigProblem[] {
  const inputs = [
    docs,
    ...FOLDER_KEYS.map((key) => (typeof config === 'object' && config !== null ? (config as Record<string, unknown>)[key] : config)),
  ]
  if (inputs.length === lastFolderInputs.length && inputs.every((input, index) => input === lastFolderInputs[index]))
    return lastFolderProblems
  lastFolderInputs = inputs
  lastFolderProblems = docsProblems(config, docs.lookup, docs.openapi, docs.images)
  return lastFolderProblems
}

let lastInputs: ProblemInputs | null = null
let lastIndex: ProblemIndex | null = null

/**
 * The index for the document's current content, computed once per change however many fields
 * ask for it: every field's selector calls this with the same state, and gets the same object.
 */
export function problemIndexFor(inputs: ProblemInputs): ProblemIndex {
  if (
    lastIndex &&
    lastInputs &&
    lastInputs.value === inputs.value &&
    lastInputs.syntaxError === inputs.syntaxError &&
    lastInputs.duplicates === inputs.duplicates &&
    lastInputs.rules === inputs.rules &&
    lastInputs.docs === inputs.docs &&
    lastInputs.format === inputs.format &&
    lastInputs.refs === inputs.refs
  )
    return lastIndex
  lastInputs = inputs
  lastIndex = buildProblemIndex(inputs)
  return lastIndex
}

export const NO_PROBLEMS: readonly Problem[] = []
export const NO_COUNTS: ProblemCounts = { errors: 0, warnings: 0, info: 0 }
