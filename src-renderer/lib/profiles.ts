import { useQuery } from '@tanstack/react-query'
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
