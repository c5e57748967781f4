import type { z } from 'zod'
import { messageOf } from '../../src-shared/ipc/error-message'
import { AppErrorException } from '../../src-shared/ipc/result'
import { BaseUrlSchema } from '../../src-shared/profiles/base-url'
import { checkOutgoing, type OutgoingOperation } from '../../src-shared/user-api/outgoing'
import {
  type GetOrCreateRequest,
  type GetOrCreateResponse,
  GetOrCreateResponseSchema,
  type RotateTokenRequest,
  type RotateTokenResponse,
  RotateTokenResponseSchema,
  type UpdateRequest,
  type UpdateResponse,
  UpdateResponseSchema,
  userApiUrl,
} from '../../src-shared/user-api/schemas'
import { ACCEPT_ENCODING } from './decode-body'
import { dispatcherFor } from './dispatchers'
import { ExchangeFailure, exchangeJson } from './exchange'
import { type ProxyChoice, type ProxyRoute, resolveProxyRoute } from './proxy-route'
import { type Operation, readAnswer } from './read-answer'
import { createRedactor, findSecret, redactException, type Redactor, redactSuccess, SecretMatcher } from './redact'
import { NO_TLS_TRUST, resolveTrust, type Trust } from './trust'

export const DEFAULT_TIMEOUT_MS = 15_000
export const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024
export const OUTCOME_UNKNOWN_SENTENCE = 'Outcome unknown: the old token may already be invalid.'

/** How calls reach the server: a profile's proxy choice and CA bundle. */
export interface NetworkSettings {
  proxy: ProxyChoice
  /** A PEM file of certificate authorities trusted besides the runtime's. */
  caBundlePath?: string
}

export const ENVIRONMENT_NETWORK: NetworkSettings = { proxy: { mode: 'environment' } }

