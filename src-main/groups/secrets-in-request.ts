import { keptSecretOf } from '../profiles/vault-keys'
import { findSecret, type SecretMatcher } from '../user-api/redact'

/** A secret found in a request: the field it is in, as the form and bulk files name it, and whose secret it is, in words. */
export interface SecretInRequest {
  field: string
  whose: string
}

/**
 * Whether a request carries a secret the app keeps: a profile's API token (any profile's) pasted
 * into a group's name, a group's token in a bulk file's name column, a proxy password. Such a
 * request is refused before anything is sent, with a sentence that names the field and whose
 * secret it is, never the secret. The current token of a rotation is the one place a group's
 * token belongs (any other secret there is refused too).
 */
export function secretInRequest(
  request: unknown,
  known: SecretMatcher,
  profileName: (profileId: string) => string | null,
): SecretInRequest | undefined {
  const rotation = request !== null && typeof request === 'object' && 'current_token' in request
  let found = findSecret(request, known, (field) => rotation && field === 'current_token')
  if (!found && rotation) {
    const inToken = findSecret({ current_token: (request as { current_token: unknown }).current_token }, known)
    if (inToken && keptSecretOf(inToken.tag ?? '').kind !== 'group-token') found = inToken
  }
  if (!found) return undefined
  const kept = keptSecretOf(found.tag ?? '')
  // A profile deleted since its secret was kept is named by its id.
  const nameOf = (profileId: string) => profileName(profileId) ?? profileId
  const whose =
    kept.kind === 'api-token'
      ? `the API token of the profile “${nameOf(kept.profileId)}”`
      : kept.kind === 'proxy-password'
        ? `the proxy password of the profile “${nameOf(kept.profileId)}”`
        : kept.kind === 'group-token'
          ? `the token of the group “${kept.groupId}” (profile “${nameOf(kept.profileId)}”)`
          : kept.kind === 'team-password'
            ? 'the password of this folder’s team database'
            : 'a secret this app keeps'
  return { field: found.field === 'current_token' ? 'current token' : found.field || 'request', whose }
}

/** The refusal of a call whose request carries a kept secret. */
export const secretInRequestSentence = ({ field, whose }: SecretInRequest) =>
  `The ${field} ${field === 'properties' ? 'hold' : 'holds'} ${whose}. A token or password is never sent in a group’s fields: take it out and send again. Nothing was sent.`

/** The problem of a bulk file's row that carries a kept secret (the line and column are given beside it). */
export const secretInRowSentence = ({ whose }: SecretInRequest) =>
  `This cell holds ${whose}: a token or password is never sent in a group’s fields. Take it out of the file.`
