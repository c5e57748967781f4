import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { call } from '../../lib/api'
import { sendButtonClass, useProfiles } from '../../lib/profiles'
import { queryKeys } from '../../lib/query-keys'
import { useBulkScreen } from './bulk-state'
import { ResultsFile, useResultsFile } from './ResultsFile'
import { runProgress } from './run-progress'
import { CancelRunDialog, RunControls, useRunControl } from './RunControls'
import { RunRows, useRunRows } from './RunRows'
import { RunHeading, RunProgressBar, RunStatus } from './RunStatus'
import { RunTallies } from './RunTallies'

/** One run: its progress and controls while it goes, its rows, and its results once done. */
export function RunPanel({ runId }: { runId: string }) {
  const profiles = useProfiles()
  const pushed = useBulkScreen((state) => state.progress[runId])
  const run = useQuery({ queryKey: queryKeys.bulk.run(runId), queryFn: () => call('bulk.run', { runId }) })
  // The parts' state lives here, above the loading and error answers: the rows are read alongside
  // the run, and a filter or a typed path outlives a failed read or a results section hidden while
  // the run goes again.
  const rows = useRunRows({ runId, done: pushed?.done ?? 0 })
  const [asking, setAsking] = useState(false)
  const control = useRunControl(runId, run.data?.run)
  const results = useResultsFile(runId)

  if (run.isPending) return <p className="loading">Loading the run…</p>
  if (run.isError)
    return (
      <p role="alert" className="error-text">
        The run could not be read: {run.error.message}
      </p>
    )
  const current = run.data.run
  const sendClass = sendButtonClass(profiles.data?.profiles.find((profile) => profile.id === current.profileId))
  const sentHere = Boolean(run.data.progress)
  const progress = runProgress({ run: current, snapshot: run.data.progress, pushed })
  const { state } = progress

  return (
    <section className="card stack" aria-labelledby="bulk-run-title">
      <RunHeading run={current} />
      <RunStatus run={current} progress={progress} sentHere={sentHere} />
      <RunProgressBar progress={progress} failed={current.tallies.failed} />
      <RunControls
        state={state}
        sentHere={sentHere}
        canStart={Boolean(current.profileId)}
        sendClass={sendClass}
        onControl={(action) => control.mutate(action)}
        onAskCancel={() => setAsking(true)}
      />
      <RunTallies tallies={current.tallies} />
      <RunRows rows={rows} />
      {state === 'finished' || state === 'cancelled' || state === 'paused' || state === 'interrupted' ? (
        <ResultsFile results={results} canSaveWithTokens={Boolean(current.profileId)} />
      ) : null}
      <CancelRunDialog
        open={asking}
        pending={current.tallies.pending}
        onKeep={() => setAsking(false)}
        onCancelRun={() => {
          setAsking(false)
          control.mutate('cancel')
        }}
      />
    </section>
  )
}
