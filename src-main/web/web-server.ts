import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pipeline } from 'node:stream/promises'
import { DOWNLOAD_PATH_PREFIX } from '../../src-shared/ipc/downloads'
import { PREVIEW_FILES_PREFIX } from '../../src-shared/ipc/preview'
import type { AppServices } from '../app-services'
import { rendererFileHeaders, SECURITY_HEADERS } from '../content-security-policy'
import { downloadResponse } from '../downloads'
import { readRendererFile } from '../static-files'

/** Where the page trades the key of the printed address for its session cookie. */
export const SESSION_PATH = '/session'
export const MAX_CALL_BODY_BYTES = 32 * 1024 * 1024
const MAX_SESSION_BODY_BYTES = 4096
/** A refused upload is read (and dropped) this far, so the client hears the 413; further, it is cut. */
const MAX_DRAINED_BYTES = 64 * 1024 * 1024
const SSE_HEARTBEAT_MS = 15_000

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${bytes / 1024} kB`)

/** One name per port: cookies ignore ports, and two browser-mode apps must not clobber each other's. */
export const sessionCookieName = (port: number) => `embed-console-${port}`

export interface WebServerOptions {
  services: AppServices
  rendererDir: string
  /** 0 picks any free port. */
  port?: number
  /** Fixed only by tests; a new random key is made for every launch otherwise. */
  accessKey?: string
  /** Told each time a key is spent (the redirect file that carried it can go). */
  onKeySpent?: () => void
  now?: () => number
}

/** A key handed out later (another browser, a tab closed) opens a session this long after it was made, once. */
export const NEW_LINK_TTL_MS = 10 * 60 * 1000

/** What a browser that has no session can do about it, in every sentence that refuses one. */
const ANOTHER_SESSION = 'For another browser, run `embed-console web --new-link` on this machine: it prints (and opens) a new address.'

export interface WebServer {
  port: number
  /** Opens one session, once (see SESSION_PATH). */
  accessKey: string
  /** The address to open: the key rides in the fragment, which browsers never send to a server. */
  url: string
  /**
   * Another address, with a new one-use key that opens one more session within NEW_LINK_TTL_MS:
   * for a second browser, or after a tab was closed, without a restart (`web --new-link` asks
   * the running app for it through an owner-only socket in the data folder).
   */
  newLink(): string
  close(): Promise<void>
}

const sameSecret = (given: string | null | undefined, expected: string | null): boolean => {
  if (!given || !expected) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The values of one cookie in a Cookie header (a browser may send a name more than once). */
function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return []
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(`${name}=`))
    .map((pair) => pair.slice(name.length + 1))
}

/**
 * Browser mode: the built renderer and the same router as the Electron shell, on 127.0.0.1 only.
 *
 * Access works as in Jupyter, with a one-use key: the printed address carries a random key in its
 * fragment; the page posts it once to SESSION_PATH and gets an HttpOnly, SameSite=Strict session
 * cookie, and from then on the key opens nothing, so a copy left in the browser's history or a
 * terminal's scrollback is useless. Calls (`POST /ipc/<name>`), the event stream (`GET /events`)
 * and downloads (`GET /download/<name>`) need that cookie, a Host of this loopback address (so a
 * rebinding DNS name cannot reach them) and, when the browser sends one, this server's own Origin
 * (so another page, even on another loopback port, cannot drive them).
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const accessKey = options.accessKey ?? randomBytes(24).toString('base64url')
  const now = options.now ?? Date.now
  /** Keys not spent yet, with when each stops opening anything (the printed one: never). */
  const unusedKeys = new Map<string, number>([[accessKey, Infinity]])
  const spentKeys = new Set<string>()
  /** One per browser that traded a key for it. */
  const sessions = new Set<string>()
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

  /** Answers and returns false when the request does not come through this loopback address from this origin. */
  const sameServer = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!allowedHosts().has(req.headers.host ?? '')) {
      refuse(res, 403, 'This server answers only on its loopback address.')
      return false
    }
    const origin = req.headers.origin
    if (origin !== undefined && !allowedOrigins().has(origin)) {
      refuse(res, 403, 'Calls from another origin are refused.')
      return false
    }
    // A link or a navigation carries no Origin: a page on another loopback port could still make
    // the browser fetch a download (the cookie goes along: ports do not make another site).
    // Browsers say where a request comes from in Sec-Fetch-Site; only this page's own may pass.
    const site = req.headers['sec-fetch-site']
    if (site !== undefined && site !== 'same-origin') {
      refuse(res, 403, 'Requests that do not come from Embed Console’s own page are refused.')
      return false
    }
    return true
  }

  const hasSession = (req: IncomingMessage) =>
    cookieValues(req.headers.cookie, sessionCookieName(port)).some((value) => [...sessions].some((session) => sameSecret(value, session)))

  /** The unused key given, if it is one (compared in constant time, each); keys past their time go first. */
  const unusedKeyGiven = (given: string): string | undefined => {
    for (const [key, until] of unusedKeys) if (until <= now()) unusedKeys.delete(key)
    return [...unusedKeys.keys()].find((key) => sameSecret(given, key))
  }

  /** Answers and returns false when the request may not reach the router, the event stream or a download. */
  const admit = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!sameServer(req, res)) return false
    if (!hasSession(req)) {
      refuse(res, 401, `This browser has no session with Embed Console. Open the address it printed when it started. ${ANOTHER_SESSION}`)
      return false
    }
    return true
  }

  /** The body, or null (after a 413) when it is larger than `limit`. */
  const readBody = (req: IncomingMessage, res: ServerResponse, limit: number): Promise<Buffer | null> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = []
      let size = 0
      const tooLarge = () => {
        // Answer now and drop the rest as it comes, so the client reads the 413 instead of a reset.
        sendJson(res, 413, { ok: false, error: { code: 'invalid_input', message: `The request is larger than ${sizeText(limit)}.` } })
        resolve(null)
        req.removeAllListeners('data')
        req.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > limit + MAX_DRAINED_BYTES) req.destroy()
        })
      }
      const declared = Number(req.headers['content-length'])
      if (declared > limit) return tooLarge()
      req.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > limit) return tooLarge()
        chunks.push(chunk)
      })
      req.on('end', () => resolve(Buffer.concat(chunks)))
      req.on('error', reject)
    })

  /**
   * Opens this browser's session: with the session cookie it already has, or with the printed
   * key, which is spent on the way. Either way the page learns whether it may go on.
   */
  const handleSession = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req, res, MAX_SESSION_BODY_BYTES)
    if (raw === null) return
    if (hasSession(req)) return sendJson(res, 200, { ok: true, value: { session: 'open' } })
    let key: unknown
    try {
      // An empty body or `null` throws here too: no key.
      key = (JSON.parse(raw.toString('utf8')) as { key?: unknown }).key
    } catch {
      key = undefined
    }
    const spending = typeof key === 'string' ? unusedKeyGiven(key) : undefined
    if (spending) {
      unusedKeys.delete(spending)
      spentKeys.add(spending)
      options.onKeySpent?.()
      const session = randomBytes(32).toString('base64url')
      sessions.add(session)
      res.setHeader('Set-Cookie', `${sessionCookieName(port)}=${session}; Path=/; HttpOnly; SameSite=Strict`)
      return sendJson(res, 200, { ok: true, value: { session: 'opened' } })
    }
    const keyGiven = typeof key === 'string' && key.length > 0
    const keyUsed = keyGiven && [...spentKeys].some((spent) => sameSecret(key as string, spent))
    const message = keyUsed
      ? `The key in this address has been used: it opens Embed Console once, in one browser. ${ANOTHER_SESSION}`
      : keyGiven
        ? 'The key in this address is wrong, or its time to open a session (10 minutes) is up.'
        : 'This page was opened without the key.'
    return sendJson(res, 401, { ok: false, error: { code: 'refused', message, details: { keyUsed } } })
  }

  const handleCall = async (req: IncomingMessage, res: ServerResponse, name: string) => {
    const raw = await readBody(req, res, MAX_CALL_BODY_BYTES)
    if (raw === null) return
    let input: unknown
    try {
      input = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'))
    } catch {
      return sendJson(res, 400, { ok: false, error: { code: 'invalid_input', message: 'The call body is not JSON.' } })
    }
    const result = await router.dispatch(name, input, { transport: 'browser' })
    sendJson(res, 200, result)
  }

  // Stryker disable all: the event stream's writer (its admission at /events is mutated above).
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

  // Stryker restore all
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const callMatch = /^\/ipc\/([\w.-]+)$/.exec(url.pathname)
    if (callMatch) {
      if (req.method !== 'POST') return sendJson(res, 405, { ok: false, error: { code: 'refused', message: 'Calls are POST requests.' } })
      if (!admit(req, res)) return
      handleCall(req, res, callMatch[1] ?? '').catch(() => {
        if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: 'internal', message: 'The call could not be read.' } })
      })
      return
    }
    if (url.pathname === SESSION_PATH) {
      if (req.method !== 'POST')
        return sendJson(res, 405, { ok: false, error: { code: 'refused', message: 'A session is opened with a POST request.' } })
      if (!sameServer(req, res)) return
      handleSession(req, res).catch(() => {
        if (!res.headersSent)
          sendJson(res, 500, { ok: false, error: { code: 'internal', message: 'The session request could not be read.' } })
      })
      return
    }
    if (url.pathname.startsWith(DOWNLOAD_PATH_PREFIX)) {
      if (req.method !== 'GET') return sendJson(res, 405, { ok: false, error: { code: 'refused', message: 'Downloads are GET requests.' } })
      if (!admit(req, res)) return
      const answer = downloadResponse(router, url)
      res.writeHead(answer.status, { ...answer.headers, ...SECURITY_HEADERS })
      void pipeline(answer.body, res).catch(() => res.destroy())
      return
    }
    if (url.pathname === '/events') {
      if (!admit(req, res)) return
      return handleEvents(req, res)
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendJson(res, 405, { ok: false, error: { code: 'refused', message: 'Only GET reads the app’s files.' } })
    }
    if (url.pathname.startsWith(PREVIEW_FILES_PREFIX)) {
      // The preview's frame has no origin of its own (a sandboxed iframe), so its picture requests
      // carry no session cookie: the random token in the path, handed out only through a call
      // made with the session, is what admits them; the Host check still holds off rebinding.
      if (!allowedHosts().has(req.headers.host ?? '')) return refuse(res, 403, 'This server answers only on its loopback address.')
      void options.services.preview.respond(`${url.pathname}${url.search}`).then((answer) => {
        res.writeHead(answer.status, { ...answer.headers, 'Content-Length': answer.body.length })
        res.end(req.method === 'HEAD' ? undefined : answer.body)
      })
      return
    }
    // Stryker disable all: the static files' answer (its path guard is readRendererFile's), and listening and closing.
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
        ...rendererFileHeaders(
          url,
          `http://${allowedHosts().has(req.headers.host ?? '') ? req.headers.host : `127.0.0.1:${port}`}`,
          options.services.preview,
        ),
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
    newLink() {
      const key = randomBytes(24).toString('base64url')
      unusedKeys.set(key, now() + NEW_LINK_TTL_MS)
      return `http://127.0.0.1:${port}/#key=${key}`
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
