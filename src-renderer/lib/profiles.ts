import { useQuery } from '@tanstack/react-query'
import { call } from './api'
import { queryKeys } from './query-keys'

/** Profiles are read by the header, the groups screen and the site editor: one query, one cache. */
export function useProfiles() {
  return useQuery({ queryKey: queryKeys.profiles, queryFn: () => call('profiles.list', {}) })
}

export function useActiveProfile() {
  const profiles = useProfiles()
  const active = profiles.data?.profiles.find((profile) => profile.id === profiles.data?.activeId)
  return { active, isLoading: profiles.isLoading, error: profiles.error }
}
