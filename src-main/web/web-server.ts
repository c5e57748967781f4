import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { pipeline } from 'node:stream/promises'
import type { AddressInfo } from 'node:net'
import { DOWNLOAD_PATH_PREFIX } from '../../src-shared/ipc/downloads'
import type { AppServices } from '../app-services'
import { SECURITY_HEADERS } from '../content-security-policy'
import { downloadResponse } from '../downloads'
import { readRendererFile } from '../static-files'

export const ACCESS_KEY_HEADER = 'x-embed-console-key'
const MAX_CALL_BODY_BYTES = 32 * 1024 * 1024
const SSE_HEARTBEAT_MS = 15_000

export interface WebServerOptions {
  services: AppServices
  rendererDir: string
  /** 0 picks any free port. */
  port?: number
  /** Fixed only by tests; a new random key is made for every launch otherwise. */
  accessKey?: string
}

export interface WebServer {
  port: number
  accessKey: string
  /** The address to open: the key rides in the fragment, which browsers never send to a server. */
  url: string
  close(): Promise<void>
}

const sameKey = (given: string | null | undefined, expected: string): boolean => {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Browser mode: the built renderer and the same router as the Electron shell, on 127.0.0.1 only.
 * Calls (`POST /ipc/<name>`) and the event stream (`GET /events`) need the per-launch key, a Host
 * of this loopback address (so a rebinding DNS name cannot reach it) and, when the browser sends
 * one, this server's own Origin (so another page cannot drive it).
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const accessKey = options.accessKey ?? randomBytes(24).toString('base64url')
  const { router, events } = options.services
  const streams = new Set<ServerResponse>()
  let port = 0

  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`])
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`])

  const sendJson = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...SECURITY_HEADERS })
    res.end(JSON.stringify(body))
  }
  const refuse = (res: ServerResponse, status: 401 | 403, message: string) =>
    sendJson(res, status, { ok: false, error: { code: 'refused', message } })

  /** Answers and returns false when the request may not reach the router or the event stream. */
  const admit = (req: IncomingMessage, res: ServerResponse, key: string | null | undefined): boolean => {
    if (!allowedHosts().has(req.headers.host ?? '')) {
      refuse(res, 403, 'This server answers only on its loopback address.')
      return false
    }
    const origin = req.headers.origin
    if (origin !== undefined && !allowedOrigins().has(origin)) {
      refuse(res, 403, 'Calls from another origin are refused.')
      return false
    }
    if (!sameKey(key, accessKey)) {
      refuse(res, 401, 'The access key is missing or wrong. Open the address Embed Console printed when it started.')
      return false
    }
    return true
  }

  const readBody = (req: IncomingMessage): Promise<Buffer | null> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = []
      let size = 0
      req.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_CALL_BODY_BYTES) {
          resolve(null)
          req.destroy()
          return
        }
        chunks.push(chunk)
      })
      req.on('end', () => resolve(Buffer.concat(chunks)))
      req.on('error', reject)
    })

  const handleCall = async (req: IncomingMessage, res: ServerResponse, name: string) => {
    const raw = await readBody(req)
    if (raw === null) return sendJson(res, 413, { ok: false, error: { code: 'invalid_input', message: 'The call is larger than 32 MB.' } })
    let input: unknown
    try {
      input = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'))
    } catch {
      return sendJson(res, 400, { ok: false, error: { code: 'invalid_input', message: 'The call body is not JSON.' } })
    }
    const result = await router.dispatch(name, input, { transport: 'browser' })
    sendJson(res, 200, result)
  }

  const handleEvents = (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      ...SECURITY_HEADERS,
    })
    res.write(': connected\n\n')
    streams.add(res)
    const unsubscribe = events.subscribe((event) => res.write(`data: ${JSON.stringify(event)}\n\n`))
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), SSE_HEARTBEAT_MS)
    req.on('close', () => {
      clearInterval(heartbeat)
      unsubscribe()
      streams.delete(res)
    })
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const callMatch = /^\/ipc\/([\w.-]+)$/.exec(url.pathname)
    if (callMatch) {
      if (req.method !== 'POST') return sendJson(res, 405, { ok: false, error: { code: 'refused', message: 'Calls are POST requests.' } })
      if (!admit(req, res, req.headers[ACCESS_KEY_HEADER] as string | undefined)) return
      handleCall(req, res, callMatch[1] ?? '').catch(() => {
        if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: 'internal', message: 'The call could not be read.' } })
      })
      return
    }
    if (url.pathname.startsWith(DOWNLOAD_PATH_PREFIX)) {
      if (req.method !== 'GET') return sendJson(res, 405, { ok: false, error: { code: 'refused', message: 'Downloads are GET requests.' } })
      if (!admit(req, res, req.headers[ACCESS_KEY_HEADER] as string | undefined)) return
      const answer = downloadResponse(router, url)
      res.writeHead(answer.status, { ...answer.headers, ...SECURITY_HEADERS })
      void pipeline(answer.body, res).catch(() => res.destroy())
      return
    }
    if (url.pathname === '/events') {
      if (!admit(req, res, url.searchParams.get('key'))) return
      return handleEvents(req, res)
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendJson(res, 405, { ok: false, error: { code: 'refused', message: 'Only GET reads the app’s files.' } })
    }
    // The build's brotli or gzip copy when the browser takes it; hashed assets cached for a year.
    void readRendererFile(options.rendererDir, url.pathname, req.headers['accept-encoding']).then((file) => {
      if (!file) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS })
        res.end('Not found')
        return
      }
      res.writeHead(200, {
        'Content-Type': file.contentType,
        'Content-Length': file.body.length,
        'Cache-Control': file.cacheControl,
        ...(file.contentEncoding ? { 'Content-Encoding': file.contentEncoding } : {}),
        ...(file.varies ? { Vary: 'Accept-Encoding' } : {}),
        ...SECURITY_HEADERS,
      })
      res.end(req.method === 'HEAD' ? undefined : file.body)
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  port = (server.address() as AddressInfo).port

  return {
    port,
    accessKey,
    url: `http://127.0.0.1:${port}/#key=${accessKey}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
