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
  /** Each form's pattern and the length of the text it matches (a hex pattern is longer than its text). */
  const patterns = new Map<string, number>()
  const longForms = new Set<string>()
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue
    if (secret.length > LONG_SECRET_LENGTH) {
      for (const form of [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(wellFormed(secret))]) longForms.add(form)
      continue
    }
    const hex = /^[0-9a-fA-F]+$/.test(secret)
    // Every form is at least as long as the secret, so none is shorter than MIN_SECRET_LENGTH.
    for (const form of secretForms(secret)) patterns.set(hex && form === secret ? anyCaseHex(form) : escapeRegExp(form), form.length)
  }
  const ordered = [...patterns].sort(([, a], [, b]) => b - a).map(([source]) => source)
  const pattern = ordered.length ? new RegExp(ordered.join('|'), 'g') : null
  const long = [...longForms].sort((a, b) => b.length - a.length)
  const redactText = (text: string): string => {
    let redacted = text
    for (const form of long) redacted = redacted.split(form).join(REDACTED)
    return pattern ? redacted.replace(pattern, REDACTED) : redacted
  }
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
  const token = answer.value.user_group.token
  const value = { ...redact(answer.value), user_group: { ...redact(answer.value.user_group), token } }
  const raw = redact(answer.raw)
  const rawGroup = isRecord(answer.raw) ? answer.raw.user_group : undefined
  if (isRecord(raw) && isRecord(raw.user_group) && isRecord(rawGroup) && typeof rawGroup.token === 'string') {
    raw.user_group = { ...raw.user_group, token: rawGroup.token }
  }
  return { value, raw }
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
