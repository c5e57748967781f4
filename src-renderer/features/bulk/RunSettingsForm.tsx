import { type BulkKind, MAX_BULK_CONCURRENCY } from '../../../src-shared/bulk/schemas'
import type { BulkPlan } from '../../../src-shared/ipc/bulk-calls'
import { countFormat } from '../../lib/count-format'
import { PlannedRows } from './PlannedRows'
import { rateProblem, type RunChoices, startBlocker } from './run-choices'

interface RunSettingsFormProps {
  /** The planned run: every problem of the file fixed or left out. */
  runId: string
  plan: BulkPlan
  kind: BulkKind
  fileName: string | undefined
  choices: RunChoices
  onChoose(choices: Partial<RunChoices>): void
  planning: boolean
  toSend: number
  /** The run writes to production: its Start button says so. */
  production: boolean
  /** The local sandbox, which takes any pace. */
  sandbox: boolean
  starting: boolean
  /** Start pressed with nothing blocking it. */
  onStart(): void
}

/** The plan's counts and rows, what to send and how fast, and Start (or why it cannot start). */
export function RunSettingsForm({
  runId,
  plan,
  kind,
  fileName,
  choices,
  onChoose,
  planning,
  toSend,
  production,
  sandbox,
  starting,
  onStart,
}: RunSettingsFormProps) {
  const blocked = startBlocker({ planning, rate: choices.rate, plan, toSend })
  return (
    <form
      className="stack"
      aria-label="Run settings"
      onSubmit={(event) => {
        event.preventDefault()
        if (!blocked) onStart()
      }}
    >
      <PlanSummary plan={plan} kind={kind} fileName={fileName} />
      <PlannedRows runId={runId} planned={plan.planned} />
      {kind === 'apply' ? (
        <fieldset className="choice">
          <legend>What to send</legend>
          <label>
            <input type="checkbox" checked={choices.sendCreate} onChange={(event) => onChoose({ sendCreate: event.target.checked })} /> Get
            or create the {countFormat.format(plan.planned.create)} new ids
          </label>
          <label>
            <input type="checkbox" checked={choices.sendUpdate} onChange={(event) => onChoose({ sendUpdate: event.target.checked })} />{' '}
            Update the {countFormat.format(plan.planned.update)} changed groups
          </label>
        </fieldset>
      ) : null}
      <div className="row">
        {kind === 'apply' ? (
          <label className="inline-field">
            Requests at once
            <input
              type="number"
              min={1}
              max={MAX_BULK_CONCURRENCY}
              value={choices.concurrency}
              onChange={(event) => onChoose({ concurrency: Math.min(MAX_BULK_CONCURRENCY, Math.max(1, Number(event.target.value) || 1)) })}
            />
          </label>
        ) : null}
        <label className="inline-field">
          Requests a minute
          <input
            type="number"
            min={1}
            placeholder="No limit"
            value={choices.rate}
            aria-invalid={rateProblem(choices.rate) ? true : undefined}
            onChange={(event) => onChoose({ rate: event.target.value })}
          />
        </label>
        <span className="muted">
          {sandbox ? 'The local sandbox takes any pace.' : 'A real API limits requests: 120 a minute unless you know its limit.'}
        </span>
      </div>
      <label>
        <input type="checkbox" checked={choices.bail} onChange={(event) => onChoose({ bail: event.target.checked })} /> Stop at the first
        failure <span className="muted">(the run always pauses itself when the server stops answering)</span>
      </label>
      <div className="row">
        <button
          type="submit"
          className={kind === 'rotate' ? 'btn btn--danger' : production ? 'btn btn--production' : 'btn btn--primary'}
          disabled={Boolean(blocked) || starting}
          aria-describedby="bulk-start-reason"
        >
          {kind === 'rotate' ? `Rotate ${countFormat.format(toSend)} tokens` : `Send ${countFormat.format(toSend)} rows`}
        </button>
        <span id="bulk-start-reason" className={blocked ? 'submit-reason' : 'muted'}>
          {blocked ??
            (kind === 'rotate'
              ? 'Each old token stops working at once; a rotation is never sent twice.'
              : 'Pause or cancel at any time; the rows in flight finish.')}
        </span>
      </div>
    </form>
  )
}

/** What the plan will do, in one sentence read out as it changes. */
function PlanSummary({ plan, kind, fileName }: { plan: BulkPlan; kind: BulkKind; fileName: string | undefined }) {
  return (
    <p role="status">
      Plan for {fileName}:{' '}
      {kind === 'rotate' ? (
        <strong>rotate {countFormat.format(plan.planned.rotate)} tokens, one at a time</strong>
      ) : (
        <>
          <strong>{countFormat.format(plan.planned.create)}</strong> new, <strong>{countFormat.format(plan.planned.update)}</strong>{' '}
          changed, <strong>{countFormat.format(plan.planned.unchanged)}</strong> unchanged (not sent).
        </>
      )}
    </p>
  )
}
