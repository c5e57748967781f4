import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { validate } from '@readme/openapi-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { buildOpenApiDocument } from '../../../src-shared/user-api/openapi'

let sandbox: Sandbox
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ec-openapi-served-'))
  sandbox = await startSandbox({ dataFile: join(dir, 'sandbox.json') })
})
afterAll(async () => {
  await sandbox.close()
  await rm(dir, { recursive: true, force: true })
})

/** A GET with a JSON body, which fetch cannot send. */
function getWithBody(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'GET', headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

describe('the sandbox serves its OpenAPI document', () => {
  it('at GET /openapi.json, without a token, pointed at itself', async () => {
    const response = await fetch(`${sandbox.baseUrl}/openapi.json`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const document = await response.json()
    expect(document).toEqual(buildOpenApiDocument({ serverUrl: sandbox.baseUrl }))
    expect((await validate(document)).valid).toBe(true)
  })

  it('whose server and path reach the API, with the documented Authorization header', async () => {
    const document = (await (await fetch(`${sandbox.baseUrl}/openapi.json?download=1`)).json()) as ReturnType<typeof buildOpenApiDocument>
    const url = `${document.servers[0]?.url}${Object.keys(document.paths)[0]}`
    const answer = await getWithBody(url, { Authorization: `Token ${sandbox.tokens.Customer}` }, JSON.stringify({ user_group_id: 'acme' }))
    expect(answer).toMatchObject({ status: 200, json: { success: 1, new_user_group: true } })
  })

  it('whose code samples for the GET with a body work as written: curl and Node', async () => {
    const document = (await (await fetch(`${sandbox.baseUrl}/openapi.json`)).json()) as ReturnType<typeof buildOpenApiDocument>
    const get = (document.paths['/api/user'] as { get: { 'x-codeSamples': { label: string; source: string }[] } }).get
    const sample = (label: string) => get['x-codeSamples'].find((candidate) => candidate.label === label)?.source ?? ''
    const env = { ...process.env, EMBED_CONSOLE_TOKEN: sandbox.tokens.Testing }
    const run = promisify(execFile)

    const curl = await run('sh', ['-c', sample('curl')], { env })
    expect(JSON.parse(curl.stdout)).toMatchObject({ success: 1, user_group: { provided_id: 'acme', api_environment_tag: 'Testing' } })
    const node = await run(process.execPath, ['--input-type=module', '-e', sample('Node (http.request)')], { env })
    const [status, ...body] = node.stdout.trim().split(' ')
    expect(status).toBe('200')
    expect(JSON.parse(body.join(' '))).toMatchObject({
      success: 1,
      new_user_group: false,
      user_group: { provided_id: 'acme', name: 'Acme Corp' },
    })
  })

  it('still requires the token on /api/user', async () => {
    const answer = await getWithBody(`${sandbox.baseUrl}/api/user`, {}, JSON.stringify({ user_group_id: 'acme' }))
    expect(answer).toEqual({
      status: 401,
      json: { success: 0, error: 'The Authorization header is missing: send "Authorization: Token <API_TOKEN>".' },
    })
  })

  it('answers HEAD without a body, and other methods with 405', async () => {
    const head = await fetch(`${sandbox.baseUrl}/openapi.json`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const post = await fetch(`${sandbox.baseUrl}/openapi.json`, { method: 'POST', body: '{}' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
  })

  it.each(['/openapi.json/', '/api/openapi.json', '/OPENAPI.JSON'])(
    'answers %s with the plain 404 of any path outside the API',
    async (path) => {
      const response = await fetch(`${sandbox.baseUrl}${path}`)
      expect(response.status).toBe(404)
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    },
  )
})
