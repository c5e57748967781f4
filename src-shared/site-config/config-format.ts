import { z } from 'zod'
import { DOCS_THEMES } from './docs-schema'
import { checkDocsConfig, type DocsCheckCache } from './docs-validate'
import { isPlainObject } from './mint-schema'
import { checkMintConfig, readConfigText, type SiteConfigProblem } from './mint-validate'
import { type RefFile, resolveRefs, unknownUnder } from './refs'
import type { RuleSet } from './rule-sets'

// Two formats, one editor: 'docs' is Mintlify's docs.json (what sites use today); 'mint' is its
// older mint.json, which the product's statement calls site.json (docs/site-json.md; one format, two file names).
// "site" alone means the docs site's configuration in any format: the site editor, its files and
// folder. A file says which format it is by its shape (docs.json's navigation is an object,
// mint.json's a list), else by its $schema, else by its name.

export const CONFIG_FORMATS = ['docs', 'mint'] as const
export const ConfigFormatSchema = z.enum(CONFIG_FORMATS)
export type ConfigFormat = z.infer<typeof ConfigFormatSchema>

const baseName = (path: string) => path.split(/[\\/]/).at(-1)?.toLowerCase() ?? ''

export function detectConfigFormat(value: unknown, path: string | null = null): ConfigFormat {
  if (!isPlainObject(value)) return 'mint'
  // The shape is the surest sign: three real docs.json files name mint.json's schema.
  if (isPlainObject(value.navigation)) return 'docs'
  if (Array.isArray(value.navigation)) return 'mint'
  const schema = typeof value.$schema === 'string' ? value.$schema : ''
  if (/\/docs\.json\b/.test(schema)) return 'docs'
  if (/\/schema\.json\b/.test(schema)) return 'mint'
  const name = path === null ? '' : baseName(path)
  if (name === 'docs.json') return 'docs'
  if (name === 'mint.json' || name === 'site.json') return 'mint'
  return typeof value.theme === 'string' && (DOCS_THEMES as readonly string[]).includes(value.theme) ? 'docs' : 'mint'
}

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
