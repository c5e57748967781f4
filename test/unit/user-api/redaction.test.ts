import type { ServerResponse } from 'node:http'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { createUserApiClient, type UserApiClient } from '../../../src-main/user-api/client'
import { createRedactor, findSecret, REDACTED, redactReturnedTokens, redactSuccess, SecretMatcher } from '../../../src-main/user-api/redact'
import { AppErrorException } from '../../../src-shared/ipc/result'
import { type HostileServer, type ReceivedRequest, startHostileServer } from '../../helpers/hostile-server'

// Distinctive on purpose: if either string shows up anywhere in an error, the test names it.
const CANARY_API_TOKEN = 'CANARY-api-token-7f3a9c1e5b'
const CANARY_GROUP_TOKEN = 'CANARY-group-token-2d8e4f6a0c'

describe('createRedactor', () => {
  const redact = createRedactor([CANARY_API_TOKEN])

  it('replaces a secret inside strings, nested values and object keys', () => {
    const value = { message: `Token ${CANARY_API_TOKEN} refused`, list: [CANARY_API_TOKEN, 3, null], [CANARY_API_TOKEN]: true }
    expect(redact(value)).toEqual({ message: `Token ${REDACTED} refused`, list: [REDACTED, 3, null], [REDACTED]: true })
  })

  it('catches the JSON-escaped and URL-encoded forms of a secret', () => {
    const secret = 'tok"en/with\\odd chars'
    const redactOdd = createRedactor([secret])
    expect(redactOdd(JSON.stringify({ t: secret }))).toBe(`{"t":"${REDACTED}"}`)
    expect(redactOdd(`?t=${encodeURIComponent(secret)}`)).toBe(`?t=${REDACTED}`)
  })

  it('leaves no trace of a token-like secret, whatever surrounds it', () => {
    // Tokens are letters, digits, '-' and '_': none can be rebuilt from "[redacted]" and its neighbours.
    const tokenLike = fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/)
    fc.assert(
      fc.property(tokenLike, fc.array(fc.string()), (secret, pieces) => {
        const text = pieces.join(secret)
        expect(createRedactor([secret])({ text, nested: [text] })).toEqual({
          text: expect.not.stringContaining(secret),
          nested: [expect.not.stringContaining(secret)],
        })
      }),
    )
  })

  it('is total over any string: a lone surrogate in a secret or a text never throws', () => {
    const odd = 'abc\ud800def'
    const redactOdd = createRedactor([odd])
    expect(redactOdd(`x ${odd} y`)).toBe(`x ${REDACTED} y`)
    // As a body carries it (well-formed JSON escapes the half pair) and as any encoder sends it.
    expect(redactOdd(JSON.stringify({ t: odd }))).toBe(`{"t":"${REDACTED}"}`)
    expect(redactOdd(`?t=${encodeURIComponent('abc\ufffddef')}`)).toBe(`?t=${REDACTED}`)
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 4 }), fc.string({ unit: 'binary' }), (secret, text) => {
        expect(() => createRedactor([secret])({ text: `${text}${secret}${text}` })).not.toThrow()
        expect(createRedactor([secret])(`${text}${secret}`)).not.toContain(secret)
      }),
    )
  })

  it('catches a secret echoed \\u-escaped, base64-encoded, or (a hex token) in another case', () => {
    const hex = 'c0ffee00deadbeef0123456789abcdef'
    const redactHex = createRedactor([hex])
    expect(redactHex(`token=${hex.toUpperCase()}`)).toBe(`token=${REDACTED}`)
    expect(redactHex(`token=${hex.slice(0, 8).toUpperCase()}${hex.slice(8)}`)).toBe(`token=${REDACTED}`)
    const escapedLower = [...hex].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')
    expect(redactHex(`{"t":"${escapedLower}"}`)).toBe(`{"t":"${REDACTED}"}`)
    expect(redactHex(`{"t":"${escapedLower.toUpperCase().replaceAll('\\U', '\\u')}"}`)).toBe(`{"t":"${REDACTED}"}`)
    expect(redactHex(`Basic ${Buffer.from(hex).toString('base64')}`)).toBe(`Basic ${REDACTED}`)
    expect(redactHex(`x=${Buffer.from(hex).toString('base64url')}`)).toBe(`x=${REDACTED}`)
    // Longest form first: the escaped form is replaced whole, not left with a raw piece inside.
    expect(createRedactor([CANARY_API_TOKEN])(JSON.stringify(JSON.stringify(CANARY_API_TOKEN)))).toBe(`"\\"${REDACTED}\\""`)
  })

  it('takes a secret of any length: one of 32 MB is found as typed, JSON-escaped and URL-encoded, without blowing up', () => {
    const huge = `${'x'.repeat(32 * 1024 * 1024)}"é`
    const redactHuge = createRedactor([huge, CANARY_API_TOKEN])
    expect(
      redactHuge({ a: `<${huge}>`, b: `<${JSON.stringify(huge).slice(1, -1)}>`, c: `<${encodeURIComponent(huge)}>`, d: CANARY_API_TOKEN }),
    ).toEqual({
      a: `<${REDACTED}>`,
      b: `<${REDACTED}>`,
      c: `<${REDACTED}>`,
      d: REDACTED,
    })
  })

  it('ignores an empty secret instead of redacting between every character', () => {
    expect(createRedactor([''])('abc')).toBe('abc')
  })

  it('searches each list of secrets for its own secrets, whatever redactor was built before', () => {
    // Built lately searches are kept by their secrets: two lists must never share one.
    expect(createRedactor(['abcd\nefgh'])('x abcd\nefgh y')).toBe('x [redacted] y')
    expect(createRedactor(['abcd', 'efgh'])('x abcd y efgh')).toBe('x [redacted] y [redacted]')
    expect(createRedactor(['abcd\nefgh'])('x abcd y')).toBe('x abcd y')
  })

  it('leaves a text shorter than every secret as it is, and finds a secret that is the whole text', () => {
    const redact = createRedactor(['a-secret-token', 'short'])
    expect(redact({ id: 'shor', name: 'short', token: 'a-secret-token' })).toEqual({ id: 'shor', name: '[redacted]', token: '[redacted]' })
  })

  it('leaves to the vault the secrets it knows and searches for the others itself, each in every form', () => {
    const vault = new SecretMatcher()
    vault.add(CANARY_API_TOKEN, 'profile:p1:api-token')
    const redact = createRedactor([CANARY_API_TOKEN, CANARY_GROUP_TOKEN], () => vault)
    const text = `${CANARY_API_TOKEN.toUpperCase()} ${encodeURIComponent(CANARY_GROUP_TOKEN)} ${Buffer.from(CANARY_API_TOKEN).toString('base64')}`
    expect(redact({ text })).toEqual({ text: `${REDACTED} ${REDACTED} ${REDACTED}` })
  })

  it('searches for a secret itself again when it is handed a matcher that does not know it', () => {
    const knowing = new SecretMatcher()
    knowing.add(CANARY_API_TOKEN)
    let vault = knowing
    const redact = createRedactor([CANARY_API_TOKEN], () => vault)
    expect(redact(`x ${CANARY_API_TOKEN}`)).toBe(`x ${REDACTED}`)
    vault = new SecretMatcher()
    expect(redact(`x ${CANARY_API_TOKEN}`)).toBe(`x ${REDACTED}`)
  })
})

