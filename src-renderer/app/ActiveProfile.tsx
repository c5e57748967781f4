import { useActiveProfile } from '../lib/profiles'
import { useNavigation } from './navigation-store'

/** The profile every call goes through, always in view so nobody rotates a token in the wrong place. */
export function ActiveProfile() {
  const { active, isLoading } = useActiveProfile()
  const open = useNavigation((state) => state.open)
  if (isLoading) return null
  return (
    <button type="button" className="active-profile" onClick={() => open('profiles')} aria-label={active ? `Active profile: ${active.name}${active.environmentLabel ? `, ${active.environmentLabel}` : ''}. Change profile` : 'No active profile. Choose a profile'}>
      <span className="active-profile__caption">Profile</span>
      <span className="active-profile__name">{active ? active.name : 'None'}</span>
      {active?.environmentLabel ? <span className="badge badge--accent">{active.environmentLabel}</span> : null}
    </button>
  )
}
