import type { Bridge } from '../../src-shared/ipc/bridge'
import type { AnyEvent } from '../../src-shared/ipc/events'

declare global {
  interface Window {
    api?: Bridge
  }
}

const KEY_STORAGE = 'embed-console.access-key'
const KEY_HEADER = 'X-Embed-Console-Key'

/**
 * Browser mode's access key arrives in the URL fragment (`#key=…`, never sent to a server). It is
 * moved to session storage and wiped from the address bar so it does not end up in history,
 * bookmarks or screenshots; a reload of the same tab still finds it.
 */
export function takeAccessKey(location: Location, storage: Storage, history: History): string | null {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('key')
  if (fromHash) {
    storage.setItem(KEY_STORAGE, fromHash)
    history.replaceState(null, '', location.pathname + location.search)
    return fromHash
  }
  return storage.getItem(KEY_STORAGE)
}

function browserBridge(key: string): Bridge {
  return {
    async invoke(name, input) {
      try {
        const response = await fetch(`/ipc/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [KEY_HEADER]: key },
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
      const source = new EventSource(`/events?key=${encodeURIComponent(key)}`)
      source.onmessage = (message) => listener(JSON.parse(message.data) as AnyEvent)
      return () => source.close()
    },
  }
}

/**
 * `downloadHeaders` go with every download the renderer fetches from its own origin (see
 * src-shared/ipc/downloads.ts): the access key in browser mode, nothing under app:// in Electron.
 */
export type BridgeState =
  | { kind: 'ready'; bridge: Bridge; transport: 'electron' | 'browser'; downloadHeaders: Record<string, string> }
  | { kind: 'no-key' }

export function connectBridge(): BridgeState {
  if (window.api) return { kind: 'ready', bridge: window.api, transport: 'electron', downloadHeaders: {} }
  const key = takeAccessKey(window.location, window.sessionStorage, window.history)
  return key ? { kind: 'ready', bridge: browserBridge(key), transport: 'browser', downloadHeaders: { [KEY_HEADER]: key } } : { kind: 'no-key' }
}
