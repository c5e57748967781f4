import { z } from 'zod'
import { isPlainObject } from './mint-schema'
import { FILE_KEYS, mintConfigSchemaFor, MINTLIFY_ONLY_SETTINGS, type RuleSet } from './rule-sets'

/**
 * The keys a rule set knows at each place of the file, derived once from its schema. `fields`
 * describes an object (a child of null is a leaf: nothing below it to check; OUTSIDE_SPEC marks a
 * Mintlify setting the site.json spec (docs/site-json.md) does not have), `items` a list's elements. A union contributes its
 * object option and its list option. Recursive schemas (nested groups) give recursive shapes.
 */
interface KnownShape {
  fields?: Map<string, KnownShape | null | typeof OUTSIDE_SPEC>
  /** False where the schema itself refuses unknown keys (footerSocials, docs/site-json.md): the error says it already. */
  warnUnknown?: boolean
  items?: KnownShape
}

const OUTSIDE_SPEC = 'outside-spec'

function knownShapeOf(schema: z.ZodType, seen: Map<z.ZodType, KnownShape | null>): KnownShape | null {
  if (seen.has(schema)) return seen.get(schema)!
  if (schema instanceof z.ZodOptional) return knownShapeOf(schema.unwrap() as z.ZodType, seen)
  if (schema instanceof z.ZodLazy) {
    // Registered first: a lazy schema is how docs.json's navigation refers to itself.
    const shape: KnownShape = {}
    seen.set(schema, shape)
    const inner = knownShapeOf(schema.unwrap() as z.ZodType, seen)
    if (!inner) {
      seen.set(schema, null)
      return null
    }
    return Object.assign(shape, inner)
  }
  if (schema instanceof z.ZodObject) {
    // Registered before its fields are read, so a group inside a group finds the same shape.
    const shape: KnownShape = { fields: new Map(), warnUnknown: !(schema.def.catchall instanceof z.ZodNever) }
    seen.set(schema, shape)
    for (const [key, child] of Object.entries(schema.shape)) shape.fields!.set(key, knownShapeOf(child as z.ZodType, seen))
    return shape
  }
  if (schema instanceof z.ZodArray) {
    const items = knownShapeOf(schema.element as z.ZodType, seen)
    return items && { items }
  }
  if (schema instanceof z.ZodUnion) {
    const shape: KnownShape = {}
    seen.set(schema, shape)
    // An object option and a list option ("a path or an object", "a path or a list"); where
    // several options are objects (docs.json's navbar button kinds), a key any of them knows is known.
    const options = (schema.options as z.ZodType[]).map((option) => knownShapeOf(option, seen))
    const fieldsOptions = options.filter((option) => option?.fields) as KnownShape[]
    const itemsOption = options.find((option) => option?.items)
    if (!fieldsOptions.length && !itemsOption) {
      seen.set(schema, null)
      return null
    }
    if (fieldsOptions.length === 1) Object.assign(shape, fieldsOptions[0])
    else if (fieldsOptions.length > 1) {
      shape.fields = new Map(fieldsOptions.flatMap((option) => [...option.fields!]))
      shape.warnUnknown = fieldsOptions.every((option) => option.warnUnknown)
    }
    if (itemsOption) shape.items = itemsOption.items
    return shape
  }
  seen.set(schema, null)
  return null
}

function shapeAt(shape: KnownShape | null | undefined, at: readonly string[]): KnownShape | undefined {
  let current = shape ?? undefined
  for (const step of at) {
    if (!current) return undefined
    const next = step === '*' ? current.items : current.fields?.get(step)
    current = next && next !== OUTSIDE_SPEC ? next : undefined
  }
  return current
}

function buildShape(rules: RuleSet): KnownShape {
  const shape = knownShapeOf(mintConfigSchemaFor(rules), new Map())!
  for (const key of FILE_KEYS) shape.fields!.set(key, null)
  for (const { at, keys } of MINTLIFY_ONLY_SETTINGS) {
    const place = shapeAt(shape, at)
    if (!place?.fields) throw new Error(`No object at ${at.join('.')} to list Mintlify's settings in.`)
    for (const key of keys) if (!place.fields.has(key)) place.fields.set(key, OUTSIDE_SPEC)
  }
  return shape
}

/** Each rule set's shape, built at its first walk: checking or converting a docs.json never walks one. */
const shapes: Partial<Record<RuleSet, KnownShape>> = {}

/** The keys a schema knows at each place, for walkExtraKeys: built once per schema. */
export function knownShapeFor(schema: z.ZodType): KnownShape {
  const shape = knownShapeOf(schema, new Map())
  if (!shape) throw new Error('A schema of objects or lists is needed to know its keys.')
  return shape
}
export type { KnownShape }

export interface ExtraKeyVisitor {
  /** A key the rule set does not know at all, with the keys it knows beside it. */
  unknown(path: readonly PropertyKey[], knownSiblings: Iterable<string>): void
  /** A setting of Mintlify's that the site.json spec (docs/site-json.md) does not have. */
  outsideSpec(path: readonly PropertyKey[]): void
}

/**
 * Calls the visitor for every key a rule set does not know, and every Mintlify setting outside
 * the site.json spec (docs/site-json.md), in one walk of the value. The path array is reused: read it during the call, do not keep it.
 */
export function forEachExtraKey(config: unknown, rules: RuleSet, visitor: ExtraKeyVisitor): void {
  walkExtraKeys(config, (shapes[rules] ??= buildShape(rules)), visitor)
}

/** forEachExtraKey over any schema's known shape (see knownShapeFor). */
export function walkExtraKeys(config: unknown, known: KnownShape, visitor: ExtraKeyVisitor): void {
  // One path array, pushed and popped, so a file without extra keys allocates no paths.
  const path: PropertyKey[] = []
  const visit = (value: unknown, shape: KnownShape): void => {
    if (Array.isArray(value)) {
      if (!shape.items) return
      for (let index = 0; index < value.length; index++) {
        path.push(index)
        visit(value[index], shape.items)
        path.pop()
      }
    } else if (shape.fields && isPlainObject(value)) {
      for (const key of Object.keys(value)) {
        const child = shape.fields.get(key)
        path.push(key)
        if (child === OUTSIDE_SPEC) visitor.outsideSpec(path)
        else if (child) visit(value[key], child)
        else if (child === undefined && shape.warnUnknown)
          visitor.unknown(
            path,
            [...shape.fields.keys()].filter((name) => shape.fields!.get(name) !== OUTSIDE_SPEC),
          )
        path.pop()
      }
    }
  }
  visit(config, known)
}
