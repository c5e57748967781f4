import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { RefObject } from 'react'
import { KIND_OF_TAG } from '../../../src-shared/profiles/environment'
import type { ProfileView } from '../../../src-shared/profiles/schemas'
import type { GetOrCreateRequest } from '../../../src-shared/user-api/schemas'
import { call } from '../../lib/api'
import { queryKeys } from '../../lib/query-keys'
import { toast } from '../../ui/toasts'
import type { GroupOutcome, ShownResult } from './group-form-state'
import { ResultPanel } from './ResultPanel'

/**
 * The correction a mismatch offers (the server put the group in the other environment), while
 * the profile still says otherwise; the built-in sandbox is never corrected.
 */
function correctionOf(outcome: GroupOutcome, profile: ProfileView | undefined) {
  const mismatch = outcome.kind === 'success' ? outcome.result.environmentMismatch : undefined
  if (!mismatch || !profile || profile.builtin || profile.environmentKind !== mismatch.profileKind) return null
  return { profile, kind: KIND_OF_TAG[mismatch.serverTag], serverTag: mismatch.serverTag }
}

/** Marks a profile Customer or Testing, as its server said. */
function useKindCorrection() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ profile, kind }: { profile: ProfileView; kind: ProfileView['environmentKind'] }) =>
      call('profiles.update', { id: profile.id, changes: { environmentKind: kind } }),
    onSuccess: (profile) => {
      toast.success(`“${profile.name}” is now marked ${profile.environmentKind === 'customer' ? 'Customer (production)' : 'Testing'}.`)
      void queryClient.invalidateQueries({ queryKey: queryKeys.profiles })
    },
    onError: (failure) => toast.error(`The profile could not be changed: ${failure.message}`),
  })
}

interface GroupResultProps {
  /** The active profile's last result, or null before its first call. */
  result: ShownResult | null
  /** The result's heading, focused when a new result arrives. */
  headingRef: RefObject<HTMLHeadingElement | null>
  profiles: readonly ProfileView[]
  activeProfileName: string
  /** "Update instead" after a get-or-create: the same request sent as an update, through the profile it went through. */
  onUpdateInstead(profile: ProfileView, request: GetOrCreateRequest): void
}

/** The last call's result with the ways on from it (the environment's correction, update instead), or what will show here. */
export function GroupResult({ result, headingRef, profiles, activeProfileName, onUpdateInstead }: GroupResultProps) {
  const correctKind = useKindCorrection()
  if (!result) {
    return (
      <p className="muted groups-result__empty">
        The result of a call through “{activeProfileName}” shows here, with its code in curl, HTTPie, JavaScript and Python.
      </p>
    )
  }
  const shown = result.outcome
  const resultProfile = shown.kind === 'success' ? profiles.find((candidate) => candidate.id === shown.result.profileId) : undefined
  const correction = correctionOf(shown, resultProfile)
  // Keyed by the call, so a new result starts with its token masked again.
  return (
    <ResultPanel
      key={result.id}
      ref={headingRef}
      outcome={shown}
      profileName={result.profileName}
      baseUrl={result.baseUrl}
      sandbox={Boolean(resultProfile?.builtin)}
      correction={
        correction
          ? {
              label: `Mark “${correction.profile.name}” as ${correction.serverTag}`,
              pending: correctKind.isPending,
              run: () => correctKind.mutate(correction),
            }
          : null
      }
      onUpdateInstead={() => {
        if (shown.kind !== 'success' || shown.call.operation !== 'getOrCreate') return
        if (!resultProfile) return toast.error('The profile of that call no longer exists.')
        onUpdateInstead(resultProfile, shown.call.request)
      }}
    />
  )
}