/** Everything an error exposes, as one string: the message, the details and the stack. */
const everythingIn = (error: AppErrorException) => `${error.message}\n${JSON.stringify(error.details)}\n${error.stack}`

/** Echoes the whole request (headers and body) back in every place a server can put text. */
const echoEverything = (status: number, asEnvelope: boolean) => (received: ReceivedRequest, res: ServerResponse) => {
  const echoed = `${JSON.stringify(received.headers)} ${received.body}`
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'WWW-Authenticate': `Token realm="${received.headers.authorization}"`,
    'X-Request-Id': echoed.slice(0, 200),
  })
  // The padding puts the echoed API token across the 2000-character cut of the body excerpt:
  // `{"padding":"` (12) + 1962 + `","auth":"Token ` (16) = 1990.
  res.end(
    JSON.stringify(
      asEnvelope
        ? { success: 0, error: echoed, message: echoed }
        : { padding: 'p'.repeat(1962), auth: received.headers.authorization, echoed },
    ),
  )
}

describe('the canary: the API token and the token being rotated never appear in an error', () => {
  let server: HostileServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  async function canaryClient(status: number, asEnvelope: boolean, timeoutMs?: number): Promise<UserApiClient> {
    server = await startHostileServer({ onRequest: timeoutMs ? () => {} : echoEverything(status, asEnvelope) })
    return createUserApiClient({ baseUrl: server.baseUrl, apiToken: CANARY_API_TOKEN, timeoutMs })
  }

  // The server echoes the Authorization header, and the rotation's body: a token in a group's own
  // fields is refused before sending (below), so these fields hold none.
  const calls: [string, (client: UserApiClient) => Promise<unknown>][] = [
    ['getOrCreate', (client) => client.getOrCreate({ user_group_id: 'acme' })],
    ['update', (client) => client.update({ user_group_id: 'acme', name: 'Acme' })],
    ['rotateToken', (client) => client.rotateToken({ current_token: CANARY_GROUP_TOKEN })],
  ]
  const answers: [string, number, boolean, number?][] = [
    ['a 401 echoing the request in its envelope', 401, true],
    ['a 502 echoing the request across the excerpt cut', 502, false],
    ['a 200 success 0 echoing the request', 200, true],
    ['a 200 of the wrong shape echoing the request', 200, false],
    ['a timeout', 0, false, 100],
  ]

  for (const [callName, call] of calls) {
    it.each(answers)(`${callName}: %s`, async (_case, status, asEnvelope, timeoutMs) => {
      const error = await call(await canaryClient(status, asEnvelope, timeoutMs)).then(
        () => undefined,
        (thrown: unknown) => thrown as AppErrorException,
      )
      expect(error).toBeInstanceOf(AppErrorException)
      const exposed = everythingIn(error as AppErrorException)
      expect(exposed).not.toContain(CANARY_API_TOKEN)
      expect(exposed).not.toContain(CANARY_GROUP_TOKEN)
      // Not a piece either: an excerpt cut must not leave half a token behind.
      expect(exposed).not.toContain('CANARY')
    })
  }

  it.each([
    ['the id', { user_group_id: CANARY_API_TOKEN }, 'user_group_id'],
    ['the name, upper-cased', { user_group_id: 'acme', name: `Acme ${CANARY_API_TOKEN.toUpperCase()}` }, 'name'],
    ['a property, JSON-escaped', { user_group_id: 'acme', properties: { note: JSON.stringify(CANARY_API_TOKEN) } }, 'properties'],
  ])('refuses, before sending, a request holding the API token in %s', async (_case, request, field) => {
    const client = await canaryClient(200, true)
    const error = await client.getOrCreate(request).catch((thrown: AppErrorException) => thrown)
    expect(error).toMatchObject({ code: 'refused', details: { field } })
    expect((error as AppErrorException).message).toBe(
      `The ${field} holds the API token this call is sent with. A token or password is never sent in a group’s fields: take it out and send again. Nothing was sent.`,
    )
    expect(server!.requests).toHaveLength(0)
  })

  it('leaves the server’s words readable around what it redacted', async () => {
    const client = await canaryClient(401, true)
    const error = await client.getOrCreate({ user_group_id: 'acme' }).catch((thrown: AppErrorException) => thrown)
    expect((error as AppErrorException).message).toContain(`"authorization":"Token ${REDACTED}"`)
  })
})

