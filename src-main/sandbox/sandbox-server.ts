import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AppErrorException } from '../../src-shared/ipc/result'
import {
  type EnvironmentTag,
  GetOrCreateRequestSchema,
  RotateTokenRequestSchema,
  UpdateRequestSchema,
  USER_API_PATH,
} from '../../src-shared/user-api/schemas'
import { SandboxGroups, type SentText } from './sandbox-groups'
import { JsonText, type ParsedRequest, parseRequest, readBody, Refusal, refuseUnstorable, sendJson } from './sandbox-requests'
import { openSandboxStore } from './sandbox-store'

/** The database's name in the app's data folder, for the app and `embed-console sandbox` alike. */
export const SANDBOX_DATA_FILE = 'sandbox.db'
/** Release 0.1.0's data file in that folder, imported once. */
export const LEGACY_SANDBOX_DATA_FILE = 'sandbox.json'
const API_PATH = `/${USER_API_PATH}`
const ENVIRONMENTS: readonly EnvironmentTag[] = ['Customer', 'Testing']
const ALLOWED_METHODS = 'GET, PUT, POST, OPTIONS'

/*
 * Browsers may call the sandbox from any page (a docs site's playground): it holds no cookie and
 * every call needs the API token, so any origin may read its answers. A preflight (OPTIONS) is
 * answered without a token, as browsers send none; Chrome's Private Network Access asks whether
 * a public page may reach this loopback address, and the answer is yes.
 */
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After, WWW-Authenticate',
}
const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'GET, PUT, POST',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type',
  'Access-Control-Max-Age': '600',
}

/**
 * A 400 for an id or name the database would change; then where the mapping and properties are
 * found as sent (JsonText), for the write that stores them.
 */
function checkedSentText(parsed: ParsedRequest<{ user_group_id: string; name?: string }>): SentText {
  refuseUnstorable({ user_group_id: parsed.value.user_group_id, name: parsed.value.name })
  return (member) => parsed.memberText(member)
}

/** The success envelope around a group's JSON text; new_user_group only for a get-or-create. */
const succeeded = (group: JsonText, created?: boolean): JsonText =>
  new JsonText(`{"success":1,${created === undefined ? '' : `"new_user_group":${created},`}"user_group":${group.text}}`)

export interface SandboxOptions {
  /** 0 picks any free port. */
  port?: number
  /** The database the groups (and generated API tokens) are kept in across restarts. */
  dataFile: string
  /** A data file of release 0.1.0 to import once (then kept as `.migrated`). */
  legacyDataFile?: string
  /** How long a write waits for another process writing the same database (default 5 s). */
  busyTimeoutMs?: number
  /** Fixed API tokens, never written to the data file; otherwise the ones made up on first start. */
  customerToken?: string
  testingToken?: string
  /** Where a notice goes, such as an unreadable old data file moved aside. */
  log?: (line: string) => void
}

export interface Sandbox {
  baseUrl: string
  port: number
  tokens: Record<EnvironmentTag, string>
  close(): Promise<void>
}

/** Random like a real credential: 64 hex characters. */
export const newSandboxToken = () => randomBytes(32).toString('hex')

const sameSecret = (given: Buffer, expected: Buffer): boolean => given.length === expected.length && timingSafeEqual(given, expected)

function checkGivenTokens(customerToken: string | undefined, testingToken: string | undefined): void {
  for (const [name, token] of [
    ['Customer', customerToken],
    ['Testing', testingToken],
  ] as const) {
    if (token !== undefined && !/^[\x21-\x7e]+$/.test(token))
      throw new AppErrorException('invalid_input', `The ${name} token must be non-empty, without spaces or line breaks.`)
  }
  if (customerToken !== undefined && customerToken === testingToken)
    throw new AppErrorException('invalid_input', 'The Customer and Testing tokens must differ: the token decides the environment.')
}

const unauthorized = (sentence: string) => new Refusal(401, sentence, { 'WWW-Authenticate': 'Token' })

