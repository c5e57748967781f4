import { mkdtemp, rm } from 'node:fs/promises'
import { type IncomingHttpHeaders, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import Libsql from 'libsql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SANDBOX_MAX_BODY_BYTES } from '../../../src-main/sandbox/sandbox-requests'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { buildOpenApiDocument } from '../../../src-shared/user-api/openapi'
import { API_EXAMPLES, type ApiExample } from '../../../src-shared/user-api/openapi-examples'

// Every example of the document, sent again to a real sandbox on loopback in the order they were
// made: the answer must have the documented status, headers and schema, and be the example itself
// once the random tokens of this run stand in for the ones of the run the examples came from.

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  json: unknown
}

const document = buildOpenApiDocument()
const ajv = new Ajv2020({ strict: false, allErrors: true })
ajv.addSchema(document, 'openapi.json')

const pointer = (...segments: string[]) => segments.map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')

/** Where an example's answer is documented: its operation's response, or a shared one. */
function responseLocation(example: ApiExample): string {
  if (example.shared) return `#/${pointer('components', 'responses', example.shared)}`
  return `#/${pointer('paths', '/api/user', example.request.method.toLowerCase(), 'responses', String(example.response.status))}`
}

function resolve(location: string): Record<string, unknown> | undefined {
  let node: unknown = document
  for (const segment of location.slice(2).split('/')) {
    node = (node as Record<string, unknown> | undefined)?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')]
  }
  // A response may itself be a reference to a shared one.
  const ref = (node as { $ref?: string } | undefined)?.$ref
  return ref ? resolve(ref) : (node as Record<string, unknown> | undefined)
}

const validatorFor = (location: string) => {
  const schemaLocation = `${location}/${pointer('content', 'application/json', 'schema')}`
  const validate = ajv.getSchema(`openapi.json${schemaLocation}`)
  if (!validate) throw new Error(`No schema documented at ${schemaLocation}`)
  return validate
}

/** Replaces every string that is a key of `tokens` (deeply) with its value. */
function swapTokens(value: unknown, tokens: Map<string, string>): unknown {
  if (typeof value === 'string') return tokens.get(value) ?? value
  if (Array.isArray(value)) return value.map((item) => swapTokens(item, tokens))
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, swapTokens(item, tokens)]))
  return value
}

/**
 * The "could not save" sentence names the data file and the temporary file beside it: put this
 * run's folder where the example run's was, and drop the temporary file's random suffix.
 */
function send(sandbox: Sandbox, example: ApiExample, tokens: Map<string, string>): Promise<Answer> {
  const { method, authorization, body } = example.request
  const apiToken = sandbox.tokens.Customer
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  if (authorization === undefined) headers.Authorization = `Token ${apiToken}`
  if (authorization === 'other-scheme') headers.Authorization = `Bearer ${apiToken}`
  if (authorization === 'unknown-token') headers.Authorization = `Token ${'0'.repeat(64)}`
  const payload =
    'json' in body
      ? JSON.stringify(swapTokens(body.json, tokens))
      : 'text' in body
        ? body.text
        : Buffer.alloc(SANDBOX_MAX_BODY_BYTES + 1, ' ')
  headers['Content-Length'] = String(Buffer.byteLength(payload))
  return new Promise((resolvePromise, reject) => {
    const req = request({ host: '127.0.0.1', port: sandbox.port, method, path: '/api/user', headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        try {
          resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(text) })
        } catch {
          reject(new Error(`${method} answered ${res.statusCode} with a body that is not JSON: ${text.slice(0, 200)}`))
        }
      })
    })
    // The sandbox answers 413 and closes while a large body may still be going out.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)))
    req.end(payload)
  })
}

