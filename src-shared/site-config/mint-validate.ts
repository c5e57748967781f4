import { duplicateKeyProblems, findDuplicateKeys } from './duplicate-keys'
import { problemsFromIssues } from './issue-messages'
import { jsonErrorSentence, parseJsonText } from './json-text'
import type { SiteConfigCheck, SiteConfigProblem, SiteConfigReport } from './problem'
import { mintConfigSchemaFor, type RuleSet } from './rule-sets'
import { findNotes } from './warnings'

export type { SiteConfigCheck, SiteConfigProblem, SiteConfigReport } from './problem'

/** Checks a parsed site.json value against a rule set. Never throws; never changes the value. */
export function checkMintConfig(value: unknown, rules: RuleSet = 'spec'): SiteConfigCheck {
  // The parsed output is not used: the caller's value, with its key order and unknown keys, is
  // the file. reportInput lets the messages name what was written.
  const result = mintConfigSchemaFor(rules).safeParse(value, { reportInput: true })
  const errors = result.success ? [] : problemsFromIssues(result.error.issues)
  const { warnings, info } = findNotes(value, rules)
  return { rules, valid: errors.length === 0, errors, warnings, info }
}

/** Checks a parsed site.json value against the site.json spec (docs/site-json.md). Never throws; never changes the value. */
export function validateMintConfig(value: unknown): SiteConfigReport {
  const { valid, errors, warnings } = checkMintConfig(value, 'spec')
  return { valid, errors, warnings }
}

/**
 * A config file's text read for checking: a JSON syntax error as one problem at `$` with its
 * line and column, or the value with every key written twice in one object (which JSON.parse
 * would silently collapse) as an error at each place.
 */
export function readConfigText(
  text: string,
): { ok: false; problem: SiteConfigProblem } | { ok: true; value: unknown; duplicates: SiteConfigProblem[] } {
  const parsed = parseJsonText(text)
  if (!parsed.ok) {
    const { line, column } = parsed.error
    return { ok: false, problem: { path: '$', message: jsonErrorSentence(parsed.error), line, column } }
  }
  return { ok: true, value: parsed.value, duplicates: duplicateKeyProblems(findDuplicateKeys(text)) }
}

/** Checks site.json text (see readConfigText). */
export function checkMintConfigText(text: string, rules: RuleSet = 'spec'): SiteConfigCheck {
  const read = readConfigText(text)
  if (!read.ok) return { rules, valid: false, errors: [read.problem], warnings: [], info: [] }
  const check = checkMintConfig(read.value, rules)
  if (read.duplicates.length === 0) return check
  return { ...check, valid: false, errors: [...read.duplicates, ...check.errors] }
}

/** Checks site.json text against the site.json spec (docs/site-json.md) (see checkMintConfigText). */
export function validateMintConfigText(text: string): SiteConfigReport {
  const { valid, errors, warnings } = checkMintConfigText(text, 'spec')
  return { valid, errors, warnings }
}
