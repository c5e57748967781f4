import { mkdtemp, mkdir, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../../src-main/app-services'
import { MAX_CALL_BODY_BYTES, sessionCookieName, startWebServer, type WebServer } from '../../../src-main/web/web-server'

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
    const req = request({ host: options.host ?? '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
    // A server that answers before reading the whole upload may close under the rest: the answer counts.
    req.on('error', reject)
    req.end(options.body)
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
      for (const key of ['A'.repeat(fresh.accessKey.length), fresh.accessKey.slice(0, -1), fresh.accessKey.slice(0, 8), `${fresh.accessKey}x`, '', 42]) {
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
      const req = request({ host: '127.0.0.1', port: server.port, method: 'POST', path: '/ipc/catalog.get', headers: { cookie } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
      })
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
    expect((await send(server.port, { path: '/events', headers: { cookie, origin: `http://localhost:${server.port + 1}` } })).status).toBe(403)
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
})
