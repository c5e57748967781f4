import type { IncomingHttpHeaders } from 'node:http'
import type { z } from 'zod'
import { AppErrorException } from '../../src-shared/ipc/result'
import { jsonTextTooDeep, tooDeepMessage } from '../../src-shared/json/depth'
import { USER_API_PATH, userApiUrl } from '../../src-shared/user-api/schemas'
import { decodeText } from './decode-body'
import type { RawAnswer } from './exchange'
import type { Redactor } from './redact'

export type Operation = 'getOrCreate' | 'update' | 'rotateToken'

export interface AnswerContext {
  operation: Operation
  method: string
  endpoint: string
  redact: Redactor
}

const BODY_EXCERPT_CHARS = 2000
const SERVER_MESSAGE_CHARS = 300
/** The headers an operator (or a support ticket) needs; the rest is noise. */
const HEADERS_THAT_MATTER = [
  'content-type',
  'content-length',
  'retry-after',
  'www-authenticate',
  'location',
  'server',
  'date',
  'x-request-id',
]

const truncate = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit)}…` : text)

function headersThatMatter(headers: IncomingHttpHeaders): Record<string, string> {
  const picked: Record<string, string> = {}
  for (const name of HEADERS_THAT_MATTER) {
    const value = headers[name]
    if (value !== undefined) picked[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return picked
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterPhrase(retryAfter: string | undefined): string {
  if (retryAfter === undefined) return 'later'
  if (/^\d+$/.test(retryAfter.trim())) return `in ${Number(retryAfter)} seconds (Retry-After)`
  const date = new Date(retryAfter)
  return Number.isNaN(date.getTime()) ? `later (Retry-After: ${retryAfter})` : `after ${date.toISOString()} (Retry-After)`
}

/**
 * Where a redirect points, as the base URL to change to when it still ends in /api/user, and
 * without any user name or password it may carry.
 */
function redirectSentence(status: number, location: string | undefined, context: AnswerContext): string {
  const notFollowed = 'Redirects are not followed, so the API token was not sent there.'
  if (!location || !URL.canParse(location, context.endpoint))
    return `The server answered with a redirect (HTTP ${status}) that names no address: check the base URL. ${notFollowed}`
  const target = new URL(location, context.endpoint)
  target.username = ''
  target.password = ''
  target.search = ''
  target.hash = ''
  const suffix = `/${USER_API_PATH}`
  const path = target.pathname.replace(/\/+$/, '')
  if (path.endsWith(suffix) && (target.protocol === 'https:' || target.protocol === 'http:')) {
    const baseUrl = `${target.origin}${path.slice(0, -suffix.length)}`
    if (userApiUrl(baseUrl) !== context.endpoint)
      return `The server moved to ${baseUrl} (HTTP ${status}): change the base URL to it. ${notFollowed}`
    // Back to where it was sent: following it would only ask again, and again.
    return `The server redirected the request to the address it was sent to, ${target.origin}${path} (HTTP ${status}): a redirect loop, not an answer. Something in front of the API (a sign-in page, a load balancer) is answering instead: check the base URL with whoever runs the server. ${notFollowed}`
  }
  return `The server redirected the request to ${target.href} (HTTP ${status}), which is not an /api/user address: check the base URL. ${notFollowed}`
}

/**
 * The server's own words in a failure body, wherever common APIs put them: the API's `error`,
 * `message`, Django REST framework's and FastAPI's `detail` (a string, or a list of `{msg}`),
 * and `errors` (a list of strings or of `{message}`, or an object of field → messages).
 */
function serverWords(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined
  const record = body as Record<string, unknown>
  const text = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value.trim() || undefined
    if (Array.isArray(value)) {
      const parts = value.map(text).filter((part): part is string => part !== undefined)
      return parts.length ? parts.join('; ') : undefined
    }
    if (value !== null && typeof value === 'object') {
      const inner = value as Record<string, unknown>
      const own = text(inner.message ?? inner.msg ?? inner.detail ?? inner.error ?? inner.title)
      if (own !== undefined) {
        const where = Array.isArray(inner.loc) ? inner.loc.join('.') : typeof inner.field === 'string' ? inner.field : undefined
        return where ? `${where}: ${own}` : own
      }
      const fields = Object.entries(inner)
        .map(([field, messages]) => {
          const said = text(messages)
          return said === undefined ? undefined : `${field}: ${said}`
        })
        .filter((part): part is string => part !== undefined)
      return fields.length ? fields.join('; ') : undefined
    }
    return undefined
  }
  for (const key of ['error', 'message', 'detail', 'errors']) {
    const said = text(record[key])
    if (said !== undefined) return said
  }
  return undefined
}

/**
 * The operator's sentence for a status. `fromApi` says whether the body was the API's own
 * envelope: a 404 from the API means no such group or token, from anything else a wrong base URL.
 */
function statusSentence(status: number, context: AnswerContext, headers: IncomingHttpHeaders, fromApi: boolean): string {
  if (status === 401) return `The API token was refused (HTTP 401): check the profile's API token.`
  if (status === 403)
    return `The API token was accepted but may not do this (HTTP 403): it may be read-only, or limited to other groups or another environment. Use a token allowed to ${OPERATION_WORDS[context.operation]}.`
  if (status === 404 && fromApi && context.operation === 'update')
    return 'No user group with this user_group_id exists in this API token’s environment (HTTP 404).'
  if (status === 404 && fromApi && context.operation === 'rotateToken')
    return 'No user group has this current token in this API token’s environment (HTTP 404).'
  if (status === 404) return `Nothing answers at ${context.endpoint} (HTTP 404): check the base URL.`
  if (status === 405)
    return `The server does not accept ${context.method} at ${context.endpoint} (HTTP 405): check that the base URL is the API’s root.`
  if (status === 413) return 'The request is too large for the server (HTTP 413): make the mapping or properties smaller.'
  if (status === 429) return `The server is limiting requests (HTTP 429): try again ${retryAfterPhrase(headers['retry-after'])}.`
  if (status >= 500) return `The server failed while handling the request (HTTP ${status}).`
  if (status >= 400) return `The server refused the request (HTTP ${status}).`
  return `The API reported a failure (HTTP ${status}).`
}

