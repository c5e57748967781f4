import { problemsFromIssues } from './issue-messages'
import { parseJsonText } from './json-text'
import { SiteConfigSchema } from './schema'
import { findWarnings } from './warnings'

/** One thing to fix or check, where `path` is in the notation of `formatProblemPath`. */
export interface SiteConfigProblem {
  path: string
  message: string
}

/** `valid` is false exactly when there are errors; warnings never make a file invalid. */
export interface SiteConfigReport {
  valid: boolean
  errors: SiteConfigProblem[]
  warnings: SiteConfigProblem[]
}

/** Checks a parsed site.json value against the spec. Never throws; never changes the value. */
export function validateSiteConfig(value: unknown): SiteConfigReport {
  // The parsed output is not used: the caller's value, with its key order and unknown keys, is
  // the file. reportInput lets the messages name what was written.
  const result = SiteConfigSchema.safeParse(value, { reportInput: true })
  const errors = result.success ? [] : problemsFromIssues(result.error.issues)
  return { valid: errors.length === 0, errors, warnings: findWarnings(value) }
}

/** Checks site.json text: a JSON syntax error is reported at `$` with its line and column. */
export function validateSiteConfigText(text: string): SiteConfigReport {
  const parsed = parseJsonText(text)
  if (parsed.ok) return validateSiteConfig(parsed.value)
  const { line, column, message } = parsed.error
  return {
    valid: false,
    errors: [{ path: '$', message: `is not valid JSON at line ${line}, column ${column}: ${message}` }],
    warnings: [],
  }
}
