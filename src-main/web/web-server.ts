import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pipeline } from 'node:stream/promises'
import { DOWNLOAD_PATH_PREFIX } from '../../src-shared/ipc/downloads'
import { PREVIEW_FILES_PREFIX } from '../../src-shared/ipc/preview'
import type { AppServices } from '../app-services'
import { SECURITY_HEADERS } from '../content-security-policy'
import { downloadResponse } from '../downloads'
import { type Admission, createAdmission } from './web-admission'
import { readBody, sendJson } from './web-answers'
import { createEventStreams, type EventStreams } from './web-event-stream'
import { createWebSessions, type WebSessions } from './web-sessions'
import { answerStaticFile } from './web-static-files'

/** Where the page trades the key of the printed address for its session cookie. */
export const SESSION_PATH = '/session'
export const MAX_CALL_BODY_BYTES = 32 * 1024 * 1024

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

/** The parts every request is answered with, as startWebServer puts them together. */
interface WebParts {
  services: AppServices
  rendererDir: string
  /** The one-use keys and the sessions they opened (web-sessions.ts). */
  sessions: WebSessions
  /** Host, Origin, Sec-Fetch-Site and the session cookie (web-admission.ts). */
  admission: Admission
  streams: EventStreams
  /** The server's port once it listens. */
  port: () => number
}

/** `POST /ipc/<name>`, admitted: its body (within MAX_CALL_BODY_BYTES) through the router. */
async function answerCall(req: IncomingMessage, res: ServerResponse, call: { name: string; router: AppServices['router'] }) {
  const raw = await readBody(req, res, MAX_CALL_BODY_BYTES)
  if (raw === null) return
  let input: unknown
  try {
    input = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'))
  } catch {
    return sendJson(res, 400, { ok: false, error: { code: 'invalid_input', message: 'The call body is not JSON.' } })
  }
  const result = await call.router.dispatch(call.name, input, { transport: 'browser' })
  sendJson(res, 200, result)
}

/**
 * Each path with the method it takes and what admits it: calls, downloads and the event stream
 * need the session from this server's own page; the session path needs this server's own page;
 * the preview's pictures and the renderer's files need only a GET (or HEAD) through this Host.
 */
function routeRequest(req: IncomingMessage, res: ServerResponse, parts: WebParts): void {
  const { router, preview } = parts.services
  const { admission } = parts
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const callMatch = /^\/ipc\/([\w.-]+)$/.exec(url.pathname)
  if (callMatch) {
    if (req.method !== 'POST') return sendJson(res, 405, { ok: false, error: { code: 'refused', message: 'Calls are POST requests.' } })
    if (!admission.admit(req, res)) return
    answerCall(req, res, { name: callMatch[1] ?? '', router }).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: 'internal', message: 'The call could not be read.' } })
    })
    return
  }
  if (url.pathname === SESSION_PATH) {
    if (req.method !== 'POST')
      return sendJson(res, 405, { ok: false, error: { code: 'refused', message: 'A session is opened with a POST request.' } })
    if (!admission.sameServer(req, res)) return
    parts.sessions.answer(req, res).catch(() => {
      if (!res.headersSent)
        sendJson(res, 500, { ok: false, error: { code: 'internal', message: 'The session request could not be read.' } })
    })
    return
  }
  if (url.pathname.startsWith(DOWNLOAD_PATH_PREFIX)) {
    if (req.method !== 'GET') return sendJson(res, 405, { ok: false, error: { code: 'refused', message: 'Downloads are GET requests.' } })
    if (!admission.admit(req, res)) return
    const answer = downloadResponse(router, url)
    res.writeHead(answer.status, { ...answer.headers, ...SECURITY_HEADERS })
    void pipeline(answer.body, res).catch(() => res.destroy())
    return
  }
  if (url.pathname === '/events') {
    if (!admission.admit(req, res)) return
    return parts.streams.open(req, res)
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendJson(res, 405, { ok: false, error: { code: 'refused', message: 'Only GET reads the app’s files.' } })
  }
  if (url.pathname.startsWith(PREVIEW_FILES_PREFIX)) {
    // The preview's frame has no origin of its own (a sandboxed iframe), so its picture requests
    // carry no session cookie: the random token in the path, handed out only through a call
    // made with the session, is what admits them; the Host check still holds off rebinding.
    if (!admission.ownHost(req, res)) return
    void preview.respond(`${url.pathname}${url.search}`).then((answer) => {
      res.writeHead(answer.status, { ...answer.headers, 'Content-Length': answer.body.length })
      res.end(req.method === 'HEAD' ? undefined : answer.body)
    })
    return
  }
  // Stryker disable all: the static files' answer (web-static-files.ts).
  answerStaticFile(req, res, url, { rendererDir: parts.rendererDir, preview, port: parts.port(), isOwnHost: admission.isOwnHost })
  // Stryker restore all
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
  let port = 0
  const portNow = () => port
  const sessions = createWebSessions({ accessKey, now: options.now ?? Date.now, port: portNow, onKeySpent: options.onKeySpent })
  const admission = createAdmission({ port: portNow, sessions })
  const streams = createEventStreams(options.services.events)
  const parts: WebParts = { services: options.services, rendererDir: options.rendererDir, sessions, admission, streams, port: portNow }
  const server = createServer((req, res) => routeRequest(req, res, parts))

  // Stryker disable all: listening and closing.
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
    newLink: () => `http://127.0.0.1:${port}/#key=${sessions.newKey()}`,
    close: () =>
      new Promise<void>((resolve) => {
        streams.endAll()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
