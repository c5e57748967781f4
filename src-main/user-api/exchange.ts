import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Socket } from 'node:net'
import { AppErrorException, type ErrorCode } from '../../src-shared/ipc/result'

export interface JsonExchange {
  url: URL
  method: 'GET' | 'PUT' | 'POST'
  headers: Record<string, string>
  body: string
  timeoutMs: number
  maxResponseBytes: number
  /** A new connection instead of a pooled keep-alive one, which the server may close as we send. */
  freshConnection?: boolean
}

export interface RawAnswer {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
  durationMs: number
}

/**
 * The exchange failed before a complete answer was read. `requestMayHaveArrived` is false only
 * when the connection was never established, so the server cannot have acted on the request:
 * what a non-idempotent call (token rotation) needs to know.
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
const TLS_CODES = new Set([
  'EPROTO',
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
])
const isTlsCode = (code: string) => TLS_CODES.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')

const cutOffSentence = (url: URL) => `The answer from ${url.host} was cut off: the connection closed before the body ended.`
const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`

function describeNetworkError(error: NodeJS.ErrnoException, url: URL, phase: Phase): { code: ErrorCode; message: string } {
  const code = error.code ?? ''
  const host = url.host
  if (DNS_CODES.has(code)) return { code: 'dns_failed', message: `The host name "${url.hostname}" could not be resolved: check the base URL and the network.` }
  if (isTlsCode(code)) return { code: 'tls_failed', message: `The secure (TLS) connection to ${host} failed: ${error.message}.` }
  if (code === 'ECONNREFUSED') return { code: 'connect_failed', message: `Could not connect to ${host}: the connection was refused. Is the server running, and is the base URL right?` }
  if (phase === 'reading') return { code: 'bad_response', message: cutOffSentence(url) }
  if (phase === 'waiting') return { code: 'connect_failed', message: `The server at ${host} closed the connection after the request was sent, without answering.` }
  if (phase === 'sending') return { code: 'connect_failed', message: `The server at ${host} closed the connection before the request was fully sent.` }
  return { code: 'connect_failed', message: `Could not connect to ${host}: ${error.message}.` }
}

/**
 * One HTTP exchange with a JSON body on any method (Node's fetch refuses a body on GET). Settles
 * once: with the whole answer, or with an ExchangeFailure for a network error, the whole-request
 * timeout, a cut-off body, or a body over `maxResponseBytes` (the socket is destroyed at once,
 * never buffered). Redirects are not followed.
 */
export function exchangeJson(exchange: JsonExchange): Promise<RawAnswer> {
  const { url, method, timeoutMs, maxResponseBytes } = exchange
  return new Promise((resolve, reject) => {
    const startedAt = performance.now()
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const body = Buffer.from(exchange.body, 'utf8')
    const request = send(url, {
      method,
      headers: { ...exchange.headers, 'Content-Length': String(body.length) },
      ...(exchange.freshConnection ? { agent: false } : {}),
    })

    let phase: Phase = 'connecting'
    let status: number | undefined
    let settled = false

    const fail = (code: ErrorCode, message: string, details: Record<string, unknown> = {}) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      request.destroy()
      const context = { method, url: url.href, phase, ...(status === undefined ? {} : { status }) }
      reject(new ExchangeFailure(code, message, { ...context, ...details }, phase !== 'connecting'))
    }

    const timer = setTimeout(() => {
      fail('timeout', `No complete answer from ${url.host} within ${seconds(timeoutMs)}: the request timed out while ${PHASE_WORDS[phase]}.`, { timeoutMs })
    }, timeoutMs)

    const advance = (from: Phase, to: Phase) => {
      if (phase === from) phase = to
    }
    request.on('socket', (socket: Socket) => {
      // A pooled keep-alive socket is already connected; a new one sends nothing before it is.
      if (!socket.connecting) advance('connecting', 'sending')
      else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => advance('connecting', 'sending'))
    })
    request.on('finish', () => advance('sending', 'waiting'))
    request.on('error', (error: NodeJS.ErrnoException) => {
      const { code, message } = describeNetworkError(error, url, phase)
      fail(code, message, { cause: { code: error.code, message: error.message } })
    })

    request.on('response', (response) => {
      phase = 'reading'
      status = response.statusCode ?? 0
      const chunks: Buffer[] = []
      let size = 0
      const tooLarge = () =>
        fail('response_too_large', `The answer from ${url.host} is larger than ${maxResponseBytes} bytes; it was cut off and not read.`, {
          maxResponseBytes,
          receivedBytes: size,
          contentLength: response.headers['content-length'],
        })
      if (Number(response.headers['content-length']) > maxResponseBytes) return tooLarge()
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > maxResponseBytes) return tooLarge()
        chunks.push(chunk)
      })
      response.on('error', (error: NodeJS.ErrnoException) => {
        const { code, message } = describeNetworkError(error, url, phase)
        fail(code, message, { cause: { code: error.code, message: error.message }, receivedBytes: size })
      })
      response.on('close', () => {
        if (!response.complete) fail('bad_response', cutOffSentence(url), { receivedBytes: size })
      })
      response.on('end', () => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve({ status: status ?? 0, headers: response.headers, body: Buffer.concat(chunks), durationMs: performance.now() - startedAt })
      })
    })

    request.end(body)
  })
}
