import type { UserGroup } from '../../src-shared/user-api/schemas'
import { MIN_SEARCHED_GROUP_TOKEN_LENGTH } from '../profiles/vault-keys'
import type { UserApiCallResult } from '../user-api/client'
import { createRedactor, type Redactor, redactReturnedTokens, redactSuccess, type SecretMatcher } from '../user-api/redact'

/*
 * What the activity log, the catalog and the team keep of a call never holds a secret: the API
 * token, a group token the call sent or the vault keeps, a token the answer issued, nor any
 * secret the vault knows (`knownSecrets`, asked at each value since it grows as secrets are kept).
 */

/** The redaction of one call's record, from before it is sent until its answer or failure is kept. */
export interface CallScrubber {
  /** Every secret known to the call so far goes, wherever it is in `value`. */
  scrub: Redactor
  /** A body as the log keeps it: scrubbed, and every token the server issued in it redacted too. */
  kept(body: unknown): unknown
  /** The profile's API token, once the connection is resolved: from then on it goes too. */
  knowApiToken(apiToken: string): void
}

/**
 * Built lazily: a call that fails before its API token is known (a profile with no token) scrubs
 * only the secrets it was given, and a call that needs no scrub before its answer builds no
 * redactor for nothing.
 */
export function createCallScrubber(secrets: readonly string[], knownSecrets: () => SecretMatcher): CallScrubber {
  let redact: Redactor | undefined
  const scrub: Redactor = (value) => (redact ??= createRedactor(secrets, knownSecrets))(value)
  return {
    scrub,
    kept: (body) => redactReturnedTokens(scrub(body)),
    knowApiToken(apiToken) {
      redact = createRedactor([apiToken, ...secrets], knownSecrets)
    },
  }
}

type GroupAnswer = { user_group: UserGroup; new_user_group?: boolean }

/** A group call's answer, and the one redactor for everything kept of it. */
export interface RedactedAnswer<T extends GroupAnswer> {
  /** The answer, redacted everywhere but `user_group.token` (redactSuccess). */
  result: UserApiCallResult<T>
  /** For what is kept of the call: the exchange, the entry, what the operator sent (which may hold the API token too). */
  scrub: Redactor
}

/**
 * The client has redacted the API token and the token it rotated; the group tokens the service
 * knows go too, wherever the server echoed them: the group's token as kept before the call
 * (`tokensKnownBefore`) and as received. Only `user_group.token` keeps the received one. A group
 * token shorter than MIN_SEARCHED_GROUP_TOKEN_LENGTH is not searched: replacing it everywhere
 * would mangle the whole text.
 */
export function redactAnswer<T extends GroupAnswer>({
  answered,
  apiToken,
  tokensKnownBefore,
  knownSecrets,
}: {
  answered: UserApiCallResult<T>
  apiToken: string
  tokensKnownBefore: readonly string[]
  knownSecrets: () => SecretMatcher
}): RedactedAnswer<T> {
  const groupSecrets = [...tokensKnownBefore, answered.value.user_group.token].filter(
    (secret) => secret.length >= MIN_SEARCHED_GROUP_TOKEN_LENGTH,
  )
  const scrub = createRedactor([apiToken, ...groupSecrets], knownSecrets)
  return { result: { ...answered, ...redactSuccess(answered, scrub) }, scrub }
}
