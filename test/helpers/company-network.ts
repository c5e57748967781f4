import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { type AddressInfo, connect as netConnect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib'

/*
 * The parts of a company network, on loopback, for tests: a private certificate authority made
 * with the system's openssl, a TLS front with a certificate from it (a gateway that may compress
 * or re-encode answers), and an HTTP proxy that alone knows where `api.embed.test` is.
 */

export const API_HOST = 'api.embed.test'

export interface Certificates {
  dir: string
  /** The private CA's certificate, PEM: what NODE_EXTRA_CA_CERTS or a profile's CA bundle names. */
  caFile: string
  /** A CA nobody trusts, for a bundle that does not help. */
  otherCaFile: string
  /** api.embed.test, issued by the private CA. */
  server: { key: string; cert: string }
  /** Another name, issued by the same CA: a certificate that does not fit the host. */
  wrongName: { key: string; cert: string }
}

const openssl = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] })

/** A new P-256 key, unencrypted, written to `<name>.key`: every certificate here starts from one. */
const newKey = (name: string) => ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`]

function makeCa(dir: string, name: string, subject: string) {
  openssl(
    [
      'req',
      '-x509',
      ...newKey(name),
      ...['-out', `${name}.pem`, '-days', '2', '-subj', subject],
      ...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
    ],
    dir,
  )
}

function issue(dir: string, ca: string, name: string, host: string) {
  openssl(['req', ...newKey(name), '-out', `${name}.csr`, '-subj', `/CN=${host}`], dir)
  writeFileSync(join(dir, `${name}.ext`), `subjectAltName=DNS:${host}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`)
  openssl(
    [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.pem`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    ],
    dir,
  )
  return { key: readFileSync(join(dir, `${name}.key`), 'utf8'), cert: readFileSync(join(dir, `${name}.pem`), 'utf8') }
}

/** A fresh private CA and its certificates, made by the system's openssl in a temporary folder. */
export function makeCertificates(): Certificates {
  const dir = mkdtempSync(join(tmpdir(), 'ec-company-ca-'))
  makeCa(dir, 'ca', '/O=Embed Test Corp/CN=Embed Test Private CA')
  makeCa(dir, 'other-ca', '/CN=Somebody Else CA')
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    otherCaFile: join(dir, 'other-ca.pem'),
    server: issue(dir, 'ca', 'server', API_HOST),
    wrongName: issue(dir, 'ca', 'wrong-name', 'other.embed.test'),
  }
}

export interface Listening {
  port: number
  url: string
  close(): Promise<void>
}

async function listen(server: Server, scheme: 'http' | 'https'): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    port,
    url: `${scheme}://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/**
 * How the gateway re-sends the upstream's answer, chosen by the first segment of the path
 * (`https://api.embed.test/gzip/api/user`: the base URL carries it): compressed, with a byte
 * order mark, in another charset, or moved elsewhere.
 */
export const GATEWAY_MODES = [
  'plain',
  'gzip',
  'br',
  'deflate',
  'deflate-raw',
  'gzip-br',
  'bom',
  'latin1',
  'utf16',
  'bomb',
  'moved',
] as const
export type GatewayMode = (typeof GATEWAY_MODES)[number]

function reshape(mode: GatewayMode, body: Buffer): { body: Buffer; headers: Record<string, string> } {
  const json = { 'content-type': 'application/json; charset=utf-8' }
  switch (mode) {
    case 'gzip':
      return { body: gzipSync(body), headers: { ...json, 'content-encoding': 'gzip', vary: 'Accept-Encoding' } }
    case 'br':
      return { body: brotliCompressSync(body), headers: { ...json, 'content-encoding': 'br' } }
    case 'deflate':
      return { body: deflateSync(body), headers: { ...json, 'content-encoding': 'deflate' } }
    case 'deflate-raw':
      return { body: deflateRawSync(body), headers: { ...json, 'content-encoding': 'deflate' } }
    case 'gzip-br':
      return { body: brotliCompressSync(gzipSync(body)), headers: { ...json, 'content-encoding': 'gzip, br' } }
    case 'bom':
      return { body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]), headers: json }
    case 'latin1':
      return { body: Buffer.from(body.toString('utf8'), 'latin1'), headers: { 'content-type': 'application/json; charset=ISO-8859-1' } }
    case 'utf16':
      return {
        body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body.toString('utf8'), 'utf16le')]),
        headers: { 'content-type': 'application/json' },
      }
    case 'bomb':
      // 64 MB of spaces after the JSON: 64 kB on the wire.
      return {
        body: gzipSync(Buffer.concat([body, Buffer.alloc(64 * 1024 * 1024, 0x20)])),
        headers: { ...json, 'content-encoding': 'gzip' },
      }
    default:
      return { body, headers: json }
  }
}

