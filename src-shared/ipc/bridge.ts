import type { Invoke } from './contract'
import type { AnyEvent } from './events'

/**
 * What the renderer gets, and nothing more: in Electron the preload exposes it as `window.api`;
 * in browser mode the renderer builds the same shape over HTTP and Server-Sent Events.
 */
export interface Bridge {
  invoke: Invoke
  onEvent(listener: (event: AnyEvent) => void): () => void
}
