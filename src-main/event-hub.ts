import { type AnyEvent, type EventName, type EventPayload, events } from '../src-shared/ipc/events'

export type EventListener = (event: AnyEvent) => void

/**
 * Main's side of the push channel. Features emit; each transport subscribes once and forwards
 * (Electron: webContents.send, browser mode: Server-Sent Events). Payloads are checked against
 * the contract so nothing undeclared is ever pushed.
 */
export class EventHub {
  private readonly listeners = new Set<EventListener>()

  emit<N extends EventName>(name: N, payload: EventPayload<N>): void {
    const checked = events[name].parse(payload)
    const event = { name, payload: checked } as AnyEvent
    for (const listener of this.listeners) {
      try {
        listener(event)
      } catch {
        // A broken subscriber (a closed window, a dropped SSE stream) must not stop the others.
      }
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