/**
 * A local implementation of /api/user on 127.0.0.1, following the rules of docs/user-group-api.md
 * and the choices in docs/api-decisions.md. Each API token belongs to one environment; every change is committed
 * to the database's write-ahead log before the answer goes out.
 */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  checkGivenTokens(options.customerToken, options.testingToken)
  const store = await openSandboxStore({
    path: options.dataFile,
    legacyFile: options.legacyDataFile,
    busyTimeoutMs: options.busyTimeoutMs,
    log: options.log ?? (() => {}),
  })
  const tokens: Record<EnvironmentTag, string> = {
    Customer: options.customerToken ?? store.apiToken('Customer', newSandboxToken),
    Testing: options.testingToken ?? store.apiToken('Testing', newSandboxToken),
  }
  const tokenBytes: Record<EnvironmentTag, Buffer> = { Customer: Buffer.from(tokens.Customer), Testing: Buffer.from(tokens.Testing) }
  const groups = new SandboxGroups(store.db, newSandboxToken)

  const environmentOf = (authorization: string | undefined): EnvironmentTag => {
    if (!authorization) throw unauthorized('The Authorization header is missing: send "Authorization: Token <API_TOKEN>".')
    const given = /^Token (\S+)$/i.exec(authorization.trim())?.[1]
    if (given === undefined) throw unauthorized('The Authorization header must read "Token <API_TOKEN>".')
    const givenBytes = Buffer.from(given)
    const environment = ENVIRONMENTS.find((candidate) => sameSecret(givenBytes, tokenBytes[candidate]))
    if (!environment) throw unauthorized('The API token is not recognised.')
    return environment
  }

  // Order of checks: method, then the token (before reading any body), then the body.
  const answer = async (req: IncomingMessage): Promise<JsonText> => {
    if (req.method !== 'GET' && req.method !== 'PUT' && req.method !== 'POST')
      throw new Refusal(
        405,
        `${req.method} is not allowed on ${API_PATH}: use GET (get or create), PUT (update) or POST (rotate a token).`,
        {
          Allow: ALLOWED_METHODS,
        },
      )
    const environment = environmentOf(req.headers.authorization)
    const body = await readBody(req)

    if (req.method === 'GET') {
      const parsed = parseRequest(body, GetOrCreateRequestSchema)
      const { created, group } = groups.getOrCreate(environment, parsed.value, checkedSentText(parsed))
      return succeeded(group, created)
    }
    if (req.method === 'PUT') {
      const parsed = parseRequest(body, UpdateRequestSchema)
      const request = parsed.value
      const group = groups.update(environment, request, checkedSentText(parsed))
      if (!group)
        throw new Refusal(404, `No user group with user_group_id "${request.user_group_id}" exists in the ${environment} environment.`)
      return succeeded(group)
    }
    // The unknown token is not repeated: it is a credential.
    const group = groups.rotateToken(environment, parseRequest(body, RotateTokenRequestSchema).value.current_token)
    if (!group) throw new Refusal(404, `No user group in the ${environment} environment has this token.`)
    return succeeded(group)
  }

  const server = createServer((req, res) => {
    // The API's own path needs no parsing (nor a URL object on every call): it is its own pathname.
    const path = req.url === API_PATH ? API_PATH : new URL(req.url ?? '/', 'http://sandbox').pathname
    // The API's own description, public like any API reference: no token, and any origin may read it.
    if (path === '/openapi.json') {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Use GET for /openapi.json.')
        return
      }
      // Loaded on the first request for it: the app's start does not pay for the document's code.
      const serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      void import('../../src-shared/user-api/openapi').then(({ buildOpenApiDocument }) =>
        sendJson(res, 200, buildOpenApiDocument({ serverUrl }), { 'Access-Control-Allow-Origin': '*' }),
      )
      return
    }
    // Outside /api/user there is no API, so no API envelope either: like a real deployment's
    // router, a plain 404. The client then says "check the base URL", not "no such group".
    if (path !== API_PATH) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
      res.end(`Not found: ${path}. The sandbox API is at ${API_PATH}.`)
      return
    }
    if (req.method === 'OPTIONS') {
      const privateNetwork =
        req.headers['access-control-request-private-network'] === 'true' ? { 'Access-Control-Allow-Private-Network': 'true' } : {}
      res.writeHead(204, { Allow: ALLOWED_METHODS, ...PREFLIGHT_HEADERS, ...privateNetwork, 'Cache-Control': 'no-store' }).end()
      return
    }
    answer(req).then(
      (body) => sendJson(res, 200, body, CORS_HEADERS),
      (error: unknown) => {
        const refusal = error instanceof Refusal ? error : new Refusal(500, (error as Error).message)
        sendJson(res, refusal.status, { success: 0, error: refusal.sentence }, { ...CORS_HEADERS, ...refusal.headers })
      },
    )
  })
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
    })
  } catch (error) {
    store.close()
    throw error
  }
  const { port } = server.address() as AddressInfo

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    tokens,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      store.close()
    },
  }
}