describe('tokens an answer issued', () => {
  it('are redacted wherever a token field is, in objects and in text cut from a body', () => {
    const answer = {
      success: 1,
      user_group: { token: 'issued-token-1', name: 'token' },
      groups: [{ token: 'issued-token-2' }],
      bodyExcerpt: '{"success":1,"user_group":{"token":"issued-token-3","name":"x"},"token" : "issued\\"4"}',
    }
    const redacted = redactReturnedTokens(answer)
    expect(redacted).toEqual({
      success: 1,
      user_group: { token: '[redacted]', name: 'token' },
      groups: [{ token: '[redacted]' }],
      bodyExcerpt: '{"success":1,"user_group":{"token":"[redacted]","name":"x"},"token" : "[redacted]"}',
    })
    expect(JSON.stringify(redacted)).not.toMatch(/issued/)
  })
})

describe('the redactor, form by form', () => {
  it('writes [redacted] in place of a secret', () => {
    expect(createRedactor([CANARY_API_TOKEN])(`a ${CANARY_API_TOKEN} b`)).toBe('a [redacted] b')
  })

  it('searches for secrets of 4 characters or more, and no shorter', () => {
    expect(createRedactor(['abc'])('abc abcd')).toBe('abc abcd')
    expect(createRedactor(['wxyz'])('wxyz abc')).toBe(`${REDACTED} abc`)
  })

  it('catches the \\u-escaped form in lower and in upper case, whatever the letters of the escapes', () => {
    // 'z' is \u007a: its escape holds a letter, unlike those of hex digits.
    const secret = 'zjzj-token'
    const escaped = [...secret].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')
    const redact = createRedactor([secret])
    expect(redact(`"${escaped}"`)).toBe(`"${REDACTED}"`)
    expect(redact(`"${escaped.toUpperCase().replaceAll('\\U', '\\u')}"`)).toBe(`"${REDACTED}"`)
  })

  it('catches standard base64 without its padding, where it differs from base64url', () => {
    // '????' is Pz8/Pw== in base64: unpadded Pz8/Pw, and Pz8_Pw in base64url.
    const redact = createRedactor(['????'])
    expect(redact('x Pz8/Pw y')).toBe(`x ${REDACTED} y`)
    expect(redact('x Pz8/Pw== y')).toBe(`x ${REDACTED} y`)
    expect(redact('x Pz8_Pw y')).toBe(`x ${REDACTED} y`)
  })

  it('matches a secret in any case, as a server may echo it upper-cased, and its base64 only as it is', () => {
    expect(createRedactor(['zzzz-abcd'])('ZZZZ-ABCD zzzz-ABCD')).toBe(`${REDACTED} ${REDACTED}`)
    expect(createRedactor(['Tok-en_9x'])(JSON.stringify({ echo: 'TOK-EN_9X', url: encodeURIComponent('tok-en_9x') }))).toBe(
      `{"echo":"${REDACTED}","url":"${REDACTED}"}`,
    )
    // Letters beyond ASCII, upper-cased whole, and the \u-escapes of the upper-cased secret.
    expect(createRedactor(['jeton-é-ß'])(`<${'jeton-é-ß'.toUpperCase()}>`)).toBe(`<${REDACTED}>`)
    const upperEscaped = [...'abcd-efgh'.toUpperCase()].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')
    expect(createRedactor(['abcd-efgh'])(`"${upperEscaped}"`)).toBe(`"${REDACTED}"`)
    // A token's base64 is case-sensitive text: another case of it is another text.
    const hex = 'c0ffee00deadbeef'
    const base64 = Buffer.from(hex).toString('base64')
    expect(createRedactor([hex])(`${base64} ${hex.toUpperCase()}`)).toBe(`${REDACTED} ${REDACTED}`)
    const swapped = [...base64].map((char) => (char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase())).join('')
    expect(createRedactor([hex])(swapped)).toBe(swapped)
  })

  it('replaces the longer of two secrets whole when one begins the other, in either order', () => {
    for (const secrets of [
      ['abcd', 'abcdefgh'],
      ['abcdefgh', 'abcd'],
    ])
      expect(createRedactor(secrets)('<abcdefgh>')).toBe(`<${REDACTED}>`)
    const long = 'L'.repeat(5000)
    for (const secrets of [
      [long, `${long}more`],
      [`${long}more`, long],
    ])
      expect(createRedactor(secrets)(`<${long}more>`)).toBe(`<${REDACTED}>`)
  })

  it('finds secrets on either side of 16 characters, where a form is filed under a wider window, in every form and any case', () => {
    for (const secret of ['x'.repeat(15), 'y'.repeat(16), 'mixed-15-chars!', 'mixed-16-chars!!', 'Tok_'.repeat(5).slice(0, 17)]) {
      const ways = [
        secret,
        secret.toUpperCase(),
        encodeURIComponent(secret),
        Buffer.from(secret).toString('base64'),
        Buffer.from(secret).toString('base64url'),
      ]
      const redact = createRedactor([secret])
      for (const way of ways) expect(redact(`<${way}>`), `${secret} written ${way}`).toBe(`<${REDACTED}>`)
      // One character short of the secret, at either end, is not the secret.
      expect(redact(`<${secret.slice(1)}>`)).toBe(`<${secret.slice(1)}>`)
      expect(redact(`<${secret.slice(0, -1)}>`)).toBe(`<${secret.slice(0, -1)}>`)
    }
  })

  it('searches a secret of exactly 4,096 characters in all its forms, base64 included', () => {
    const secret = 'k'.repeat(4096)
    expect(createRedactor([secret])(`<${Buffer.from(secret).toString('base64')}>`)).toBe(`<${REDACTED}>`)
  })
})

