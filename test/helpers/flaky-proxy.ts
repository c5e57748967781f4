import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { AppServices } from '../../src-main/app-services'

export interface FlakyProxy {
  baseUrl: string
  /** Requests that reached the real server, and the ids it said it created. */
  forwarded: number
  created: Map<string, number>
  /** Successful rotations the real server made, by group id: more than 1 is a token rotated twice. */
  rotated: Map<string, number>
  /** When each request arrived, in ms since the proxy started. */
  arrivals: number[]
  refused: number
  /** Now, on the clock `arrivals` use. */
  elapsed(): number
  close(): Promise<void>
}

export interface FlakyOptions {
  /**
   * Forwards the request, lets the real server act on it, then drops the connection instead of
   * answering: the answer is lost after the fact (a rotation that happened, unknown to the app).
   */
  loseAnswer?: (index: number, req: IncomingMessage) => boolean
  /** Forwards the request, lets the real server act on it, and never answers (until the proxy closes). */
  holdAnswer?: (index: number, req: IncomingMessage) => boolean
  /** Waits this long before forwarding each request: a slow server, so runs overlap. */
  delayMs?: number
  /** Runs (and is waited for) before a request is forwarded: the world changing while it travels. */
  beforeForward?: (req: IncomingMessage) => Promise<void> | void
}

/**
 * A loopback server in front of a real one (the sandbox) that refuses some requests itself,
 * as a rate-limited or failing gateway would, and forwards the rest untouched. A refusal that
 * never answers holds the request (until the proxy closes).
 */
export async function startFlakyProxy(
  target: string,
  refuse: (index: number, req: IncomingMessage) => ((res: ServerResponse) => void) | null,
  options: FlakyOptions = {},
): Promise<FlakyProxy> {
  const started = performance.now()
  const proxy: FlakyProxy = {
    baseUrl: '',
    forwarded: 0,
    created: new Map(),
    rotated: new Map(),
    arrivals: [],
    refused: 0,
    elapsed: () => performance.now() - started,
    close: async () => {},
  }
  let index = 0
  const server: Server = createServer((req, res) => {
    proxy.arrivals.push(performance.now() - started)
    const lose = options.loseAnswer?.(index, req) ?? false
    const hold = options.holdAnswer?.(index, req) ?? false
    const refusal = refuse(index++, req)
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs))
      await options.beforeForward?.(req)
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
            if (json.new_user_group && json.user_group)
              proxy.created.set(json.user_group.provided_id, (proxy.created.get(json.user_group.provided_id) ?? 0) + 1)
            if (req.method === 'POST' && answer.statusCode === 200 && json.user_group)
              proxy.rotated.set(json.user_group.provided_id, (proxy.rotated.get(json.user_group.provided_id) ?? 0) + 1)
          } catch {
            // Not JSON: nothing to count.
          }
          if (lose) return res.socket?.destroy()
          if (hold) return
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

/** The profile the exactly-once tests send through: "Ops", to the real sandbox by way of the proxy, its token in the file store. */
export function createOpsProfile(services: Pick<AppServices, 'profiles'>, proxy: { baseUrl: string }, apiToken: string) {
  return services.profiles.create({
    name: 'Ops',
    baseUrl: proxy.baseUrl,
    timeoutSeconds: 5,
    environmentLabel: '',
    apiToken,
    tokenStorage: 'file',
  })
}
