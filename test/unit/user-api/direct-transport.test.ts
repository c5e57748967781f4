import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { createServer as createHttpsServer } from 'node:https'
import type { LookupFunction } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createSecureContext } from 'node:tls'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { Agent } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { ExchangeFailure, exchangeJson } from '../../../src-main/user-api/exchange'
import { type ExchangeDispatcher, NodeHttpDispatcher } from '../../../src-main/user-api/node-dispatcher'
import { API_HOST, type Certificates, makeCertificates } from '../../helpers/company-network'
import { answerWith, closedPort, type HostileBehaviour, type HostileServer, startHostileServer } from '../../helpers/hostile-server'

/*
 * A call straight to its server goes over node:http (NodeHttpDispatcher), a proxied one over
 * undici. The exchange must tell the same story whichever carries it: the same answer, or the
 * same error code, sentence, phase and verdict on whether the request may have arrived (what a
 * rotation's exactly-once rests on). Each case runs against real loopback servers through both,
 * undici's Agent standing for the transport the direct calls had before.
 */

interface TransportOptions {
  lookup?: LookupFunction
  secureContext?: ReturnType<typeof createSecureContext>
  connectTimeoutMs?: number
}

const TRANSPORTS: Record<string, (options: TransportOptions) => ExchangeDispatcher> = {
  'undici Agent': ({ lookup, secureContext, connectTimeoutMs }) =>
    new Agent({
      connect: {
        ...(lookup ? { lookup } : {}),
        ...(secureContext ? { secureContext } : {}),
        ...(connectTimeoutMs ? { timeout: connectTimeoutMs } : {}),
      },
    }),
  'node:http': (options) => new NodeHttpDispatcher({ ...options, keepAlive: true }),
}

interface Call {
  url: string
  method?: 'GET' | 'PUT' | 'POST'
  body?: string
  timeoutMs?: number
  maxResponseBytes?: number
  transport?: TransportOptions
}