describe('a success answer redacted', () => {
  const redact = createRedactor([CANARY_API_TOKEN])
  const value = { user_group: { token: 'issued-token', name: `n ${CANARY_API_TOKEN}` } }

  it('keeps user_group.token as issued, in the value and in the raw body, and redacts the rest', () => {
    const raw = { user_group: { token: 'issued-token', note: CANARY_API_TOKEN }, echo: CANARY_API_TOKEN }
    expect(redactSuccess({ value, raw }, redact)).toEqual({
      value: { user_group: { token: 'issued-token', name: `n ${REDACTED}` } },
      raw: { user_group: { token: 'issued-token', note: REDACTED }, echo: REDACTED },
    })
  })

  it('keeps the group whole when a secret is found in the field names themselves', () => {
    // An API token is any visible ASCII: one that reads "user_group" must not take the group (or crash).
    const answered = redactSuccess(
      { value: { user_group: { token: 'issued-token', name: 'a user_group' } }, raw: { user_group: { token: 'issued-token' } } },
      createRedactor(['user_group']),
    )
    expect(answered.value.user_group).toEqual({ token: 'issued-token', name: `a ${REDACTED}` })
    expect(answered.raw).toMatchObject({ user_group: { token: 'issued-token' } })
  })

  it('takes a raw body of any shape: text, a list, no group, a group that is null or has no text token', () => {
    for (const [raw, expected] of [
      [`text ${CANARY_API_TOKEN}`, `text ${REDACTED}`],
      [[CANARY_API_TOKEN], [REDACTED]],
      [null, null],
      [{ user_group: null }, { user_group: null }],
      [{ user_group: 'x' }, { user_group: 'x' }],
      [{ user_group: { token: 7 } }, { user_group: { token: 7 } }],
      [{ other: { token: 'issued-token' } }, { other: { token: 'issued-token' } }],
    ] as const) {
      expect(redactSuccess({ value, raw }, redact).raw).toEqual(expected)
    }
  })

  it('keeps a raw token only where the raw body had one', () => {
    const raw = { user_group: { name: 'g' } }
    expect(redactSuccess({ value, raw }, redact).raw).toEqual({ user_group: { name: 'g' } })
  })
})

