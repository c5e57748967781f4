/*
 * Names of the secrets in the vault. Profile ids hold no ":" (ProfileIdSchema), so a prefix
 * names exactly one profile's secrets.
 */

export const profileTokenKey = (profileId: string) => `profile:${profileId}:api-token`

/** The password of the profile's own proxy (its user name is in the profile: not a secret). */
export const profileProxyPasswordKey = (profileId: string) => `profile:${profileId}:proxy-password`

/** A user group's token, kept for the profile it was fetched through. */
export const groupTokenKey = (profileId: string, groupId: string) => `group:${profileId}:${groupId}:token`

/** The same key as an SQL expression over two columns, for queries that join the secrets table. */
export const groupTokenKeySql = (profileColumn: string, groupColumn: string) =>
  `'group:' || ${profileColumn} || ':' || ${groupColumn} || ':token'`

/** The group id a key of groupTokenKey names for this profile, or undefined for any other key. */
export function groupIdOfTokenKey(profileId: string, key: string): string | undefined {
  const prefix = `group:${profileId}:`
  return key.startsWith(prefix) && key.endsWith(':token') ? key.slice(prefix.length, -':token'.length) : undefined
}

/**
 * The key ranges [from, to) holding every secret that goes away with the profile: its API token,
 * its proxy password and its groups' tokens. ";" is the character after ":", so each range is exactly one prefix.
 */
export const secretKeyRange = (profileId: string): Array<[string, string]> => [
  [`profile:${profileId}:`, `profile:${profileId};`],
  [`group:${profileId}:`, `group:${profileId};`],
]

/** The password of this data folder's login role in the team database (team mode). */
export const TEAM_PASSWORD_KEY = 'team:password'

/**
 * A group token shorter than this is not searched for in what the app keeps: replacing every
 * occurrence of a two-character "token" would mangle the whole text, and such a token protects
 * nothing anyway.
 */
export const MIN_SEARCHED_GROUP_TOKEN_LENGTH = 8

/** What a secret of the vault is, by its key: for a sentence that names it without showing it. */
export type KeptSecret =
  | { kind: 'api-token' | 'proxy-password'; profileId: string }
  | { kind: 'group-token'; profileId: string; groupId: string }
  | { kind: 'team-password' }
  | { kind: 'other' }

export function keptSecretOf(key: string): KeptSecret {
  if (key === TEAM_PASSWORD_KEY) return { kind: 'team-password' }
  const profile = /^profile:([^:]+):(api-token|proxy-password)$/.exec(key)
  if (profile) return { kind: profile[2] === 'api-token' ? 'api-token' : 'proxy-password', profileId: profile[1]! }
  const group = /^group:([^:]+):(.*):token$/s.exec(key)
  return group ? { kind: 'group-token', profileId: group[1]!, groupId: group[2]! } : { kind: 'other' }
}
