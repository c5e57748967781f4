import type { z } from 'zod'
import { AppErrorException } from '../../src-shared/ipc/result'
import { BaseUrlSchema } from '../../src-shared/profiles/schemas'
import {
  GetOrCreateRequestSchema,
  GetOrCreateResponseSchema,
  RotateTokenRequestSchema,
  RotateTokenResponseSchema,
  UpdateRequestSchema,
  UpdateResponseSchema,
  userApiUrl,
  userGroupIdProblem,
  type GetOrCreateRequest,
  type GetOrCreateResponse,
  type RotateTokenRequest,
  type RotateTokenResponse,
  type UpdateRequest,
  type UpdateResponse,
} from '../../src-shared/user-api/schemas'
import { exchangeJson, ExchangeFailure } from './exchange'
import { readAnswer, type Operation } from './read-answer'
import { createRedactor, redactException, redactSuccess, type Redactor } from './redact'

export const DEFAULT_TIMEOUT_MS = 15_000
export const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024
export const OUTCOME_UNKNOWN_SENTENCE = 'Outcome unknown: the old token may already be invalid.'

export interface UserApiClientOptions {
  /** The API's root; `/api/user` is appended. It may end with '/' and may carry a path prefix. */
  baseUrl: string
  apiToken: string
  /** For the whole request: connect, send, wait and read. */
  timeoutMs?: number
  maxResponseBytes?: number
}

export interface UserApiCallResult<T> {
  /** The validated response; fields the spec does not list are kept. */
  value: T
  /**
   * The JSON body as received, but for the API token and the token being rotated, redacted
   * wherever a server echoed them (see redactSuccess).
   */
  raw: unknown
  status: number
  durationMs: number
}

export interface UserApiClient {
  getOrCreate(request: GetOrCreateRequest): Promise<UserApiCallResult<GetOrCreateResponse>>
  update(request: UpdateRequest): Promise<UserApiCallResult<UpdateResponse>>
  rotateToken(request: RotateTokenRequest): Promise<UserApiCallResult<RotateTokenResponse>>
}

interface OperationSpec<Req, Res extends { user_group: { token: string } }> {
  operation: Operation
  method: 'GET' | 'PUT' | 'POST'
  requestSchema: z.ZodType<Req>
  responseSchema: z.ZodType<Res>
  /** The user_group_id the request names, checked against the app's id rule before sending. */
  idOf?: (request: Req) => string
}

const GET_OR_CREATE: OperationSpec<GetOrCreateRequest, GetOrCreateResponse> = {
  operation: 'getOrCreate',
  method: 'GET',
  requestSchema: GetOrCreateRequestSchema,
  responseSchema: GetOrCreateResponseSchema,
  idOf: (request) => request.user_group_id,
}
const UPDATE: OperationSpec<UpdateRequest, UpdateResponse> = {
  operation: 'update',
  method: 'PUT',
  requestSchema: UpdateRequestSchema,
  responseSchema: UpdateResponseSchema,
  idOf: (request) => request.user_group_id,
}
const ROTATE_TOKEN: OperationSpec<RotateTokenRequest, RotateTokenResponse> = {
  operation: 'rotateToken',
  method: 'POST',
  requestSchema: RotateTokenRequestSchema,
  responseSchema: RotateTokenResponseSchema,
}

/** The one base-URL rule (BaseUrlSchema), so the client refuses exactly what the profile form refuses. */
function endpointFor(baseUrl: string): URL {
  const parsed = BaseUrlSchema.safeParse(baseUrl)
  if (!parsed.success) throw new AppErrorException('invalid_input', parsed.error.issues[0]?.message ?? 'The base URL is not an http(s) address.')
  return new URL(userApiUrl(parsed.data))
}

function checkOptions(options: UserApiClientOptions): void {
  if (options.apiToken.length === 0) throw new AppErrorException('invalid_input', 'The API token is empty.')
  // Visible ASCII only: a pasted newline or space would otherwise become a malformed header.
  if (!/^[\x21-\x7e]+$/.test(options.apiToken))
    throw new AppErrorException('invalid_input', 'The API token contains spaces, line breaks or other characters a token cannot have.')
  const { timeoutMs, maxResponseBytes } = options
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0))
    throw new AppErrorException('invalid_input', 'The timeout must be a positive number of milliseconds.')
  if (maxResponseBytes !== undefined && !(Number.isSafeInteger(maxResponseBytes) && maxResponseBytes > 0))
    throw new AppErrorException('invalid_input', 'The response size limit must be a positive whole number of bytes.')
}

