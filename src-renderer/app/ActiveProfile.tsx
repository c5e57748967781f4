import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ProfileView } from '../../src-shared/profiles/schemas'
import { call } from '../lib/api'
import { isProductionProfile, useProfiles } from '../lib/profiles'
import { queryKeys } from '../lib/query-keys'
import { toast } from '../ui/toasts'
import { useNavigation } from './navigation-store'

const KIND_BADGES = { customer: 'Customer · production', testing: 'Testing', unspecified: null } as const

/** What the header says of a profile's environment: its kind, corrected by the server's word. */
function kindBadge(profile: ProfileView): string | null {
  if (profile.builtin) return 'Sandbox'
  if (profile.environmentKind === 'testing' && profile.serverEnvironment === 'Customer')
    return 'Marked Testing · the server writes Customer'
  return KIND_BADGES[profile.environmentKind]
}

/**
 * The profile every call goes through, always in view and switchable from any screen, so nobody
 * rotates a token in the wrong place. A Customer (production) profile tints the whole header.
 */
export function ActiveProfile() {
  const profiles = useProfiles()
  const queryClient = useQueryClient()
  const open = useNavigation((state) => state.open)
  const switchTo = useMutation({
    mutationFn: (id: string) => call('profiles.setActive', { id }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.profiles })
      void queryClient.invalidateQueries({ queryKey: queryKeys.catalog.all })
    },
    onError: (error) => toast.error(`The profile could not be switched: ${error.message}`),
  })
  if (!profiles.data) return null
  const { activeId } = profiles.data
  const active = profiles.data.profiles.find((profile) => profile.id === activeId)
  const kind = active ? kindBadge(active) : null

  return (
    <div className="active-profile">
      <label className="active-profile__caption" htmlFor="active-profile">
        Profile
      </label>
      <select
        id="active-profile"
        className="active-profile__select"
        aria-label="Active profile"
        value={activeId ?? ''}
        disabled={switchTo.isPending}
        onChange={(event) => switchTo.mutate(event.target.value)}
      >
        {activeId === null ? <option value="">None</option> : null}
        {profiles.data.profiles.map((profile) => (
          <option key={profile.id} value={profile.id}>
            {profile.name}
            {profile.environmentLabel ? ` · ${profile.environmentLabel}` : ''}
          </option>
        ))}
      </select>
      {kind ? (
        <span className={`badge ${isProductionProfile(active) ? 'badge--customer' : 'badge--accent'}`} data-testid="environment-kind">
          {kind}
        </span>
      ) : null}
      <button type="button" className="btn btn--small btn--ghost" onClick={() => open('profiles')}>
        Manage…
      </button>
    </div>
  )
}
