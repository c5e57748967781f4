import { describe, expect, it } from 'vitest'
import { createCallScrubber, redactAnswer } from '../../../src-main/groups/call-redaction'
import { REDACTED, SecretMatcher } from '../../../src-main/user-api/redact'

const API_TOKEN = 'api-token-0123456789abcdef'
const SENT_TOKEN = 'sent-group-token-0123456789'
const VAULT_SECRET = 'proxy-password-0123456789'

/** What the vault knows, as a real matcher: a secret kept for another profile. */
const vaultKnowing = (...secrets: string[]) => {
  const matcher = new SecretMatcher()
  for (const secret of secrets) matcher.add(secret)
  return () => matcher
}

describe("what is kept of a call's bodies", () => {
  it('scrubs the secrets the call was given and the vault knows, and the API token from the moment it is known', () => {
    const scrubber = createCallScrubber([SENT_TOKEN], vaultKnowing(VAULT_SECRET))
    const text = `${SENT_TOKEN} ${VAULT_SECRET} ${API_TOKEN}`
    expect(scrubber.scrub(text)).toBe(`${REDACTED} ${REDACTED} ${API_TOKEN}`)
    scrubber.knowApiToken(API_TOKEN)
    expect(scrubber.scrub(text)).toBe(`${REDACTED} ${REDACTED} ${REDACTED}`)
  })

  it('keeps no token a server issued in a body, known or not', () => {
    const scrubber = createCallScrubber([], vaultKnowing())
    expect(scrubber.kept({ user_group: { token: 'issued-token-never-seen-before', name: 'Acme' } })).toEqual({
      user_group: { token: REDACTED, name: 'Acme' },
    })
  })
})

describe('an answer as recorded', () => {
  const answered = (token: string, echo: string) => ({
    value: { user_group: { team_id: 1, provided_id: 'acme', name: `echo ${echo}`, token } },
    raw: { user_group: { provided_id: 'acme', name: `echo ${echo}`, token }, note: echo },
    status: 200,
    durationMs: 5,
  })

  it('keeps the received token in the group alone, and scrubs it, the token kept before and the API token everywhere else', () => {
    const received = 'received-token-0123456789'
    const before = 'kept-before-token-0123456789'
    const { result, scrub } = redactAnswer({
      answered: answered(received, `${received} ${before}`),
      apiToken: API_TOKEN,
      tokensKnownBefore: [before],
      knownSecrets: vaultKnowing(),
    })
    expect(result.value.user_group.token).toBe(received)
    expect(result.value.user_group.name).toBe(`echo ${REDACTED} ${REDACTED}`)
    expect(result.raw).toMatchObject({ user_group: { token: received }, note: `${REDACTED} ${REDACTED}` })
    expect(scrub(`${API_TOKEN} ${received} ${before}`)).toBe(`${REDACTED} ${REDACTED} ${REDACTED}`)
  })

  it('does not search a group token shorter than a real one (8 characters): the text around it stays readable', () => {
    const { result } = redactAnswer({
      answered: answered('abcdefg', 'abcdefg wxyz12'),
      apiToken: API_TOKEN,
      tokensKnownBefore: ['wxyz12'],
      knownSecrets: vaultKnowing(),
    })
    expect(result.value.user_group.name).toBe('echo abcdefg wxyz12')
  })
})

describe('how often the vault is asked what it knows', () => {
  /** A vault that knows `secret` and counts the asks. */
  const countingVault = (secret: string) => {
    const ask = vaultKnowing(secret)
    const counted = Object.assign(() => (counted.asks++, ask()), { asks: 0 })
    return counted
  }

  it('once for an answer, its parts and its raw body all redacted of what it knows', () => {
    const knownSecrets = countingVault(VAULT_SECRET)
    const { result } = redactAnswer({
      answered: {
        value: { user_group: { team_id: 1, provided_id: 'acme', name: VAULT_SECRET, token: 'received-token-0123456789' } },
        raw: { user_group: { provided_id: 'acme', name: VAULT_SECRET, token: 'received-token-0123456789' }, note: VAULT_SECRET },
        status: 200,
        durationMs: 5,
      },
      apiToken: API_TOKEN,
      tokensKnownBefore: [],
      knownSecrets,
    })
    expect(result.value.user_group.name).toBe(REDACTED)
    expect(result.raw).toEqual({ user_group: { provided_id: 'acme', name: REDACTED, token: 'received-token-0123456789' }, note: REDACTED })
    expect(knownSecrets.asks).toBe(1)
  })
})
