import { afterEach, describe, expect, it } from 'vitest'
import { createUserApiClient, type UserApiClient } from '../../../src-main/user-api/client'
import { AppErrorException } from '../../../src-shared/ipc/result'
import { answerWith, closedPort, type HostileServer, startHostileServer } from '../../helpers/hostile-server'

const API_TOKEN = 'request-test-api-token'
const group = { team_id: 1, token: 't', name: 'n', provided_id: 'acme', properties: null, api_environment_tag: 'Testing' }

let server: HostileServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function recordingClient(baseSuffix = ''): Promise<UserApiClient> {
  server = await startHostileServer({
    onRequest: (received, res) => answerWith(200, { success: 1, new_user_group: false, user_group: group })(received, res),
  })
  return createUserApiClient({ baseUrl: `${server.baseUrl}${baseSuffix}`, apiToken: API_TOKEN })
}

const lastRequest = () => server?.requests.at(-1)

function thrownBy(action: () => unknown): AppErrorException {
  try {
    action()
  } catch (error) {
    expect(error).toBeInstanceOf(AppErrorException)
    return error as AppErrorException
  }
  throw new Error('expected a throw')
}

describe('what the client sends', () => {
  it('sends get-or-create as GET /api/user with a JSON body and the three headers', async () => {
    const client = await recordingClient()
    await client.getOrCreate({ user_group_id: 'acme', name: 'Acme', mapping: { s1: 'ds1' }, properties: { plan: 'pro', seats: 3 } })
    expect(lastRequest()).toMatchObject({
      method: 'GET',
      url: '/api/user',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Token ${API_TOKEN}` },
    })
    expect(JSON.parse(lastRequest()?.body ?? '')).toEqual({
      user_group_id: 'acme',
      name: 'Acme',
      mapping: { s1: 'ds1' },
      properties: { plan: 'pro', seats: 3 },
    })
  })

  it('sends update as PUT and rotation as POST, on the same path', async () => {
    const client = await recordingClient()
    await client.update({ user_group_id: 'acme', name: 'Acme 2' })
    expect(lastRequest()).toMatchObject({ method: 'PUT', url: '/api/user' })
    await client.rotateToken({ current_token: 'old-group-token' })
    expect(lastRequest()).toMatchObject({ method: 'POST', url: '/api/user', body: '{"current_token":"old-group-token"}' })
  })

  it('sends a rotation on a connection of its own, never a pooled one the server may be closing', async () => {
    const client = await recordingClient()
    await client.getOrCreate({ user_group_id: 'acme' })
    expect(lastRequest()?.headers.connection).toBe('keep-alive')
    await client.rotateToken({ current_token: 'old-group-token' })
    expect(lastRequest()?.headers.connection).toBe('close')
  })

  it('keeps its connections for get-or-create and update: a GET with a body does not close one', async () => {
    const client = await recordingClient()
    for (let index = 0; index < 5; index++) {
      await client.getOrCreate({ user_group_id: 'acme' })
      await client.update({ user_group_id: 'acme', name: 'Acme' })
    }
    // A pool may open a second connection while it checks an idle one (undici's did): at most
    // two for ten calls, where closing after each GET would take six.
    expect(server?.connections).toBeLessThanOrEqual(2)
  })

  it('sends only the fields the caller gave, not even undefined ones as null', async () => {
    const client = await recordingClient()
    await client.update({ user_group_id: 'acme', name: undefined, properties: { a: 1 } })
    expect(lastRequest()?.body).toBe('{"user_group_id":"acme","properties":{"a":1}}')
  })

  it.each([
    ['no trailing slash', '', '/api/user'],
    ['a trailing slash', '/', '/api/user'],
    ['a path prefix', '/tenant/v1', '/tenant/v1/api/user'],
    ['a path prefix and a trailing slash', '/tenant/v1/', '/tenant/v1/api/user'],
  ])('joins a base URL with %s to /api/user', async (_case, suffix, path) => {
    const client = await recordingClient(suffix)
    await client.getOrCreate({ user_group_id: 'acme' })
    expect(lastRequest()?.url).toBe(path)
  })

  it('answers with the parsed response, the raw body, the status and the duration', async () => {
    const result = await (await recordingClient()).getOrCreate({ user_group_id: 'acme' })
    expect(result).toMatchObject({ value: { success: 1, new_user_group: false, user_group: group }, raw: { success: 1 }, status: 200 })
    expect(result.durationMs).toBeGreaterThan(0)
  })
})

describe('requests refused before anything is sent', () => {
  // Nothing listens on this port: a request that went out would fail with connect_failed instead.
  let client: UserApiClient
  it.each([
    [
      'a missing user_group_id',
      () => client.getOrCreate({} as never),
      'The request was not sent: user_group_id: a non-empty string is required.',
    ],
    [
      'a blank user_group_id',
      () => client.update({ user_group_id: '  ' }),
      'The request was not sent: user_group_id: a non-empty string is required.',
    ],
    [
      'an unknown field',
      () => client.getOrCreate({ user_group_id: 'a', nmae: 'typo' } as never),
      'The request was not sent: the request: Unrecognized key: "nmae".',
    ],
    [
      'a mapping value that is not a string',
      () => client.update({ user_group_id: 'a', mapping: { s1: 5 } } as never),
      'The request was not sent: mapping.s1: must be a string: the data source, or the id you gave it.',
    ],
    [
      'properties that are not an object',
      () => client.getOrCreate({ user_group_id: 'a', properties: [1] } as never),
      'The request was not sent: properties: Invalid input: expected record, received array.',
    ],
    [
      'an empty current_token',
      () => client.rotateToken({ current_token: '' }),
      'The request was not sent: current_token: the current user group token is required, not an empty string.',
    ],
  ])('refuses %s with invalid_input', async (_case, call, sentence) => {
    client = createUserApiClient({ baseUrl: `http://127.0.0.1:${await closedPort()}`, apiToken: API_TOKEN })
    const error = await call().then(
      () => undefined,
      (thrown: unknown) => thrown as AppErrorException,
    )
    expect(error?.code).toBe('invalid_input')
    expect(error?.message).toBe(sentence)
  })
})

describe('client options', () => {
  it.each([
    // The profile form's own rule (BaseUrlSchema), word for word; no message quotes the address.
    [{ baseUrl: 'not a url' }, 'The base URL is not a full address: write it like https://example.com.'],
    [{ baseUrl: 'ftp://example.com' }, 'The base URL must start with https:// (or http://); "ftp:" addresses are not accepted.'],
    [
      { baseUrl: 'https://user:pass@example.com' },
      'Leave the user name and password out of the base URL: the API token has its own field.',
    ],
    [
      { baseUrl: 'https://example.com/?tenant=1' },
      'The base URL cannot have a query (?…) or a fragment (#…): the app adds /api/user to it.',
    ],
    [{ apiToken: '' }, 'The API token is empty.'],
    [{ apiToken: 'abc\n' }, 'The API token contains spaces, line breaks or other characters a token cannot have.'],
    [{ timeoutMs: 0 }, 'The timeout must be a positive number of milliseconds.'],
    [{ maxResponseBytes: 1.5 }, 'The response size limit must be a positive whole number of bytes.'],
  ])('refuses %o with invalid_input', (override, sentence) => {
    const error = thrownBy(() => createUserApiClient({ baseUrl: 'https://example.com', apiToken: API_TOKEN, ...override }))
    expect(error.code).toBe('invalid_input')
    expect(error.message).toBe(sentence)
  })
})

describe('ids the app will not send', () => {
  it.each([
    ['a leading space', ' acme', 'user_group_id starts with a space'],
    ['a trailing space', 'acme ', 'user_group_id ends with a space'],
    ['a zero-width space', 'ac\u200bme', 'user_group_id holds a hidden character (U+200B, invisible or not a plain space) at position 3'],
    ['a byte order mark', '\ufeffacme', 'user_group_id starts with a byte order mark (U+FEFF)'],
    ['a leading tab', '\tacme', 'user_group_id holds a hidden character (U+0009, invisible or not a plain space) at position 1'],
    ['a no-break space', 'ac\u00a0me', 'user_group_id holds a hidden character (U+00A0'],
  ])('refuses an id with %s before anything is sent', async (_case, id, sentence) => {
    const client = await recordingClient()
    for (const send of [() => client.getOrCreate({ user_group_id: id }), () => client.update({ user_group_id: id, name: 'x' })]) {
      const error = await send().then(
        () => undefined,
        (thrown: unknown) => thrown as AppErrorException,
      )
      expect(error?.code).toBe('invalid_input')
      expect(error?.message).toContain(`The request was not sent: ${sentence}`)
    }
    expect(server?.requests).toHaveLength(0)
  })

  it('still sends an id with inner spaces or letters beyond ASCII', async () => {
    const client = await recordingClient()
    await client.getOrCreate({ user_group_id: 'Acme Corp — São Paulo' })
    expect(JSON.parse(lastRequest()?.body ?? '{}')).toEqual({ user_group_id: 'Acme Corp — São Paulo' })
  })
})
