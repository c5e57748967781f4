import { mkdir, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type AppServices, createAppServices } from '../../../src-main/app-services'
import { startWebServer, type WebServer } from '../../../src-main/web/web-server'
import { type CallName, contract } from '../../../src-shared/ipc/contract'
import { AppErrorSchema } from '../../../src-shared/ipc/result'
import { isLoopbackHostname } from '../../../src-shared/net/loopback'
import { arbitraryNear, type JsonSchema, mutated } from '../../helpers/json-schema-arbitrary'

/*
 * Every call of the contract, fuzzed through the real browser-mode transport: the HTTP host on
 * loopback, the router and the real services on a temporary data folder (with the embedded
 * sandbox, so group calls reach a real /api/user on loopback). Inputs are schema-near (built from
 * each call's JSON Schema, then some mutated) or arbitrary JSON. Every answer must be the
 * contract's `{ ok … }` JSON: never a 5xx, never an `internal` error (a handler that crashed),
 * and a success must match the call's output schema. Deterministic: a fixed seed, printed with
 * the counterexample when a property fails (fast-check's report gives "seed" and "path").
 */
const SEED = 20_261_123
const RUNS_PER_CALL = 60

let services: AppServices
let server: WebServer
let cookie: string
let siteDir: string
let loopbackUrls: string[]
let siteTemplate: string

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'ec-fuzz-'))
  siteDir = join(root, 'site-files')
  await mkdir(siteDir)
  const rendererDir = join(root, 'renderer')
  await mkdir(rendererDir)
  services = await createAppServices({ dataDir: join(root, 'data'), transport: 'browser' })
  server = await startWebServer({ services, rendererDir, port: 0 })
  const session = await fetch(`http://127.0.0.1:${server.port}/session`, {
    method: 'POST',
    body: JSON.stringify({ key: server.accessKey }),
  })
  cookie = session.headers.getSetCookie()[0]!.split(';')[0]!
  const sandbox = (await call('app.info', {})).json as { value: { sandbox: { baseUrl: string } } }
  // The sandbox, and a loopback port where nothing listens.
  loopbackUrls = [sandbox.value.sandbox.baseUrl, 'http://127.0.0.1:9']
  siteTemplate = ((await call('site.new', {})).json as { value: { text: string } }).value.text
})

/** What a real caller sends where a schema only says "string": working addresses, existing ids, a valid site.json. */
const hints = () => ({
  baseUrl: fc.constantFrom(...loopbackUrls),
  id: fc.constantFrom('local-sandbox', 'local-sandbox-testing'),
  profileId: fc.constantFrom('local-sandbox', 'local-sandbox-testing'),
  text: fc.constant(siteTemplate),
})

afterAll(async () => {
  await server?.close()
  await services?.close()
})

async function call(name: string, body: unknown, raw = false): Promise<{ status: number; json: unknown; text: string }> {
  const response = await fetch(`http://127.0.0.1:${server.port}/ipc/${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', cookie },
    body: raw ? (body as string) : JSON.stringify(body),
  })
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, json, text }
}

/**
 * Keeps every effect inside the temporary folders: any file or folder path (site.json files, a
 * docs folder, a bulk run's results) becomes a name in the test's own folder, and a base URL that parses becomes a loopback
 * one (no request ever leaves this machine). Everything else goes as generated.
 */
function confined(name: string, input: unknown, pick: number): unknown {
  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string') {
      if (key === 'path' && value.trim() !== '') return join(siteDir, value.replace(/[^a-z0-9.-]/gi, '-').slice(0, 40) || 'x')
      if (key === 'baseUrl' && URL.canParse(value.trim()) && !isLoopbackHostname(new URL(value.trim()).hostname))
        return loopbackUrls[pick % loopbackUrls.length]
      // An import file is JSON inside a string: its base URLs are confined the same way.
      if (key === 'text' && name === 'profiles.import') {
        try {
          return JSON.stringify(walk(JSON.parse(value)))
        } catch {
          return value
        }
      }
      return value
    }
    if (Array.isArray(value)) return value.map((item) => walk(item))
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([inner, item]) => [inner, walk(item, inner)]))
    return value
  }
  return walk(input)
}

/** What every answer must be, whatever was sent. */
function expectContractAnswer(name: string, answer: { status: number; json: unknown; text: string }) {
  expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500)
  expect(answer.json, answer.text.slice(0, 300)).toBeTypeOf('object')
  const result = answer.json as { ok: unknown; value?: unknown; error?: unknown }
  expect(typeof result.ok).toBe('boolean')
  if (result.ok) {
    expect(answer.status).toBe(200)
    const spec = contract[name as CallName]
    expect(spec, `answered ok to an unknown call ${name}`).toBeDefined()
    const checked = (spec.output as z.ZodType).safeParse(result.value)
    expect(checked.success, checked.success ? '' : z.prettifyError(checked.error)).toBe(true)
  } else {
    const error = AppErrorSchema.safeParse(result.error)
    expect(error.success, answer.text.slice(0, 300)).toBe(true)
    expect(error.data!.message.length).toBeGreaterThan(0)
    // `internal` means a handler threw something unexpected: a bug the fuzz exists to find.
    expect(error.data!.code, answer.text.slice(0, 500)).not.toBe('internal')
  }
}

describe(`IPC fuzz through browser mode's HTTP transport (seed ${SEED})`, () => {
  const names = Object.keys(contract) as CallName[]

  it.each(names)('%s answers every input with the contract’s { ok … } JSON', { timeout: 60_000 }, async (name) => {
    const schema = z.toJSONSchema(contract[name].input as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema
    const near = arbitraryNear(schema, hints())
    const input = fc.oneof(
      { arbitrary: near, weight: 4 },
      { arbitrary: mutated(near), weight: 3 },
      { arbitrary: fc.jsonValue({ maxDepth: 4 }), weight: 1 },
    )
    await fc.assert(
      fc.asyncProperty(input, fc.nat(), async (value, pick) => {
        expectContractAnswer(name, await call(name, confined(name, value, pick)))
      }),
      { seed: SEED, numRuns: RUNS_PER_CALL },
    )
  })

  it('answers bodies that are not JSON, too deep, or to calls that do not exist, without a 5xx', { timeout: 60_000 }, async () => {
    const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)
    const body = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ maxLength: 300, unit: 'binary' }),
      fc.jsonValue({ maxDepth: 5 }).map((value) => JSON.stringify(value)),
      fc.integer({ min: 60, max: 5000 }).map((levels) => `{"text":${deep(levels)}}`),
    )
    const name = fc.oneof(
      fc.constantFrom(...names),
      fc.stringMatching(/^[\w.-]{1,40}$/),
      fc.constantFrom('__proto__', 'constructor', 'toString', 'app.', '.', '-'),
    )
    await fc.assert(
      fc.asyncProperty(name, body, async (callName, text) => {
        const answer = await call(callName, text, true)
        expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500)
        const result = answer.json as { ok: boolean; error?: unknown }
        expect(typeof result.ok).toBe('boolean')
        if (!result.ok) expect(AppErrorSchema.safeParse(result.error).success).toBe(true)
        if (!result.ok) expect((result.error as { code: string }).code).not.toBe('internal')
      }),
      { seed: SEED, numRuns: 300 },
    )
  })

  it('still answers afterwards', async () => {
    const answer = await call('catalog.get', { groupId: 'after the fuzz' })
    expect(answer.json).toEqual({ ok: true, value: { entry: null, tokenKept: false } })
    expect((await call('profiles.list', {})).json).toMatchObject({ ok: true })
  })
})