describe('tokens an answer issued, in text', () => {
  it('are found with any spacing around the colon and any characters inside', () => {
    expect(redactReturnedTokens('{"token":"ab\\"cd","x":1} {"token"  :  "e"} {"token": "fg"}')).toBe(
      '{"token":"[redacted]","x":1} {"token"  :  "[redacted]"} {"token": "[redacted]"}',
    )
  })

  it('replace only text token fields, and leave other fields as they are', () => {
    expect(redactReturnedTokens({ name: 'plain', token: 't', nested: { token: 5, other: 'o' } })).toEqual({
      name: 'plain',
      token: REDACTED,
      nested: { token: 5, other: 'o' },
    })
  })
})

describe('a hex secret in its other forms', () => {
  it('matches in any case only as typed: its base64 differs from another text by the case of a letter', () => {
    const redact = createRedactor(['cafe1234'])
    // Y2FmZTEyMzQ is the base64 of cafe1234; with F and E lower-cased it is the base64 of other bytes.
    expect(redact('a Y2FmZTEyMzQ= b CAFE1234')).toBe(`a ${REDACTED} b ${REDACTED}`)
    expect(redact('a Y2fmZTeyMzQ b')).toBe('a Y2fmZTeyMzQ b')
  })
})

describe('a raw body whose group has no text token', () => {
  it('is kept without a token field added', () => {
    const redact = createRedactor(['secret-value'])
    const value = { user_group: { token: 'issued-token', name: 'g' } }
    expect(redactSuccess({ value, raw: { user_group: { name: 'g' } } }, redact).raw).toStrictEqual({ user_group: { name: 'g' } })
  })
})

