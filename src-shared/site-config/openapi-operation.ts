import { z } from 'zod'
import { isPlainObject } from './mint-schema'

// An OpenAPI operation as a docs page shows it: its parameters, request body and responses, with
// the schemas inside reduced to a bounded tree of fields (name, type, required, description). Only
// `$ref`s inside the document are followed (`#/…`), each field tree is cut at a depth and a count,
// and a cycle stops where it closes: a crafted file cannot make the preview large or endless.

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const
const MAX_DEPTH = 6
const MAX_FIELDS = 300
const MAX_TEXT = 4000

export interface SchemaField {
  name: string
  type: string
  required: boolean
  description: string
  defaultValue?: string
  enumValues?: string[]
  deprecated?: boolean
  children?: SchemaField[]
}

export const SchemaFieldSchema: z.ZodType<SchemaField> = z.lazy(() =>
  z.object({
    name: z.string(),
    type: z.string(),
    required: z.boolean(),
    description: z.string(),
    defaultValue: z.string().optional(),
    enumValues: z.array(z.string()).optional(),
    deprecated: z.boolean().optional(),
    children: z.array(SchemaFieldSchema).optional(),
  }),
)

export const OperationViewSchema = z.object({
  method: z.string(),
  path: z.string(),
  summary: z.string(),
  description: z.string(),
  deprecated: z.boolean(),
  servers: z.array(z.string()),
  parameters: z.array(z.object({ location: z.string(), field: SchemaFieldSchema })),
  requestBody: z.object({ contentType: z.string(), required: z.boolean(), fields: z.array(SchemaFieldSchema) }).nullable(),
  responses: z.array(
    z.object({ status: z.string(), description: z.string(), contentType: z.string(), fields: z.array(SchemaFieldSchema) }),
  ),
})
export type OperationView = z.infer<typeof OperationViewSchema>

export const OperationSummarySchema = z.object({ operation: z.string(), summary: z.string(), deprecated: z.boolean() })
export type OperationSummary = z.infer<typeof OperationSummarySchema>

const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, MAX_TEXT) : '')

/** Every operation of a document, as navigation names it ("GET /users"), with its summary, in the document's order. */
export function operationSummaries(api: unknown): OperationSummary[] {
  const found: OperationSummary[] = []
  const paths = isPlainObject(api) && isPlainObject(api.paths) ? api.paths : {}
  for (const [path, item] of Object.entries(paths)) {
    if (!isPlainObject(item)) continue
    for (const method of METHODS) {
      const operation = item[method]
      if (!isPlainObject(operation) || operation['x-hidden'] === true || operation['x-excluded'] === true) continue
      const operationName = `${method.toUpperCase()} ${path}`
      found.push({ operation: operationName, summary: text(operation.summary) || operationName, deprecated: operation.deprecated === true })
    }
  }
  return found
}

/** A `#/a/b` pointer inside the document, or undefined. */
function pointer(api: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined
  let at: unknown = api
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    if (!isPlainObject(at) && !Array.isArray(at)) return undefined
    at = (at as Record<string, unknown>)[key]
  }
  return at
}

interface Walk {
  api: unknown
  fields: number
}

/** The object a `$ref` names (once), and the refs seen on the way, so a cycle is noticed. */
function deref(walk: Walk, value: unknown, seen: ReadonlySet<string>): { value: unknown; seen: ReadonlySet<string> } {
  let current = value
  let trail = seen
  for (let hops = 0; hops < 8 && isPlainObject(current) && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref
    if (trail.has(ref)) return { value: { type: 'object', description: `(refers back to ${ref.split('/').pop()})` }, seen: trail }
    trail = new Set([...trail, ref])
    current = pointer(walk.api, ref)
  }
  return { value: current, seen: trail }
}

function typeOf(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.type)) return schema.type.filter((entry) => typeof entry === 'string').join(' | ')
  if (typeof schema.type === 'string') {
    if (schema.type === 'array' && isPlainObject(schema.items)) {
      const item = schema.items
      const ref = typeof item.$ref === 'string' ? item.$ref.split('/').pop() : undefined
      return `${ref ?? (typeof item.type === 'string' ? item.type : 'object')}[]`
    }
    return typeof schema.format === 'string' ? `${schema.type}<${schema.format}>` : schema.type
  }
  if (schema.properties) return 'object'
  if (schema.oneOf || schema.anyOf) return 'one of'
  return 'any'
}