const OPERATION_WORDS: Record<Operation, string> = {
  getOrCreate: 'get or create groups',
  update: 'update groups',
  rotateToken: 'rotate group tokens',
}

const quoted = (sentence: string, said: string | undefined, redact: Redactor) =>
  said === undefined ? sentence : `${sentence} The server said: “${truncate(redact(said), SERVER_MESSAGE_CHARS)}”`

/**
 * Turns a complete HTTP answer into the validated response, or into an AppErrorException:
 * - a redirect or status ≥ 400 without the API's envelope → http_status (with the server's
 *   words quoted when the body has them, see serverWords),
 * - the API's `success: 0` envelope at any status → api_failure (the status still leads the sentence),
 * - a body that is not JSON, or not the expected shape → bad_response.
 * The body is read as text by its byte order mark or charset (UTF-8 otherwise). Everything taken
 * from it is redacted before it is cut to an excerpt.
 */
export function readAnswer<T>(answer: RawAnswer, schema: z.ZodType<T>, context: AnswerContext): { value: T; raw: unknown } {
  const { status, headers } = answer
  const decoded = decodeText(answer.body, headers['content-type'])
  const text = 'text' in decoded ? decoded.text : answer.body.toString('latin1')
  const json = parseJson(text)
  const details = (extra: Record<string, unknown> = {}) => ({
    method: context.method,
    url: context.endpoint,
    status,
    durationMs: answer.durationMs,
    headers: context.redact(headersThatMatter(headers)),
    bodyExcerpt: truncate(context.redact(text), BODY_EXCERPT_CHARS),
    ...extra,
  })

  if (status >= 300 && status < 400)
    throw new AppErrorException('http_status', redirectSentence(status, headers.location, context), details())
  if ('unknownCharset' in decoded)
    throw new AppErrorException(
      'bad_response',
      `The answer (HTTP ${status}) is in the charset "${decoded.unknownCharset}", which Embed Console cannot decode.`,
      details(),
    )
  // Before any schema and before anything is stored: a deep value would overflow every later reader.
  if (json.ok && jsonTextTooDeep(text))
    throw new AppErrorException('bad_response', tooDeepMessage(`The answer (HTTP ${status})`), details())
  const fromApi = json.ok && (json.value as { success?: unknown } | null)?.success === 0
  if (fromApi || status >= 400) {
    const said = json.ok ? serverWords(json.value) : undefined
    const serverMessage = said === undefined ? {} : { serverMessage: truncate(context.redact(said), SERVER_MESSAGE_CHARS) }
    throw new AppErrorException(
      fromApi ? 'api_failure' : 'http_status',
      quoted(statusSentence(status, context, headers, fromApi), said, context.redact),
      details(serverMessage),
    )
  }
  if (!json.ok) throw new AppErrorException('bad_response', `The answer (HTTP ${status}) is not JSON.`, details())

  const parsed = schema.safeParse(json.value)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
    throw new AppErrorException(
      'bad_response',
      `The answer (HTTP ${status}) is JSON but not the expected shape: ${truncate(issues.join('; '), SERVER_MESSAGE_CHARS)}.`,
      details({ issues }),
    )
  }
  return { value: parsed.data, raw: json.value }
}
