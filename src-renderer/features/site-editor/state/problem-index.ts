import { formatProblemPath } from '../../../../src-shared/site-config/format'
import type { JsonSyntaxError } from '../../../../src-shared/site-config/json-text'
import { validateSiteConfig, type SiteConfigProblem } from '../../../../src-shared/site-config/validate'
import { parseProblemPath, type Path } from './json-path'

export type ProblemSeverity = 'error' | 'warning'

export interface Problem extends SiteConfigProblem {
  severity: ProblemSeverity
  segments: Path
  /** Set for a JSON syntax error: where the text breaks. */
  position?: { line: number; column: number }
}

export interface ProblemCounts {
  errors: number
  warnings: number
}

/**
 * The validator's report arranged for the form: every problem in order (errors first), the
 * messages at each exact path for the field there, and counts under every path for collapsed
 * rows (a navigation group shows "2 errors" without rendering its pages).
 */
export interface ProblemIndex {
  problems: Problem[]
  counts: ProblemCounts
  at: Map<string, Problem[]>
  within: Map<string, ProblemCounts>
}

function indexProblems(problems: Problem[]): ProblemIndex {
  const at = new Map<string, Problem[]>()
  const within = new Map<string, ProblemCounts>()
  for (const problem of problems) {
    const here = at.get(problem.path)
    if (here) here.push(problem)
    else at.set(problem.path, [problem])
    for (let depth = 0; depth <= problem.segments.length; depth++) {
      const key = formatProblemPath(problem.segments.slice(0, depth))
      const counts = within.get(key) ?? { errors: 0, warnings: 0 }
      if (problem.severity === 'error') counts.errors++
      else counts.warnings++
      within.set(key, counts)
    }
  }
  return { problems, counts: within.get('$') ?? { errors: 0, warnings: 0 }, at, within }
}

const withSegments = (problem: SiteConfigProblem, severity: ProblemSeverity): Problem => ({
  ...problem,
  severity,
  segments: parseProblemPath(problem.path),
})

export function buildProblemIndex(value: unknown, syntaxError: JsonSyntaxError | null): ProblemIndex {
  if (syntaxError) {
    const { line, column, message } = syntaxError
    return indexProblems([
      { path: '$', segments: [], severity: 'error', message: `is not valid JSON at line ${line}, column ${column}: ${message}`, position: { line, column } },
    ])
  }
  const report = validateSiteConfig(value)
  return indexProblems([
    ...report.errors.map((problem) => withSegments(problem, 'error')),
    ...report.warnings.map((problem) => withSegments(problem, 'warning')),
  ])
}

let lastInput: { value: unknown; syntaxError: JsonSyntaxError | null } | null = null
let lastIndex: ProblemIndex | null = null

/**
 * The index for the document's current content, computed once per change however many fields
 * ask for it: every field's selector calls this with the same state, and gets the same object.
 */
export function problemIndexFor(value: unknown, syntaxError: JsonSyntaxError | null): ProblemIndex {
  if (lastIndex && lastInput && lastInput.value === value && lastInput.syntaxError === syntaxError) return lastIndex
  lastInput = { value, syntaxError }
  lastIndex = buildProblemIndex(value, syntaxError)
  return lastIndex
}

export const NO_PROBLEMS: readonly Problem[] = []
export const NO_COUNTS: ProblemCounts = { errors: 0, warnings: 0 }
