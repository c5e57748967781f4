import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { RotationSettlement } from '../../src-shared/activity/schemas'
import { call } from '../lib/api'
import { queryKeys } from '../lib/query-keys'

const clock = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' })

/** How a rotation of unknown outcome turned out, as a sentence. */
export function settlementSentence(outcome: RotationSettlement, at: string, tokenLast4?: string | null): string {
  const when = clock.format(new Date(at))
  return outcome === 'rotated'
    ? `The rotation happened (confirmed at ${when}): the server’s new token${tokenLast4 ? ` …${tokenLast4}` : ''} is kept.`
    : `The rotation did not happen (checked at ${when}): the old token still works.`
}

/**
 * "Check now" for a rotation whose answer was lost: main fetches the group and compares its token
 * with the one sent. The answer replaces the button, and every list showing the call or the
 * group is refreshed.
 */
export function RotationCheck({ activityId }: { activityId: string }) {
  const queryClient = useQueryClient()
  const check = useMutation({
    mutationFn: () => call('groups.checkRotation', { activityId }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.activity.all })
      void queryClient.invalidateQueries({ queryKey: queryKeys.catalog.all })
    },
  })
  if (check.isSuccess) {
    return (
      <p className={check.data.outcome === 'rotated' ? 'callout callout--warning' : 'callout'} role="status">
        {settlementSentence(check.data.outcome, check.data.checkedAt, check.data.tokenLast4)}
      </p>
    )
  }
  return (
    <div className="row">
      <button type="button" className="btn btn--primary" disabled={check.isPending} onClick={() => check.mutate()}>
        {check.isPending ? 'Checking…' : 'Check now'}
      </button>
      <span className="muted">Fetches the group and compares its token with the one sent: nothing is rotated again.</span>
      {check.isError ? (
        <p role="alert" className="error-text">
          {check.error.message}
        </p>
      ) : null}
    </div>
  )
}
