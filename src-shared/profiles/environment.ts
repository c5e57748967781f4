import type { EnvironmentTag } from '../user-api/schemas'
import type { EnvironmentKind } from './schemas'

/*
 * A profile says which environment its API token writes to (its kind); the server says where it
 * actually put each group (`api_environment_tag`). The server's word wins: where they disagree,
 * every answer says so, and a profile marked Testing that writes Customer groups is treated as a
 * Customer one until its kind is corrected.
 */

/** The tag the server gives groups of a profile of this kind; none for a profile that says nothing. */
const TAG_OF_KIND: Record<EnvironmentKind, EnvironmentTag | null> = { customer: 'Customer', testing: 'Testing', unspecified: null }

/** The kind a profile has when the server puts its groups in this environment: the correction offered. */
export const KIND_OF_TAG: Record<EnvironmentTag, Exclude<EnvironmentKind, 'unspecified'>> = { Customer: 'customer', Testing: 'testing' }

export interface EnvironmentMismatch {
  profileKind: Exclude<EnvironmentKind, 'unspecified'>
  serverTag: EnvironmentTag
}

/** Whether the server put a group somewhere other than the profile's kind says; null when they agree or either says nothing. */
export function environmentMismatch(kind: EnvironmentKind, serverTag: EnvironmentTag | null | undefined): EnvironmentMismatch | null {
  const expected = TAG_OF_KIND[kind]
  if (!expected || !serverTag || expected === serverTag) return null
  return { profileKind: kind as EnvironmentMismatch['profileKind'], serverTag }
}

const KIND_NAMES = { customer: 'Customer', testing: 'Testing' } as const

/** The one sentence for the result, the CLI and the activity log. */
export function environmentMismatchWarning(profileName: string, mismatch: EnvironmentMismatch): string {
  const tail =
    mismatch.serverTag === 'Customer'
      ? ' Its API token writes to production: until its kind is corrected, its writes are confirmed like a Customer profile’s.'
      : ' Its API token writes to a test environment.'
  return `“${profileName}” is marked ${KIND_NAMES[mismatch.profileKind]}, but the server put the group in ${mismatch.serverTag}.${tail} Correct the profile’s kind to ${mismatch.serverTag}.`
}

/**
 * Whether writes through a profile are production writes, which the app confirms once a session:
 * a Customer profile, and one marked Testing whose server was seen writing Customer groups.
 * (A profile that says nothing, such as the built-in sandbox, never asks.)
 */
export function writesToProduction(profile: { environmentKind: EnvironmentKind; serverEnvironment?: EnvironmentTag | null }): boolean {
  return profile.environmentKind === 'customer' || (profile.environmentKind === 'testing' && profile.serverEnvironment === 'Customer')
}