/** The fields of an object schema (its properties, its allOf parts, an array's items), as a tree. */
function fieldsOf(walk: Walk, raw: unknown, depth: number, seen: ReadonlySet<string>): SchemaField[] {
  const { value: schema, seen: trail } = deref(walk, raw, seen)
  if (!isPlainObject(schema) || depth > MAX_DEPTH) return []
  if (schema.type === 'array' || (schema.items && !schema.properties)) return fieldsOf(walk, schema.items, depth, trail)
  const fields: SchemaField[] = []
  for (const part of [...(Array.isArray(schema.allOf) ? schema.allOf : [])]) fields.push(...fieldsOf(walk, part, depth, trail))
  const variants = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : []
  if (!isPlainObject(schema.properties) && variants.length) fields.push(...fieldsOf(walk, variants[0], depth, trail))
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === 'string') : [])
  if (isPlainObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      if (walk.fields >= MAX_FIELDS) break
      fields.push(fieldOf(walk, name, property, required.has(name), depth, trail))
    }
  }
  return fields
}

function fieldOf(walk: Walk, name: string, raw: unknown, required: boolean, depth: number, seen: ReadonlySet<string>): SchemaField {
  walk.fields++
  const { value: schema, seen: trail } = deref(walk, raw, seen)
  if (!isPlainObject(schema)) return { name, type: 'any', required, description: '' }
  const field: SchemaField = { name, type: typeOf(schema), required, description: text(schema.description) }
  if (schema.default !== undefined) field.defaultValue = JSON.stringify(schema.default).slice(0, 200)
  if (Array.isArray(schema.enum)) field.enumValues = schema.enum.slice(0, 30).map((entry) => JSON.stringify(entry).slice(0, 100))
  if (schema.deprecated === true) field.deprecated = true
  const children = depth < MAX_DEPTH ? fieldsOf(walk, schema, depth + 1, trail) : []
  if (children.length) field.children = children
  return field
}

/** The first media type of a content map and its schema. */
function firstContent(walk: Walk, content: unknown): { contentType: string; schema: unknown } {
  if (!isPlainObject(content)) return { contentType: '', schema: undefined }
  const [contentType, media] = Object.entries(content)[0] ?? ['', undefined]
  return { contentType, schema: isPlainObject(media) ? deref(walk, media.schema, new Set()).value : undefined }
}

/** One operation of a document ("POST /users"), or null when the document has none by that name. */
export function operationView(api: unknown, name: string): OperationView | null {
  const match = /^(\S+)\s+(.+)$/.exec(name.trim())
  if (!match || !isPlainObject(api) || !isPlainObject(api.paths)) return null
  const method = match[1]!.toLowerCase()
  const path = match[2]!.trim()
  const walk: Walk = { api, fields: 0 }
  const item = deref(walk, api.paths[path], new Set()).value
  if (!isPlainObject(item)) return null
  const operation = item[method]
  if (!isPlainObject(operation)) return null
  const parameters = [
    ...(Array.isArray(item.parameters) ? item.parameters : []),
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
  ]
    .map((raw) => deref(walk, raw, new Set()).value)
    .filter(isPlainObject)
    .map((parameter) => ({
      location: text(parameter.in) || 'query',
      field: {
        ...fieldOf(
          walk,
          text(parameter.name),
          parameter.schema ?? {},
          parameter.required === true || parameter.in === 'path',
          1,
          new Set(),
        ),
        ...(text(parameter.description) ? { description: text(parameter.description) } : {}),
      },
    }))
  const body = deref(walk, operation.requestBody, new Set()).value
  let requestBody: OperationView['requestBody'] = null
  if (isPlainObject(body)) {
    const { contentType, schema } = firstContent(walk, body.content)
    requestBody = { contentType, required: body.required === true, fields: fieldsOf(walk, schema, 1, new Set()) }
  } else {
    // Swagger 2: the body is a parameter `in: body`.
    const bodyParameter = parameters.find((parameter) => parameter.location === 'body')
    if (bodyParameter)
      requestBody = { contentType: 'application/json', required: bodyParameter.field.required, fields: bodyParameter.field.children ?? [] }
  }
  const responses = Object.entries(isPlainObject(operation.responses) ? operation.responses : {}).map(([status, raw]) => {
    const response = deref(walk, raw, new Set()).value
    const described = isPlainObject(response) ? response : {}
    const { contentType, schema } = firstContent(walk, described.content)
    return {
      status,
      description: text(described.description),
      contentType,
      fields: fieldsOf(walk, schema ?? described.schema, 1, new Set()),
    }
  })
  const servers = (Array.isArray(operation.servers) ? operation.servers : Array.isArray(api.servers) ? api.servers : [])
    .map((server) => (isPlainObject(server) ? text(server.url) : ''))
    .filter(Boolean)
  return {
    method: method.toUpperCase(),
    path,
    summary: text(operation.summary),
    description: text(operation.description),
    deprecated: operation.deprecated === true,
    servers,
    parameters: parameters.filter((parameter) => parameter.location !== 'body'),
    requestBody,
    responses,
  }
}
