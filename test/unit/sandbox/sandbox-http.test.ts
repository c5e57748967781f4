import { mkdtemp, readdir, stat, writeFile } from 'node:fs/promises'
import { type IncomingHttpHeaders, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Libsql from 'libsql'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SANDBOX_MAX_BODY_BYTES } from '../../../src-main/sandbox/sandbox-requests'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { readSandboxData } from '../../helpers/sandbox-data'

// The sandbox's own HTTP behaviour, through raw node:http requests (no client in between).

interface RawAnswer {
  status: number
  headers: IncomingHttpHeaders
  text: string
  json: unknown
}

interface RawRequest {
  method?: string
  contentType?: string | null
  path?: string
  authorization?: string | null
  body?: string | Buffer
  /** Sent in pieces without a Content-Length (chunked: Node frames it so on PUT and POST, not GET). */
  chunked?: boolean
  headers?: Record<string, string>
}

let sandbox: Sandbox
let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ec-sandbox-'))
  sandbox = await startSandbox({ dataFile: join(dir, 'sandbox.db') })
})
afterEach(() => sandbox.close())

function send(options: RawRequest, target: Sandbox = sandbox): Promise<RawAnswer> {
  const { method = 'GET', path = '/api/user', authorization = `Token ${target.tokens.Customer}`, body = '', chunked = false } = options
  const { contentType = 'application/json' } = options
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers }
    if (contentType !== null) headers['Content-Type'] = contentType
    if (authorization !== null) headers.Authorization = authorization
    if (!chunked) headers['Content-Length'] = String(Buffer.byteLength(body))
    const req = request({ host: '127.0.0.1', port: target.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let json: unknown
        try {
          json = JSON.parse(text)
        } catch {
          json = undefined
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json })
      })
    })
    // The sandbox may answer 413 and close while a large body is still going out.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)))
    if (chunked) {
      const piece = Buffer.alloc(64 * 1024, 'a')
      const total = Buffer.byteLength(body)
      for (let sent = 0; sent < total; sent += piece.length) req.write(piece)
      req.end()
    } else req.end(body)
  })
}

const json = (value: unknown) => JSON.stringify(value)
const failure = (error: string | RegExp) => ({ success: 0, error: typeof error === 'string' ? error : expect.stringMatching(error) })

