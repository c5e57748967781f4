import type { z } from 'zod'

// The form's placeholders and "Not set" labels come from the schema's recorded defaults, so the
// defaults of docs/site-json.md are written once (in src-shared/site-config/mint-schema.ts) and never into a file.

const defaultOf = (schema: z.ZodType): unknown => schema.meta()?.default

/** A string default, shown as the empty field's placeholder. */
export function placeholderOf(schema: z.ZodType): string | undefined {
  const value = defaultOf(schema)
  return typeof value === 'string' ? value : undefined
}

/** The label of a select's first option, which leaves the key out: "Not set (default: duotone)". */
export function unsetLabelOf(schema: z.ZodType, whenNoDefault = 'Not set'): string {
  const value = defaultOf(schema)
  if (value === undefined) return whenNoDefault
  return `Not set (default: ${value === true ? 'yes' : value === false ? 'no' : String(value)})`
}

/** A field's meaning as docs/site-json.md gives it, for its hint. */
export const meaningOf = (schema: z.ZodType) => schema.description
