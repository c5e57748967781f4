import type { ServerResponse } from 'node:http'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createUserApiClient, OUTCOME_UNKNOWN_SENTENCE, type UserApiClient } from '../../../src-main/user-api/client'
import type { AppErrorException } from '../../../src-shared/ipc/result'
import { failureOf } from '../../helpers/failure-of'
import { answerWith, closedPort, type HostileBehaviour, type HostileServer, startHostileServer } from '../../helpers/hostile-server'

const API_TOKEN = 'hostile-test-api-token-0001'
const GROUP_TOKEN = 'hostile-test-group-token-0002'
const validGroup = { team_id: 7, token: 'new-token', name: 'Acme', provided_id: 'acme', api_environment_tag: 'Customer' }

let server: HostileServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function clientFor(
  behaviour: HostileBehaviour,
  options: { timeoutMs?: number; maxResponseBytes?: number } = {},
): Promise<UserApiClient> {
  server = await startHostileServer(behaviour)
  return createUserApiClient({ baseUrl: server.baseUrl, apiToken: API_TOKEN, ...options })
}

const getOrCreate = (client: UserApiClient) => client.getOrCreate({ user_group_id: 'acme' })
const rotate = (client: UserApiClient) => client.rotateToken({ current_token: GROUP_TOKEN })
const detailsOf = (error: AppErrorException) => error.details as Record<string, unknown>

// A second: long enough that the request has surely reached the server on a loaded machine (at
// 150 ms, two cores busy with other work timed it out while it was still connecting).
const STALL_TIMEOUT_MS = 1000

describe('the client against a server that stalls', () => {
  it('times out the whole request with a sentence that says how long it waited', async () => {
    const client = await clientFor({ onRequest: () => {} }, { timeoutMs: STALL_TIMEOUT_MS })
    // A client that never gave up would hang here until the test's own timeout fails it.
    const error = await failureOf(getOrCreate(client))
    expect(error.code).toBe('timeout')
    expect(error.message).toBe(
      `No complete answer from 127.0.0.1:${server?.port} within 1 s: the request timed out while waiting for the answer.`,
    )
  })

  it('times out a server that sends headers and then stalls in the body', async () => {
    const client = await clientFor(
      { onRequest: (_received, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).write('{"succ') },
      { timeoutMs: STALL_TIMEOUT_MS },
    )
    const error = await failureOf(getOrCreate(client))
    expect(error.code).toBe('timeout')
    expect(error.message).toContain('while reading the answer')
  })

  it('reports a rotation that timed out as outcome unknown, never retried', async () => {
    const client = await clientFor({ onRequest: () => {} }, { timeoutMs: STALL_TIMEOUT_MS })
    const error = await failureOf(rotate(client))
    expect(error.code).toBe('outcome_unknown')
    expect(error.message).toMatch(new RegExp(`^${OUTCOME_UNKNOWN_SENTENCE} No complete answer`))
    expect(detailsOf(error).cause).toMatchObject({ code: 'timeout' })
    expect(server?.requests).toHaveLength(1)
  })
})

