import type { BulkRun, BulkRunState } from '../../../src-shared/bulk/schemas'
import { countFormat } from '../../lib/count-format'
import type { RunProgress } from './run-progress'

const STATE_SENTENCES: Record<BulkRunState, string> = {
  planned: 'Planned, not started.',
  running: 'Sending…',
  paused: 'Paused: the requests in flight finished; the rest wait.',
  interrupted: 'Interrupted: Embed Console stopped during this run. Resume it to send the rest; nothing is sent twice.',
  cancelled: 'Cancelled: the rows not sent were skipped.',
  finished: 'Finished.',
}

const CLIENT_NAMES = { app: 'the app', browser: 'browser mode', cli: 'the command line' } as const

const duration = (seconds: number) =>
  seconds < 90 ? `${seconds} s` : seconds < 5400 ? `${Math.round(seconds / 60)} min` : `${(seconds / 3600).toFixed(1)} h`

/** The run's file, kind, profile and when it was planned. */
export function RunHeading({ run }: { run: BulkRun }) {
  return (
    <div className="row bulk-run__head">
      <h2 id="bulk-run-title" className="card__title">
        {run.kind === 'rotate' ? 'Rotation' : 'Run'} of {run.fileName}
      </h2>
      <span className="muted">
        {run.profileName ?? run.baseUrl} · {new Date(run.createdAt).toLocaleString()}
      </span>
    </div>
  )
}

interface RunStatusProps {
  run: BulkRun
  progress: RunProgress
  /** This process sends the run (main read progress with it). */
  sentHere: boolean
}

/** The run's state in a sentence, why it paused itself, and which other process is sending it. */
export function RunStatus({ run, progress: { live, state }, sentHere }: RunStatusProps) {
  return (
    <>
      <p role="status" aria-live="polite">
        {STATE_SENTENCES[state]}
        {live?.waitingUntil ? ' The server asked to wait (429): sending again shortly.' : ''}
      </p>
      {state === 'paused' && (live?.pausedReason ?? run.pausedReason) ? (
        <p className="callout callout--warning" role="alert">
          {live?.pausedReason ?? run.pausedReason}
        </p>
      ) : null}
      {run.owner && !sentHere ? (
        <p className="callout" role="note">
          Being sent by {CLIENT_NAMES[run.owner.client]}, pid {run.owner.pid}, since {new Date(run.owner.since).toLocaleTimeString()}: pause
          it there to go on here.
        </p>
      ) : null}
    </>
  )
}

/** The rows sent of the rows to send, with failures, retries, pace and time left while it goes. */
export function RunProgressBar({ progress: { live, state, total, settled }, failed }: { progress: RunProgress; failed: number }) {
  return (
    <div className="bulk-progress">
      <progress max={Math.max(1, total)} value={settled} aria-label="Rows sent" />
      <span className="bulk-progress__numbers">
        {countFormat.format(settled)} of {countFormat.format(total)} · {countFormat.format(live?.failed ?? failed)} failed
        {state === 'cancelled' && total > settled ? ` · ${countFormat.format(total - settled)} not sent` : ''}
        {live ? ` · ${countFormat.format(live.retried)} retried · ${countFormat.format(live.ratePerMinute)}/min` : ''}
        {live?.etaSeconds ? ` · about ${duration(live.etaSeconds)} left` : ''}
      </span>
    </div>
  )
}
