import type * as Http from 'node:http'
import type * as Https from 'node:https'
import { createRequire } from 'node:module'
import type { LookupFunction, Socket } from 'node:net'
import type { SecureContext } from 'node:tls'
import type { Dispatcher } from 'undici'

/**
 * The part of a dispatcher an exchange uses: undici's Agent and ProxyAgent have it, and so does
 * NodeHttpDispatcher below.
 */
export interface ExchangeDispatcher {
  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean
  close(): Promise<void>
  destroy(): Promise<void>
}

export interface NodeHttpDispatcherOptions {
  /** The trust's context, for https; undefined: the runtime's own. */
  secureContext?: SecureContext
  /** Resolves the server's name (the preview's web pictures check the address here). */
  lookup?: LookupFunction
  /** Kept-alive connections are reused by later calls; false for a call's own connection. */
  keepAlive: boolean
  /** undici's 10 s unless a test says otherwise. */
  connectTimeoutMs?: number
}

/*
 * undici's defaults, which the calls straight to a server had before this dispatcher: a connection
 * not established in 10 s fails with undici's ConnectTimeoutError, and an idle kept-alive
 * connection is let go after 4 s (before the 5 s a Node server keeps it), so a call does not pick
 * up a connection the server is closing.
 */
const CONNECT_TIMEOUT_MS = 10_000
const KEEP_ALIVE_IDLE_MS = 4000

// Loaded at the first call of each scheme: a call to http never pays for TLS.
const load = createRequire(import.meta.url)
const httpModule = () => load('node:http') as typeof Http
const httpsModule = () => load('node:https') as typeof Https

/** Sockets whose connection (TCP, and TLS for https) is established: a reused one is at once. */
const established = new WeakSet<Socket>()

/** The error undici's connector gives a connection not established in time (its words and code, which the exchange classifies). */
function connectTimeoutError(socket: Socket, hostname: string, port: number, timeoutMs: number): Error {
  const attempted = (socket as Socket & { autoSelectFamilyAttemptedAddresses?: string[] }).autoSelectFamilyAttemptedAddresses
  const where = Array.isArray(attempted) ? `attempted addresses: ${attempted.join(', ')},` : `attempted address: ${hostname}:${port},`
  const error = new Error(`Connect Timeout Error (${where} timeout: ${timeoutMs}ms)`) as NodeJS.ErrnoException
  error.name = 'ConnectTimeoutError'
  error.code = 'UND_ERR_CONNECT_TIMEOUT'
  return error
}

/** undici sends Content-Length for a body, and for an empty one only on methods that carry one. */
const carriesBody = (method: string, body: Buffer) => body.length > 0 || method === 'PUT' || method === 'POST' || method === 'PATCH'

/** How undici's handler callbacks are called, once each at most, from node:http's events. */
interface Exchange {
  handler: Dispatcher.DispatchHandler & { onRequestSent?(): void }
  request: Http.ClientRequest
  ended: boolean
}

function fail(exchange: Exchange, error: Error): void {
  if (exchange.ended) return
  exchange.ended = true
  exchange.handler.onError?.(error)
}

/** The request is written: once its socket has passed the last byte on, as undici's exchange watches for. */
function watchSent(exchange: Exchange, socket: Socket): void {
  exchange.request.once('finish', () => {
    const sent = () => {
      if (!exchange.ended) exchange.handler.onRequestSent?.()
    }
    if (socket.writableLength > 0) socket.once('drain', sent)
    else sent()
  })
}

/** onConnect once the connection is up (TLS included), with the way to give the request up. */
function watchConnect(
  exchange: Exchange,
  socket: Socket,
  readyEvent: 'connect' | 'secureConnect',
  where: { hostname: string; port: number; timeoutMs: number },
) {
  const connected = () => {
    if (exchange.ended) return
    established.add(socket)
    exchange.handler.onConnect?.((reason) => {
      // Destroyed without the reason: once an answer is being read, node:http would throw an
      // error given here from the socket, which no longer has a listener for it.
      exchange.request.destroy()
      fail(exchange, reason instanceof Error ? reason : new Error('The request was aborted.'))
    })
  }
  if (established.has(socket)) return connected()
  const { hostname, port, timeoutMs } = where
  const timer = setTimeout(() => socket.destroy(connectTimeoutError(socket, hostname, port, timeoutMs)), timeoutMs)
  socket.once(readyEvent, () => {
    clearTimeout(timer)
    connected()
  })
  socket.once('close', () => clearTimeout(timer))
}