function validateRequest<Req>(schema: z.ZodType<Req>, request: unknown, redact: Redactor): Req {
  const parsed = schema.safeParse(request)
  if (parsed.success) return parsed.data
  const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
  const listed = issues.map((issue) => `${issue.path || 'the request'}: ${issue.message}`).join('; ')
  throw redactException(new AppErrorException('invalid_input', `The request was not sent: ${listed}.`, { issues }), redact)
}

/**
 * Whether a failed rotation may have happened anyway. Only two things prove it did not: the
 * connection never opened, or the server gave a definite refusal (its `success: 0` envelope, a
 * redirect, or a 4xx). Anything else (a reset or timeout after sending, a cut-off or unreadable
 * 2xx answer, a 5xx from a gateway) leaves the old token possibly already invalid.
 */
function rotationOutcomeUnknown(error: AppErrorException): boolean {
  if (error instanceof ExchangeFailure && !error.requestMayHaveArrived) return false
  if (error.code === 'api_failure') return false
  const status = (error.details as { status?: number } | undefined)?.status
  return status === undefined || status < 300 || status >= 500
}

/**
 * The /api/user client. Every method validates its request before anything is sent, sends only
 * the fields given, and fails with an AppErrorException whose message and details never contain
 * the API token (or the token being rotated). Nothing is retried.
 */
export function createUserApiClient(options: UserApiClientOptions): UserApiClient {
  checkOptions(options)
  const endpoint = endpointFor(options.baseUrl)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    Authorization: `Token ${options.apiToken}`,
  }

  async function call<Req, Res extends { user_group: { token: string } }>(spec: OperationSpec<Req, Res>, request: Req, extraSecrets: string[]): Promise<UserApiCallResult<Res>> {
    const redact = createRedactor([options.apiToken, ...extraSecrets])
    const valid = validateRequest(spec.requestSchema, request, redact)
    const idProblem = spec.idOf && userGroupIdProblem(spec.idOf(valid))
    if (idProblem) throw new AppErrorException('invalid_input', `The request was not sent: ${idProblem}`, { issues: [{ path: 'user_group_id', message: idProblem }] })
    const body = JSON.stringify(valid)
    try {
      const answer = await exchangeJson({
        url: endpoint,
        method: spec.method,
        headers,
        body,
        timeoutMs,
        maxResponseBytes,
        // A pooled socket the server is closing as we write would turn into a false "outcome unknown".
        freshConnection: spec.operation === 'rotateToken',
      })
      const context = { operation: spec.operation, method: spec.method, endpoint: endpoint.href, redact }
      const read = readAnswer(answer, spec.responseSchema, context)
      // The group token is the one field left unredacted: it must not smuggle the API token out.
      if (read.value.user_group.token.includes(options.apiToken)) {
        throw new AppErrorException('bad_response', `The answer (HTTP ${answer.status}) gives the API token as the group’s token; it was not kept.`, {
          method: spec.method,
          url: endpoint.href,
          status: answer.status,
        })
      }
      const { value, raw } = redactSuccess(read, redact)
      return { value, raw, status: answer.status, durationMs: answer.durationMs }
    } catch (error) {
      const failure =
        error instanceof AppErrorException
          ? error
          : new AppErrorException('internal', `The request could not be made: ${error instanceof Error ? error.message : String(error)}.`)
      if (spec.operation === 'rotateToken' && rotationOutcomeUnknown(failure)) {
        const cause = { code: failure.code, message: failure.message, details: failure.details }
        throw redactException(new AppErrorException('outcome_unknown', `${OUTCOME_UNKNOWN_SENTENCE} ${failure.message}`, { cause }), redact)
      }
      throw redactException(failure, redact)
    }
  }

  return {
    getOrCreate: (request) => call(GET_OR_CREATE, request, []),
    update: (request) => call(UPDATE, request, []),
    // The token being rotated is a credential: redact it even though the caller typed it.
    rotateToken: (request) => call(ROTATE_TOKEN, request, typeof request?.current_token === 'string' ? [request.current_token] : []),
  }
}
