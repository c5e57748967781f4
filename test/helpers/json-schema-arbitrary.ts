import fc from 'fast-check'

/**
 * Inputs near a JSON Schema (as `z.toJSONSchema` writes it): values that mostly fit, built from
 * its types, enums, patterns, lengths and bounds. Hand-written because the libraries that map
 * schemas to fast-check (zod-fast-check, json-schema-fast-check) support neither zod 4 nor
 * fast-check 4. Only the keywords zod emits are read; anything else is an arbitrary JSON value.
 */
export type JsonSchema = {
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
  $ref?: string
  $defs?: Record<string, JsonSchema>
}

const anyJson = fc.jsonValue({ maxDepth: 3 })
/** Long enough to reach every length check that matters here, short enough to stay fast. */
const MAX_STRING = 200

function stringNear(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'date-time')
    return fc.date({ noInvalidDate: true, min: new Date('1970-01-01'), max: new Date('2100-01-01') }).map((date) => date.toISOString())
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= (schema.maxLength ?? Infinity))
  const minLength = schema.minLength ?? 0
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING))
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: 'grapheme' }))
}

function numberNear(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1e9
  const max = schema.maximum ?? 1e9
  if (integer) return fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) })
  return fc.double({ min, max, noNaN: true })
}

/**
 * Values a schema cannot describe but a caller means (a base URL that works, an id that exists),
 * by property name: mixed in with what the schema gives for that property.
 */
export type Hints = Record<string, fc.Arbitrary<unknown>>

export function arbitraryNear(schema: JsonSchema, hints: Hints = {}, root: JsonSchema = schema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return anyJson
  const near = (inner: JsonSchema) => arbitraryNear(inner, hints, root, depth + 1)
  if (schema.$ref) {
    const name = schema.$ref.replace(/^#\/\$defs\//, '')
    const target = root.$defs?.[name]
    return target ? near(target) : anyJson
  }
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum) return fc.constantFrom(...schema.enum)
  if (schema.anyOf ?? schema.oneOf) return fc.oneof(...(schema.anyOf ?? schema.oneOf)!.map(near))
  if (schema.allOf?.[0]) return near(schema.allOf[0])
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'string':
      return stringNear(schema)
    case 'integer':
      return numberNear(schema, true)
    case 'number':
      return numberNear(schema, false)
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(schema.items ? near(schema.items) : anyJson, {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      })
    case 'object': {
      const properties = schema.properties ?? {}
      const required = Object.keys(properties).filter((key) => schema.required?.includes(key))
      const property = (key: string, inner: JsonSchema) => (hints[key] ? fc.oneof(hints[key], near(inner)) : near(inner))
      const known = fc.record(Object.fromEntries(Object.entries(properties).map(([key, inner]) => [key, property(key, inner)])), {
        requiredKeys: required,
      })
      if (typeof schema.additionalProperties !== 'object') return known
      // A record type (mapping, properties): its own entries.
      return fc
        .tuple(known, fc.dictionary(fc.string({ maxLength: 20 }), near(schema.additionalProperties), { maxKeys: 4 }))
        .map(([fixed, extra]) => ({ ...extra, ...fixed }))
    }
    default:
      return anyJson
  }
}

/** An object changed the way a confused or hostile caller would: a key dropped, one added, one given a wrong value. */
export function mutated(value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(value, fc.nat(), fc.string({ maxLength: 20 }), anyJson, fc.constantFrom('drop', 'add', 'retype'))
    .map(([input, pick, key, junk, how]) => {
      if (input === null || typeof input !== 'object' || Array.isArray(input)) return junk
      const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) }
      const keys = Object.keys(copy)
      const chosen = keys.length > 0 ? keys[pick % keys.length]! : key
      if (how === 'drop') delete copy[chosen]
      else if (how === 'add') copy[`${key}_extra`] = junk
      else copy[chosen] = junk
      return copy
    })
}
