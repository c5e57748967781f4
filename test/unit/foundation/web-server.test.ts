import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { connect } from 'node:net'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type AppServices, createAppServices } from '../../../src-main/app-services'
import { MAX_CALL_BODY_BYTES, startWebServer, type WebServer } from '../../../src-main/web/web-server'
import { NEW_LINK_TTL_MS, sessionCookieName } from '../../../src-main/web/web-sessions'

interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A raw node:http request, so Host, Origin and Cookie can be set as a hostile page or proxy would. */
function send(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer; host?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: options.host ?? '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
      },
    )
    // A server that answers before reading the whole upload may close under the rest: the answer counts.
    req.on('error', reject)
    req.end(options.body)
  })
}

/** A POST without Content-Length (chunked), as a client that streams its body sends it. */
function chunkedPost(port: number, path: string, body: Buffer, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.write(body.subarray(0, 1))
    req.end(body.subarray(1))
  })
}

/** Trades a key for a session, as the page does on its first load. */
const openSession = (port: number, body: unknown, headers: Record<string, string> = {}) =>
  send(port, { method: 'POST', path: '/session', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

/** The `name=value` part of a Set-Cookie header. */
const cookiePair = (response: RawResponse) => String(response.headers['set-cookie']?.[0] ?? '').split(';')[0]!

describe('browser mode server', () => {
  let services: AppServices
  let server: WebServer
  let calls: number
  let cookie: string

  beforeEach(async () => {
    const root = await mkdtemp(join(tmpdir(), 'ec-web-'))
    const rendererDir = join(root, 'renderer')
    await mkdir(rendererDir)
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Embed Console</title>')
    await writeFile(join(root, 'secret.txt'), 'outside the renderer')
    services = await createAppServices({ dataDir: join(root, 'data'), transport: 'browser' })
    calls = 0
    const dispatch = services.router.dispatch
    services.router.dispatch = (...args) => {
      calls += 1
      return dispatch(...args)
    }
    server = await startWebServer({ services, rendererDir, port: 0 })
    cookie = cookiePair(await openSession(server.port, { key: server.accessKey }))
  })

  afterEach(async () => {
    await server.close()
    await services.close()
  })

  const call = (name: string, body: unknown, headers: Record<string, string> = {}) =>
    send(server.port, {
      method: 'POST',
      path: `/ipc/${name}`,
      headers: { 'content-type': 'application/json', cookie, ...headers },
      body: JSON.stringify(body),
    })

  it('prints a loopback URL with a fresh random key in its fragment', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#key=${server.accessKey}`)
    expect(server.accessKey.length).toBeGreaterThanOrEqual(32)
    const other = await startWebServer({ services, rendererDir: tmpdir(), port: 0 })
    expect(other.accessKey).not.toBe(server.accessKey)
    await other.close()
  })

  it('round-trips a call through the router with the session cookie', async () => {
    const response = await call('catalog.get', { groupId: 'round trip' })
    expect(response.status).toBe(200)
    expect(JSON.parse(response.body)).toEqual({ ok: true, value: { entry: null, tokenKept: false } })
  })

  it('answers a schema failure as a typed error, not a crash', async () => {
    const response = await call('catalog.get', { groupId: ['not', 'a', 'string'] })
    expect(JSON.parse(response.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })

  it('trades the key once for an HttpOnly, SameSite=Strict session cookie named for its port', async () => {
    expect(cookie).toMatch(new RegExp(`^${sessionCookieName(server.port)}=[\\w-]{40,}$`))
    const fresh = await startWebServer({ services, rendererDir: tmpdir(), port: 0 })
    try {
      const opened = await openSession(fresh.port, { key: fresh.accessKey })
      expect(opened.status).toBe(200)
      expect(opened.headers['set-cookie']).toEqual([expect.stringMatching(/; Path=\/; HttpOnly; SameSite=Strict$/)])
      expect(cookiePair(opened)).not.toBe(cookie)
    } finally {
      await fresh.close()
    }
  })

  it('opens nothing with a key already used: the address left in history is useless', async () => {
    const again = await openSession(server.port, { key: server.accessKey })
    expect(again.status).toBe(401)
    expect(again.headers['set-cookie']).toBeUndefined()
    expect(JSON.parse(again.body)).toMatchObject({ ok: false, error: { code: 'refused', details: { keyUsed: true } } })
    // The browser that holds the session is told it is open, with or without the old key.
    expect((await openSession(server.port, { key: server.accessKey }, { cookie })).status).toBe(200)
    expect((await openSession(server.port, {}, { cookie })).status).toBe(200)
  })

  it('refuses a wrong key, a prefix of the key or the key with more after it', async () => {
    const fresh = await startWebServer({ services, rendererDir: tmpdir(), port: 0 })
    try {
      for (const key of [
        'A'.repeat(fresh.accessKey.length),
        fresh.accessKey.slice(0, -1),
        fresh.accessKey.slice(0, 8),
        `${fresh.accessKey}x`,
        '',
        42,
      ]) {
        const refused = await openSession(fresh.port, { key })
        expect(refused.status).toBe(401)
        expect(refused.headers['set-cookie']).toBeUndefined()
      }
      // None of them spent the key.
      expect((await openSession(fresh.port, { key: fresh.accessKey })).status).toBe(200)
    } finally {
      await fresh.close()
    }
  })

  it('answers the preview’s files without the session, by their path’s token, only through its own Host, GET or HEAD', async () => {
    const path = '/preview-files/abcdefghijklmnopqrstuvwx/logo.png'
    // No cookie: the preview's sandboxed frame sends none. The preview itself answers the token (unknown here).
    const got = await send(server.port, { path })
    expect(got).toMatchObject({ status: 404, body: 'No such preview.' })
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength('No such preview.')))
    const head = await send(server.port, { method: 'HEAD', path })
    expect(head).toMatchObject({ status: 404, body: '' })
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength('No such preview.')))
    const rebound = await send(server.port, { path, headers: { host: `rebind.example:${server.port}` } })
    expect(rebound.status).toBe(403)
    expect(rebound.body).toContain('This server answers only on its loopback address.')
    expect((await send(server.port, { method: 'POST', path, body: '{}' })).status).toBe(405)
    expect(calls).toBe(0)
  })

  it('refuses to open a session from another origin or through another Host, and keeps the key unspent', async () => {
    const fresh = await startWebServer({ services, rendererDir: tmpdir(), port: 0 })
    try {
      expect((await openSession(fresh.port, { key: fresh.accessKey }, { origin: 'http://evil.example' })).status).toBe(403)
      expect((await openSession(fresh.port, { key: fresh.accessKey }, { origin: `http://127.0.0.1:${server.port}` })).status).toBe(403)
      expect((await openSession(fresh.port, { key: fresh.accessKey }, { host: `rebind.example:${fresh.port}` })).status).toBe(403)
      expect((await openSession(fresh.port, { key: fresh.accessKey })).status).toBe(200)
    } finally {
      await fresh.close()
    }
  })

  it('refuses a call without the session cookie, with a wrong or partial one, or with the key instead', async () => {
    const name = sessionCookieName(server.port)
    const value = cookie.slice(name.length + 1)
    const attempts: Record<string, string>[] = [
      { cookie: '' },
      { cookie: `${name}=${'A'.repeat(value.length)}` },
      { cookie: `${name}=${value.slice(0, -1)}` },
      { cookie: `${name}=${value.slice(0, 10)}` },
      { cookie: `${name}=${value}x` },
      { cookie: `${sessionCookieName(server.port + 1)}=${value}` },
      { cookie: '', 'x-embed-console-key': server.accessKey },
    ]
    for (const headers of attempts) {
      const refused = await call('catalog.get', { groupId: 'x' }, headers)
      expect(refused.status).toBe(401)
    }
    expect(calls).toBe(0)
    const accepted = await call('catalog.get', { groupId: 'x' }, { cookie: `other=1; ${cookie}; more=2` })
    expect(accepted.status).toBe(200)
  })

  it('refuses a call from another origin even with the session cookie, another loopback port included', async () => {
    const elsewhere = [
      'http://evil.example',
      `http://127.0.0.1:${server.port + 1}`,
      `http://localhost:${server.port + 1}`,
      `http://[::1]:${server.port}`,
      `https://127.0.0.1:${server.port}`,
      `http://127.0.0.2:${server.port}`,
      'null',
    ]
    for (const origin of elsewhere) {
      const response = await call('catalog.get', { groupId: 'x' }, { origin })
      expect(response.status, origin).toBe(403)
    }
    expect(calls).toBe(0)
  })

  it('refuses a request whose Host is not its loopback address (DNS rebinding)', async () => {
    const response = await call('catalog.get', { groupId: 'x' }, { host: `rebind.example:${server.port}` })
    expect(response.status).toBe(403)
    expect(calls).toBe(0)
  })

  it('accepts its own origin', async () => {
    const response = await call('catalog.get', { groupId: 'x' }, { origin: `http://127.0.0.1:${server.port}` })
    expect(response.status).toBe(200)
  })

  it('answers a body that is not JSON with 400', async () => {
    const response = await send(server.port, { method: 'POST', path: '/ipc/catalog.get', headers: { cookie }, body: '{not json' })
    expect(response.status).toBe(400)
    expect(calls).toBe(0)
  })

  it('answers a call larger than its cap with 413, whether it says its length or not, and the router never sees it', async () => {
    const body = Buffer.alloc(MAX_CALL_BODY_BYTES + 1024, 0x20)
    const declared = await send(server.port, { method: 'POST', path: '/ipc/catalog.get', headers: { cookie }, body })
    const chunked = await new Promise<RawResponse>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: server.port, method: 'POST', path: '/ipc/catalog.get', headers: { cookie } },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
        },
      )
      req.on('error', reject)
      for (let sent = 0; sent < body.length; sent += 1024 * 1024) req.write(body.subarray(sent, sent + 1024 * 1024))
      req.end()
    })
    for (const response of [declared, chunked]) {
      expect(response.status).toBe(413)
      expect(JSON.parse(response.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    }
    expect(calls).toBe(0)
    expect((await call('catalog.get', { groupId: 'still here' })).status).toBe(200)
  })

  it('refuses event streams without the session cookie, through another Host or from another origin', async () => {
    expect((await send(server.port, { path: '/events' })).status).toBe(401)
    expect((await send(server.port, { path: `/events?key=${server.accessKey}` })).status).toBe(401)
    expect((await send(server.port, { path: '/events', headers: { cookie, host: `rebind.example:${server.port}` } })).status).toBe(403)
    expect((await send(server.port, { path: '/events', headers: { cookie, origin: `http://localhost:${server.port + 1}` } })).status).toBe(
      403,
    )
  })

  it('serves downloads only to the session, from its own origin', async () => {
    const path = `/download/activity?query=${encodeURIComponent(JSON.stringify({ format: 'csv' }))}`
    expect((await send(server.port, { path })).status).toBe(401)
    expect((await send(server.port, { path, headers: { 'x-embed-console-key': server.accessKey } })).status).toBe(401)
    expect((await send(server.port, { path, headers: { cookie, origin: 'http://evil.example' } })).status).toBe(403)
    expect((await send(server.port, { path, headers: { cookie, host: `rebind.example:${server.port}` } })).status).toBe(403)
    const csv = await send(server.port, { path, headers: { cookie } })
    expect(csv.status).toBe(200)
    expect(csv.body).toMatch(/^id,time,profileId/)
  })

  it('pushes events to the session as Server-Sent Events', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/events', headers: { cookie } }, (res) => {
        expect(res.headers['content-type']).toContain('text/event-stream')
        let text = ''
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8')
          if (text.includes(': connected')) services.events.emit('sandbox.status', { state: 'running', baseUrl: 'http://127.0.0.1:9' })
          if (text.includes('data: ')) {
            req.destroy()
            resolve(text)
          }
        })
      })
      req.on('error', reject)
      req.end()
    })
    const line = received.split('\n').find((candidate) => candidate.startsWith('data: '))!
    expect(JSON.parse(line.slice(6))).toEqual({ name: 'sandbox.status', payload: { state: 'running', baseUrl: 'http://127.0.0.1:9' } })
  })

  it('serves the renderer with a strict Content-Security-Policy and nothing outside its folder', async () => {
    const index = await send(server.port, { path: '/' })
    expect(index.status).toBe(200)
    expect(index.headers['content-security-policy']).toContain("default-src 'self'")
    expect(index.headers['content-security-policy']).toContain("script-src 'self'")
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt']) {
      const escaped = await send(server.port, { path })
      expect(escaped.status).toBe(404)
      expect(escaped.body).not.toContain('outside the renderer')
    }
  })

  it('listens on 127.0.0.1 only: not on another loopback address, IPv6 or any other interface', async () => {
    expect((await send(server.port, { path: '/' })).status).toBe(200)
    // A socket bound to 127.0.0.1 refuses 127.0.0.2 (Linux routes all of 127/8 to lo); one bound to
    // 0.0.0.0 would take it, and the machine's other addresses too.
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address !== undefined && !address.internal && address.family === 'IPv4')
      .map((address) => address!.address)
    for (const host of ['127.0.0.2', '::1', ...others]) {
      await expect(send(server.port, { path: '/', host }), host).rejects.toThrow(/ECONNREFUSED|EADDRNOTAVAIL|ENETUNREACH|EHOSTUNREACH/)
    }
  })

  /** The JSON answer of a refusal, with the headers every answer carries. */
  const expectRefusal = (response: RawResponse, status: number, code: string, message: string | RegExp) => {
    expect(response.status).toBe(status)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.headers['content-security-policy']).toContain("default-src 'self'")
    expect(JSON.parse(response.body)).toMatchObject({ ok: false, error: { code, message } })
  }

  it('says why it refuses: another Host, another origin, another site, no session', async () => {
    expectRefusal(
      await call('catalog.get', { groupId: 'x' }, { host: `rebind.example:${server.port}` }),
      403,
      'refused',
      'This server answers only on its loopback address.',
    )
    expectRefusal(
      await call('catalog.get', { groupId: 'x' }, { origin: 'http://evil.example' }),
      403,
      'refused',
      'Calls from another origin are refused.',
    )
    expectRefusal(
      await call('catalog.get', { groupId: 'x' }, { 'sec-fetch-site': 'cross-site' }),
      403,
      'refused',
      'Requests that do not come from Embed Console’s own page are refused.',
    )
    expectRefusal(
      await call('catalog.get', { groupId: 'x' }, { cookie: '' }),
      401,
      'refused',
      /^This browser has no session with Embed Console\./,
    )
  })

  it('takes localhost as well as 127.0.0.1, as the Host and as the origin', async () => {
    expect((await call('catalog.get', { groupId: 'x' }, { host: `localhost:${server.port}` })).status).toBe(200)
    expect((await call('catalog.get', { groupId: 'x' }, { origin: `http://localhost:${server.port}` })).status).toBe(200)
    expect(calls).toBe(2)
  })

  it('lets only its own page through when the browser says where a request comes from (Sec-Fetch-Site)', async () => {
    const path = `/download/activity?query=${encodeURIComponent(JSON.stringify({ format: 'csv' }))}`
    for (const site of ['cross-site', 'same-site', 'none']) {
      expect((await send(server.port, { path, headers: { cookie, 'sec-fetch-site': site } })).status, site).toBe(403)
      expect((await call('catalog.get', { groupId: 'x' }, { 'sec-fetch-site': site })).status, site).toBe(403)
    }
    expect(calls).toBe(0)
    expect((await send(server.port, { path, headers: { cookie, 'sec-fetch-site': 'same-origin' } })).status).toBe(200)
    expect((await call('catalog.get', { groupId: 'x' }, { 'sec-fetch-site': 'same-origin' })).status).toBe(200)
  })

  it('reads its cookie among others, with spaces around', async () => {
    expect((await call('catalog.get', { groupId: 'x' }, { cookie: `a=1;${cookie} ; b=2` })).status).toBe(200)
    expect((await call('catalog.get', { groupId: 'x' }, { cookie: `x${cookie}` })).status).toBe(401)
  })

  it('answers each path with the method it takes, and nothing else reaches the router', async () => {
    const path = `/download/activity?query=${encodeURIComponent(JSON.stringify({ format: 'csv' }))}`
    expectRefusal(await send(server.port, { path: '/ipc/catalog.get', headers: { cookie } }), 405, 'refused', 'Calls are POST requests.')
    expectRefusal(
      await send(server.port, { path: '/session', headers: { cookie } }),
      405,
      'refused',
      'A session is opened with a POST request.',
    )
    expectRefusal(await send(server.port, { method: 'POST', path, headers: { cookie } }), 405, 'refused', 'Downloads are GET requests.')
    expectRefusal(
      await send(server.port, { method: 'PUT', path: '/', headers: { cookie } }),
      405,
      'refused',
      'Only GET reads the app’s files.',
    )
    expect((await send(server.port, { method: 'HEAD', path: '/' })).status).toBe(200)
    // Only /ipc/<name> is a call: not a path that ends or starts like one.
    for (const other of ['/x/ipc/catalog.get', '/ipc/catalog.get/x']) {
      expect((await send(server.port, { method: 'POST', path: other, headers: { cookie }, body: '{}' })).status, other).toBe(405)
    }
    expect(calls).toBe(0)
  })

  it('serves a download with its own headers and the security headers', async () => {
    const path = `/download/activity?query=${encodeURIComponent(JSON.stringify({ format: 'csv' }))}`
    const csv = await send(server.port, { path, headers: { cookie } })
    expect(csv.headers['content-type']).toMatch(/^text\/csv/)
    expect(csv.headers['content-security-policy']).toContain("default-src 'self'")
  })

  it('answers a call that fails inside with 500, and a session request that fails inside likewise', async () => {
    services.router.dispatch = () => Promise.reject(new Error('broken'))
    expectRefusal(await call('catalog.get', { groupId: 'x' }), 500, 'internal', 'The call could not be read.')
    const fresh = await startWebServer({
      services,
      rendererDir: tmpdir(),
      port: 0,
      onKeySpent: () => {
        throw new Error('broken')
      },
    })
    try {
      expectRefusal(await openSession(fresh.port, { key: fresh.accessKey }), 500, 'internal', 'The session request could not be read.')
    } finally {
      await fresh.close()
    }
  })

  it('answers a body that is not JSON as invalid input, and an empty body as no input', async () => {
    expectRefusal(
      await send(server.port, { method: 'POST', path: '/ipc/catalog.get', headers: { cookie }, body: '{not json' }),
      400,
      'invalid_input',
      'The call body is not JSON.',
    )
    const empty = await send(server.port, { method: 'POST', path: '/ipc/catalog.get', headers: { cookie } })
    expect(JSON.parse(empty.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(calls).toBe(1)
  })

  it('tells the page whether its session is open, newly opened, or why not', async () => {
    expect(JSON.parse((await openSession(server.port, {}, { cookie })).body)).toEqual({ ok: true, value: { session: 'open' } })
    const fresh = await startWebServer({ services, rendererDir: tmpdir(), port: 0 })
    try {
      const refusal = async (body: string, keyUsed: boolean, message: string) => {
        const response = await send(fresh.port, { method: 'POST', path: '/session', body })
        expect(response.status, body).toBe(401)
        expect(JSON.parse(response.body), body).toEqual({ ok: false, error: { code: 'refused', message, details: { keyUsed } } })
      }
      for (const body of ['', 'null', '5', '{}', '{"key": ""}', '{"key": 5}', '{not json'])
        await refusal(body, false, 'This page was opened without the key.')
      const wrong = 'The key in this address is wrong, or its time to open a session (10 minutes) is up.'
      await refusal('{"key": "wrong"}', false, wrong)
      expect(JSON.parse((await openSession(fresh.port, { key: fresh.accessKey })).body)).toEqual({ ok: true, value: { session: 'opened' } })
      await refusal(
        JSON.stringify({ key: fresh.accessKey }),
        true,
        'The key in this address has been used: it opens Embed Console once, in one browser. For another browser, run `embed-console web --new-link` on this machine: it prints (and opens) a new address.',
      )
      await refusal('{"key": "wrong"}', false, wrong)
      await refusal('{}', false, 'This page was opened without the key.')
    } finally {
      await fresh.close()
    }
  })

  it('opens a session for each new link, once, within its time; the sessions before stay open', async () => {
    let now = Date.parse('2026-11-29T10:00:00Z')
    const fresh = await startWebServer({ services, rendererDir: tmpdir(), port: 0, now: () => now })
    try {
      const keyOf = (link: string) => new URL(link).hash.replace('#key=', '')
      const first = cookiePair(await openSession(fresh.port, { key: fresh.accessKey }))
      const second = fresh.newLink()
      expect(second).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${fresh.port}/#key=[\\w-]{32}$`))
      const secondCookie = cookiePair(await openSession(fresh.port, { key: keyOf(second) }))
      expect(secondCookie).not.toBe(first)
      for (const cookie of [first, secondCookie]) expect((await openSession(fresh.port, {}, { cookie })).status).toBe(200)
      expect((await openSession(fresh.port, { key: keyOf(second) })).status).toBe(401)
      // A link not used in time opens nothing.
      const late = fresh.newLink()
      now += NEW_LINK_TTL_MS
      const refused = await openSession(fresh.port, { key: keyOf(late) })
      expect(refused.status).toBe(401)
      expect(JSON.parse(refused.body)).toMatchObject({ error: { details: { keyUsed: false } } })
    } finally {
      await fresh.close()
    }
  })

  it('reads a session body of exactly its cap, refuses one byte more, and says the cap in kB', async () => {
    const fresh = await startWebServer({ services, rendererDir: tmpdir(), port: 0 })
    try {
      const atCap = JSON.stringify({ key: fresh.accessKey }).padEnd(4096, ' ')
      const over = `${atCap} `
      // Declared with Content-Length, and streamed without it.
      expectRefusal(
        await send(fresh.port, { method: 'POST', path: '/session', body: over }),
        413,
        'invalid_input',
        'The request is larger than 4 kB.',
      )
      expectRefusal(await chunkedPost(fresh.port, '/session', Buffer.from(over)), 413, 'invalid_input', 'The request is larger than 4 kB.')
      expect((await chunkedPost(fresh.port, '/session', Buffer.from(atCap))).status).toBe(200)
      const again = await send(fresh.port, { method: 'POST', path: '/session', body: JSON.stringify({ key: 'x' }).padEnd(4096, ' ') })
      expect(again.status).toBe(401)
    } finally {
      await fresh.close()
    }
  })

  it('answers a declared length over the cap at once, before the body comes', async () => {
    const response = await new Promise<RawResponse>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/ipc/catalog.get',
          headers: { cookie, 'content-length': String(MAX_CALL_BODY_BYTES + 1) },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => {
            req.destroy()
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') })
          })
        },
      )
      req.on('error', reject)
      req.write('{')
    })
    expectRefusal(response, 413, 'invalid_input', 'The request is larger than 32 MB.')
  })

  it('drops a refused upload up to 64 MB past the cap, and cuts the connection after that', async () => {
    const fresh = await startWebServer({ services, rendererDir: tmpdir(), port: 0 })
    try {
      /** Sends `bytes` of body on a raw socket; `cut` when the server closed it before all were sent. */
      const upload = (bytes: number, chunked = false) =>
        new Promise<{ status: string; cut: boolean }>((resolve) => {
          const socket = connect(fresh.port, '127.0.0.1')
          let response = ''
          let sentAll = false
          socket.on('data', (data: Buffer) => (response += data.toString('latin1')))
          socket.on('error', () => {})
          socket.on('close', () => resolve({ status: response.slice(0, 12), cut: !sentAll }))
          const length = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${bytes}`
          socket.write(`POST /session HTTP/1.1\r\nHost: 127.0.0.1:${fresh.port}\r\n${length}\r\n\r\n`)
          const spaces = Buffer.alloc(1024 * 1024, 0x20)
          // Without a length, the server learns the size as the chunks come, and refuses midway.
          const chunk = chunked ? Buffer.concat([Buffer.from(`${spaces.length.toString(16)}\r\n`), spaces, Buffer.from('\r\n')]) : spaces
          let sent = 0
          const pump = () => {
            while (sent < bytes) {
              sent += chunk.length
              if (!socket.write(chunk)) return void socket.once('drain', pump)
            }
            sentAll = true
            if (chunked) socket.end('0\r\n\r\n')
            else socket.end()
          }
          pump()
        })
      expect(await upload(8 * 1024 * 1024)).toEqual({ status: 'HTTP/1.1 413', cut: false })
      expect(await upload(8 * 1024 * 1024, true)).toEqual({ status: 'HTTP/1.1 413', cut: false })
      expect((await upload(96 * 1024 * 1024)).cut).toBe(true)
    } finally {
      await fresh.close()
    }
  }, 60_000)
})