describe('every example of the OpenAPI document, against a real sandbox', () => {
  let sandbox: Sandbox
  let dir: string
  /** The example run's tokens → this run's. */
  const tokens = new Map<string, string>()

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ec-openapi-'))
    sandbox = await startSandbox({ dataFile: join(dir, 'data', 'sandbox.db'), busyTimeoutMs: 100 })
  })
  afterAll(async () => {
    await sandbox.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('documents each example exactly once, under its own operation or a shared response', () => {
    const documented: string[] = []
    const walk = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object') return
      for (const [key, child] of Object.entries(node)) {
        if (key === 'examples' && path.includes('/content/'))
          documented.push(...Object.keys(child as object).map((name) => `${path}/${name}`))
        else walk(child, `${path}/${pointer(key)}`)
      }
    }
    walk(document, '#')
    const responseExamples = documented.filter((location) => location.includes('/responses/'))
    const expected = API_EXAMPLES.map((example) => `${responseLocation(example)}/content/application~1json/${example.key}`)
    expect(responseExamples.sort()).toEqual([...expected].sort())
    // A request example always has its answer under the same key and operation.
    for (const location of documented.filter((where) => where.includes('/requestBody/'))) {
      const [, method, key] = /\/([a-z]+)\/requestBody\/content\/application~1json\/(\w+)$/.exec(location) ?? []
      expect(
        API_EXAMPLES.find((example) => example.key === key && example.request.method.toLowerCase() === method),
        location,
      ).toBeDefined()
    }
  })

  // In order: later examples rely on what earlier ones created and rotated.
  it.each(API_EXAMPLES.map((example) => [`${example.request.method} ${example.key} → ${example.response.status}`, example] as const))(
    '%s',
    async (_name, example) => {
      const location = responseLocation(example)
      const documented = resolve(location) as {
        headers?: Record<string, unknown>
        content: Record<string, { examples: Record<string, { value: unknown }> }>
      }
      const shown = documented.content['application/json']?.examples[example.key]?.value
      expect(shown, `the document shows the ${example.key} answer`).toEqual(example.response.body)
      // Where the document shows the request too, it is the one sent here.
      const operation = document.paths['/api/user'] as Record<
        string,
        { requestBody?: { content: Record<string, { examples: Record<string, { value: unknown }> }> } }
      >
      const shownRequest = operation[example.request.method.toLowerCase()]?.requestBody?.content['application/json']?.examples[example.key]
      if (shownRequest && !example.shared && 'json' in example.request.body) expect(shownRequest.value).toEqual(example.request.body.json)
      else expect(shownRequest, `the ${example.key} request example`).toBeUndefined()

      // Another process's long write: a second connection holds the write lock meanwhile.
      const holder = example.request.databaseBusy ? new Libsql(join(dir, 'data', 'sandbox.db')) : null
      holder?.exec('BEGIN IMMEDIATE')
      const answer = await send(sandbox, example, tokens).finally(() => {
        holder?.exec('ROLLBACK')
        holder?.close()
      })

      expect(answer.status, JSON.stringify(answer.json)).toBe(example.response.status)
      const validate = validatorFor(location)
      expect(validate(answer.json), JSON.stringify(validate.errors)).toBe(true)
      expect(validate(example.response.body), `the ${example.key} example fits its schema: ${JSON.stringify(validate.errors)}`).toBe(true)
      for (const header of Object.keys(documented.headers ?? {})) {
        expect(answer.headers[header.toLowerCase()], `header ${header}`).toBe(example.response.headers?.[header.toLowerCase()])
      }

      // A success carries a random group token: learn this run's, then compare all the rest.
      const exampleToken = (example.response.body as { user_group?: { token?: string } }).user_group?.token
      const realToken = (answer.json as { user_group?: { token?: string } }).user_group?.token
      if (exampleToken && realToken && !tokens.has(exampleToken)) tokens.set(exampleToken, realToken)
      expect(
        answer.json,
        `The sandbox's answer differs from the "${example.key}" example in src-shared/user-api/openapi-examples.ts: update the example to the answer, then regenerate docs/openapi.json.`,
      ).toEqual(swapTokens(example.response.body, tokens))
    },
  )
})
