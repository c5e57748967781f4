import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef } from 'react'
import { defaultRateFor } from '../../../src-shared/bulk/schemas'
import { call, useMainEvent } from '../../lib/api'
import { countFormat } from '../../lib/count-format'
import { useActiveProfile } from '../../lib/profiles'
import { queryKeys } from '../../lib/query-keys'
import { EmptyState } from '../../ui/EmptyState'
import { useBulkScreen } from './bulk-state'
import { NewRunPanel } from './NewRunPanel'
import { RunPanel } from './RunPanel'

const STATE_LABELS = {
  planned: 'Planned',
  running: 'Running',
  paused: 'Paused',
  interrupted: 'Interrupted',
  cancelled: 'Cancelled',
  finished: 'Finished',
} as const

export default function BulkScreen() {
  const { active, isLoading } = useActiveProfile()
  const queryClient = useQueryClient()
  const { runId, open, took } = useBulkScreen()
  const lastRefresh = useRef(0)
  const runs = useQuery({ queryKey: queryKeys.bulk.runs, queryFn: () => call('bulk.runs', { limit: 50 }) })

  // Progress arrives a few times a second; the run and its rows are read again at most once a second.
  useMainEvent('bulk.progress', (progress) => {
    took(progress)
    if (progress.state !== 'running' || Date.now() - lastRefresh.current > 1000) {
      lastRefresh.current = Date.now()
      void queryClient.invalidateQueries({ queryKey: queryKeys.bulk.all })
    }
  })

  if (isLoading) return <p className="loading">Loading profiles…</p>
  if (!active) {
    return (
      <EmptyState title="No connection profile is active">
        A bulk run goes through the active profile. Choose or create one on the Profiles screen (Ctrl+2).
      </EmptyState>
    )
  }
  const history = runs.data?.runs ?? []
  const waiting = history.filter((run) => run.state === 'interrupted')
  // The rate a minute this profile was last run at, else none for the local sandbox and 120 elsewhere.
  const lastRun = history.find((run) => run.profileId === active.id)
  const initialRate = lastRun ? lastRun.ratePerMinute : defaultRateFor(Boolean(active.builtin))

  return (
    <div className="stack">
      {waiting.length > 0 && !runId ? (
        <p className="callout callout--warning" role="alert">
          {waiting.length === 1 ? `The run of ${waiting[0]!.fileName} was interrupted` : `${waiting.length} runs were interrupted`} when
          Embed Console stopped.{' '}
          <button type="button" className="btn btn--small" onClick={() => open(waiting[0]!.id)}>
            Open {waiting.length === 1 ? 'it' : 'the newest'}
          </button>
        </p>
      ) : null}
      {runId ? (
        <>
          <div className="row">
            <button type="button" className="btn" onClick={() => open(null)}>
              New run
            </button>
          </div>
          <RunPanel key={runId} runId={runId} />
        </>
      ) : runs.isPending ? (
        <p className="loading">Loading runs…</p>
      ) : (
        <NewRunPanel key={active.id} initialRate={initialRate} />
      )}
      <section className="stack" aria-labelledby="bulk-history-title">
        <h2 id="bulk-history-title" className="card__title">
          Runs
        </h2>
        {history.length === 0 ? (
          <p className="muted">No runs yet. A run’s every row is kept here, with its outcome, until you start another.</p>
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="Bulk runs">
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">Through</th>
                  <th scope="col">State</th>
                  <th scope="col" className="numeric">
                    Rows
                  </th>
                  <th scope="col" className="numeric">
                    Failed
                  </th>
                  <th scope="col">Started</th>
                </tr>
              </thead>
              <tbody>
                {history.map((run) => (
                  <tr key={run.id} aria-current={run.id === runId ? 'true' : undefined}>
                    <td>
                      <button type="button" className="link-button" onClick={() => open(run.id)}>
                        {run.fileName}
                      </button>
                    </td>
                    <td>{run.profileName ?? run.baseUrl}</td>
                    <td>
                      <span
                        className={`badge badge--${run.state === 'finished' ? 'success' : run.state === 'interrupted' || run.state === 'paused' ? 'warning' : 'accent'}`}
                      >
                        {STATE_LABELS[run.state]}
                      </span>
                    </td>
                    <td className="numeric">{countFormat.format(run.planned.total)}</td>
                    <td className="numeric">{countFormat.format(run.tallies.failed + run.tallies.unknown)}</td>
                    <td className="nowrap">{new Date(run.createdAt).toLocaleString()}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  )
}
