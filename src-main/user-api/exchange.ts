import { subscribe } from 'node:diagnostics_channel'
import type { IncomingHttpHeaders } from 'node:http'
import type { Socket } from 'node:net'
import type { Dispatcher } from 'undici'
import { AppErrorException, type ErrorCode } from '../../src-shared/ipc/result'
import { BodyDecodingError, decodeContent } from './decode-body'
import type { ExchangeDispatcher } from './node-dispatcher'
import { proxyPhrase, type ProxyRoute } from './proxy-route'

export interface JsonExchange {
  url: URL
  method: 'GET' | 'PUT' | 'POST'
  headers: Record<string, string>
  body: string
  timeoutMs: number
  /** On the wire, and again once a compressed body is decoded. */
  maxResponseBytes: number
  dispatcher: ExchangeDispatcher
  /** How the call travels: a failure to reach the proxy is named as the proxy's. */
  route: ProxyRoute
  /** `Connection: close`: the server drops the connection after answering (a rotation's own). */
  closeAfter?: boolean
}

export interface RawAnswer {
  status: number
  headers: IncomingHttpHeaders
  /** With any Content-Encoding undone. */
  body: Buffer
  durationMs: number
}

/**
 * The exchange failed before a complete answer was read. `requestMayHaveArrived` is false only
 * when the request cannot have reached the server: the connection (or the proxy's tunnel) was
 * never established, or the proxy refused to pass it on. What a non-idempotent call (token
 * rotation) needs to know.
 */
export class ExchangeFailure extends AppErrorException {
  readonly requestMayHaveArrived: boolean
  constructor(code: ErrorCode, message: string, details: Record<string, unknown>, requestMayHaveArrived: boolean) {
    super(code, message, details)
    this.name = 'ExchangeFailure'
    this.requestMayHaveArrived = requestMayHaveArrived
  }
}

type Phase = 'connecting' | 'sending' | 'waiting' | 'reading'
const PHASE_WORDS: Record<Phase, string> = {
  connecting: 'connecting',
  sending: 'sending the request',
  waiting: 'waiting for the answer',
  reading: 'reading the answer',
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA'])
// OpenSSL's certificate verdicts arrive as bare codes; handshake failures as ERR_SSL_*/ERR_TLS_*.
export const CERTIFICATE_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])
const isTlsCode = (code: string) =>
  code === 'EPROTO' || CERTIFICATE_CODES.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')

/** undici's words for a proxy that answered CONNECT (or a forwarded request) with a refusal. */
const PROXY_STATUS = /Proxy response \((\d+)\) !== 200|Proxy Authentication Required \((\d+)\)/

/*
 * The exchange's clock: the same monotonic clock as performance.now(), without loading
 * perf_hooks, which the global `performance` does at its first use (2 ms of a CLI call).
 */
const nowMs = () => Number(process.hrtime.bigint()) / 1e6

const cutOffSentence = (url: URL) => `The answer from ${url.host} was cut off: the connection closed before the body ended.`
const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`

/** The proxy's refusal of a tunnel, as a sentence: what its status means for the operator. */
export function proxyRefusalSentence(status: number, url: URL, route: ProxyRoute): string {
  const proxy = route.proxy ? proxyPhrase(route.proxy) : 'the proxy'
  // A 407 means "no credentials" only when none were sent: otherwise the ones sent were refused.
  if (status === 407 && route.proxy?.authorization)
    return `${capitalise(proxy)} refused the user name and password it was sent (HTTP 407): check them in the profile, or in the proxy variable (http://user:password@proxy:port).`
  if (status === 407)
    return `${capitalise(proxy)} asks for credentials (HTTP 407): give the proxy user name and password in the profile, or in the proxy variable (http://user:password@proxy:port).`
  if (status === 403) return `${capitalise(proxy)} refused to connect to ${url.host} (HTTP 403): ask whoever runs the proxy to allow it.`
  if (status >= 500)
    return `${capitalise(proxy)} could not reach ${url.host} (HTTP ${status}): the host may not exist, or not accept connections from the proxy.`
  return `${capitalise(proxy)} refused to connect to ${url.host} (HTTP ${status}).`
}