/** What an exchange came to, without what only one transport can say (the underlying error's own words). */
async function outcomeOf(make: (options: TransportOptions) => ExchangeDispatcher, call: Call) {
  const dispatcher = make(call.transport ?? {})
  try {
    const answer = await exchangeJson({
      url: new URL(call.url),
      method: call.method ?? 'GET',
      headers: { 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip, deflate, br' },
      body: call.body ?? '{"user_group_id":"acme"}',
      timeoutMs: call.timeoutMs ?? 5000,
      maxResponseBytes: call.maxResponseBytes ?? 1024 * 1024,
      dispatcher,
      route: { proxy: null, reason: 'test' },
    })
    const { headers } = answer
    return {
      status: answer.status,
      body: answer.body.toString('utf8'),
      type: headers['content-type'],
      location: headers.location,
      x: headers['x-twice'],
    }
  } catch (error) {
    if (!(error instanceof ExchangeFailure)) throw error
    const details = error.details as { phase?: string; status?: number }
    return { code: error.code, message: error.message, phase: details.phase, status: details.status, arrived: error.requestMayHaveArrived }
  } finally {
    await dispatcher.destroy()
  }
}

/** The outcome through each transport, one after the other (a server may count what it got). */
async function throughBoth(call: Call | (() => Promise<Call>)) {
  const outcomes: Record<string, unknown> = {}
  for (const [name, make] of Object.entries(TRANSPORTS))
    outcomes[name] = await outcomeOf(make, typeof call === 'function' ? await call() : call)
  return outcomes
}

const expectSame = (outcomes: Record<string, unknown>) => {
  const [first, ...rest] = Object.values(outcomes)
  for (const other of rest) expect(other).toEqual(first)
  return first as Record<string, unknown>
}

let server: HostileServer | undefined
async function serve(behaviour: HostileBehaviour): Promise<string> {
  await server?.close()
  server = await startHostileServer(behaviour)
  return `${server.baseUrl}/api/user`
}
afterAll(() => server?.close())

describe('a call straight to its server, over node:http as over undici', () => {
  it('reads the same answer: status, body, repeated headers joined', async () => {
    const url = await serve({
      onRequest: (received, res) => {
        res.setHeader('X-Twice', ['a', 'b'])
        answerWith(200, { success: 1, echo: received.body, method: received.method })(received, res)
      },
    })
    for (const method of ['GET', 'PUT', 'POST'] as const) {
      const same = expectSame(await throughBoth({ url, method }))
      expect(same).toMatchObject({ status: 200, x: 'a, b', body: JSON.stringify({ success: 1, echo: '{"user_group_id":"acme"}', method }) })
    }
  })

  it('sends an empty GET without a body, as undici does, and an empty POST with Content-Length 0', async () => {
    const url = await serve({
      onRequest: (received, res) => answerWith(200, { length: received.headers['content-length'] ?? null })(received, res),
    })
    expect(expectSame(await throughBoth({ url, body: '' }))).toMatchObject({ body: '{"length":null}' })
    expect(expectSame(await throughBoth({ url, body: '', method: 'POST' }))).toMatchObject({ body: '{"length":"0"}' })
  })

  it('undoes gzip, and does not follow a redirect', async () => {
    const gzipped = await serve({
      onRequest: (_received, res) =>
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }).end(gzipSync('{"ok":1}')),
    })
    expect(expectSame(await throughBoth({ url: gzipped }))).toMatchObject({ status: 200, body: '{"ok":1}' })
    const moved = await serve({ onRequest: (_received, res) => res.writeHead(302, { Location: 'https://elsewhere.test/api/user' }).end() })
    expect(expectSame(await throughBoth({ url: moved }))).toMatchObject({ status: 302, location: 'https://elsewhere.test/api/user' })
    expect(server?.requests).toHaveLength(2)
  })

  it('times out the same way while waiting and while reading', async () => {
    const waiting = await serve({ onRequest: () => {} })
    expect(expectSame(await throughBoth({ url: waiting, timeoutMs: 1000 }))).toMatchObject({
      code: 'timeout',
      phase: 'waiting',
      arrived: true,
    })
    const reading = await serve({
      onRequest: (_received, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).write('{"succ'),
    })
    expect(expectSame(await throughBoth({ url: reading, timeoutMs: 1000 }))).toMatchObject({
      code: 'timeout',
      phase: 'reading',
      arrived: true,
    })
  })

  it('tells a reset before the request was fully sent from one after, and a close without an answer', async () => {
    const midUpload = await serve({ onHead: (req) => req.socket.resetAndDestroy() })
    const huge = JSON.stringify({ user_group_id: 'acme', properties: { huge: 'x'.repeat(32 * 1024 * 1024) } })
    expect(expectSame(await throughBoth({ url: midUpload, body: huge }))).toMatchObject({
      code: 'connect_failed',
      phase: 'sending',
      arrived: true,
    })
    const afterRequest = await serve({ onRequest: (_received, _res, req) => req.socket.resetAndDestroy() })
    expect(expectSame(await throughBoth({ url: afterRequest }))).toMatchObject({ code: 'connect_failed', phase: 'waiting', arrived: true })
    const closed = await serve({ onRequest: (_received, _res, req) => req.socket.end() })
    expect(expectSame(await throughBoth({ url: closed }))).toMatchObject({ code: 'connect_failed', phase: 'waiting', arrived: true })
    // An upgrade nobody asked for: node:http drops the connection without an error or an answer.
    const upgraded = await serve({
      onRequest: (_received, _res, req) => req.socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n'),
    })
    expect(expectSame(await throughBoth({ url: upgraded, timeoutMs: 3000 }))).toMatchObject({
      code: 'connect_failed',
      phase: 'waiting',
      arrived: true,
    })
  })

  it('refuses headers over 16 KB, a body cut off, and answers over the size limit, the same way', async () => {
    const hugeHeaders = await serve({
      onRequest: (_received, _res, req) => req.socket.end(`HTTP/1.1 200 OK\r\nX-Padding: ${'p'.repeat(64 * 1024)}\r\n\r\n{}`),
    })
    expect(expectSame(await throughBoth({ url: hugeHeaders }))).toMatchObject({ code: 'bad_response', arrived: true })
    const cutOff = await serve({
      onRequest: (_received, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '200' })
        res.write('{"success":1,"user_group":{"tok', () => res.socket?.destroy())
      },
    })
    expect(expectSame(await throughBoth({ url: cutOff }))).toMatchObject({ code: 'bad_response', phase: 'reading', status: 200 })
    const declared = await serve({ onRequest: answerWith(200, 'x'.repeat(5000)) })
    expect(expectSame(await throughBoth({ url: declared, maxResponseBytes: 1000 }))).toMatchObject({ code: 'response_too_large' })
    const streamed = await serve({ onRequest: (_received, res) => res.writeHead(200).end('x'.repeat(50_000)) })
    expect(expectSame(await throughBoth({ url: streamed, maxResponseBytes: 1000 }))).toMatchObject({ code: 'response_too_large' })
  })

  it('says a refused connection, a name that does not resolve, and a connection not made in time never carried the request', async () => {
    const refused = `http://127.0.0.1:${await closedPort()}/api/user`
    expect(expectSame(await throughBoth({ url: refused }))).toMatchObject({ code: 'connect_failed', phase: 'connecting', arrived: false })
    const unknown: LookupFunction = (hostname, _options, callback) =>
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), '', 4)
    expect(expectSame(await throughBoth({ url: 'http://nowhere.test/api/user', transport: { lookup: unknown } }))).toMatchObject({
      code: 'dns_failed',
      arrived: false,
    })
    // A lookup that never answers holds the connection in its connecting state.
    const never: LookupFunction = () => {}
    const stalled = expectSame(
      await throughBoth({ url: 'http://stalled.test/api/user', transport: { lookup: never, connectTimeoutMs: 300 } }),
    )
    expect(stalled).toMatchObject({ code: 'connect_failed', phase: 'connecting', arrived: false })
    expect(stalled.message).toContain('Connect Timeout Error')
  })
})

