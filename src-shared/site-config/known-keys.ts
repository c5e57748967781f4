import { z } from 'zod'
import { isPlainObject, SiteConfigSchema } from './schema'

/**
 * The keys the schema knows at each place of the file, derived once from SiteConfigSchema.
 * `fields` describes an object (a child of null is a leaf: nothing below it to check), `items`
 * a list's elements. A union contributes its object option and its list option.
 */
interface KnownShape {
  fields?: Map<string, KnownShape | null>
  /** False where the schema itself refuses unknown keys (footerSocials): the error says it already. */
  warnUnknown?: boolean
  items?: KnownShape
}

function knownShapeOf(schema: z.ZodType): KnownShape | null {
  if (schema instanceof z.ZodOptional) return knownShapeOf(schema.unwrap() as z.ZodType)
  if (schema instanceof z.ZodObject) {
    const fields = new Map<string, KnownShape | null>()
    for (const [key, child] of Object.entries(schema.shape)) fields.set(key, knownShapeOf(child as z.ZodType))
    return { fields, warnUnknown: !(schema.def.catchall instanceof z.ZodNever) }
  }
  if (schema instanceof z.ZodArray) {
    const items = knownShapeOf(schema.element as z.ZodType)
    return items && { items }
  }
  if (schema instanceof z.ZodUnion) {
    // The schema's unions hold at most one object and one list option ("a path or an object").
    const shapes = (schema.options as z.ZodType[]).map(knownShapeOf)
    const fieldsOption = shapes.find((shape) => shape?.fields)
    const itemsOption = shapes.find((shape) => shape?.items)
    if (!fieldsOption && !itemsOption) return null
    return { ...fieldsOption, ...(itemsOption && { items: itemsOption.items }) }
  }
  return null
}

const siteConfigShape = knownShapeOf(SiteConfigSchema) as KnownShape

/**
 * Calls `report` for every key the spec does not know, in one walk of the value, with the keys it
 * knows beside it. The path array is reused: read it during the call, do not keep it.
 */
export function forEachUnknownKey(
  config: unknown,
  report: (path: readonly PropertyKey[], knownSiblings: Iterable<string>) => void,
): void {
  // One path array, pushed and popped, so a file without unknown keys allocates no paths.
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
        if (child) visit(value[key], child)
        else if (child === undefined && shape.warnUnknown) report(path, shape.fields.keys())
        path.pop()
      }
    }
  }
  visit(config, siteConfigShape)
}
