/*
 * Names of the secrets in the vault. Profile ids hold no ":" (ProfileIdSchema), so a prefix
 * names exactly one profile's secrets.
 */

export const profileTokenKey = (profileId: string) => `profile:${profileId}:api-token`

/** A user group's token, kept for the profile it was fetched through. */
export const groupTokenKey = (profileId: string, groupId: string) => `group:${profileId}:${groupId}:token`

/**
 * The key ranges [from, to) holding every secret that goes away with the profile: its API token
 * and its groups' tokens. ";" is the character after ":", so each range is exactly one prefix.
 */
export const secretKeyRange = (profileId: string): Array<[string, string]> => [
  [`profile:${profileId}:`, `profile:${profileId};`],
  [`group:${profileId}:`, `group:${profileId};`],
]