describe('authentication', () => {
  it.each([
    ['no Authorization header', null, 'The Authorization header is missing: send "Authorization: Token <API_TOKEN>".'],
    ['another scheme', 'Bearer abc', 'The Authorization header must read "Token <API_TOKEN>".'],
    ['a wrong token', 'Token 0123', 'The API token is not recognised.'],
    ['a token with the wrong case', 'Token WRONG', 'The API token is not recognised.'],
  ])('answers 401 with %s', async (_case, authorization, sentence) => {
    const answer = await send({ authorization, body: json({ user_group_id: 'a' }) })
    expect(answer.status).toBe(401)
    expect(answer.headers['www-authenticate']).toBe('Token')
    expect(answer.json).toEqual(failure(sentence))
  })

  it('answers 401 to any part of a real token, a real token with more after it or its last character changed, in either environment', async () => {
    for (const token of [sandbox.tokens.Customer, sandbox.tokens.Testing]) {
      const lastChanged = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`
      for (const near of [
        token.slice(0, -1),
        token.slice(0, 8),
        token.slice(1),
        `${token}0`,
        `${token}${token}`,
        token.toUpperCase(),
        lastChanged,
      ]) {
        const answer = await send({ authorization: `Token ${near}`, body: json({ user_group_id: 'a' }) })
        expect(answer.status).toBe(401)
        expect(answer.json).toEqual(failure('The API token is not recognised.'))
      }
    }
  })

  it('accepts the scheme word in any case', async () => {
    expect((await send({ authorization: `token ${sandbox.tokens.Customer}`, body: json({ user_group_id: 'a' }) })).status).toBe(200)
  })
})

describe('request bodies', () => {
  it.each([
    ['an empty body', 'GET', '', 'The request body is empty: send a JSON object.'],
    ['a body that is not JSON', 'PUT', '{"user_group_id":', 'The request body is not JSON.'],
    [
      'a missing user_group_id',
      'GET',
      json({ name: 'x' }),
      'The request body is not valid: user_group_id: a non-empty string is required.',
    ],
    ['an unknown field', 'PUT', json({ user_group_id: 'a', nmae: 'x' }), 'The request body is not valid: body: Unrecognized key: "nmae".'],
    ['a mapping with a number', 'GET', json({ user_group_id: 'a', mapping: { s: 1 } }), /^The request body is not valid: mapping\.s: /],
    [
      'an empty current_token',
      'POST',
      json({ current_token: '' }),
      'The request body is not valid: current_token: the current user group token is required, not an empty string.',
    ],
    ['a JSON array', 'POST', '[]', /^The request body is not valid: body: /],
  ])('answers 400 for %s', async (_case, method, body, sentence) => {
    const answer = await send({ method, body })
    expect(answer.status).toBe(400)
    expect(answer.json).toEqual(failure(sentence))
  })

  it('answers a GET with a JSON body (the spec’s get-or-create) with 200', async () => {
    const answer = await send({ body: json({ user_group_id: 'acme', name: 'Acme' }) })
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(answer.json).toMatchObject({ success: 1, new_user_group: true, user_group: { provided_id: 'acme', name: 'Acme' } })
  })

  it('reads the body as JSON whatever the Content-Type says, or without one', async () => {
    expect((await send({ contentType: null, body: json({ user_group_id: 'a' }) })).status).toBe(200)
    expect((await send({ contentType: 'text/plain', body: json({ user_group_id: 'b' }) })).status).toBe(200)
  })

  it('never returns the mapping: the spec’s user group has no such field', async () => {
    const answer = await send({ body: json({ user_group_id: 'acme', mapping: { s1: 'ds1' } }) })
    expect(answer.json).not.toHaveProperty('user_group.mapping')
  })
})

describe('methods, paths and sizes', () => {
  it.each(['DELETE', 'PATCH', 'HEAD'])('answers %s on /api/user with 405 and the allowed methods', async (method) => {
    const answer = await send({ method })
    expect(answer.status).toBe(405)
    expect(answer.headers.allow).toBe('GET, PUT, POST, OPTIONS')
    if (method !== 'HEAD')
      expect(answer.json).toEqual(
        failure(`${method} is not allowed on /api/user: use GET (get or create), PUT (update) or POST (rotate a token).`),
      )
  })

  it.each(['/', '/api/users', '/api/user/', '/v2/api/user'])('answers %s with a plain 404, outside the API', async (path) => {
    const answer = await send({ path, body: json({ user_group_id: 'a' }) })
    expect(answer.status).toBe(404)
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(answer.text).toBe(`Not found: ${path}. The sandbox API is at /api/user.`)
  })

  it('ignores a query string on /api/user', async () => {
    expect((await send({ path: '/api/user?x=1', body: json({ user_group_id: 'a' }) })).status).toBe(200)
  })

  it('answers 413 to a body over 1 MB announced by Content-Length, before reading it', async () => {
    const answer = await send({ body: json({ user_group_id: 'a', properties: { blob: 'x'.repeat(SANDBOX_MAX_BODY_BYTES) } }) })
    expect(answer.status).toBe(413)
    expect(answer.headers.connection).toBe('close')
    expect(answer.json).toEqual(failure('The request body is larger than 1 MB.'))
  })

  it('refuses a body nested deeper than 64 levels, and keeps serving', async () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
    // properties itself is the second level: 62 more levels inside it is 64 in all.
    expect((await send({ body: `{"user_group_id":"deep","properties":${nested(62)}}` })).status).toBe(200)
    const answer = await send({ body: `{"user_group_id":"deeper","properties":${nested(2000)}}` })
    expect(answer.status).toBe(400)
    expect(answer.json).toEqual(failure('The request body is nested more than 64 levels deep.'))
    expect((await send({ body: json({ user_group_id: 'after' }) })).status).toBe(200)
    // Nothing of it was kept: a restart reads every stored group back.
    await sandbox.close()
    sandbox = await startSandbox({ dataFile: join(dir, 'sandbox.db') })
    expect(readSandboxData(join(dir, 'sandbox.db')).groups.map((group) => group.provided_id)).toEqual(['deep', 'after'])
  })

  it('answers 413 to a chunked body once it passes 1 MB', async () => {
    const answer = await send({ method: 'PUT', body: Buffer.alloc(3 * SANDBOX_MAX_BODY_BYTES), chunked: true })
    expect(answer.status).toBe(413)
  })

  it('accepts a body of exactly 1 MB', async () => {
    const prefix = json({ user_group_id: 'a', properties: { blob: '' } })
    const body = prefix.replace('""', `"${'x'.repeat(SANDBOX_MAX_BODY_BYTES - prefix.length)}"`)
    expect(Buffer.byteLength(body)).toBe(SANDBOX_MAX_BODY_BYTES)
    expect((await send({ body })).status).toBe(200)
  })

  it('requires the token before it looks at the body', async () => {
    expect((await send({ authorization: null, body: 'not json' })).status).toBe(401)
  })
})

describe('environments', () => {
  it('tags groups with the environment of the API token used, and keeps ids apart per environment', async () => {
    const inCustomer = await send({ body: json({ user_group_id: 'acme' }) })
    const inTesting = await send({ authorization: `Token ${sandbox.tokens.Testing}`, body: json({ user_group_id: 'acme' }) })
    expect(inCustomer.json).toMatchObject({ new_user_group: true, user_group: { api_environment_tag: 'Customer' } })
    expect(inTesting.json).toMatchObject({ new_user_group: true, user_group: { api_environment_tag: 'Testing' } })
  })

  it('gives each environment its own 64-hex API token', () => {
    expect(sandbox.tokens.Customer).toMatch(/^[0-9a-f]{64}$/)
    expect(sandbox.tokens.Testing).toMatch(/^[0-9a-f]{64}$/)
    expect(sandbox.tokens.Customer).not.toBe(sandbox.tokens.Testing)
  })
})

describe('the database', () => {
  const readData = async () => readSandboxData(join(dir, 'sandbox.db'))

  it('is owner-only and holds the generated API tokens from the first start', async () => {
    expect((await stat(join(dir, 'sandbox.db'))).mode & 0o777).toBe(0o600)
    expect((await readData()).apiTokens).toEqual(sandbox.tokens)
  })

  it('keeps groups and API tokens across a restart', async () => {
    const created = (await send({ body: json({ user_group_id: 'acme', name: 'Acme' }) })).json as { user_group: { token: string } }
    const tokens = sandbox.tokens
    await sandbox.close()
    sandbox = await startSandbox({ dataFile: join(dir, 'sandbox.db') })
    expect(sandbox.tokens).toEqual(tokens)
    const again = await send({ body: json({ user_group_id: 'acme' }) })
    expect(again.json).toMatchObject({ new_user_group: false, user_group: { token: created.user_group.token, name: 'Acme' } })
  })

  it('uses tokens given at start without writing them, and keeps the generated ones for later', async () => {
    const generated = sandbox.tokens
    await sandbox.close()
    sandbox = await startSandbox({ dataFile: join(dir, 'sandbox.db'), customerToken: 'given-customer', testingToken: 'given-testing' })
    expect(sandbox.tokens).toEqual({ Customer: 'given-customer', Testing: 'given-testing' })
    expect((await send({ authorization: 'Token given-customer', body: json({ user_group_id: 'a' }) })).status).toBe(200)
    expect(JSON.stringify(await readData())).not.toContain('given-')
    await sandbox.close()
    sandbox = await startSandbox({ dataFile: join(dir, 'sandbox.db') })
    expect(sandbox.tokens).toEqual(generated)
  })

  it('stays whole under many concurrent writes, with one group per id', async () => {
    const ids = Array.from({ length: 40 }, (_, index) => `group-${index % 20}`)
    const answers = await Promise.all(ids.map((id) => send({ body: json({ user_group_id: id }) })))
    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    expect(answers.filter((answer) => (answer.json as { new_user_group: boolean }).new_user_group)).toHaveLength(20)
    const saved = await readData()
    expect(new Set(saved.groups.map((group) => group.provided_id)).size).toBe(20)
    expect(saved.groups).toHaveLength(20)
  })

  it('moves a damaged database aside, says so, and starts empty', async () => {
    await sandbox.close()
    const file = join(dir, 'broken.db')
    await writeFile(file, 'SQLite format 3\0 but not really a database '.repeat(200))
    const notices: string[] = []
    sandbox = await startSandbox({ dataFile: file, log: (line) => notices.push(line) })
    expect(notices).toEqual([
      expect.stringMatching(
        /^broken\.db could not be read \(it is damaged or not a database\)\. It was moved aside to broken\.db\.corrupt-.+ and a new one was started\. The sandbox starts empty\.$/,
      ),
    ])
    expect((await readdir(dir)).some((name) => name.startsWith('broken.db.corrupt-'))).toBe(true)
    expect((await send({ body: json({ user_group_id: 'after' }) })).status).toBe(200)
  })

  it('imports a data file of release 0.1.0 given as --data, keeping it as .migrated; an unreadable one is moved aside', async () => {
    await sandbox.close()
    const file = join(dir, 'old.json')
    await writeFile(
      file,
      JSON.stringify({
        format: 'embed-console-sandbox',
        version: 1,
        apiTokens: { Customer: 'c'.repeat(64), Testing: 't'.repeat(64) },
        nextTeamId: 8,
        groups: [],
      }),
    )
    sandbox = await startSandbox({ dataFile: file })
    expect(sandbox.tokens).toEqual({ Customer: 'c'.repeat(64), Testing: 't'.repeat(64) })
    expect(((await send({ body: json({ user_group_id: 'x' }) })).json as { user_group: { team_id: number } }).user_group.team_id).toBe(8)
    expect(await readdir(dir)).toContain('old.json.migrated')
    await sandbox.close()

    const broken = join(dir, 'broken.json')
    await writeFile(broken, '{ not json')
    const notices: string[] = []
    sandbox = await startSandbox({ dataFile: broken, log: (line) => notices.push(line) })
    expect(notices).toEqual([
      expect.stringMatching(
        /^broken\.json\.migrated could not be read \(it is not valid JSON\)\. It was moved aside to broken\.json\.migrated\.corrupt-.+\. The sandbox starts without it\.$/,
      ),
    ])
  })

  it('refuses two equal API tokens: the token decides the environment', async () => {
    await expect(startSandbox({ dataFile: join(dir, 'other.json'), customerToken: 'same', testingToken: 'same' })).rejects.toMatchObject({
      code: 'invalid_input',
    })
  })
})

describe('browser clients (CORS)', () => {
  it('answers a preflight without a token: 204, the methods and headers a call needs, any origin', async () => {
    const answer = await send({
      method: 'OPTIONS',
      authorization: null,
      contentType: null,
      headers: {
        Origin: 'https://docs.example.com',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    })
    expect(answer.status).toBe(204)
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, PUT, POST',
      'access-control-allow-headers': 'Authorization, Content-Type',
      'access-control-max-age': '600',
      allow: 'GET, PUT, POST, OPTIONS',
    })
    expect(answer.headers['access-control-allow-private-network']).toBeUndefined()
    expect(answer.text).toBe('')
  })

  it('lets a public page reach it on loopback (Private Network Access)', async () => {
    const answer = await send({
      method: 'OPTIONS',
      headers: {
        Origin: 'https://docs.example.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Private-Network': 'true',
      },
    })
    expect(answer.headers['access-control-allow-private-network']).toBe('true')
  })

  it('lets any origin read its answers, failures included', async () => {
    const created = await send({ method: 'PUT', body: json({ user_group_id: 'nobody' }), headers: { Origin: 'https://docs.example.com' } })
    const refused = await send({ authorization: null, body: json({ user_group_id: 'a' }) })
    for (const answer of [created, refused]) {
      expect(answer.headers['access-control-allow-origin']).toBe('*')
      expect(answer.headers['access-control-expose-headers']).toBe('Retry-After, WWW-Authenticate')
    }
  })
})

describe('answers', () => {
  it('are the JSON of the spec’s fields in its order, strings escaped as JSON.stringify escapes them', async () => {
    const name = 'Quote " backslash \\ tab \t line \u2028 é \u{1F680}'
    const id = 'id "1" \\'
    const created = await send({ body: json({ user_group_id: id, name, properties: { plan: 'pro', seats: [1, 2] } }) })
    const { team_id: teamId, token } = (created.json as { user_group: { team_id: number; token: string } }).user_group
    const group = (currentToken: string, groupName = name) => ({
      team_id: teamId,
      token: currentToken,
      name: groupName,
      provided_id: id,
      properties: { plan: 'pro', seats: [1, 2] },
      api_environment_tag: 'Customer',
    })
    expect(created.text).toBe(json({ success: 1, new_user_group: true, user_group: group(token) }))
    expect((await send({ body: json({ user_group_id: id }) })).text).toBe(
      json({ success: 1, new_user_group: false, user_group: group(token) }),
    )
    const renamed = await send({ method: 'PUT', body: json({ user_group_id: id, name: 'Renamed' }) })
    expect(renamed.text).toBe(json({ success: 1, user_group: group(token, 'Renamed') }))
    const rotated = await send({ method: 'POST', body: json({ current_token: token }) })
    const newToken = (rotated.json as { user_group: { token: string } }).user_group.token
    expect(newToken).not.toBe(token)
    expect(rotated.text).toBe(json({ success: 1, user_group: group(newToken, 'Renamed') }))
  })

  it('carry null properties for a group created without any', async () => {
    const answer = await send({ authorization: `Token ${sandbox.tokens.Testing}`, body: json({ user_group_id: 'bare' }) })
    const { team_id: teamId, token } = (answer.json as { user_group: { team_id: number; token: string } }).user_group
    const group = { team_id: teamId, token, name: '', provided_id: 'bare', properties: null, api_environment_tag: 'Testing' }
    expect(answer.text).toBe(json({ success: 1, new_user_group: true, user_group: group }))
  })
})

describe('text kept exactly', () => {
  it.each([
    ['a NUL in the id', { user_group_id: 'ac\u0000me' }, 'user_group_id holds a NUL character (U+0000) at position 3'],
    ['a NUL in the name', { user_group_id: 'acme', name: 'Acme\u0000 Corp' }, 'name holds a NUL character (U+0000) at position 5'],
    [
      'a lone high surrogate in the id',
      { user_group_id: 'ac\ud800me' },
      'user_group_id holds a lone surrogate (U+D800, half of a character) at position 3',
    ],
    [
      'a lone low surrogate in the name',
      { user_group_id: 'acme', name: '\udc00Acme' },
      'name holds a lone surrogate (U+DC00, half of a character) at position 1',
    ],
  ])('refuses %s with a 400 sentence, and keeps nothing cut short', async (_case, body, sentence) => {
    for (const method of ['GET', 'PUT']) {
      const answer = await send({ method, body: json(body) })
      expect(answer.status).toBe(400)
      expect(answer.json).toEqual(failure(`${sentence}, which the sandbox cannot keep exactly: send it without.`))
    }
    expect(readSandboxData(join(dir, 'sandbox.db')).groups).toEqual([])
  })

  it('keeps an id with a whole surrogate pair (an emoji) as sent, and tells it from another', async () => {
    const first = await send({ body: json({ user_group_id: 'team-\u{1F680}' }) })
    const second = await send({ body: json({ user_group_id: 'team-\u{1F681}' }) })
    expect(first.json).toMatchObject({ new_user_group: true, user_group: { provided_id: 'team-\u{1F680}' } })
    expect(second.json).toMatchObject({ new_user_group: true, user_group: { provided_id: 'team-\u{1F681}' } })
  })

  it('refuses a body that is not UTF-8 instead of changing its bytes', async () => {
    const answer = await send({ body: Buffer.concat([Buffer.from('{"user_group_id":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]) })
    expect(answer.status).toBe(400)
    expect(answer.json).toEqual(failure('The request body is not valid UTF-8: send JSON encoded as UTF-8.'))
  })

  it('answers the properties as the JSON text they were sent in: a __proto__ key and integers past 2^53 come back', async () => {
    const properties =
      '{"__proto__": {"admin": true}, "big": 9007199254740993, "ids": [12345678901234567890, -9007199254740995], "price": 1.10}'
    const created = await send({ body: `{"user_group_id": "exact", "properties": ${properties}}` })
    expect(created.status).toBe(200)
    expect(created.text).toContain(`"properties":${properties}`)
    const again = await send({ body: json({ user_group_id: 'exact' }) })
    expect(again.text).toContain(`"properties":${properties}`)

    const changed = '{"__proto__": null, "big": 18014398509481985}'
    const updated = await send({ method: 'PUT', body: `{"user_group_id": "exact", "properties": ${changed}}` })
    expect(updated.text).toContain(`"properties":${changed}`)
  })

  it('stores the mapping as sent too, a __proto__ schema id included', async () => {
    await send({ body: '{"user_group_id": "mapped", "mapping": {"__proto__": "warehouse", "s1": "ds1"}}' })
    const db = new Libsql(join(dir, 'sandbox.db'), { readonly: true })
    const row = db.prepare("SELECT mapping FROM groups WHERE provided_id = 'mapped'").get() as { mapping: string }
    db.close()
    expect(row.mapping).toBe('{"__proto__": "warehouse", "s1": "ds1"}')
  })

  const storedText = (providedId: string) => {
    const db = new Libsql(join(dir, 'sandbox.db'), { readonly: true })
    const row = db.prepare('SELECT mapping, properties FROM groups WHERE provided_id = ?').get(providedId) as {
      mapping: string
      properties: string | null
    }
    db.close()
    return { mapping: row.mapping, properties: row.properties }
  }

  it('stores the mapping and the properties of one body each as sent, on a create and on an update', async () => {
    const mapping = '{ "__proto__": "warehouse",\n "s1": "ds1" }'
    const properties = '{"big": 9007199254740993, "nested": {"__proto__": [1.10]}}'
    await send({ body: `{"user_group_id": "both", "mapping": ${mapping}, "properties": ${properties}}` })
    expect(storedText('both')).toEqual({ mapping, properties })

    const changedMapping = '{"s2":  "ds2"}'
    const changedProperties = '{"big": 18014398509481985}'
    const updated = await send({
      method: 'PUT',
      body: `{"properties": ${changedProperties}, "user_group_id": "both", "mapping": {"s1": "x"}, "mapping": ${changedMapping}}`,
    })
    expect(updated.text).toContain(`"properties":${changedProperties}`)
    expect(storedText('both')).toEqual({ mapping: changedMapping, properties: changedProperties })
  })

  it('finds a member sent under an escaped key, as JSON.parse reads it', async () => {
    const answer = await send({ body: '{"user_group_id": "escaped", "propert\\u0069es": {"big": 9007199254740993}}' })
    expect(answer.status).toBe(200)
    expect(answer.text).toContain('"properties":{"big": 9007199254740993}')
  })

  it('answers an existing group with its stored properties, whatever properties the get-or-create sends', async () => {
    await send({ body: '{"user_group_id": "kept", "properties": {"plan": "pro"}}' })
    const again = await send({ body: '{"user_group_id": "kept", "properties": {"plan": "free"}, "mapping": {"s": "d"}}' })
    expect(again.json).toMatchObject({ new_user_group: false })
    expect(again.text).toContain('"properties":{"plan": "pro"}')
    expect(storedText('kept')).toEqual({ mapping: '{}', properties: '{"plan": "pro"}' })
  })

  it('takes the last of a repeated key, as JSON.parse does', async () => {
    const answer = await send({ body: '{"user_group_id": "twice", "properties": {"a": 1}, "properties": {"b": 2}}' })
    expect(answer.text).toContain('"properties":{"b": 2}')
  })
})
