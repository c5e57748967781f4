import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useEffectEvent } from 'react'
import type { ProfileView } from '../../../src-shared/profiles/schemas'
import { call } from '../../lib/api'
import { type CallHandoff, useCallHandoff } from '../../lib/call-handoff'
import { queryKeys } from '../../lib/query-keys'
import { toast } from '../../ui/toasts'
import { fieldsFromRequest, useWorkspaces } from './group-form-state'
import type { Submission } from './group-submission'

interface CallHandoffIntakeOptions {
  /** Every profile, read: a handoff names its profile by id. */
  profiles: readonly ProfileView[] | undefined
  /** Whether the profiles were read: a handoff waits for them. */
  profilesLoaded: boolean
  activeProfileId: string | undefined
  submit(submission: Submission): void
  /** A rotation was handed over: whether its confirmation opens at once ("Rotate again…"). */
  askRotation(ask: boolean): void
}

/**
 * A call handed over from Activity: its profile made active, the whole call in that profile's
 * form (what it did not send emptied), and sent when asked ("Run again"); a rotation only opens
 * its confirmation, with the current token.
 */
export function useCallHandoffIntake({ profiles, profilesLoaded, activeProfileId, submit, askRotation }: CallHandoffIntakeOptions) {
  const queryClient = useQueryClient()
  const takeHandoff = useEffectEvent(async (handoff: CallHandoff) => {
    const profile = profiles?.find((candidate) => candidate.id === handoff.profileId)
    if (!profile) return toast.error('The profile that call went through no longer exists.')
    if (profile.id !== activeProfileId) {
      try {
        await call('profiles.setActive', { id: profile.id })
      } catch (failure) {
        return toast.error(`That call’s profile cannot be used: ${(failure as Error).message}`)
      }
      await queryClient.invalidateQueries({ queryKey: queryKeys.profiles })
      toast.info(`Switched to the profile “${profile.name}”, which that call went through.`)
    }
    const { update } = useWorkspaces.getState()
    if (handoff.kind === 'rotation') {
      update(profile.id, { operation: 'rotateToken', rotateGroupId: handoff.groupId ?? '' })
      askRotation(handoff.run)
      return
    }
    update(profile.id, { operation: handoff.operation, fields: fieldsFromRequest(handoff.request) })
    if (handoff.run) submit({ profile, operation: handoff.operation, request: handoff.request })
  })
  useEffect(() => {
    if (!profilesLoaded) return
    const next = () => {
      const handoff = useCallHandoff.getState().take()
      if (handoff) void takeHandoff(handoff)
    }
    next()
    return useCallHandoff.subscribe(next)
  }, [profilesLoaded])
}
