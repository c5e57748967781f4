import { useQuery } from '@tanstack/react-query'
import { call } from './api'
import { queryKeys } from './query-keys'

/**
 * Whether this data folder has joined a team, and how its link stands: read by the Team screen,
 * Activity (its Team view) and the Groups screen's team note. One query, one cache.
 */
export function useTeamStatus(options: { refetchInterval?: number } = {}) {
  return useQuery({ queryKey: queryKeys.team.status, queryFn: () => call('team.status', {}), ...options })
}

const clock = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' })

/** "14:02" today, a short date otherwise: when a teammate did something. */
export const teamTime = (iso: string | null) => (iso ? clock.format(new Date(iso)) : 'never')