describe('the client against a server that resets the connection', () => {
  // 32 MB cannot sit in the loopback buffers, so the reset surely lands while the client is still sending.
  const hugeText = 'x'.repeat(32 * 1024 * 1024)
  const resetMidUpload: HostileBehaviour = { onHead: (req) => req.socket.resetAndDestroy() }
  const resetAfterRequest: HostileBehaviour = { onRequest: (_received, _res, req) => req.socket.resetAndDestroy() }

  it('says so when the server reset the connection before the request was fully sent', async () => {
    const client = await clientFor(resetMidUpload)
    const error = await failureOf(client.getOrCreate({ user_group_id: 'acme', properties: { huge: hugeText } }))
    expect(error.code).toBe('connect_failed')
    expect(error.message).toBe(`The server at 127.0.0.1:${server?.port} closed the connection before the request was fully sent.`)
    expect(detailsOf(error).phase).toBe('sending')
  })

  it('says the request was sent when the server read all of it and then reset', async () => {
    const error = await failureOf(getOrCreate(await clientFor(resetAfterRequest)))
    expect(error.code).toBe('connect_failed')
    expect(error.message).toBe(
      `The server at 127.0.0.1:${server?.port} closed the connection after the request was sent, without answering.`,
    )
    expect(detailsOf(error).cause).toMatchObject({ code: 'ECONNRESET' })
  })

  it('says an answer whose headers are too large to read is one, not a connection closed without answering', async () => {
    // 10 MB of headers: more than any API sends, and than undici reads (16 KB).
    const hugeHeaders: HostileBehaviour = {
      onRequest: (_received, _res, req) => {
        const socket = req.socket
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n`)
        for (let sent = 0; sent < 10; sent += 1) socket.write(`X-Padding-${sent}: ${'p'.repeat(1024 * 1024)}\r\n`)
        socket.end('\r\n{}')
      },
    }
    const client = await clientFor(hugeHeaders)
    const error = await failureOf(getOrCreate(client))
    expect(error.code).toBe('bad_response')
    expect(error.message).toBe(
      `The server at 127.0.0.1:${server?.port} answered with headers larger than 16 KB, more than any API sends, so the answer was not read: something other than the API may be answering. Check the base URL.`,
    )
    // It did answer: a rotation sent to it may have happened.
    expect((await failureOf(rotate(client))).code).toBe('outcome_unknown')
  })

  it.each([
    ['before the request was fully sent', resetMidUpload, hugeText],
    ['after the request was sent', resetAfterRequest, GROUP_TOKEN],
  ])('reports a rotation reset %s as outcome unknown, tried once', async (_when, behaviour, currentToken) => {
    const error = await failureOf((await clientFor(behaviour)).rotateToken({ current_token: currentToken }))
    expect(error.code).toBe('outcome_unknown')
    expect(error.message.startsWith(`${OUTCOME_UNKNOWN_SENTENCE} The server at 127.0.0.1:`)).toBe(true)
    expect(server?.connections).toBe(1)
  })

  it('reports a body cut off mid-way as bad_response, and as outcome unknown for a rotation', async () => {
    const truncate = (_received: unknown, res: ServerResponse) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '200' })
      // Cut once the partial body has left: the client has read the headers and part of the body.
      res.write('{"success":1,"user_group":{"team_id":7,"tok', () => res.socket?.destroy())
    }
    const error = await failureOf(getOrCreate(await clientFor({ onRequest: truncate })))
    expect(error.code).toBe('bad_response')
    expect(error.message).toBe(`The answer from 127.0.0.1:${server?.port} was cut off: the connection closed before the body ended.`)
    expect(detailsOf(error)).toMatchObject({ status: 200, phase: 'reading' })
    await server?.close()

    const rotation = await failureOf(rotate(await clientFor({ onRequest: truncate })))
    expect(rotation.code).toBe('outcome_unknown')
    expect(detailsOf(rotation).cause).toMatchObject({ code: 'bad_response' })
  })

  it('reports truncated JSON that ends cleanly as not JSON', async () => {
    const error = await failureOf(
      getOrCreate(
        await clientFor({ onRequest: answerWith(200, '{"success":1,"user_group":{"team_', { 'Content-Type': 'application/json' }) }),
      ),
    )
    expect(error.code).toBe('bad_response')
    expect(error.message).toBe('The answer (HTTP 200) is not JSON.')
    expect(detailsOf(error).bodyExcerpt).toBe('{"success":1,"user_group":{"team_')
  })
})

describe('the client against answers that are not what the API promises', () => {
  it('turns an HTML 502 into http_status with the page in the details, sent once', async () => {
    const page = '<html><body><h1>502 Bad Gateway</h1></body></html>'
    const error = await failureOf(getOrCreate(await clientFor({ onRequest: answerWith(502, page, { 'X-Request-Id': 'req-42' }) })))
    expect(error.code).toBe('http_status')
    expect(error.message).toBe('The server failed while handling the request (HTTP 502).')
    expect(detailsOf(error)).toMatchObject({
      status: 502,
      bodyExcerpt: page,
      headers: { 'content-type': 'text/html', 'x-request-id': 'req-42' },
    })
    expect(server?.requests).toHaveLength(1)
  })

  it('treats a 5xx on rotation as outcome unknown: a gateway may have passed the request on', async () => {
    const error = await failureOf(rotate(await clientFor({ onRequest: answerWith(504, '<html>Gateway Timeout</html>') })))
    expect(error.code).toBe('outcome_unknown')
    expect(detailsOf(error).cause).toMatchObject({ code: 'http_status', details: { status: 504 } })
  })

  it('turns 200 with success 0 into api_failure carrying the server’s message', async () => {
    const error = await failureOf(
      getOrCreate(await clientFor({ onRequest: answerWith(200, { success: 0, error: 'Quota exceeded for this team.' }) })),
    )
    expect(error.code).toBe('api_failure')
    expect(error.message).toBe('The API reported a failure (HTTP 200). The server said: “Quota exceeded for this team.”')
    expect(detailsOf(error)).toMatchObject({ status: 200, serverMessage: 'Quota exceeded for this team.' })
  })

  it('reads `message` when the failure body has no `error`, and copes with neither', async () => {
    const withMessage = await failureOf(getOrCreate(await clientFor({ onRequest: answerWith(200, { success: 0, message: 'Try later.' }) })))
    expect(withMessage.message).toBe('The API reported a failure (HTTP 200). The server said: “Try later.”')
    await server?.close()
    const bare = await failureOf(getOrCreate(await clientFor({ onRequest: answerWith(200, { success: 0, error: { nested: true } }) })))
    expect(bare.code).toBe('api_failure')
    expect(bare.message).toBe('The API reported a failure (HTTP 200).')
  })

  it('takes a rotation the server refused with success 0 at its word: not outcome unknown', async () => {
    const error = await failureOf(
      rotate(await clientFor({ onRequest: answerWith(500, { success: 0, error: 'Rotation failed, token unchanged.' }) })),
    )
    expect(error.code).toBe('api_failure')
    expect(error.message).toBe(
      'The server failed while handling the request (HTTP 500). The server said: “Rotation failed, token unchanged.”',
    )
  })

  it('refuses a 2xx JSON body of the wrong shape as bad_response, listing what is wrong', async () => {
    const error = await failureOf(
      getOrCreate(await clientFor({ onRequest: answerWith(200, { success: 1, user_group: { team_id: 'seven' } }) })),
    )
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/^The answer \(HTTP 200\) is JSON but not the expected shape: /)
    expect(error.message).toContain('new_user_group')
    expect(detailsOf(error).issues).toEqual(expect.arrayContaining([expect.stringMatching(/^user_group\.team_id: /)]))
  })

  it('reports a rotation answered 200 with an unreadable body as outcome unknown: the new token is lost', async () => {
    const error = await failureOf(rotate(await clientFor({ onRequest: answerWith(200, { success: 1 }) })))
    expect(error.code).toBe('outcome_unknown')
    expect(detailsOf(error).cause).toMatchObject({ code: 'bad_response' })
  })

  it('keeps fields the spec does not list, in the value and in the raw body', async () => {
    const body = {
      success: 1,
      new_user_group: false,
      request_id: 'r-1',
      user_group: { ...validGroup, properties: null, created_at: '2024-01-01' },
    }
    const result = await getOrCreate(await clientFor({ onRequest: answerWith(200, body) }))
    expect(result.value).toEqual(body)
    expect(result.raw).toEqual(body)
    expect(result.status).toBe(200)
  })

  it('refuses an answer nested more than 64 levels deep as bad_response, before any schema reads it', async () => {
    const deep = `{"success":1,"new_user_group":true,"user_group":{"team_id":7,"token":"t","name":"","provided_id":"acme","properties":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}}`
    const error = await failureOf(getOrCreate(await clientFor({ onRequest: answerWith(200, deep) })))
    expect(error.code).toBe('bad_response')
    expect(error.message).toBe('The answer (HTTP 200) is nested more than 64 levels deep, which Embed Console does not accept.')
  })

  it('cuts the body excerpt in the details to about 2000 characters', async () => {
    const error = await failureOf(getOrCreate(await clientFor({ onRequest: answerWith(500, 'x'.repeat(50_000)) })))
    expect((detailsOf(error).bodyExcerpt as string).length).toBeLessThanOrEqual(2001)
  })
})

describe('the client against a server that sends 20 MB', () => {
  const TWENTY_MB = 20 * 1024 * 1024

  it('stops reading past the limit quickly, without buffering the rest', async () => {
    const written = { bytes: 0, finished: false, closed: false }
    const flood = (_received: unknown, res: ServerResponse) => {
      res.on('close', () => (written.closed = true))
      res.writeHead(200, { 'Content-Type': 'application/json' })
      const chunk = Buffer.alloc(64 * 1024, 'a')
      const pump = () => {
        while (written.bytes < TWENTY_MB) {
          written.bytes += chunk.length
          if (!res.write(chunk)) return void res.once('drain', pump)
        }
        written.finished = true
        res.end()
      }
      res.on('error', () => {})
      pump()
    }
    const client = await clientFor({ onRequest: flood }, { maxResponseBytes: 1024 * 1024 })
    const error = await failureOf(getOrCreate(client))
    expect(error.code).toBe('response_too_large')
    expect(error.message).toBe(`The answer from 127.0.0.1:${server?.port} is larger than 1048576 bytes; it was cut off and not read.`)
    expect(detailsOf(error).receivedBytes).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024)
    // The client hung up: the server's answer closed before its 20 MB were all written.
    await vi.waitFor(() => expect(written.closed).toBe(true), { timeout: 5000 })
    expect(written.finished).toBe(false)
  })

  it('refuses at once an answer whose Content-Length is over the limit (default 5 MB)', async () => {
    const declared = (_received: unknown, res: ServerResponse) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(TWENTY_MB) })
      res.write('{')
    }
    const error = await failureOf(getOrCreate(await clientFor({ onRequest: declared })))
    expect(error.code).toBe('response_too_large')
    expect(detailsOf(error)).toMatchObject({ maxResponseBytes: 5 * 1024 * 1024, contentLength: String(TWENTY_MB), receivedBytes: 0 })
  })
})

describe('the client when the server cannot be reached', () => {
  it('reports a host that does not resolve as dns_failed', async () => {
    const client = createUserApiClient({ baseUrl: 'http://api.embed-console-test.invalid', apiToken: API_TOKEN })
    const error = await failureOf(getOrCreate(client))
    expect(error.code).toBe('dns_failed')
    expect(error.message).toBe('The host name "api.embed-console-test.invalid" could not be resolved: check the base URL and the network.')
  })

  it('reports a refused connection as connect_failed, for a rotation too: it was never sent', async () => {
    const port = await closedPort()
    const client = createUserApiClient({ baseUrl: `http://127.0.0.1:${port}`, apiToken: API_TOKEN })
    const error = await failureOf(getOrCreate(client))
    expect(error.code).toBe('connect_failed')
    expect(error.message).toBe(
      `Could not connect to 127.0.0.1:${port}: the connection was refused. Is the server running, and is the base URL right?`,
    )
    expect((await failureOf(rotate(client))).code).toBe('connect_failed')
  })

  it('reports a TLS failure (https to a plain HTTP server) as tls_failed, for a rotation too', async () => {
    server = await startHostileServer({ onRequest: answerWith(200, {}) })
    const client = createUserApiClient({ baseUrl: server.baseUrl.replace('http:', 'https:'), apiToken: API_TOKEN })
    const error = await failureOf(getOrCreate(client))
    expect(error.code).toBe('tls_failed')
    expect(error.message).toMatch(/^The secure \(TLS\) connection to 127\.0\.0\.1:\d+ failed: /)
    expect((await failureOf(rotate(client))).code).toBe('tls_failed')
  })
})

describe('the client’s sentences for HTTP statuses from something that is not the API', () => {
  it.each([
    [401, "The API token was refused (HTTP 401): check the profile's API token."],
    [
      403,
      'The API token was accepted but may not do this (HTTP 403): it may be read-only, or limited to other groups or another environment. Use a token allowed to get or create groups.',
    ],
    [405, 'The server does not accept GET at BASE/api/user (HTTP 405): check that the base URL is the API’s root.'],
    [413, 'The request is too large for the server (HTTP 413): make the mapping or properties smaller.'],
    [429, 'The server is limiting requests (HTTP 429): try again later.'],
    [404, 'Nothing answers at BASE/api/user (HTTP 404): check the base URL.'],
    [418, 'The server refused the request (HTTP 418).'],
    [503, 'The server failed while handling the request (HTTP 503).'],
  ])('HTTP %i', async (status, sentence) => {
    const error = await failureOf(getOrCreate(await clientFor({ onRequest: answerWith(status, '<html>no</html>') })))
    expect(error.code).toBe('http_status')
    expect(error.message).toBe(sentence.replace('BASE', server?.baseUrl ?? ''))
    expect(detailsOf(error).status).toBe(status)
  })

  it.each([
    [
      'Django REST framework’s detail (a read-only token)',
      403,
      { detail: 'You do not have permission to perform this action.' },
      'You do not have permission to perform this action.',
    ],
    [
      'FastAPI’s validation detail',
      422,
      { detail: [{ loc: ['body', 'user_group_id'], msg: 'field required', type: 'value_error.missing' }] },
      'body.user_group_id: field required',
    ],
    ['a message', 401, { message: 'Invalid API key.' }, 'Invalid API key.'],
    ['a list of errors', 400, { errors: [{ message: 'name is too long' }, 'mapping is invalid'] }, 'name is too long; mapping is invalid'],
    [
      'errors by field',
      400,
      { errors: { name: ['is too long'], user_group_id: ['is taken'] } },
      'name: is too long; user_group_id: is taken',
    ],
  ])('quotes %s after the status sentence', async (_case, status, body, said) => {
    const error = await failureOf(getOrCreate(await clientFor({ onRequest: answerWith(status, body) })))
    expect(error.code).toBe('http_status')
    expect(error.message).toMatch(new RegExp(`\\(HTTP ${status}\\).* The server said: “${said.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}”$`))
    expect(detailsOf(error).serverMessage).toBe(said)
  })

  it('puts Retry-After into the 429 sentence and the details, in seconds or as a date', async () => {
    const seconds = await failureOf(getOrCreate(await clientFor({ onRequest: answerWith(429, 'slow down', { 'Retry-After': '30' }) })))
    expect(seconds.message).toBe('The server is limiting requests (HTTP 429): try again in 30 seconds (Retry-After).')
    expect(detailsOf(seconds).headers).toMatchObject({ 'retry-after': '30' })
    await server?.close()
    const date = await failureOf(
      getOrCreate(await clientFor({ onRequest: answerWith(429, 'slow down', { 'Retry-After': 'Wed, 21 Oct 2065 07:28:00 GMT' }) })),
    )
    expect(date.message).toBe('The server is limiting requests (HTTP 429): try again after 2065-10-21T07:28:00.000Z (Retry-After).')
  })

  it('does not follow a redirect, so the token never travels to another address, and says which base URL it points to', async () => {
    const error = await failureOf(
      getOrCreate(await clientFor({ onRequest: answerWith(301, '', { Location: 'http://elsewhere.example/v2/api/user' }) })),
    )
    expect(error.code).toBe('http_status')
    expect(error.message).toBe(
      'The server moved to http://elsewhere.example/v2 (HTTP 301): change the base URL to it. Redirects are not followed, so the API token was not sent there.',
    )
    expect(server?.requests).toHaveLength(1)
  })

  it.each([
    [
      'a relative address on the same server',
      '/v2/api/user',
      (base: string) => `The server moved to ${base}/v2 (HTTP 308): change the base URL to it.`,
    ],
    [
      'an address that is not /api/user, with a password in it',
      'https://user:secret@login.example/sso?next=1',
      () =>
        'The server redirected the request to https://login.example/sso (HTTP 308), which is not an /api/user address: check the base URL.',
    ],
    ['no address at all', undefined, () => 'The server answered with a redirect (HTTP 308) that names no address: check the base URL.'],
    [
      'the address it was sent to (a loop)',
      '/api/user/',
      (base: string) =>
        `The server redirected the request to the address it was sent to, ${base}/api/user (HTTP 308): a redirect loop, not an answer. Something in front of the API (a sign-in page, a load balancer) is answering instead: check the base URL with whoever runs the server.`,
    ],
  ])('explains a redirect to %s, and a rotation redirected is not outcome unknown', async (_case, location, sentence) => {
    const client = await clientFor({ onRequest: answerWith(308, '', location ? { Location: location } : {}) })
    for (const error of [await failureOf(getOrCreate(client)), await failureOf(rotate(client))]) {
      expect(error.code).toBe('http_status')
      expect(error.message).toBe(`${sentence(server!.baseUrl)} Redirects are not followed, so the API token was not sent there.`)
      expect(error.message).not.toContain('secret')
    }
    expect(server?.requests).toHaveLength(2)
  })
})
