import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { GroupCallResult, RotationSource } from '../../../src-shared/ipc/group-calls'
import type { ProfileView } from '../../../src-shared/profiles/schemas'
import type { SampleCall } from '../../../src-shared/user-api/code-samples'
import type { GetOrCreateRequest } from '../../../src-shared/user-api/schemas'
import { call, CallError } from '../../lib/api'
import { needsWriteConfirmation, useCustomerWrites } from '../../lib/customer-writes'
import { queryKeys } from '../../lib/query-keys'
import { type GroupOutcome, useWorkspaces } from './group-form-state'

/** A call to send, through the profile it names (the active one when it was made). */
export type Submission = { profile: ProfileView } & (
  { operation: 'getOrCreate' | 'update'; request: GetOrCreateRequest } | { operation: 'rotateToken'; source: RotationSource }
)

const sampleCallOf = (submission: Submission): SampleCall =>
  submission.operation === 'rotateToken' ? { operation: 'rotateToken' } : { operation: submission.operation, request: submission.request }

/**
 * What a write does before it goes. A write to production not yet confirmed this session asks
 * first; a rotation does not ask here, because its own dialog already said where it goes, and
 * that answer counts as the session's confirmation.
 */
export function writeGateOf(submission: Submission, confirmed: ReadonlySet<string>): 'send' | 'ask' | 'confirm and send' {
  if (!needsWriteConfirmation(submission.profile, confirmed)) return 'send'
  return submission.operation === 'rotateToken' ? 'confirm and send' : 'ask'
}

/**
 * Sending group calls: one at a time, each through the profile it names, its outcome shown in
 * that profile's result panel whichever profile is active when it answers. A write to production
 * waits in `awaitingConfirmation` until the operator confirms or cancels it.
 */
export function useGroupSubmission() {
  const queryClient = useQueryClient()
  const showResult = useWorkspaces((state) => state.showResult)
  const confirm = useCustomerWrites((state) => state.confirm)
  const [awaitingConfirmation, setAwaitingConfirmation] = useState<Submission | null>(null)

  const record = (submission: Submission, outcome: GroupOutcome) =>
    showResult(submission.profile.id, { outcome, profileName: submission.profile.name, baseUrl: submission.profile.baseUrl })
  const send = useMutation({
    mutationFn: (submission: Submission): Promise<GroupCallResult> => {
      const profileId = submission.profile.id
      if (submission.operation === 'rotateToken') return call('groups.rotateToken', { profileId, source: submission.source })
      return call(submission.operation === 'getOrCreate' ? 'groups.getOrCreate' : 'groups.update', {
        profileId,
        request: submission.request,
      })
    },
    // The result panel says what happened and takes focus: no toast to cover it.
    onSuccess: (value, submission) =>
      record(submission, { kind: 'success', operation: submission.operation, result: value, call: sampleCallOf(submission) }),
    onError: (failure, submission) => {
      const error =
        failure instanceof CallError ? failure.error : { code: 'internal' as const, message: failure.message, details: undefined }
      record(submission, {
        kind: 'error',
        operation: submission.operation,
        code: error.code,
        message: error.message,
        details: error.details,
        call: sampleCallOf(submission),
      })
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.catalog.all })
      void queryClient.invalidateQueries({ queryKey: queryKeys.activity.all })
      // The profile may now carry the server's word on its environment.
      void queryClient.invalidateQueries({ queryKey: queryKeys.profiles })
    },
  })

  /** Every write goes through here: a production profile asks once per session first. */
  const submit = (submission: Submission) => {
    if (send.isPending) return
    const gate = writeGateOf(submission, useCustomerWrites.getState().confirmed)
    if (gate === 'ask') {
      setAwaitingConfirmation(submission)
      return
    }
    if (gate === 'confirm and send') confirm(submission.profile.id)
    send.mutate(submission)
  }

  return {
    submit,
    /** The call on its way, if one is: the forms wait for it. */
    pending: send.isPending ? send.variables : undefined,
    awaitingConfirmation,
    confirmAwaiting: () => {
      const submission = awaitingConfirmation
      setAwaitingConfirmation(null)
      if (!submission) return
      confirm(submission.profile.id)
      send.mutate(submission)
    },
    cancelAwaiting: () => setAwaitingConfirmation(null),
  }
}