export interface Gateway extends Listening {
  /** What arrived, in order: the path after the mode, and the Accept-Encoding sent. */
  requests: Array<{ method: string; path: string; acceptEncoding?: string; authorization?: string }>
}

/**
 * A gateway in front of `upstream` (the sandbox): TLS with `tls`'s certificate, or plain http
 * without it. It forwards each request and re-sends the answer as its path's mode says.
 */
export async function startGateway(upstream: string, tls?: { key: string; cert: string }): Promise<Gateway> {
  const requests: Gateway['requests'] = []
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const [, first = '', ...rest] = (req.url ?? '/').split('/')
    const mode = (GATEWAY_MODES as readonly string[]).includes(first) ? (first as GatewayMode) : 'plain'
    const path = mode === 'plain' && first !== 'plain' ? (req.url ?? '/') : `/${rest.join('/')}`
    requests.push({
      method: req.method ?? '',
      path,
      acceptEncoding: req.headers['accept-encoding'],
      authorization: req.headers.authorization,
    })
    if (mode === 'moved') {
      res.writeHead(301, { location: `https://new.${API_HOST}${path}` }).end()
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const headers = { ...req.headers }
      delete headers.host
      delete headers['accept-encoding']
      const forward = httpRequest(`${upstream}${path}`, { method: req.method, headers }, (answer) => {
        const body: Buffer[] = []
        answer.on('data', (chunk: Buffer) => body.push(chunk))
        answer.on('end', () => {
          const shaped = reshape(mode, Buffer.concat(body))
          res.writeHead(answer.statusCode ?? 502, { ...shaped.headers, 'content-length': String(shaped.body.length) })
          res.end(shaped.body)
        })
      })
      forward.on('error', () => res.writeHead(502).end('upstream failed'))
      forward.end(Buffer.concat(chunks))
    })
  }
  const server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, handle) : createHttpServer(handle)
  return { ...(await listen(server, tls ? 'https' : 'http')), requests }
}

export interface Proxy extends Listening {
  /** `host:port` of every CONNECT, in order. */
  connects: string[]
  /** Absolute URLs of every forwarded (plain http) request. */
  forwarded: string[]
  /** Requests refused for lack of credentials (407). */
  refused: number
}

/**
 * An HTTP proxy that alone knows the way: `routes` maps `host:port` to the loopback address that
 * answers for it. CONNECT opens a tunnel (https); an absolute-form request is forwarded (http).
 * With `credentials` (user:password) it answers 407 to anything without them. A host it has no
 * route to gets 502, as a proxy that cannot resolve it would answer.
 */
export async function startProxy(routes: Record<string, string>, credentials?: string): Promise<Proxy> {
  const state = { connects: [] as string[], forwarded: [] as string[], refused: 0 }
  const expected = credentials ? `Basic ${Buffer.from(credentials).toString('base64')}` : undefined
  const allowed = (req: IncomingMessage) => !expected || req.headers['proxy-authorization'] === expected
  const server = createHttpServer((req, res) => {
    if (!allowed(req)) {
      state.refused += 1
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test proxy"' }).end()
      return
    }
    const target = URL.canParse(req.url ?? '') ? new URL(req.url!) : undefined
    const route = target && routes[`${target.hostname}:${target.port || 80}`]
    if (!target || !route) return void res.writeHead(502).end('no route')
    state.forwarded.push(target.href)
    const headers = { ...req.headers }
    delete headers['proxy-authorization']
    delete headers['proxy-connection']
    const forward = httpRequest(`http://${route}${target.pathname}${target.search}`, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    forward.on('error', () => res.writeHead(502).end())
    req.pipe(forward)
  })
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    client.on('error', () => {})
    if (!allowed(req)) {
      state.refused += 1
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\nContent-Length: 0\r\n\r\n')
      return
    }
    state.connects.push(req.url ?? '')
    const route = routes[req.url ?? '']
    if (!route) return void client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n')
    const [host, port] = route.split(':')
    const upstream = netConnect({ host, port: Number(port) }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    upstream.on('error', () => client.destroy())
  })
  const listening = await listen(server, 'http')
  return {
    ...listening,
    get connects() {
      return state.connects
    },
    get forwarded() {
      return state.forwarded
    },
    get refused() {
      return state.refused
    },
  }
}
