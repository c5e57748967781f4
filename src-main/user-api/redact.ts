import { AppErrorException } from '../../src-shared/ipc/result'
import { MIN_SECRET_LENGTH, replaceSpans, SecretMatcher } from './secret-matcher'

export { SecretMatcher } from './secret-matcher'

export const REDACTED = '[redacted]'

export type Redactor = <T>(value: T) => T

/**
 * Returns a function that replaces every secret, in any of its forms (see secret-matcher.ts),
 * wherever it appears in strings (including object keys) of a JSON-like value, with
 * `[redacted]`: the secrets given, and those `known` knows when it is called (the vault's, kept up
 * to date as secrets are kept). Where forms overlap, the whole stretch they cover goes, so a
 * longer form is never left half-replaced by a shorter one it contains. Run it before any
 * truncation, so a cut can never leave part of a secret behind.
 */
export function createRedactor(secrets: readonly string[], known?: () => SecretMatcher): Redactor {
  let own: OwnSecrets | undefined
  return <T>(value: T): T => {
    // Asked once a value: what the vault knows may have grown since the last one.
    const vault = known?.()
    const given = own && own.beside === vault ? own : (own = ownSecrets(secrets, vault))
    const redactString = (text: string): string => {
      const matchers: SecretMatcher[] = []
      if (text.length >= given.shortest) {
        if (!given.matcher) {
          given.matcher = new SecretMatcher()
          for (const secret of given.secrets) given.matcher.add(secret)
        }
        matchers.push(given.matcher)
      }
      if (vault && text.length >= vault.shortest) matchers.push(vault)
      if (matchers.length === 0) return text
      let redacted = text
      for (const matcher of matchers) redacted = matcher.replaceLong(redacted, REDACTED)
      const spans: number[] = []
      for (const matcher of matchers) matcher.findIn(redacted, spans)
      return replaceSpans(redacted, spans, REDACTED)
    }
    const redact = (inner: unknown): unknown => {
      if (typeof inner === 'string') return redactString(inner)
      if (Array.isArray(inner)) return inner.map(redact)
      if (inner !== null && typeof inner === 'object') {
        return Object.fromEntries(Object.entries(inner).map(([key, item]) => [redactString(key), redact(item)]))
      }
      return inner
    }
    return redact(value) as T
  }
}

/**
 * The secrets a redactor was given that `vault` does not know (the API token and the group
 * tokens of a call are most often kept there already), searched with a matcher of their own.
 * A matcher only ever learns secrets, so one it knows it always knows: worked out once a
 * matcher. The matcher is built at the first text long enough to hold one, if one comes: most
 * strings of an answer (ids, names, numbers) are shorter than any secret.
 */
interface OwnSecrets {
  beside: SecretMatcher | undefined
  secrets: string[]
  shortest: number
  matcher?: SecretMatcher
}

function ownSecrets(secrets: readonly string[], vault: SecretMatcher | undefined): OwnSecrets {
  const searched = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH && !vault?.knows(secret))
  return { beside: vault, secrets: searched, shortest: Math.min(...searched.map((secret) => secret.length)) }
}

/**
 * The first string of a JSON-like value (keys included) holding a secret the matcher knows, with
 * the top-level field it is in ('' for a bare string) and what the secret was added as (its vault
 * key). `skip` leaves out a top-level field.
 */
export function findSecret(
  value: unknown,
  matcher: SecretMatcher,
  skip: (field: string) => boolean = () => false,
): { field: string; tag: string | undefined } | undefined {
  const found = (text: string, field: string) => {
    const secret = matcher.findIn(text, [], true)
    return secret === undefined ? undefined : { field, tag: matcher.tagOf(secret) }
  }
  const walk = (inner: unknown, field: string): { field: string; tag: string | undefined } | undefined => {
    if (typeof inner === 'string') return found(inner, field)
    if (Array.isArray(inner)) {
      for (const item of inner) {
        const hit = walk(item, field)
        if (hit) return hit
      }
      return undefined
    }
    if (inner !== null && typeof inner === 'object') {
      for (const [key, item] of Object.entries(inner)) {
        if (!field && skip(key)) continue
        const here = field || key
        const hit = found(key, here) ?? walk(item, here)
        if (hit) return hit
      }
    }
    return undefined
  }
  return walk(value, '')
}

/** The same error with its message and details redacted; a fresh exception, so its stack holds no secret either. */
export function redactException(error: AppErrorException, redact: Redactor): AppErrorException {
  return new AppErrorException(error.code, redact(error.message), redact(error.details))
}

type Body = Record<string, unknown>

const isRecord = (value: unknown): value is Body => value !== null && typeof value === 'object' && !Array.isArray(value)

/**
 * A success answer with every secret redacted wherever the server put it (an echoed header, a
 * loose field, the properties), before anything stores, logs or answers it. One place is left
 * as it came: `user_group.token`, in the validated value and in the raw body, because handing
 * over the group's token is what the API answers for (the vault keeps it; the operator copies it).
 */
export function redactSuccess<T extends { user_group: { token: string } }>(
  answer: { value: T; raw: unknown },
  redact: Redactor,
): { value: T; raw: unknown } {
  // The kept token is blanked rather than searched, then put back in its place: a token is as
  // long as a secret, so searching it would build the search for nothing (see createRedactor),
  // and it is the one place a secret is meant to be. The group is redacted apart from the rest, so
  // a secret found in the name "user_group" itself cannot take the group away. All four parts go
  // in one pass (an array: it has no keys to redact), so the vault is asked what it knows once.
  const rawGroup = isRecord(answer.raw) ? answer.raw.user_group : undefined
  const rawToken = isRecord(rawGroup) && typeof rawGroup.token === 'string' ? rawGroup.token : undefined
  const parts: [Body, Body, unknown, Body | null] = [
    { ...answer.value, user_group: null },
    { ...answer.value.user_group, token: '' },
    rawToken === undefined ? answer.raw : { ...(answer.raw as Body), user_group: null },
    rawToken === undefined ? null : { ...(rawGroup as Body), token: '' },
  ]
  const [rest, group, rawRest, rawGroupRest] = redact(parts)
  const value = { ...rest, user_group: { ...group, token: answer.value.user_group.token } } as unknown as T
  if (rawToken === undefined) return { value, raw: rawRest }
  return { value, raw: { ...(rawRest as Body), user_group: { ...rawGroupRest, token: rawToken } } }
}

const TOKEN_FIELD_IN_TEXT = /("token"\s*:\s*")(?:[^"\\]|\\.)*(")/g

/**
 * Every token an answer carried, wherever it sits: a `token` field of any object is replaced,
 * and so is one inside text that was cut from a body (a failure's excerpt). For what the app
 * keeps of an answer (the activity log): tokens that were issued, not known before the call.
 */
export function redactReturnedTokens<T>(value: T): T {
  const walk = (inner: unknown): unknown => {
    if (typeof inner === 'string') return inner.replace(TOKEN_FIELD_IN_TEXT, `$1${REDACTED}$2`)
    if (Array.isArray(inner)) return inner.map(walk)
    if (inner !== null && typeof inner === 'object') {
      return Object.fromEntries(
        Object.entries(inner).map(([key, field]) => [key, key === 'token' && typeof field === 'string' ? REDACTED : walk(field)]),
      )
    }
    return inner
  }
  return walk(value) as T
}
