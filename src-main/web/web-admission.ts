import type { IncomingMessage, ServerResponse } from 'node:http'
import { refuse } from './web-answers'
import { ANOTHER_SESSION, type WebSessions } from './web-sessions'

// Who may reach browser mode's router, event stream and downloads: a request through this
// loopback address (so a rebinding DNS name cannot), from this server's own page (so another
// page, even on another loopback port, cannot drive them), with a session opened here.

export interface Admission {
  /** Whether `host` (a Host header) is this server's loopback address, by number or as localhost. */
  isOwnHost(host: string | undefined): boolean
  /** Answers 403 and returns false when the request came through another Host name (DNS rebinding). */
  ownHost(req: IncomingMessage, res: ServerResponse): boolean
  /** Answers 403 and returns false when the request does not come through this loopback address from this origin. */
  sameServer(req: IncomingMessage, res: ServerResponse): boolean
  /** Answers (403 or 401) and returns false when the request may not reach the router, the event stream or a download. */
  admit(req: IncomingMessage, res: ServerResponse): boolean
}

export interface AdmissionOptions {
  /** The server's port once it listens. */
  port: () => number
  sessions: Pick<WebSessions, 'has'>
}

export function createAdmission({ port, sessions }: AdmissionOptions): Admission {
  const allowedHosts = () => new Set([`127.0.0.1:${port()}`, `localhost:${port()}`])
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port()}`, `http://localhost:${port()}`])

  const isOwnHost = (host: string | undefined) => allowedHosts().has(host ?? '')

  const ownHost = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (isOwnHost(req.headers.host)) return true
    refuse(res, 403, 'This server answers only on its loopback address.')
    return false
  }

  const sameServer = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!ownHost(req, res)) return false
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

  return {
    isOwnHost,
    ownHost,
    sameServer,
    admit(req, res) {
      if (!sameServer(req, res)) return false
      if (!sessions.has(req)) {
        refuse(res, 401, `This browser has no session with Embed Console. Open the address it printed when it started. ${ANOTHER_SESSION}`)
        return false
      }
      return true
    },
  }
}
