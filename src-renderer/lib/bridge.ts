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

function browserBridge(): Bridge {
  return {
    async invoke(name, input) {
      try {
        const response = await fetch(`/ipc/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(input ?? {}),
        })
        return await response.json()
      } catch (error) {
        return {
          ok: false,
          error: { code: 'connect_failed', message: 'Embed Console is not answering. Is the `embed-console web` process still running?', details: String(error) },
        }
      }
    },
    onEvent(listener) {
      const source = new EventSource('/events')
      source.onmessage = (message) => listener(JSON.parse(message.data) as AnyEvent)
      return () => source.close()
    },
  }
}

/** Why browser mode could not open: no key, a key already spent, or no server answering. */
export type NoSessionReason = 'no-key' | 'key-used' | 'key-wrong' | 'unreachable'

export type BridgeState = { kind: 'ready'; bridge: Bridge; transport: 'electron' | 'browser' } | { kind: 'no-session'; reason: NoSessionReason }

/**
 * Electron's preload bridge when there is one; else browser mode, once the server confirms this
 * browser's session (its cookie from an earlier load, or the key of the address, spent now).
 */
export async function connectBridge(): Promise<BridgeState> {
  if (window.api) return { kind: 'ready', bridge: window.api, transport: 'electron' }
  window.sessionStorage.removeItem(LEGACY_KEY_STORAGE)
  const key = takeKeyFromAddress(window.location, window.history)
  let response: Response
  try {
    response = await fetch(SESSION_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(key === null ? {} : { key }),
    })
  } catch {
    return { kind: 'no-session', reason: 'unreachable' }
  }
  if (response.ok) return { kind: 'ready', bridge: browserBridge(), transport: 'browser' }
  const refusal = (await response.json().catch(() => null)) as { error?: { details?: { keyUsed?: boolean } } } | null
  return { kind: 'no-session', reason: key === null ? 'no-key' : refusal?.error?.details?.keyUsed ? 'key-used' : 'key-wrong' }
}
