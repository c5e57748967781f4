import type { IncomingMessage, ServerResponse } from 'node:http'
import { SECURITY_HEADERS } from '../content-security-policy'
import type { EventHub } from '../event-hub'

// Browser mode's event stream (`GET /events`): the app's events as Server-Sent Events, to every
// page that opened one, with a heartbeat that keeps idle connections open.

// Stryker disable all: the event stream's writer (its admission at /events is mutated in web-server.ts).
const SSE_HEARTBEAT_MS = 15_000

export interface EventStreams {
  /** Answers an admitted request with the stream, until the browser closes it. */
  open(req: IncomingMessage, res: ServerResponse): void
  /** Ends every stream open (the server is closing). */
  endAll(): void
}

export function createEventStreams(events: Pick<EventHub, 'subscribe'>): EventStreams {
  const streams = new Set<ServerResponse>()
  return {
    open(req, res) {
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
    },
    endAll() {
      for (const stream of streams) stream.end()
    },
  }
}
