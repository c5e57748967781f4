import type { IncomingHttpHeaders } from 'node:http'
import type { z } from 'zod'
import { AppErrorException } from '../../src-shared/ipc/result'
import { jsonTextTooDeep, tooDeepMessage } from '../../src-shared/json/depth'
import { ApiFailureBodySchema } from '../../src-shared/user-api/schemas'
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
const HEADERS_THAT_MATTER = ['content-type', 'content-length', 'retry-after', 'www-authenticate', 'location', 'server', 'date', 'x-request-id']

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
 * The operator's sentence for a status. `fromApi` says whether the body was the API's own
 * envelope: a 404 from the API means no such group or token, from anything else a wrong base URL.
 */
function statusSentence(status: number, context: AnswerContext, headers: IncomingHttpHeaders, fromApi: boolean): string {
  if (status === 401 || status === 403) return `The API token was refused (HTTP ${status}): check the profile's API token.`
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
  if (status >= 300)
    return `The server redirected the request to ${headers.location ?? 'another address'} (HTTP ${status}); redirects are not followed, so the API token is never sent elsewhere: check the base URL.`
  return `The API reported a failure (HTTP ${status}).`
}

/**
 * Turns a complete HTTP answer into the validated response, or into an AppErrorException:
 * - a redirect or status ≥ 400 without the API's envelope → http_status,
 * - the API's `success: 0` envelope at any status → api_failure (the status still leads the sentence),
 * - a body that is not JSON, or not the expected shape → bad_response.
 * Everything taken from the body is redacted before it is cut to an excerpt.
 */
export function readAnswer<T>(answer: RawAnswer, schema: z.ZodType<T>, context: AnswerContext): { value: T; raw: unknown } {
  const { status, headers } = answer
  const text = answer.body.toString('utf8')
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

  if (status >= 300 && status < 400) throw new AppErrorException('http_status', statusSentence(status, context, headers, false), details())
  // Before any schema and before anything is stored: a deep value would overflow every later reader.
  if (json.ok && jsonTextTooDeep(text)) throw new AppErrorException('bad_response', tooDeepMessage(`The answer (HTTP ${status})`), details())
  if (json.ok && (json.value as { success?: unknown } | null)?.success === 0) {
    const envelope = ApiFailureBodySchema.safeParse(json.value)
    const said = envelope.success ? (envelope.data.error ?? envelope.data.message) : undefined
    const sentence = statusSentence(status, context, headers, true)
    if (said === undefined) throw new AppErrorException('api_failure', sentence, details())
    const serverMessage = truncate(context.redact(said), SERVER_MESSAGE_CHARS)
    throw new AppErrorException('api_failure', `${sentence} The server said: “${serverMessage}”`, details({ serverMessage }))
  }
  if (status >= 400) throw new AppErrorException('http_status', statusSentence(status, context, headers, false), details())
  if (!json.ok) throw new AppErrorException('bad_response', `The answer (HTTP ${status}) is not JSON.`, details())

  const parsed = schema.safeParse(json.value)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
    throw new AppErrorException('bad_response', `The answer (HTTP ${status}) is JSON but not the expected shape: ${truncate(issues.join('; '), SERVER_MESSAGE_CHARS)}.`, details({ issues }))
  }
  return { value: parsed.data, raw: json.value }
}
