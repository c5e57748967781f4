import { mkdtemp, mkdir, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../../src-main/app-services'
import { startWebServer, type WebServer } from '../../../src-main/web/web-server'

interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A raw node:http request, so Host and Origin can be set as a hostile page or proxy would. */
function send(port: number, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

describe('browser mode server', () => {
  let services: AppServices
  let server: WebServer
  let calls: number

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
  })

  afterEach(async () => {
    await server.close()
    await services.close()
  })

  const call = (name: string, body: unknown, headers: Record<string, string> = {}) =>
    send(server.port, {
      method: 'POST',
      path: `/ipc/${name}`,
      headers: { 'content-type': 'application/json', 'x-embed-console-key': server.accessKey, ...headers },
      body: JSON.stringify(body),
    })

  it('prints a loopback URL with a fresh random key in its fragment', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#key=${server.accessKey}`)
    expect(server.accessKey.length).toBeGreaterThanOrEqual(32)
    const other = await startWebServer({ services, rendererDir: tmpdir(), port: 0 })
    expect(other.accessKey).not.toBe(server.accessKey)
    await other.close()
  })

  it('round-trips a call through the router with the key', async () => {
    const response = await call('catalog.get', { groupId: 'round trip' })
    expect(response.status).toBe(200)
    expect(JSON.parse(response.body)).toEqual({ ok: true, value: { entry: null, tokenKept: false } })
  })

  it('answers a schema failure as a typed error, not a crash', async () => {
    const response = await call('catalog.get', { groupId: ['not', 'a', 'string'] })
    expect(JSON.parse(response.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })

  it('refuses a call without the key, or with a wrong one, before the router sees it', async () => {
    const missing = await send(server.port, { method: 'POST', path: '/ipc/catalog.get', body: '{"groupId":"x"}' })
    const wrong = await call('catalog.get', { groupId: 'x' }, { 'x-embed-console-key': 'A'.repeat(server.accessKey.length) })
    expect(missing.status).toBe(401)
    expect(wrong.status).toBe(401)
    expect(calls).toBe(0)
  })

  it('refuses a call from another origin even with the key', async () => {
    const response = await call('catalog.get', { groupId: 'x' }, { origin: 'http://evil.example' })
    expect(response.status).toBe(403)
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
    const response = await send(server.port, {
      method: 'POST',
      path: '/ipc/catalog.get',
      headers: { 'x-embed-console-key': server.accessKey },
      body: '{not json',
    })
    expect(response.status).toBe(400)
    expect(calls).toBe(0)
  })

  it('refuses event streams without the key', async () => {
    const response = await send(server.port, { path: '/events' })
    expect(response.status).toBe(401)
  })

  it('pushes events to a keyed stream as Server-Sent Events', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: `/events?key=${server.accessKey}` }, (res) => {
        expect(res.headers['content-type']).toContain('text/event-stream')
        let text = ''
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8')
          if (text.includes(': connected')) services.events.emit('progress', { id: 'p', label: 'Working', done: 1, total: 3 })
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
    expect(JSON.parse(line.slice(6))).toEqual({ name: 'progress', payload: { id: 'p', label: 'Working', done: 1, total: 3 } })
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

  it('listens on 127.0.0.1 only', async () => {
    await expect(
      new Promise((resolve, reject) => {
        const req = request({ host: '::1', port: server.port, path: '/' }, resolve)
        req.on('error', reject)
        req.end()
      }),
    ).rejects.toThrow()
  })
})
