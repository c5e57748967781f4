import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useDeferredValue, useState } from 'react'
import type { BulkOutcome, BulkResultsFormat, BulkRun } from '../../../src-shared/bulk/schemas'
import { plural } from '../../../src-shared/text/plural'
import { call, CallError } from '../../lib/api'
import { saveDownload } from '../../lib/download'
import { useFileDialogs } from '../../lib/file-dialogs'
import { countFormat } from '../../lib/format'
import { sendButtonClass, useProfiles } from '../../lib/profiles'
import { queryKeys } from '../../lib/query-keys'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import { toast } from '../../ui/toasts'
import { useBulkScreen } from './bulk-state'

const PAGE = 200

const OUTCOME_LABELS: Record<BulkOutcome, string> = {
  created: 'Created',
  updated: 'Updated',
  unchanged: 'Unchanged',
  rotated: 'Rotated',
  failed: 'Failed',
  unknown: 'Outcome unknown',
  skipped: 'Skipped',
}
const OUTCOME_TONES: Record<BulkOutcome, string> = {
  created: 'success',
  updated: 'success',
  unchanged: 'accent',
  rotated: 'success',
  failed: 'failure',
  unknown: 'unknown',
  skipped: 'warning',
}
const STATE_SENTENCES: Record<BulkRun['state'], string> = {
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

/** One run: its progress and controls while it goes, its rows, and its results once done. */
export function RunPanel({ runId }: { runId: string }) {
  const queryClient = useQueryClient()
  const profiles = useProfiles()
  const pushed = useBulkScreen((state) => state.progress[runId])
  const run = useQuery({ queryKey: queryKeys.bulk.run(runId), queryFn: () => call('bulk.run', { runId }) })
  const [outcome, setOutcome] = useState<BulkOutcome | ''>('')
  const [search, setSearch] = useState('')
  const deferredSearch = useDeferredValue(search)
  const [includeTokens, setIncludeTokens] = useState(false)
  const [path, setPath] = useState('')
  const [format, setFormat] = useState<BulkResultsFormat>('csv')
  const [asking, setAsking] = useState(false)

  const items = useInfiniteQuery({
    queryKey: queryKeys.bulk.items(runId, { outcome, search: deferredSearch, done: pushed?.done ?? 0 }),
    queryFn: ({ pageParam }) =>
      call('bulk.items', {
        runId,
        filter: { ...(outcome ? { outcome } : {}), ...(deferredSearch ? { search: deferredSearch } : {}) },
        offset: pageParam,
        limit: PAGE,
      }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (pages.length * PAGE < last.matching ? pages.length * PAGE : undefined),
    placeholderData: keepPreviousData,
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.bulk.all })
  const control = useMutation({
    mutationFn: async (action: 'pause' | 'resume' | 'cancel' | 'start') => {
      if (action === 'start') {
        const { sendCreate, sendUpdate, concurrency, ratePerMinute, bail } = run.data!.run
        await call('bulk.start', { runId, settings: { sendCreate, sendUpdate, concurrency, ratePerMinute, bail } })
      } else await call(`bulk.${action}`, { runId })
    },
    onSettled: () => void refresh(),
    onError: (error) => toast.error(error.message),
  })
  // The desktop app picks the file with the system's dialog; browser mode takes a typed path.
  const dialogs = useFileDialogs().data ?? false
  const saver = useMutation({
    mutationFn: (replaceToken: string | undefined) =>
      call('bulk.saveResults', {
        runId,
        format,
        includeTokens,
        target: dialogs ? { kind: 'dialog' } : { kind: 'path', path, ...(replaceToken ? { replaceToken } : {}) },
      }),
    onSuccess: (saved) => {
      if (saved)
        toast.success(
          `Saved ${countFormat.format(saved.rows)} rows to ${saved.path}${includeTokens ? ', owner-only: it holds group tokens.' : '.'}`,
        )
    },
    onError: (error) => {
      // Main asks "Replace it?" with a token for that file as it is: answering yes sends it back, once.
      const replaceToken =
        error instanceof CallError && error.code === 'conflict'
          ? (error.details as { replaceToken?: string } | undefined)?.replaceToken
          : undefined
      if (replaceToken) {
        if (window.confirm(error.message)) saver.mutate(replaceToken)
      } else toast.error(error.message)
    },
  })
  const downloader = useMutation({
    mutationFn: (as: BulkResultsFormat) => saveDownload('bulk-results', { runId, format: as }),
    onSuccess: (fileName) => toast.success(`Downloaded ${fileName}, without tokens.`),
    onError: (error) => toast.error(error.message),
  })

  if (run.isPending) return <p className="loading">Loading the run…</p>
  if (run.isError)
    return (
      <p role="alert" className="error-text">
        The run could not be read: {run.error.message}
      </p>
    )
  const current = run.data.run
  const sendClass = sendButtonClass(profiles.data?.profiles.find((profile) => profile.id === current.profileId))
  // What main pushed last is the newest word; the snapshot read with the run only until then.
  const live = pushed ?? run.data.progress
  const state = live?.state ?? current.state
  const { tallies, planned } = current
  const total =
    live?.total ?? planned.total - planned.unchanged - (current.sendCreate ? 0 : planned.create) - (current.sendUpdate ? 0 : planned.update)
  // Read back after the run (no live progress), a cancelled run counts the rows that were sent,
  // not those the cancel skipped (a row the sender itself skipped is counted with them).
  const settled =
    live?.done ??
    (state === 'cancelled'
      ? tallies.created + tallies.updated + tallies.unchanged - planned.unchanged + tallies.rotated + tallies.failed + tallies.unknown
      : total - tallies.pending)
  const rows = items.data?.pages.flatMap((page) => page.items) ?? []
  const matching = items.data?.pages[0]?.matching ?? 0
  const going = state === 'running'

  return (
    <section className="card stack" aria-labelledby="bulk-run-title">
      <div className="row bulk-run__head">
        <h2 id="bulk-run-title" className="card__title">
          {current.kind === 'rotate' ? 'Rotation' : 'Run'} of {current.fileName}
        </h2>
        <span className="muted">
          {current.profileName ?? current.baseUrl} · {new Date(current.createdAt).toLocaleString()}
        </span>
      </div>
      <p role="status" aria-live="polite">
        {STATE_SENTENCES[state]}
        {live?.waitingUntil ? ' The server asked to wait (429): sending again shortly.' : ''}
      </p>
      {state === 'paused' && (live?.pausedReason ?? current.pausedReason) ? (
        <p className="callout callout--warning" role="alert">
          {live?.pausedReason ?? current.pausedReason}
        </p>
      ) : null}
      {current.owner && !run.data.progress ? (
        <p className="callout" role="note">
          Being sent by {CLIENT_NAMES[current.owner.client]}, pid {current.owner.pid}, since{' '}
          {new Date(current.owner.since).toLocaleTimeString()}: pause it there to go on here.
        </p>
      ) : null}
      <div className="bulk-progress">
        <progress max={Math.max(1, total)} value={settled} aria-label="Rows sent" />
        <span className="bulk-progress__numbers">
          {countFormat.format(settled)} of {countFormat.format(total)} · {countFormat.format(live?.failed ?? tallies.failed)} failed
          {state === 'cancelled' && total > settled ? ` · ${countFormat.format(total - settled)} not sent` : ''}
          {live ? ` · ${countFormat.format(live.retried)} retried · ${countFormat.format(live.ratePerMinute)}/min` : ''}
          {live?.etaSeconds ? ` · about ${duration(live.etaSeconds)} left` : ''}
        </span>
      </div>
      <div className="row" role="toolbar" aria-label="Run controls">
        {going ? (
          <button type="button" className="btn" onClick={() => control.mutate('pause')}>
            Pause
          </button>
        ) : null}
        {state === 'paused' && run.data.progress ? (
          <button type="button" className={sendClass} onClick={() => control.mutate('resume')}>
            Resume
          </button>
        ) : null}
        {(state === 'interrupted' || state === 'planned' || (state === 'paused' && !run.data.progress)) && current.profileId ? (
          <button type="button" className={sendClass} onClick={() => control.mutate('start')}>
            {state === 'planned' ? 'Start' : 'Resume'}
          </button>
        ) : null}
        {state !== 'finished' && state !== 'cancelled' ? (
          <button type="button" className="btn btn--ghost" onClick={() => setAsking(true)}>
            Cancel run…
          </button>
        ) : null}
      </div>
      <dl className="bulk-tallies">
        {(['created', 'updated', 'unchanged', 'rotated', 'failed', 'unknown', 'skipped'] as const)
          .filter((key) => tallies[key] > 0 || key === 'failed')
          .map((key) => (
            <div key={key}>
              <dt>{OUTCOME_LABELS[key]}</dt>
              <dd>{countFormat.format(tallies[key])}</dd>
            </div>
          ))}
        <div>
          <dt>Not sent yet</dt>
          <dd>{countFormat.format(tallies.pending)}</dd>
        </div>
      </dl>
      {tallies.unknown > 0 ? (
        <p className="callout callout--warning" role="alert">
          {plural(tallies.unknown, 'rotation')} may or may not have happened: the answer was lost. They are never sent again on their own:
          Check now in Activity (or fetch the group) tells whether each happened, and keeps the server’s token.
        </p>
      ) : null}

      <div className="row">
        <label className="inline-field">
          Outcome
          <select value={outcome} onChange={(event) => setOutcome(event.target.value as BulkOutcome | '')}>
            <option value="">Any</option>
            {(Object.keys(OUTCOME_LABELS) as BulkOutcome[]).map((key) => (
              <option key={key} value={key}>
                {OUTCOME_LABELS[key]}
              </option>
            ))}
          </select>
        </label>
        <input
          type="search"
          aria-label="Search rows by id"
          placeholder="Search id"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <span className="muted">{countFormat.format(matching)} rows</span>
      </div>
      <div className="table-wrap bulk-rows" tabIndex={0} role="region" aria-label="Rows, scrollable">
        <table className="table" aria-label="Rows of the run">
          <thead>
            <tr>
              <th scope="col" className="numeric">
                Line
              </th>
              <th scope="col">user_group_id</th>
              <th scope="col">Plan</th>
              <th scope="col">Outcome</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((item) => (
              <tr key={item.seq}>
                <td className="numeric">{item.line}</td>
                <td className="bulk-rows__id">
                  <code>{item.groupId}</code>
                </td>
                <td>{item.action}</td>
                <td>
                  {item.outcome ? (
                    <span className={`badge badge--${OUTCOME_TONES[item.outcome]}`}>{OUTCOME_LABELS[item.outcome]}</span>
                  ) : (
                    <span className="muted">{item.state === 'sending' ? 'Sending' : 'Waiting'}</span>
                  )}
                </td>
                <td className="detail">
                  {item.message ?? (item.httpStatus ? `HTTP ${item.httpStatus}` : '')}
                  {item.attempts > 1 ? ` (${item.attempts} attempts)` : ''}
                  {item.tokenLast4 ? ` · token …${item.tokenLast4}` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {items.hasNextPage ? (
        <button type="button" className="btn" disabled={items.isFetchingNextPage} onClick={() => void items.fetchNextPage()}>
          Show {PAGE} more rows
        </button>
      ) : null}

      {state === 'finished' || state === 'cancelled' || state === 'paused' || state === 'interrupted' ? (
        <div className="stack bulk-results" role="region" aria-label="Results">
          <h3 className="bulk-results__title">Results file</h3>
          <div className="row">
            <button type="button" className="btn" disabled={downloader.isPending} onClick={() => downloader.mutate('csv')}>
              Download CSV
            </button>
            <button type="button" className="btn" disabled={downloader.isPending} onClick={() => downloader.mutate('json')}>
              Download JSON
            </button>
            <span className="muted">Every row’s line, id, outcome, status and message; no tokens.</span>
          </div>
          {current.profileId ? (
            <form
              className="row"
              aria-label="Save results with tokens"
              onSubmit={(event) => {
                event.preventDefault()
                if (dialogs || path.trim()) saver.mutate(undefined)
              }}
            >
              {dialogs ? null : (
                <label className="inline-field">
                  Save to
                  <input
                    type="text"
                    spellCheck={false}
                    placeholder="/home/you/results.csv"
                    value={path}
                    onChange={(event) => setPath(event.target.value)}
                  />
                </label>
              )}
              <select aria-label="Results format" value={format} onChange={(event) => setFormat(event.target.value as BulkResultsFormat)}>
                <option value="csv">CSV</option>
                <option value="json">JSON</option>
              </select>
              <label>
                <input type="checkbox" checked={includeTokens} onChange={(event) => setIncludeTokens(event.target.checked)} /> Include group
                tokens
              </label>
              <button type="submit" className="btn" disabled={(!dialogs && !path.trim()) || saver.isPending}>
                {dialogs ? 'Save…' : 'Save'}
              </button>
            </form>
          ) : null}
          {includeTokens ? (
            <p className="callout callout--warning" role="alert">
              This file will hold the group tokens in clear: anyone who reads it can open those dashboards. It is written owner-only (0600);
              keep it out of shared folders and version control.
            </p>
          ) : null}
        </div>
      ) : null}

      <ConfirmDialog
        open={asking}
        title="Cancel this run?"
        confirmLabel="Cancel run"
        cancelLabel="Keep the run"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false)
          control.mutate('cancel')
        }}
      >
        <p>
          The requests in flight finish; the {countFormat.format(tallies.pending)} rows not sent yet are skipped. A cancelled run cannot be
          resumed: plan the file again to send them.
        </p>
      </ConfirmDialog>
    </section>
  )
}
