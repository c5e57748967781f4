import type { Bridge } from '../../src-shared/ipc/bridge'
import type { AnyEvent } from '../../src-shared/ipc/events'

declare global {
  interface Window {
    api?: Bridge
  }
}

/** Where browser mode trades the printed key for this browser's session cookie (see web-server.ts). */
const SESSION_PATH = '/session'
/** Where releases before the session cookie kept the key; cleared so no copy outlives the tab. */
const LEGACY_KEY_STORAGE = 'embed-console.access-key'

/**
 * Browser mode's access key arrives in the URL fragment (`#key=…`, never sent to a server). It is
 * wiped from the address bar at once, kept nowhere, and spent on the first load: the server
 * trades it for an HttpOnly session cookie and refuses it from then on.
 */
export function takeKeyFromAddress(location: Location, history: History): string | null {
  const key = new URLSearchParams(location.hash.replace(/^#/, '')).get('key')
  if (key !== null) history.replaceState(null, '', location.pathname + location.search)
  return key
}

/** Why browser mode could not open: no key, a key already spent, a wrong key, or no server answering. */
export type NoSessionReason = 'no-key' | 'key-used' | 'key-wrong' | 'unreachable'

/**
 * Trades the address's key (or this browser's cookie from an earlier load) for the session;
 * null when it is open, else why not.
 */
async function openSession(key: string | null): Promise<NoSessionReason | null> {
  let response: Response
  try {
    response = await fetch(SESSION_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(key === null ? {} : { key }),
    })
  } catch {
    return 'unreachable'
  }
  // Read to the end either way: an unread body keeps the request open in the browser's eyes.
  const answer = (await response.json().catch(() => null)) as { error?: { details?: { keyUsed?: boolean } } } | null
  if (response.ok) return null
  const refusal = answer
  return key === null ? 'no-key' : refusal?.error?.details?.keyUsed ? 'key-used' : 'key-wrong'
}

const NO_SESSION_RESULT = {
  ok: false as const,
  error: {
    code: 'refused' as const,
    message:
      'This browser has no session with Embed Console. Open the address it printed when it started, or run `embed-console web --new-link` for a new one.',
  },
}

/** Calls and the event stream wait for the session: the page can draw at once, before it opens. */
function browserBridge(session: Promise<NoSessionReason | null>): Bridge {
  return {
    async invoke(name, input, options) {
      if ((await session) !== null) return NO_SESSION_RESULT
      try {
        const response = await fetch(`/ipc/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(input ?? {}),
          ...(options?.signal ? { signal: options.signal } : {}),
        })
        return await response.json()
      } catch (error) {
        if (options?.signal?.aborted) throw options.signal.reason
        return {
          ok: false,
          error: {
            code: 'connect_failed',
            message: 'Embed Console is not answering. Is the `embed-console web` process still running?',
            details: String(error),
          },
        }
      }
    },
    onEvent: sharedEventStream(session),
  }
}

/**
 * One event stream for the whole page, however many parts listen: a browser keeps at most six
 * connections to one host, shared by every tab of the origin, and a stream holds one for as long
 * as it is open. A stream per listener (three on the site editor's screen) left a second tab's
 * calls queued behind the first tab's streams, never sent.
 */
function sharedEventStream(session: Promise<NoSessionReason | null>): Bridge['onEvent'] {
  const listeners = new Set<(event: AnyEvent) => void>()
  let source: EventSource | null = null
  const open = () => {
    if (source || listeners.size === 0) return
    source = new EventSource('/events')
    source.onmessage = (message) => {
      const event = JSON.parse(message.data) as AnyEvent
      for (const listener of [...listeners]) listener(event)
    }
  }
  return (listener) => {
    // A function of its own per subscription, so the same listener added twice is removed once per unsubscribe.
    const entry = (event: AnyEvent) => listener(event)
    listeners.add(entry)
    void session.then((reason) => {
      if (reason === null) open()
    })
    return () => {
      listeners.delete(entry)
      if (listeners.size === 0) {
        source?.close()
        source = null
      }
    }
  }
}

export interface BridgeConnection {
  bridge: Bridge
  transport: 'electron' | 'browser'
  /** Settles with null once calls may go through, or with why they never will (browser mode only). */
  session: Promise<NoSessionReason | null>
}

/** Electron's preload bridge when there is one; else browser mode, opening this browser's session. */
export function connectBridge(): BridgeConnection {
  if (window.api) return { bridge: window.api, transport: 'electron', session: Promise.resolve(null) }
  window.sessionStorage.removeItem(LEGACY_KEY_STORAGE)
  const session = openSession(takeKeyFromAddress(window.location, window.history))
  return { bridge: browserBridge(session), transport: 'browser', session }
}
