import type { RuleSet } from './rule-sets'

/*
 * What a check says of a configuration: below every checker, so none imports another to name its
 * result.
 */

/** One thing to fix or check, where `path` is in the notation of `formatProblemPath`. */
export interface SiteConfigProblem {
  path: string
  message: string
  /** Where in the text, 1-based, for problems of the text itself (broken JSON, a key written twice). */
  line?: number
  column?: number
}

/** `valid` is false exactly when there are errors; warnings never make a file invalid. */
export interface SiteConfigReport {
  valid: boolean
  errors: SiteConfigProblem[]
  warnings: SiteConfigProblem[]
}

/** A report under a chosen rule set, with the settings kept as written that the site.json spec (docs/site-json.md) does not have. */
export interface SiteConfigCheck extends SiteConfigReport {
  rules: RuleSet
  info: SiteConfigProblem[]
}