const capitalise = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`

function describeNetworkError(
  error: NodeJS.ErrnoException & { hostname?: string },
  url: URL,
  phase: Phase,
  route: ProxyRoute,
): { code: ErrorCode; message: string; viaProxy?: true } {
  const code = error.code ?? ''
  const proxy = route.proxy
  const proxyStatus = PROXY_STATUS.exec(error.message)
  if (proxyStatus)
    return { code: 'connect_failed', message: proxyRefusalSentence(Number(proxyStatus[1] ?? proxyStatus[2]), url, route), viaProxy: true }
  if (DNS_CODES.has(code)) {
    if (proxy && error.hostname === proxy.url.hostname)
      return {
        code: 'dns_failed',
        message: `The host name of ${proxyPhrase(proxy)} could not be resolved: check the proxy setting.`,
        viaProxy: true,
      }
    return { code: 'dns_failed', message: `The host name "${url.hostname}" could not be resolved: check the base URL and the network.` }
  }
  if (code === 'UND_ERR_PRX_TLS')
    return {
      code: 'tls_failed',
      message: `The secure (TLS) connection to ${proxyPhrase(proxy!)} failed: ${error.message}.`,
      viaProxy: true,
    }
  if (isTlsCode(code)) return { code: 'tls_failed', message: `The secure (TLS) connection to ${url.host} failed: ${error.message}.` }
  if (phase === 'connecting' && proxy) {
    const why = code === 'ECONNREFUSED' ? 'the connection was refused' : error.message
    return {
      code: 'connect_failed',
      message: `Could not connect to ${proxyPhrase(proxy)}: ${why}. Is the proxy setting right?`,
      viaProxy: true,
    }
  }
  if (code === 'ECONNREFUSED')
    return {
      code: 'connect_failed',
      message: `Could not connect to ${url.host}: the connection was refused. Is the server running, and is the base URL right?`,
    }
  if (phase === 'reading') return { code: 'bad_response', message: cutOffSentence(url) }
  // The server did answer: with more header than any API sends (undici, and node:http's
  // parser, read 16 KB of it).
  if (code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'HPE_HEADER_OVERFLOW')
    return {
      code: 'bad_response',
      message: `The server at ${url.host} answered with headers larger than 16 KB, more than any API sends, so the answer was not read: something other than the API may be answering. Check the base URL.`,
    }
  if (phase === 'waiting')
    return {
      code: 'connect_failed',
      message: `The server at ${url.host} closed the connection after the request was sent, without answering.`,
    }
  if (phase === 'sending')
    return { code: 'connect_failed', message: `The server at ${url.host} closed the connection before the request was fully sent.` }
  return { code: 'connect_failed', message: `Could not connect to ${url.host}: ${error.message}.` }
}

function decodingFailure(problem: BodyDecodingError['problem'], url: URL, maxResponseBytes: number): { code: ErrorCode; message: string } {
  if (problem.kind === 'too_large')
    return {
      code: 'response_too_large',
      message: `The answer from ${url.host} decompresses (${problem.encoding}) to more than ${maxResponseBytes} bytes; it was not read further.`,
    }
  if (problem.kind === 'unsupported')
    return {
      code: 'bad_response',
      message: `The answer from ${url.host} is compressed with "${problem.encoding}", which Embed Console does not read (it asks for gzip, deflate or br).`,
    }
  return {
    code: 'bad_response',
    message: `The answer from ${url.host} says it is ${problem.encoding}-compressed, but it could not be decompressed: ${problem.reason}.`,
  }
}

/** undici gives the raw header lines as bytes, node:http as latin1 text. */
const latin1 = (raw: Buffer | string) => (typeof raw === 'string' ? raw : raw.toString('latin1'))

function headersOf(raw: ReadonlyArray<Buffer | string>): IncomingHttpHeaders {
  const headers: Record<string, string | string[]> = {}
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = latin1(raw[index]!).toLowerCase()
    const value = latin1(raw[index + 1]!)
    const before = headers[name]
    if (name === 'set-cookie') headers[name] = [...((before as string[] | undefined) ?? []), value]
    else headers[name] = before === undefined ? value : `${before}, ${value}`
  }
  return headers
}

/*
 * Whether a request was fully sent is what separates "closed before the request was sent" from
 * "after": undici reports the request written once it is handed to the socket, not once the
 * socket has passed it on, so the socket's own buffer is watched. undici names its socket on the
 * sendHeaders channel, in the same synchronous step in which it calls the handler's onConnect.
 */
let beingWritten: { socket?: Socket } | null = null
let watching = false
function watchSockets(): void {
  if (watching) return
  watching = true
  subscribe('undici:client:sendHeaders', (message) => {
    const exchange = beingWritten
    beingWritten = null
    if (exchange) exchange.socket = (message as { socket: Socket }).socket
  })
}

/**
 * One HTTP exchange with a JSON body on any method (undici's dispatcher sends a body on GET;
 * fetch refuses to). Settles once: with the whole answer, its Content-Encoding undone, or with an
 * ExchangeFailure for a network or proxy error, the whole-request timeout, a cut-off body, or a
 * body over `maxResponseBytes` on the wire or once decoded (the connection is dropped at once,
 * never buffered). Redirects are not followed.
 */
export function exchangeJson(exchange: JsonExchange): Promise<RawAnswer> {
  const { url, method, timeoutMs, maxResponseBytes, route } = exchange
  watchSockets()
  return new Promise((resolve, reject) => {
    const startedAt = nowMs()
    const state: { socket?: Socket } = {}
    let phase: Phase = 'connecting'
    let status: number | undefined
    let headers: IncomingHttpHeaders = {}
    let abort: ((reason?: Error) => void) | undefined
    let settled = false
    const chunks: Buffer[] = []
    let size = 0

    const settle = () => {
      settled = true
      clearTimeout(timer)
    }
    const fail = (
      code: ErrorCode,
      message: string,
      details: Record<string, unknown> = {},
      requestMayHaveArrived = phase !== 'connecting',
    ) => {
      if (settled) return
      settle()
      abort?.(new Error('The exchange was given up.'))
      const context = { method, url: url.href, phase, ...(status === undefined ? {} : { status }) }
      reject(new ExchangeFailure(code, message, { ...context, ...details }, requestMayHaveArrived))
    }
    const tooLarge = () =>
      fail('response_too_large', `The answer from ${url.host} is larger than ${maxResponseBytes} bytes; it was cut off and not read.`, {
        maxResponseBytes,
        receivedBytes: size,
        contentLength: headers['content-length'],
      })

    const timer = setTimeout(() => {
      fail(
        'timeout',
        `No complete answer from ${url.host} within ${seconds(timeoutMs)}: the request timed out while ${PHASE_WORDS[phase]}.`,
        { timeoutMs },
      )
    }, timeoutMs)

    const advance = (from: Phase, to: Phase) => {
      if (phase === from) phase = to
    }

    // undici 7 drives every request through these callbacks; only they tell when the request
    // was written (onRequestSent), which the newer handler interface leaves out.
    const handler: Dispatcher.DispatchHandler & { onRequestSent(): void } = {
      onConnect(abortRequest) {
        if (settled) return abortRequest(new Error('The exchange was given up.'))
        abort = abortRequest
        phase = 'sending'
        beingWritten = state
      },
      onRequestSent() {
        const socket = state.socket
        if (socket && socket.writableLength > 0) socket.once('drain', () => advance('sending', 'waiting'))
        else advance('sending', 'waiting')
      },
      onHeaders(statusCode, rawHeaders) {
        // 1xx answers (100 Continue) come before the real one.
        if (statusCode < 200) return true
        phase = 'reading'
        status = statusCode
        headers = headersOf(rawHeaders)
        if (Number(headers['content-length']) > maxResponseBytes) {
          tooLarge()
          return false
        }
        return true
      },
      onData(chunk) {
        size += chunk.length
        if (size > maxResponseBytes) {
          tooLarge()
          return false
        }
        chunks.push(chunk)
        return true
      },
      onComplete() {
        if (settled) return
        const durationMs = nowMs() - startedAt
        decodeContent(Buffer.concat(chunks), headers, maxResponseBytes).then(
          (body) => {
            if (settled) return
            settle()
            resolve({ status: status ?? 0, headers, body, durationMs })
          },
          (error: unknown) => {
            if (!(error instanceof BodyDecodingError)) return fail('internal', `The answer could not be read: ${(error as Error).message}.`)
            const { code, message } = decodingFailure(error.problem, url, maxResponseBytes)
            fail(code, message, { receivedBytes: size, contentEncoding: headers['content-encoding'], maxResponseBytes })
          },
        )
      },
      onError(error) {
        const networkError = error as NodeJS.ErrnoException & { hostname?: string }
        // A body shorter than its Content-Length is a cut-off body, whatever undici calls it.
        if (phase === 'reading' && networkError.code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH')
          return fail('bad_response', cutOffSentence(url), { receivedBytes: size })
        const { code, message, viaProxy } = describeNetworkError(networkError, url, phase, route)
        // The proxy refused or could not be reached: the request never went past it.
        const arrived = viaProxy ? false : phase !== 'connecting'
        fail(
          code,
          message,
          {
            cause: { code: networkError.code, message: networkError.message },
            receivedBytes: size,
            ...(viaProxy ? { proxy: route.proxy!.url.href } : {}),
          },
          arrived,
        )
      },
    }

    try {
      exchange.dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method,
          headers: exchange.headers,
          body: Buffer.from(exchange.body, 'utf8'),
          // undici closes a connection after a GET with a body (a server that ignores such a body
          // could read it as the next request); this API reads it, so the connection is kept,
          // which saves a new connection (0.3 to 0.5 ms here) on every get-or-create.
          reset: exchange.closeAfter ?? false,
          // The whole-request timer above is the one limit; these only back it up.
          headersTimeout: timeoutMs + 1000,
          bodyTimeout: timeoutMs + 1000,
        },
        handler,
      )
    } catch (error) {
      fail('internal', `The request could not be made: ${(error as Error).message}.`, {}, false)
    }
  })
}
