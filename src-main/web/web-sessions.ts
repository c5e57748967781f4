import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { readBody, sendJson } from './web-answers'

// Browser mode's one-use keys and the sessions they open. A key opens one session, once: the
// page posts it to the session path and gets an HttpOnly, SameSite=Strict cookie, and the key is
// spent. The printed key is good until it is spent; a key handed out later (`web --new-link`)
// only for NEW_LINK_TTL_MS. Every key and session is compared in constant time.

const MAX_SESSION_BODY_BYTES = 4096

/** A key handed out later (another browser, a tab closed) opens a session this long after it was made, once. */
export const NEW_LINK_TTL_MS = 10 * 60 * 1000

/** What a browser that has no session can do about it, in every sentence that refuses one. */
export const ANOTHER_SESSION =
  'For another browser, run `embed-console web --new-link` on this machine: it prints (and opens) a new address.'

/** One name per port: cookies ignore ports, and two browser-mode apps must not clobber each other's. */
export const sessionCookieName = (port: number) => `embed-console-${port}`

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

export interface WebSessions {
  /** Whether the request carries the cookie of a session opened here. */
  has(req: IncomingMessage): boolean
  /** A new one-use key: it opens one more session within NEW_LINK_TTL_MS; the sessions open stay open. */
  newKey(): string
  /**
   * Answers a POST to the session path: the session this browser has already, or one opened
   * with an unused key, which is spent on the way. Either way the page learns whether it may go
   * on, and when not, why (no key, a wrong or late one, or one already used).
   */
  answer(req: IncomingMessage, res: ServerResponse): Promise<void>
}

export interface WebSessionsOptions {
  /** The printed address's key: it opens a session at any time, once. */
  accessKey: string
  now: () => number
  /** The server's port once it listens: the session cookie is named for it. */
  port: () => number
  /** Told each time a key is spent (the redirect file that carried it can go). */
  onKeySpent: (() => void) | undefined
}

export function createWebSessions({ accessKey, now, port, onKeySpent }: WebSessionsOptions): WebSessions {
  /** Keys not spent yet, with when each stops opening anything (the printed one: never). */
  const unusedKeys = new Map<string, number>([[accessKey, Infinity]])
  const spentKeys = new Set<string>()
  /** One per browser that traded a key for it. */
  const sessions = new Set<string>()

  const has = (req: IncomingMessage) =>
    cookieValues(req.headers.cookie, sessionCookieName(port())).some((value) => [...sessions].some((session) => sameSecret(value, session)))

  /** The unused key given, if it is one (compared in constant time, each); keys past their time go first. */
  const unusedKeyGiven = (given: string): string | undefined => {
    for (const [key, until] of unusedKeys) if (until <= now()) unusedKeys.delete(key)
    return [...unusedKeys.keys()].find((key) => sameSecret(given, key))
  }

  /** Spends the key and opens a session with it: the new session's cookie is set on the answer. */
  const spend = (key: string, res: ServerResponse) => {
    unusedKeys.delete(key)
    spentKeys.add(key)
    onKeySpent?.()
    const session = randomBytes(32).toString('base64url')
    sessions.add(session)
    res.setHeader('Set-Cookie', `${sessionCookieName(port())}=${session}; Path=/; HttpOnly; SameSite=Strict`)
  }

  /** Why a key opened nothing: none given, one already used, or a wrong or late one. */
  const refusal = (key: unknown) => {
    const keyGiven = typeof key === 'string' && key.length > 0
    const keyUsed = keyGiven && [...spentKeys].some((spent) => sameSecret(key as string, spent))
    const message = keyUsed
      ? `The key in this address has been used: it opens Embed Console once, in one browser. ${ANOTHER_SESSION}`
      : keyGiven
        ? 'The key in this address is wrong, or its time to open a session (10 minutes) is up.'
        : 'This page was opened without the key.'
    return { ok: false, error: { code: 'refused', message, details: { keyUsed } } }
  }

  return {
    has,

    newKey() {
      const key = randomBytes(24).toString('base64url')
      unusedKeys.set(key, now() + NEW_LINK_TTL_MS)
      return key
    },

    async answer(req, res) {
      const raw = await readBody(req, res, MAX_SESSION_BODY_BYTES)
      if (raw === null) return
      if (has(req)) return sendJson(res, 200, { ok: true, value: { session: 'open' } })
      let key: unknown
      try {
        // An empty body or `null` throws here too: no key.
        key = (JSON.parse(raw.toString('utf8')) as { key?: unknown }).key
      } catch {
        key = undefined
      }
      const spending = typeof key === 'string' ? unusedKeyGiven(key) : undefined
      if (spending) {
        spend(spending, res)
        return sendJson(res, 200, { ok: true, value: { session: 'opened' } })
      }
      return sendJson(res, 401, refusal(key))
    },
  }
}
