import { z } from 'zod'
import type { ConfigFormat } from './config-format'
import { DocsConfigSchema } from './docs-schema'
import { MintConfigSchema } from './mint-schema'
import { MintConfigMintlifySchema, type RuleSet } from './rule-sets'

/**
 * site.json's JSON Schema for Monaco's JSON language service: completions, hovers (the meanings
 * of docs/site-json.md), defaults and type diagnostics in the raw view. Draft-07, which Monaco reads fully.
 * What JSON Schema cannot say (the call-to-action name required only for type "link", the
 * warnings) comes from the validator, which the editor shows beside these diagnostics.
 */
function jsonSchemaOf(schema: z.ZodType) {
  const json = z.toJSONSchema(schema, { target: 'draft-07', io: 'input' })
  // `$schema` names the schema a file follows: known to both rule sets, never a site setting.
  json.properties = { $schema: { type: 'string', description: 'The JSON Schema this file follows, for editors.' }, ...json.properties }
  return json
}

export const mintConfigJsonSchema = jsonSchemaOf(MintConfigSchema)
export const mintConfigMintlifyJsonSchema = jsonSchemaOf(MintConfigMintlifySchema)

let docsJsonSchema: ReturnType<typeof jsonSchemaOf> | null = null
/** docs.json's, made on first use: its recursive navigation makes it the largest (about 260 kB). */
export const docsConfigJsonSchema = () => (docsJsonSchema ??= z.toJSONSchema(DocsConfigSchema, { target: 'draft-07', io: 'input' }))

export const jsonSchemaFor = (rules: RuleSet, format: ConfigFormat = 'mint') =>
  format === 'docs' ? docsConfigJsonSchema() : rules === 'mintlify' ? mintConfigMintlifyJsonSchema : mintConfigJsonSchema
