import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FlakyProxy {
  baseUrl: string
  /** Requests that reached the real server, and the ids it said it created. */
  forwarded: number
  created: Map<string, number>
  /** When each request arrived, in ms since the proxy started. */
  arrivals: number[]
  refused: number
  /** Now, on the clock `arrivals` use. */
  elapsed(): number
  close(): Promise<void>
}

/**
 * A loopback server in front of a real one (the sandbox) that refuses some requests itself,
 * as a rate-limited or failing gateway would, and forwards the rest untouched.
 */
export async function startFlakyProxy(target: string, refuse: (index: number, req: IncomingMessage) => ((res: ServerResponse) => void) | null): Promise<FlakyProxy> {
  const started = performance.now()
  const proxy: FlakyProxy = { baseUrl: '', forwarded: 0, created: new Map(), arrivals: [], refused: 0, elapsed: () => performance.now() - started, close: async () => {} }
  let index = 0
  const server: Server = createServer((req, res) => {
    proxy.arrivals.push(performance.now() - started)
    const refusal = refuse(index++, req)
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (refusal) {
        proxy.refused += 1
        return refusal(res)
      }
      proxy.forwarded += 1
      const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        const body: Buffer[] = []
        answer.on('data', (chunk: Buffer) => body.push(chunk))
        answer.on('end', () => {
          const text = Buffer.concat(body)
          try {
            const json = JSON.parse(text.toString('utf8')) as { new_user_group?: boolean; user_group?: { provided_id: string } }
            if (json.new_user_group && json.user_group) proxy.created.set(json.user_group.provided_id, (proxy.created.get(json.user_group.provided_id) ?? 0) + 1)
          } catch {
            // Not JSON: nothing to count.
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          res.end(text)
        })
      })
      upstream.on('error', () => res.destroy())
      upstream.end(Buffer.concat(chunks))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  proxy.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  proxy.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return proxy
}

/** 429 Too Many Requests with Retry-After, in the API's envelope. */
export const tooManyRequests = (seconds: number) => (res: ServerResponse) => {
  const body = JSON.stringify({ success: 0, error: 'Too many requests.' })
  res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': String(seconds), 'Content-Length': Buffer.byteLength(body) })
  res.end(body)
}

/** A gateway's HTML 502. */
export const badGateway = (res: ServerResponse) => {
  res.writeHead(502, { 'Content-Type': 'text/html' })
  res.end('<html><body>502 Bad Gateway</body></html>')
}