export interface UserApiClientOptions {
  /** The API's root; `/api/user` is appended. It may end with '/' and may carry a path prefix. */
  baseUrl: string
  apiToken: string
  /** For the whole request: connect, send, wait and read. */
  timeoutMs?: number
  /** On the wire, and again once a compressed answer is decoded. */
  maxResponseBytes?: number
  /** The proxy and trust; by default the proxy variables of `env` decide, and the runtime's CAs. */
  network?: NetworkSettings
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (default: this process's environment). */
  env?: Record<string, string | undefined>
}

export interface UserApiCallResult<T> {
  /** The validated response; fields docs/user-group-api.md section 2 does not list are kept. */
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

interface OperationSpec<Res extends { user_group: { token: string } }> {
  operation: Operation & OutgoingOperation
  method: 'GET' | 'PUT' | 'POST'
  responseSchema: z.ZodType<Res>
}

const GET_OR_CREATE: OperationSpec<GetOrCreateResponse> = {
  operation: 'getOrCreate',
  method: 'GET',
  responseSchema: GetOrCreateResponseSchema,
}
const UPDATE: OperationSpec<UpdateResponse> = {
  operation: 'update',
  method: 'PUT',
  responseSchema: UpdateResponseSchema,
}
const ROTATE_TOKEN: OperationSpec<RotateTokenResponse> = {
  operation: 'rotateToken',
  method: 'POST',
  responseSchema: RotateTokenResponseSchema,
}

/** The endpoint of the base URL last checked: a client is made for each call of a profile (a bulk run makes thousands). */
let lastEndpoint: { baseUrl: string; endpoint: string } | undefined

/** The one base-URL rule (BaseUrlSchema), so the client refuses exactly what the profile form refuses. */
function endpointFor(baseUrl: string): URL {
  if (lastEndpoint?.baseUrl !== baseUrl) {
    const parsed = BaseUrlSchema.safeParse(baseUrl)
    if (!parsed.success)
      throw new AppErrorException('invalid_input', parsed.error.issues[0]?.message ?? 'The base URL is not an http(s) address.')
    lastEndpoint = { baseUrl, endpoint: userApiUrl(parsed.data) }
  }
  return new URL(lastEndpoint.endpoint)
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

/** The one outgoing check (src-shared/user-api/outgoing.ts), as the client's refusal. */
function validateRequest<Op extends OutgoingOperation>(operation: Op, request: unknown, redact: Redactor) {
  const checked = checkOutgoing(operation, request)
  if (checked.ok) return checked.value
  const issues = checked.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
  const listed = checked.issues
    .map((issue) => (issue.kind === 'user_group_id' ? issue.message : `${issue.path.join('.') || 'the request'}: ${issue.message}`))
    .join('; ')
  throw redactException(
    new AppErrorException('invalid_input', `The request was not sent: ${listed}${/[.!?]$/.test(listed) ? '' : '.'}`, { issues }),
    redact,
  )
}

/**
 * Whether a failed rotation may have happened anyway. Only two things prove it did not: the
 * connection never opened (or the proxy refused to pass the request on), or the server gave a
 * definite refusal (its `success: 0` envelope, a redirect, or a 4xx). Anything else (a reset or
 * timeout after sending, a cut-off or unreadable 2xx answer, a 5xx from a gateway) leaves the old
 * token possibly already invalid.
 */
function rotationOutcomeUnknown(error: AppErrorException): boolean {
  if (error instanceof ExchangeFailure && !error.requestMayHaveArrived) return false
  if (error.code === 'api_failure') return false
  const status = (error.details as { status?: number } | undefined)?.status
  return status === undefined || status < 300 || status >= 500
}

/** A certificate failure, told again with the certificate it refused and what would trust it. */
async function withCertificate(
  failure: AppErrorException,
  endpoint: URL,
  route: ProxyRoute,
  trust: Trust,
  timeoutMs: number,
): Promise<AppErrorException> {
  if (!(failure instanceof ExchangeFailure) || failure.code !== 'tls_failed') return failure
  const cause = (failure.details as { cause?: { code?: string } }).cause?.code ?? ''
  // Loaded only here: the probe's modules (tls, dns) are a cost no successful call should pay.
  const { explainCertificateFailure } = await import('./tls-probe')
  const explained = await explainCertificateFailure(cause, endpoint, route, trust, timeoutMs).catch(() => undefined)
  if (!explained) return failure
  return new ExchangeFailure(
    'tls_failed',
    explained.message,
    { ...(failure.details as Record<string, unknown>), certificate: explained.certificate },
    failure.requestMayHaveArrived,
  )
}

/** Whether a call meets TLS (to the server or to its proxy), or has a CA bundle to check before it is sent. */
const tlsOnTheWay = (endpoint: URL, route: ProxyRoute, caBundlePath: string | undefined) =>
  endpoint.protocol === 'https:' || route.proxy?.url.protocol === 'https:' || Boolean(caBundlePath)

/**
 * The /api/user client. Every method validates its request before anything is sent, sends only
 * the fields given, and fails with an AppErrorException whose message and details never contain
 * the API token (or the token being rotated, or the proxy's password). Nothing is retried.
 * Calls go through the proxy the network settings (or the environment) choose, never for a
 * loopback address, and trust the runtime's certificate authorities plus the profile's bundle.
 */
export function createUserApiClient(options: UserApiClientOptions): UserApiClient {
  checkOptions(options)
  const endpoint = endpointFor(options.baseUrl)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
  const network = options.network ?? ENVIRONMENT_NETWORK
  const route = resolveProxyRoute(endpoint, network.proxy, options.env ?? process.env)
  const trust = tlsOnTheWay(endpoint, route, network.caBundlePath) ? resolveTrust(network.caBundlePath) : NO_TLS_TRUST
  const proxySecrets = route.proxy ? [route.proxy.password ?? '', route.proxy.authorization?.replace(/^Basic /, '') ?? ''] : []
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    Authorization: `Token ${options.apiToken}`,
    'Accept-Encoding': ACCEPT_ENCODING,
  }

  async function call<Res extends { user_group: { token: string } }>(
    spec: OperationSpec<Res>,
    request: unknown,
    extraSecrets: string[],
  ): Promise<UserApiCallResult<Res>> {
    const redact = createRedactor([options.apiToken, ...extraSecrets, ...proxySecrets])
    const valid = validateRequest(spec.operation, request, redact)
    // The API token (or the proxy's password) pasted into a group's field never leaves either,
    // whoever calls: the group service checks every secret the app keeps, this the ones it was given.
    const own = new SecretMatcher()
    own.add(options.apiToken, 'API token')
    for (const secret of proxySecrets) own.add(secret, 'proxy password')
    const carried = findSecret(valid, own)
    if (carried)
      throw new AppErrorException(
        'refused',
        `The ${carried.field === 'current_token' ? 'current token' : carried.field} holds the ${carried.tag} this call is sent with. A token or password is never sent in a group’s fields: take it out and send again. Nothing was sent.`,
        { field: carried.field },
      )
    const body = JSON.stringify(valid)
    // A pooled socket the server is closing as we write would turn into a false "outcome unknown".
    const ownConnection = spec.operation === 'rotateToken'
    const dispatcher = dispatcherFor(route, trust, ownConnection)
    try {
      const answer = await exchangeJson({
        url: endpoint,
        method: spec.method,
        headers,
        body,
        timeoutMs,
        maxResponseBytes,
        dispatcher,
        route,
        closeAfter: ownConnection,
      }).finally(() => {
        if (ownConnection) void dispatcher.destroy()
      })
      const context = { operation: spec.operation, method: spec.method, endpoint: endpoint.href, redact }
      const read = readAnswer(answer, spec.responseSchema, context)
      // The group token is the one field left unredacted: it must not smuggle the API token out.
      if (read.value.user_group.token.includes(options.apiToken)) {
        throw new AppErrorException(
          'bad_response',
          `The answer (HTTP ${answer.status}) gives the API token as the group’s token; it was not kept.`,
          {
            method: spec.method,
            url: endpoint.href,
            status: answer.status,
          },
        )
      }
      const { value, raw } = redactSuccess(read, redact)
      return { value, raw, status: answer.status, durationMs: answer.durationMs }
    } catch (error) {
      const failure =
        error instanceof AppErrorException
          ? await withCertificate(error, endpoint, route, trust, timeoutMs)
          : new AppErrorException('internal', `The request could not be made: ${messageOf(error)}.`)
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
