import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { call } from '../lib/api'
import { queryKeys } from '../lib/query-keys'
import { teamTime } from '../lib/team'
import { toast } from './toasts'

/**
 * Team mode, on the Groups screen: who last changed and rotated the group (from the team's
 * catalog, as last pulled), and whether the token kept here is still the group's. A stale one is
 * said so, with the fetch that brings the current token (a get-or-create, audited like any call).
 * Nothing shows in one person's mode, or for a group the team has not seen.
 */
export function TeamGroupNote({ profileId, groupId }: { profileId: string; groupId: string }) {
  const queryClient = useQueryClient()
  const id = groupId.trim()
  const info = useQuery({
    queryKey: queryKeys.team.group(profileId, id),
    queryFn: () => call('team.group', { profileId, groupId: id }),
    enabled: id.length > 0,
  })
  const fetchCurrent = useMutation({
    mutationFn: () => call('groups.getOrCreate', { profileId, request: { user_group_id: id } }),
    onSuccess: () => toast.success(`Fetched the current token of “${id}”.`),
    onError: (error) => toast.error(error.message),
    onSettled: () => {
      for (const queryKey of [queryKeys.catalog.all, queryKeys.activity.all]) void queryClient.invalidateQueries({ queryKey })
    },
  })
  const team = info.data?.info
  if (!id || !team) return null
  const rotated = team.rotatedBy ? `; rotated by ${team.rotatedBy} at ${teamTime(team.rotatedAt)}` : ''
  return (
    <div
      className={team.token === 'stale' ? 'callout callout--warning team-note' : 'callout team-note'}
      role="status"
      aria-label="What the team knows of this group"
    >
      <span>
        Team: last changed by <strong>{team.changedBy}</strong> at {teamTime(team.changedAt)}
        {rotated}.
        {team.token === 'stale'
          ? ` The token kept here is not the group’s current one${team.tokenLast4 ? ` (…${team.tokenLast4})` : ''}: fetch the current token first.`
          : ''}
      </span>
      {team.token === 'stale' ? (
        <button
          type="button"
          className="btn btn--small btn--primary"
          disabled={fetchCurrent.isPending}
          onClick={() => fetchCurrent.mutate()}
        >
          {fetchCurrent.isPending ? 'Fetching…' : 'Fetch the current token'}
        </button>
      ) : null}
    </div>
  )
}
