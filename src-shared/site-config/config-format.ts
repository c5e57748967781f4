import { z } from 'zod'
import { DOCS_THEMES } from './docs-schema'
import { isPlainObject } from './mint-schema'

// Two formats, one editor: 'docs' is Mintlify's docs.json (what sites use today); 'mint' is its
// older mint.json, which the product's statement calls site.json (docs/site-json.md; one format, two file names).
// "site" alone means the docs site's configuration in any format: the site editor, its files and
// folder. A file says which format it is by its shape (docs.json's navigation is an object,
// mint.json's a list), else by its $schema, else by its name. Checking a file in its format is
// config-check.ts: telling the format needs none of the checks' modules.

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