describe('a matcher that knows many secrets', () => {
  const tokens = Array.from({ length: 3000 }, (_, index) => `sk_live_${index.toString(36).padStart(4, '0')}${'Qx7'.repeat(6)}`)
  const matcher = new SecretMatcher()
  for (const token of tokens) matcher.add(token, `group:p:${token}:token`)
  const redactKnown = createRedactor([], () => matcher)
  const escaped = (text: string) => [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')

  it('finds each of thousands sharing a prefix, in every form, and leaves the rest of the text as it was', () => {
    for (const token of [tokens[0]!, tokens[1234]!, tokens.at(-1)!]) {
      const text = JSON.stringify({
        typed: `a ${token} b`,
        upper: token.toUpperCase(),
        escaped: `"${escaped(token).toUpperCase().replaceAll('\\U', '\\u')}"`,
        json: JSON.stringify(JSON.stringify({ token })),
        url: `?t=${encodeURIComponent(token)}&n=%41`,
        base64: Buffer.from(token).toString('base64url'),
        near: `${token.slice(0, -1)}!`,
      })
      const redacted = redactKnown(JSON.parse(text) as Record<string, string>)
      expect(redacted).toEqual({
        typed: `a ${REDACTED} b`,
        upper: REDACTED,
        escaped: `"${REDACTED}"`,
        json: `"{\\"token\\":\\"${REDACTED}\\"}"`,
        url: `?t=${REDACTED}&n=%41`,
        base64: REDACTED,
        near: `${token.slice(0, -1)}!`,
      })
    }
  })

  it('knows a secret added later at once, without building again what it knew', () => {
    const later = 'added-later-token-Zz9'
    expect(redactKnown(`x ${later}`)).toBe(`x ${later}`)
    matcher.add(later)
    expect(redactKnown(`x ${later}`)).toBe(`x ${REDACTED}`)
  })

  it('leaves no trace of a secret written any of its ways among other text, whatever the secret', () => {
    const tokenLike = fc.stringMatching(/^[A-Za-z0-9_.~-]{8,40}$/)
    const way = fc.constantFrom<(secret: string) => string>(
      (secret) => secret,
      (secret) => secret.toUpperCase(),
      (secret) => JSON.stringify(secret).slice(1, -1),
      (secret) => escaped(secret),
      (secret) => encodeURIComponent(secret),
      (secret) => Buffer.from(secret).toString('base64'),
    )
    fc.assert(
      fc.property(tokenLike, fc.array(fc.tuple(fc.string(), way), { minLength: 1 }), (secret, pieces) => {
        const text = pieces.map(([piece, write]) => `${piece}${write(secret)}`).join('')
        const redacted = createRedactor([secret])(text)
        for (const [, write] of pieces) expect(redacted).not.toContain(write(secret))
        expect(redacted.toLowerCase()).not.toContain(secret.toLowerCase())
      }),
    )
  })
})

describe('findSecret', () => {
  const matcher = new SecretMatcher()
  matcher.add(CANARY_API_TOKEN, 'api-token:p1')

  it('finds a secret in any item of a list, however deep, naming the top-level field it is under', () => {
    const properties = { seats: [1, 'none here', ['deeper', `pasted ${CANARY_API_TOKEN}`]] }
    expect(findSecret({ name: 'Acme', properties }, matcher)).toEqual({ field: 'properties', tag: 'api-token:p1' })
    expect(findSecret(['first', CANARY_API_TOKEN], matcher)).toEqual({ field: '', tag: 'api-token:p1' })
    expect(findSecret({ name: 'Acme', tags: ['a', 'b', ['c']] }, matcher)).toBeUndefined()
  })

  it('leaves out a top-level field it is told to skip, and only at the top', () => {
    const request = { current_token: CANARY_API_TOKEN, nested: { current_token: 'clean' } }
    expect(findSecret(request, matcher, (field) => field === 'current_token')).toBeUndefined()
    expect(findSecret({ nested: { current_token: CANARY_API_TOKEN } }, matcher, (field) => field === 'current_token')).toEqual({
      field: 'nested',
      tag: 'api-token:p1',
    })
  })
})