function watchResponse(exchange: Exchange, response: Http.IncomingMessage): void {
  const { handler } = exchange
  handler.onHeaders?.(response.statusCode ?? 0, response.rawHeaders as unknown as Buffer[], () => {}, response.statusMessage ?? '')
  response.on('data', (chunk: Buffer) => {
    if (!exchange.ended) handler.onData?.(chunk)
  })
  response.on('end', () => {
    if (exchange.ended) return
    exchange.ended = true
    handler.onComplete?.([])
  })
  // A body cut off: Node destroys the answer with an "aborted" ECONNRESET.
  response.on('error', (error) => fail(exchange, error))
  response.on('close', () => {
    if (!response.complete) fail(exchange, Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
  })
}

/**
 * A dispatcher for calls straight to a server (no proxy) over node:http and node:https: the same
 * exchange as undici's Agent gave, without loading undici (about 50 ms of every CLI call).
 * It drives the undici handler callbacks exchangeJson uses (onConnect once the connection, TLS
 * included, is up; onRequestSent once the socket has passed the request on; onHeaders, onData,
 * onComplete, onError), so the exchange's phases, and with them whether a request may have
 * arrived, are told the same way. Redirects are not followed (node:http never does).
 */
export class NodeHttpDispatcher implements ExchangeDispatcher {
  private readonly agents = new Map<string, Http.Agent>()

  constructor(private readonly options: NodeHttpDispatcherOptions) {}

  private agentFor(protocol: 'http:' | 'https:'): Http.Agent {
    let agent = this.agents.get(protocol)
    if (!agent) {
      const { secureContext, lookup, keepAlive } = this.options
      const common = { keepAlive, timeout: KEEP_ALIVE_IDLE_MS, ...(lookup ? { lookup } : {}) }
      agent =
        protocol === 'https:'
          ? new (httpsModule().Agent)({ ...common, ...(secureContext ? { secureContext } : {}) })
          : new (httpModule().Agent)(common)
      this.agents.set(protocol, agent)
    }
    return agent
  }

  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const url = new URL(options.path, options.origin as string)
    const protocol = url.protocol === 'https:' ? 'https:' : 'http:'
    const method = options.method
    const body = Buffer.isBuffer(options.body) ? options.body : Buffer.alloc(0)
    const headers: Record<string, string | number> = { ...(options.headers as Record<string, string>) }
    if (carriesBody(method, body)) headers['content-length'] = body.length
    if (options.reset) headers.connection = 'close'
    const port = Number(url.port) || (protocol === 'https:' ? 443 : 80)
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1')
    const request = (protocol === 'https:' ? httpsModule() : httpModule()).request({
      protocol,
      hostname,
      port,
      path: options.path,
      method,
      headers,
      agent: this.agentFor(protocol),
    })
    const exchange: Exchange = { handler, request, ended: false }
    request.on('socket', (socket: Socket) => {
      watchConnect(exchange, socket, protocol === 'https:' ? 'secureConnect' : 'connect', {
        hostname,
        port,
        timeoutMs: this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      })
      watchSent(exchange, socket)
    })
    let answered = false
    request.on('response', (response: Http.IncomingMessage) => {
      answered = true
      watchResponse(exchange, response)
    })
    request.on('error', (error) => fail(exchange, error))
    // Closed with neither an answer nor an error: node:http drops the socket of an upgrade (101)
    // it has no listener for, and says nothing. undici calls that a close without an answer; so
    // does this, at once rather than at the exchange's timeout.
    request.on('close', () => {
      if (!answered) fail(exchange, Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
    })
    request.end(body)
    return true
  }

  close(): Promise<void> {
    // As undici's close: the calls under way finish, and no connection is kept after them.
    for (const agent of this.agents.values()) {
      // Read by the agent as each call's connection comes free: false, it is closed, not kept.
      ;(agent as Http.Agent & { keepAlive: boolean }).keepAlive = false
      for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy()
    }
    return Promise.resolve()
  }

  destroy(): Promise<void> {
    for (const agent of this.agents.values()) agent.destroy()
    this.agents.clear()
    return Promise.resolve()
  }
}
