import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

export interface HostileServer {
  baseUrl: string
  port: number
  /** Every request that arrived complete, in order. */
  requests: ReceivedRequest[]
  /** Connections accepted, complete request or not. */
  connections: number
  close(): Promise<void>
}

export interface HostileBehaviour {
  /** Runs when the request's head has arrived, before its body is read (for a reset mid-upload). */
  onHead?: (req: IncomingMessage, res: ServerResponse) => void
  /** Answers (or misbehaves) once the whole request body has arrived. */
  onRequest?: (received: ReceivedRequest, res: ServerResponse, req: IncomingMessage) => void
}

/**
 * A loopback server that misbehaves on purpose: stalls, resets, lies about sizes. Only tests use
 * it; it records what it received so a test can check what the client actually sent.
 */
export async function startHostileServer(behaviour: HostileBehaviour): Promise<HostileServer> {
  const requests: ReceivedRequest[] = []
  const server = createServer((req, res) => {
    behaviour.onHead?.(req, res)
    if (req.destroyed) return
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      requests.push(received)
      behaviour.onRequest?.(received, res, req)
    })
  })
  const state = { connections: 0 }
  server.on('connection', () => {
    state.connections += 1
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    requests,
    get connections() {
      return state.connections
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** Answers with a status, headers and a body (an object is sent as JSON). */
export function answerWith(status: number, body: unknown, headers: Record<string, string> = {}) {
  return (_received: ReceivedRequest, res: ServerResponse) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    res.writeHead(status, { 'Content-Type': typeof body === 'string' ? 'text/html' : 'application/json', ...headers })
    res.end(text)
  }
}

/** A port with nothing listening: bound once, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
