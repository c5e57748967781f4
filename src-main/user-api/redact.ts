import { AppErrorException } from '../../src-shared/ipc/result'

export const REDACTED = '[redacted]'

/** Lone surrogates (half of a UTF-16 pair) as U+FFFD: what any encoder would send for them, and what never throws. */
const wellFormed = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')

/** Every UTF-16 unit as a `\uXXXX` escape, as some JSON writers send anything but ASCII (or everything). */
const unicodeEscaped = (text: string, upper: boolean) =>
  Array.from({ length: text.length }, (_, index) => {
    const hex = text.charCodeAt(index).toString(16).padStart(4, '0')
    return `\\u${upper ? hex.toUpperCase() : hex}`
  }).join('')

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Hex letters matched in either case: a hex token echoed upper-cased is the same secret. */
const anyCaseHex = (text: string) => escapeRegExp(text).replace(/[a-fA-F]/g, (letter) => `[${letter.toLowerCase()}${letter.toUpperCase()}]`)

/**
 * The forms a secret can take in what a server sends back or Node reports: as typed, escaped
 * inside a JSON string (a hostile or buggy server may echo the request body), fully
 * `\u`-escaped, URL-encoded, and base64 (standard and URL-safe) of its UTF-8 bytes. Total over
 * any string: a lone surrogate never makes a form throw (encodeURIComponent would).
 */
function secretForms(secret: string): string[] {
  const sendable = wellFormed(secret)
  const bytes = Buffer.from(sendable)
  const base64 = bytes.toString('base64')
  return [
    secret,
    sendable,
    JSON.stringify(secret).slice(1, -1),
    unicodeEscaped(secret, false),
    unicodeEscaped(secret, true),
    encodeURIComponent(sendable),
    base64,
    base64.replace(/=+$/, ''),
    bytes.toString('base64url'),
  ]
}

export type Redactor = <T>(value: T) => T

/** At least this long to be searched for: shorter "secrets" would redact half of every text and protect nothing. */
const MIN_SECRET_LENGTH = 4
/**
 * Longer than any token: a "secret" this long (a pasted file, 32 MB in a test) is searched for as
 * typed, JSON-escaped and URL-encoded only, by plain string search: its \u-escaped form alone
 * would be six times its size, and a pattern of it would not compile.
 */
const LONG_SECRET_LENGTH = 4096

/**
 * Returns a function that replaces every secret, in any of its forms, wherever it appears in
 * strings (including object keys) of a JSON-like value, with `[redacted]`. One pass with one
 * pattern, longest form first, so a longer form is never left half-replaced by a shorter one it
 * contains; a hex secret matches in any case. Run it before any truncation, so a cut can never
 * leave part of a secret behind.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const searched = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH)
  // Every form is at least as long as its secret, so a text shorter than every secret holds none
  // of them: most strings of an answer (ids, names, numbers) are, and are handed back without a
  // search. The forms and their pattern are built at the first longer text, if one comes: a bulk
  // run asks for a redactor a row, and building them cost more than the redaction itself.
  const shortest = Math.min(...searched.map((secret) => secret.length))
  let search: ((text: string) => string) | undefined
  const redactText = (text: string): string => (text.length < shortest ? text : (search ??= searchFor(searched))(text))
  const redact = (value: unknown): unknown => {
    if (typeof value === 'string') return redactText(value)
    if (Array.isArray(value)) return value.map(redact)
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [redactText(key), redact(inner)]))
    }
    return value
  }
  return <T>(value: T) => redact(value) as T
}

/**
 * Searches used lately, by their secrets: every call of a profile searches for its API token in
 * the answer it keeps, and a bulk run makes thousands of calls. A handful covers the profiles in
 * use at once; the least recently used is let go first. Lists with a secret longer than any token
 * (a pasted file) are built each time rather than kept: they would hold megabytes.
 */
const searches = new Map<string, (text: string) => string>()
const SEARCHES_KEPT = 8

function searchFor(secrets: readonly string[]): (text: string) => string {
  if (secrets.some((secret) => secret.length > LONG_SECRET_LENGTH)) return buildSearch(secrets)
  // Unambiguous whatever the secrets hold (joined with a separator, two lists could share a key).
  const key = JSON.stringify(secrets)
  const search = searches.get(key) ?? buildSearch(secrets)
  searches.delete(key)
  searches.set(key, search)
  if (searches.size > SEARCHES_KEPT) searches.delete(searches.keys().next().value!)
  return search
}

/** Replaces every form of every secret (each at least MIN_SECRET_LENGTH long) in a text. */
function buildSearch(secrets: readonly string[]): (text: string) => string {
  /** Each form's pattern and the length of the text it matches (a hex pattern is longer than its text). */
  const patterns = new Map<string, number>()
  const longForms = new Set<string>()
  for (const secret of secrets) {
    if (secret.length > LONG_SECRET_LENGTH) {
      for (const form of [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(wellFormed(secret))]) longForms.add(form)
      continue
    }
    const hex = /^[0-9a-fA-F]+$/.test(secret)
    for (const form of secretForms(secret)) patterns.set(hex && form === secret ? anyCaseHex(form) : escapeRegExp(form), form.length)
  }
  const ordered = [...patterns].sort(([, a], [, b]) => b - a).map(([source]) => source)
  const pattern = ordered.length ? new RegExp(ordered.join('|'), 'g') : null
  const long = [...longForms].sort((a, b) => b.length - a.length)
  return (text) => {
    let redacted = text
    for (const form of long) redacted = redacted.split(form).join(REDACTED)
    return pattern ? redacted.replace(pattern, REDACTED) : redacted
  }
}

/** The same error with its message and details redacted; a fresh exception, so its stack holds no secret either. */
export function redactException(error: AppErrorException, redact: Redactor): AppErrorException {
  return new AppErrorException(error.code, redact(error.message), redact(error.details))
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

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
  // a secret found in the name "user_group" itself cannot take the group away.
  const keptGroup = (group: Record<string, unknown>, token: string) => ({ ...redact({ ...group, token: '' }), token })
  const value = {
    ...redact<Record<string, unknown>>({ ...answer.value, user_group: null }),
    user_group: keptGroup(answer.value.user_group, answer.value.user_group.token),
  } as unknown as T
  const rawGroup = isRecord(answer.raw) ? answer.raw.user_group : undefined
  if (!isRecord(answer.raw) || !isRecord(rawGroup) || typeof rawGroup.token !== 'string') return { value, raw: redact(answer.raw) }
  return {
    value,
    raw: { ...redact<Record<string, unknown>>({ ...answer.raw, user_group: null }), user_group: keptGroup(rawGroup, rawGroup.token) },
  }
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
