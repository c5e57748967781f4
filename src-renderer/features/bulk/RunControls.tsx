import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { BulkRun, BulkRunState } from '../../../src-shared/bulk/schemas'
import { call } from '../../lib/api'
import { countFormat } from '../../lib/count-format'
import { queryKeys } from '../../lib/query-keys'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import { toast } from '../../ui/toasts'

type RunAction = 'pause' | 'resume' | 'cancel' | 'start'

/**
 * Pause, resume, cancel, or start the run here. Start (a planned run, or one this process does not
 * hold) sends the settings the run was planned with.
 */
export function useRunControl(runId: string, run: BulkRun | undefined) {
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.bulk.all })
  return useMutation({
    mutationFn: async (action: RunAction) => {
      if (action === 'start') {
        const { sendCreate, sendUpdate, concurrency, ratePerMinute, bail } = run!
        await call('bulk.start', { runId, settings: { sendCreate, sendUpdate, concurrency, ratePerMinute, bail } })
      } else await call(`bulk.${action}`, { runId })
    },
    onSettled: () => void refresh(),
    onError: (error) => toast.error(error.message),
  })
}

interface RunControlsProps {
  state: BulkRunState
  /** This process sends the run: it resumes it itself; otherwise Resume starts it here. */
  sentHere: boolean
  /** The run's profile still exists, so it can be sent. */
  canStart: boolean
  /** The send button's look for the run's profile (production or not). */
  sendClass: string
  onControl(action: RunAction): void
  onAskCancel(): void
}

/** The buttons the run's state allows. */
export function RunControls({ state, sentHere, canStart, sendClass, onControl, onAskCancel }: RunControlsProps) {
  return (
    <div className="row" role="toolbar" aria-label="Run controls">
      {state === 'running' ? (
        <button type="button" className="btn" onClick={() => onControl('pause')}>
          Pause
        </button>
      ) : null}
      {state === 'paused' && sentHere ? (
        <button type="button" className={sendClass} onClick={() => onControl('resume')}>
          Resume
        </button>
      ) : null}
      {(state === 'interrupted' || state === 'planned' || (state === 'paused' && !sentHere)) && canStart ? (
        <button type="button" className={sendClass} onClick={() => onControl('start')}>
          {state === 'planned' ? 'Start' : 'Resume'}
        </button>
      ) : null}
      {state !== 'finished' && state !== 'cancelled' ? (
        <button type="button" className="btn btn--ghost" onClick={onAskCancel}>
          Cancel run…
        </button>
      ) : null}
    </div>
  )
}

interface CancelRunDialogProps {
  open: boolean
  /** The rows not sent yet, which the cancel skips. */
  pending: number
  onKeep(): void
  onCancelRun(): void
}

/** Cancel asks first: a cancelled run cannot be resumed. */
export function CancelRunDialog({ open, pending, onKeep, onCancelRun }: CancelRunDialogProps) {
  return (
    <ConfirmDialog
      open={open}
      title="Cancel this run?"
      confirmLabel="Cancel run"
      cancelLabel="Keep the run"
      onCancel={onKeep}
      onConfirm={onCancelRun}
    >
      <p>
        The requests in flight finish; the {countFormat.format(pending)} rows not sent yet are skipped. A cancelled run cannot be resumed:
        plan the file again to send them.
      </p>
    </ConfirmDialog>
  )
}
