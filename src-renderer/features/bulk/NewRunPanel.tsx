import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type DragEvent, useId, useState } from 'react'
import { decodeInput, type InputEncoding } from '../../../src-shared/bulk/decode'
import { type BulkKind, DEFAULT_BULK_CONCURRENCY, MAX_BULK_CONCURRENCY, MAX_BULK_FILE_CHARACTERS } from '../../../src-shared/bulk/schemas'
import type { BulkPlan } from '../../../src-shared/ipc/bulk-calls'
import { writesToProduction } from '../../../src-shared/profiles/environment'
import { call } from '../../lib/api'
import { useCustomerWrites } from '../../lib/customer-writes'
import { countFormat } from '../../lib/format'
import { useActiveProfile } from '../../lib/profiles'
import { queryKeys } from '../../lib/query-keys'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import { toast } from '../../ui/toasts'
import { useBulkScreen } from './bulk-state'
import { PlannedRows } from './PlannedRows'

interface Chosen {
  fileName: string
  text: string
}

/**
 * Choose a file, see its plan (or its problems), choose what to send and how fast, start. Nothing
 * is sent before Start: the plan is the default, as a dry run is in the CLI. The rate starts at
 * the profile's last one (every run to a profile shares its pace).
 */
export function NewRunPanel({ initialRate }: { initialRate: number | null }) {
  const { active } = useActiveProfile()
  const queryClient = useQueryClient()
  const open = useBulkScreen((state) => state.open)
  const [kind, setKind] = useState<BulkKind>('apply')
  const [chosen, setChosen] = useState<Chosen | null>(null)
  const [plan, setPlan] = useState<BulkPlan | null>(null)
  const [dragging, setDragging] = useState(false)
  const [concurrency, setConcurrency] = useState(DEFAULT_BULK_CONCURRENCY)
  const [rate, setRate] = useState<string>(initialRate === null ? '' : String(initialRate))
  const [sendCreate, setSendCreate] = useState(true)
  const [sendUpdate, setSendUpdate] = useState(true)
  const [bail, setBail] = useState(false)
  const [notText, setNotText] = useState<{ file: File; message: string } | null>(null)
  const fileInputId = useId()
  const [asking, setAsking] = useState(false)
  const confirmCustomer = useCustomerWrites((state) => state.confirm)

  const settings = () => ({
    concurrency: kind === 'rotate' ? 1 : concurrency,
    ratePerMinute: rate.trim() ? Number(rate) : null,
    sendCreate,
    sendUpdate,
    bail,
  })

  const planner = useMutation({
    mutationFn: ({ file, excludeInvalid }: { file: Chosen; excludeInvalid: boolean }) =>
      call('bulk.plan', { kind, profileId: active!.id, fileName: file.fileName, text: file.text, excludeInvalid, settings: settings() }),
    onSuccess: (answer) => {
      setPlan(answer)
      void queryClient.invalidateQueries({ queryKey: queryKeys.bulk.runs })
    },
    onError: (error) => toast.error(error.message),
  })
  const starter = useMutation({
    mutationFn: (runId: string) => call('bulk.start', { runId, settings: settings() }),
    onSuccess: (run) => {
      toast.success(`Started: ${countFormat.format(run.planned.total - run.planned.unchanged)} rows of ${run.fileName}.`)
      open(run.id)
      setChosen(null)
      setPlan(null)
      void queryClient.invalidateQueries({ queryKey: queryKeys.bulk.all })
    },
    onError: (error) => toast.error(error.message),
  })

  const take = async (file: File | undefined, encoding: InputEncoding = 'utf-8') => {
    if (!file) return
    if (file.size > MAX_BULK_FILE_CHARACTERS * 4) return toast.error(`${file.name} is too large for one run: split it.`)
    const decoded = decodeInput(new Uint8Array(await file.arrayBuffer()), file.name, encoding)
    setPlan(null)
    if (!decoded.ok) {
      // Never planned with U+FFFD in place of each accented letter: the operator chooses.
      setNotText({ file, message: decoded.message })
      setChosen(null)
      return
    }
    setNotText(null)
    const next = { fileName: file.name, text: decoded.text }
    setChosen(next)
    planner.mutate({ file: next, excludeInvalid: false })
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault()
    setDragging(false)
    void take(event.dataTransfer.files[0])
  }

  if (!active) return null
  // A Customer profile, or one marked Testing whose server put its groups in Customer.
  const customer = writesToProduction(active) && !active.builtin
  const rateProblem =
    rate.trim() && !(Number.isInteger(Number(rate)) && Number(rate) >= 1)
      ? 'A whole number of requests a minute, or empty for no limit.'
      : null
  const toSend = plan
    ? kind === 'rotate'
      ? plan.planned.rotate
      : (sendCreate ? plan.planned.create : 0) + (sendUpdate ? plan.planned.update : 0)
    : 0
  const blocked = planner.isPending ? 'Planning…' : (rateProblem ?? (plan && toSend === 0 ? 'Nothing to send: choose what to send.' : null))

  return (
    <section
      className={`card stack bulk-new${dragging ? ' bulk-new--dragging' : ''}`}
      aria-labelledby="bulk-new-title"
      onDragOver={(event) => (event.preventDefault(), setDragging(true))}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h2 id="bulk-new-title" className="card__title">
        New run through “{active.name}”
      </h2>
      <fieldset className="choice">
        <legend>What the file does</legend>
        <label>
          <input
            type="radio"
            name="bulk-kind"
            checked={kind === 'apply'}
            onChange={() => (setKind('apply'), setPlan(null), setChosen(null))}
          />{' '}
          Get or create, and update groups
        </label>
        <label>
          <input
            type="radio"
            name="bulk-kind"
            checked={kind === 'rotate'}
            onChange={() => (setKind('rotate'), setPlan(null), setChosen(null))}
          />{' '}
          Rotate the tokens of listed groups
        </label>
      </fieldset>
      <div className="row">
        <label htmlFor={fileInputId} className="btn">
          Choose a file…
        </label>
        <input
          id={fileInputId}
          className="visually-hidden"
          type="file"
          accept=".csv,.tsv,.json,.jsonl,.ndjson,.txt"
          aria-label="File of groups"
          onChange={(event) => void take(event.target.files?.[0]).finally(() => (event.target.value = ''))}
        />
        <span className="muted">
          {chosen
            ? chosen.fileName
            : kind === 'rotate'
              ? 'A CSV with a user_group_id column, or JSON: the groups to rotate. Or drop a file here.'
              : 'CSV (user_group_id, name, mapping, properties), a JSON array or JSON Lines; up to 100,000 rows. Or drop a file here.'}
        </span>
      </div>
      {notText ? (
        <div className="callout callout--warning stack" role="alert">
          <span>{notText.message}</span>
          <div className="row">
            <button type="button" className="btn btn--small" onClick={() => void take(notText.file, 'windows-1252')}>
              Read as Windows-1252
            </button>
          </div>
        </div>
      ) : null}
      {planner.isPending ? (
        <p className="muted" role="status">
          Checking every row of {chosen?.fileName}…
        </p>
      ) : null}
      {plan && plan.problemCount > 0 ? (
        <div className="stack" role="region" aria-label="Problems in the file">
          <p className="callout callout--warning" role="alert">
            {chosen?.fileName} has {countFormat.format(plan.problemCount)} {plan.problemCount === 1 ? 'problem' : 'problems'}
            {plan.runId
              ? `, left out: ${countFormat.format(plan.planned.total)} valid rows are planned.`
              : `. Nothing is sent until ${plan.problemCount === 1 ? 'it is' : 'they are'} fixed in the file, or left out.`}
          </p>
          <div className="table-wrap bulk-problems" tabIndex={0} role="region" aria-label="Problems, scrollable">
            <table className="table" aria-label="Problems">
              <thead>
                <tr>
                  <th scope="col" className="numeric">
                    Line
                  </th>
                  <th scope="col">Column</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                {plan.problems.map((problem, index) => (
                  <tr key={index}>
                    <td className="numeric">{problem.line}</td>
                    <td>{problem.column ? <code>{problem.column}</code> : '—'}</td>
                    <td>{problem.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {plan.problemCount > plan.problems.length ? <p className="muted">The first {plan.problems.length} are shown.</p> : null}
          {!plan.runId ? (
            <div className="row">
              <button
                type="button"
                className="btn"
                disabled={plan.planned.total === 0 || planner.isPending}
                onClick={() => chosen && planner.mutate({ file: chosen, excludeInvalid: true })}
              >
                Leave the {countFormat.format(plan.problemCount)} out and plan the {countFormat.format(plan.planned.total)} valid rows
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
      {plan?.runId ? (
        <form
          className="stack"
          aria-label="Run settings"
          onSubmit={(event) => {
            event.preventDefault()
            if (blocked) return
            // Many writes at once to production: a Customer profile asks every time, not once a session.
            if (customer) setAsking(true)
            else starter.mutate(plan.runId!)
          }}
        >
          <p role="status">
            Plan for {chosen?.fileName}:{' '}
            {kind === 'rotate' ? (
              <strong>rotate {countFormat.format(plan.planned.rotate)} tokens, one at a time</strong>
            ) : (
              <>
                <strong>{countFormat.format(plan.planned.create)}</strong> new, <strong>{countFormat.format(plan.planned.update)}</strong>{' '}
                changed, <strong>{countFormat.format(plan.planned.unchanged)}</strong> unchanged (not sent).
              </>
            )}
          </p>
          <PlannedRows runId={plan.runId} planned={plan.planned} />
          {kind === 'apply' ? (
            <fieldset className="choice">
              <legend>What to send</legend>
              <label>
                <input type="checkbox" checked={sendCreate} onChange={(event) => setSendCreate(event.target.checked)} /> Get or create the{' '}
                {countFormat.format(plan.planned.create)} new ids
              </label>
              <label>
                <input type="checkbox" checked={sendUpdate} onChange={(event) => setSendUpdate(event.target.checked)} /> Update the{' '}
                {countFormat.format(plan.planned.update)} changed groups
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
                  value={concurrency}
                  onChange={(event) => setConcurrency(Math.min(MAX_BULK_CONCURRENCY, Math.max(1, Number(event.target.value) || 1)))}
                />
              </label>
            ) : null}
            <label className="inline-field">
              Requests a minute
              <input
                type="number"
                min={1}
                placeholder="No limit"
                value={rate}
                aria-invalid={rateProblem ? true : undefined}
                onChange={(event) => setRate(event.target.value)}
              />
            </label>
            <span className="muted">
              {active.builtin ? 'The local sandbox takes any pace.' : 'A real API limits requests: 120 a minute unless you know its limit.'}
            </span>
          </div>
          <label>
            <input type="checkbox" checked={bail} onChange={(event) => setBail(event.target.checked)} /> Stop at the first failure{' '}
            <span className="muted">(the run always pauses itself when the server stops answering)</span>
          </label>
          <div className="row">
            <button
              type="submit"
              className={kind === 'rotate' ? 'btn btn--danger' : customer ? 'btn btn--production' : 'btn btn--primary'}
              disabled={Boolean(blocked) || starter.isPending}
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
      ) : null}
      <ConfirmDialog
        open={asking}
        title={`Send ${countFormat.format(toSend)} rows to production?`}
        confirmLabel="Send to production"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false)
          confirmCustomer(active.id)
          if (plan?.runId) starter.mutate(plan.runId)
        }}
      >
        <p>
          “{active.name}”{' '}
          {active.environmentKind === 'customer'
            ? 'is a Customer (production) profile'
            : 'is marked Testing, but its server put its groups in Customer (production)'}
          :{' '}
          {kind === 'rotate'
            ? 'each rotated token stops working at once for the dashboards embedded with it.'
            : 'the groups change for the customers who use them.'}
        </p>
      </ConfirmDialog>
    </section>
  )
}