describe('node:http’s kept connections', () => {
  it('are let go after 4 s idle, as undici’s were, while an answer slower than that still arrives', { timeout: 30_000 }, async () => {
    // Written on the socket: no Keep-Alive hint (a Node server's would set the idle time itself),
    // and the server never closes the connection on its own.
    const late = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{"late":1}'
    const url = await serve({ onRequest: (_received, _res, req) => setTimeout(() => req.socket.write(late), 4500) })
    const dispatcher = new NodeHttpDispatcher({ keepAlive: true })
    const call = (timeoutMs: number) =>
      exchangeJson({
        url: new URL(url),
        method: 'GET',
        headers: {},
        body: '{}',
        timeoutMs,
        maxResponseBytes: 1000,
        dispatcher,
        route: { proxy: null, reason: 'test' },
      })
    try {
      expect((await call(15_000)).body.toString()).toBe('{"late":1}')
      await new Promise((idle) => setTimeout(idle, 5000))
      expect((await call(8000)).status).toBe(200)
      // The first connection was closed while idle; the second call opened another.
      expect(server?.connections).toBe(2)
    } finally {
      await dispatcher.destroy()
    }
  })
})

describe('https straight to its server, over node:https as over undici', () => {
  let certificates: Certificates
  let url: string
  let close: () => Promise<void>
  const toLoopback: LookupFunction = (_hostname, options, callback) =>
    (options as { all?: boolean }).all
      ? (callback as unknown as (e: null, a: unknown[]) => void)(null, [{ address: '127.0.0.1', family: 4 }])
      : callback(null, '127.0.0.1', 4)

  beforeAll(async () => {
    certificates = makeCertificates()
    const tlsServer = createHttpsServer(certificates.server, (_req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"tls":1}'),
    )
    await new Promise<void>((listening) => tlsServer.listen(0, '127.0.0.1', listening))
    url = `https://${API_HOST}:${(tlsServer.address() as { port: number }).port}/api/user`
    close = () => new Promise((closed) => tlsServer.close(() => closed()))
  })
  afterAll(() => close())

  it('trusts a private CA given as the trust’s context, and fails the same way without it, before anything is sent', async () => {
    const { readFileSync } = await import('node:fs')
    const secureContext = createSecureContext({ ca: readFileSync(certificates.caFile, 'utf8') })
    expect(expectSame(await throughBoth({ url, transport: { lookup: toLoopback, secureContext } }))).toMatchObject({
      status: 200,
      body: '{"tls":1}',
    })
    expect(expectSame(await throughBoth({ url, transport: { lookup: toLoopback } }))).toMatchObject({
      code: 'tls_failed',
      phase: 'connecting',
      arrived: false,
    })
  })
})

describe('the CLI’s call straight to its server over plain http loads no undici, no TLS and no node:v8', () => {
  let sandbox: Sandbox
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, dataFile: join(await mkdtemp(join(tmpdir(), 'ec-direct-')), 'sandbox.db') })
  })
  afterAll(() => sandbox.close())

  it.skipIf(!existsSync(resolve('out/main/cli.js')))(
    '`groups get-or-create --base-url` answers with neither in the process',
    { timeout: 30_000 },
    async () => {
      const hook = join(await mkdtemp(join(tmpdir(), 'ec-undici-hook-')), 'report-undici.mjs')
      await writeFile(
        hook,
        `import { createRequire } from 'node:module'
const require = createRequire(import.meta.url)
process.on('exit', () => process.stderr.write('\\nundici-loaded:' + Object.keys(require.cache).some((key) => /[\\\\/]node_modules[\\\\/]undici[\\\\/]/.test(key)) + '\\n'))
process.on('exit', () => process.stderr.write('tls-loaded:' + process.moduleLoadList.includes('NativeModule tls') + '\\n'))
process.on('exit', () => process.stderr.write('v8-loaded:' + process.moduleLoadList.includes('NativeModule v8') + '\\n'))
`,
      )
      const args = [
        '--import',
        `file://${hook}`,
        'bin/embed-console.js',
        'groups',
        'get-or-create',
        '--base-url',
        sandbox.baseUrl,
        '--user-group-id',
        'direct-1',
      ]
      const { stdout, stderr } = await promisify(execFile)(process.execPath, args, {
        env: { ...process.env, EMBED_CONSOLE_TOKEN: sandbox.tokens.Customer },
      })
      expect(JSON.parse(stdout)).toMatchObject({ success: 1, user_group: { provided_id: 'direct-1' } })
      expect(stderr).toContain('undici-loaded:false')
      expect(stderr).toContain('tls-loaded:false')
      expect(stderr).toContain('v8-loaded:false')
    },
  )
})
