import type { ConfigFormat } from './config-format'
import { checkDocsConfig, type DocsCheckCache } from './docs-validate'
import { checkMintConfig, readConfigText, type SiteConfigProblem } from './mint-validate'
import { type RefFile, resolveRefs, unknownUnder } from './refs'
import type { RuleSet } from './rule-sets'

/** How a file is checked: docs.json by Mintlify's rules; mint.json (site.json) by the rule set chosen for it. */
export interface CheckOptions {
  format: ConfigFormat
  rules: RuleSet
  /** The files its `$ref`s name, as loaded (docs.json only). */
  refs?: ReadonlyMap<string, RefFile>
  /** Keeps the checks of a docs.json's unchanged top-level keys between checks of one document (docs-validate.ts). */
  cache?: DocsCheckCache
}

export interface ConfigCheck {
  format: ConfigFormat
  valid: boolean
  errors: SiteConfigProblem[]
  warnings: SiteConfigProblem[]
  info: SiteConfigProblem[]
}

/** Checks a parsed file in its format. A docs.json's `$ref`s are resolved with the files given first. */
export function checkConfig(value: unknown, { format, rules, refs, cache }: CheckOptions): ConfigCheck {
  if (format === 'mint') {
    const { valid, errors, warnings, info } = checkMintConfig(value, rules)
    return { format, valid, errors, warnings, info }
  }
  const resolved = resolveRefs(value, refs ?? new Map())
  const check = checkDocsConfig(resolved.value, cache)
  if (resolved.problems.length === 0 && resolved.pending.length === 0) return { format, ...check }
  // What a $ref that could not be followed (or is still being read, or was left at the cap) would have held is unknown:
  // nothing under it is judged.
  const under = unknownUnder(resolved)
  const errors = [
    ...resolved.problems.map(({ path, message }) => ({ path, message })),
    ...check.errors.filter((problem) => !under(problem.path)),
  ]
  return {
    format,
    valid: errors.length === 0 && resolved.pending.length === 0,
    errors,
    warnings: check.warnings.filter((problem) => !under(problem.path)),
    info: check.info,
  }
}

/** Checks a file's text: broken JSON, and keys written twice, as readConfigText reports them. */
export function checkConfigText(text: string, options: CheckOptions): ConfigCheck {
  const read = readConfigText(text)
  if (!read.ok) return { format: options.format, valid: false, errors: [read.problem], warnings: [], info: [] }
  const check = checkConfig(read.value, options)
  return read.duplicates.length ? { ...check, valid: false, errors: [...read.duplicates, ...check.errors] } : check
}
