import type { BulkProgress, BulkRun, BulkRunState } from '../../../src-shared/bulk/schemas'

/** Where a run stands, as its panel counts it. */
export interface RunProgress {
  /** The newest progress of a run sent by this process, or null. */
  live: BulkProgress | null
  state: BulkRunState
  /** The rows the run sends. */
  total: number
  /** The rows sent so far. */
  settled: number
}

interface RunProgressSources {
  run: BulkRun
  /** The progress read with the run: null unless this process is sending it. */
  snapshot: BulkProgress | null
  /** The progress main pushed last, if any since the screen opened. */
  pushed: BulkProgress | undefined
}

/**
 * What main pushed last is the newest word; the snapshot read with the run counts only until
 * then, and a run no process sends here is counted from its stored tallies.
 */
export function runProgress({ run, snapshot, pushed }: RunProgressSources): RunProgress {
  const live = pushed ?? snapshot
  const state = live?.state ?? run.state
  const { tallies, planned } = run
  const total =
    live?.total ?? planned.total - planned.unchanged - (run.sendCreate ? 0 : planned.create) - (run.sendUpdate ? 0 : planned.update)
  // Read back after the run (no live progress), a cancelled run counts the rows that were sent,
  // not those the cancel skipped (a row the sender itself skipped is counted with them).
  const settled =
    live?.done ??
    (state === 'cancelled'
      ? tallies.created + tallies.updated + tallies.unchanged - planned.unchanged + tallies.rotated + tallies.failed + tallies.unknown
      : total - tallies.pending)
  return { live, state, total, settled }
}
