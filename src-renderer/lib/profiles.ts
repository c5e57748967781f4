import { useQuery } from '@tanstack/react-query'
import { writesToProduction } from '../../src-shared/profiles/environment'
import type { ProfileView } from '../../src-shared/profiles/schemas'
import { call } from './api'
import { queryKeys } from './query-keys'

/** Profiles are read by the header, the groups screen and the site editor: one query, one cache. */
/**
 * How long a fetched list stays fresh: the screens that mount while the app loads (the header
 * first, the Groups screen once its code has loaded) share one request. Every change made here
 * refetches it at once (invalidation); the Profiles screen asks again whenever it opens
 * (`{ asked: 'on open' }`), so one made by another process (the CLI, a script) shows there at once.
 */
const PROFILES_FRESH_MS = 5_000

export function useProfiles(options: { asked?: 'on open' } = {}) {
  return useQuery({
    queryKey: queryKeys.profiles,
    queryFn: () => call('profiles.list', {}),
    staleTime: PROFILES_FRESH_MS,
    ...(options.asked === 'on open' ? { refetchOnMount: 'always' as const } : {}),
  })
}

export function useActiveProfile() {
  const profiles = useProfiles()
  const active = profiles.data?.profiles.find((profile) => profile.id === profiles.data?.activeId)
  return { active, isLoading: profiles.isLoading, error: profiles.error }
}

/**
 * Whether the next write through this profile lands in production: a Customer profile, or one
 * marked Testing whose server put its groups in Customer. Never the built-in sandbox, whatever
 * its server tags its groups: nothing sent there leaves this machine.
 */
export const isProductionProfile = (profile: ProfileView | undefined): boolean =>
  Boolean(profile && !profile.builtin && writesToProduction(profile))

/** The colour of a button that sends through the profile: production's red, or the usual blue. */
export const sendButtonClass = (profile: ProfileView | undefined) =>
  isProductionProfile(profile) ? 'btn btn--production' : 'btn btn--primary'

/** The active profile writes to production: the header, the status bar and every send button say so. */
export function useProductionActive(): boolean {
  return isProductionProfile(useActiveProfile().active)
}
