import type { BulkProgress, BulkRunState, BulkSettings } from '../../src-shared/bulk/schemas'
import type { BulkJournal, ItemSettlement, JournalItem } from './bulk-journal'
import { defaultSleep, Pacer } from './bulk-pacer'
import { RowClaims } from './row-claims'
import { type BulkSender, type RowRunHooks, sendRow } from './row-sender'
import { type Lease, LEASE_RENEW_EVERY_MS } from './run-leases'
import {
  pausedReasonOf,
  RUNNING,
  type RunPhase,
  shownState,
  stopReasonOf,
  whenCancelled,
  whenDrained,
  whenPaused,
  whenStopped,
} from './run-phase'
import { progressEvents, RunRecord } from './run-record'
import { bailReason, ServerDownBreaker, TAKEN_OVER } from './run-stops'

// The runner's parts, named where the app and the tests have always imported them.

/** The run's lease, as the runner keeps it: taken at start and on resume, renewed, given back when it stops. */
export interface RunLease {
  /** Takes the lease (a new epoch) and re-reads the journal; throws a refusal naming the holder. */
  acquire(): Lease
  renew(lease: Lease): boolean
  release(lease: Lease): void
}

export interface RunnerOptions {
  journal: BulkJournal
  lease: RunLease
  runId: string
  sender: BulkSender
  settings: BulkSettings
  onProgress?: (progress: BulkProgress) => void
  /** The pace shared with other runs to the same server; a run of its own pace otherwise. */
  pacer?: Pacer
  /** For tests: time and randomness. */
  now?: () => number
  random?: () => number
  sleep?: (ms: number) => Promise<void>
}

export interface RunControl {
  /** Takes no new row; the rows in flight finish, then the run is `paused` (and its lease given back). */
  pause(): void
  /** Takes the lease again (throws a refusal when another process holds it) and goes on. */
  resume(): void
  /** Takes no new row; the rows in flight finish, the rest are skipped and the run is `cancelled`. */
  cancel(): void
  setRate(ratePerMinute: number | null): void
  progress(): BulkProgress
  /** Resolves the next time nothing is in flight: paused, cancelled or finished. */
  idle(): Promise<BulkRunState>
  /** Resolves when the run is finished or cancelled. */
  done: Promise<BulkRunState>
}

/**
 * Renews the run's lease every LEASE_RENEW_EVERY_MS while it sends; `lost` when a renewal is
 * refused (another process took the run over). Returns the way to stop renewing.
 */
function renewWhileSending({ renew, lost }: { renew: () => boolean; lost: () => void }): () => void {
  const renewal = setInterval(() => {
    if (!renew()) lost()
  }, LEASE_RENEW_EVERY_MS)
  renewal.unref?.()
  return () => clearInterval(renewal)
}

/**
 * Runs a planned bulk run: `concurrency` workers take the journal's pending rows in file order,
 * paced by the rate limit, each row claimed under the run's lease before it is sent. A 429 makes
 * every worker wait for its Retry-After (with backoff and jitter) and is never a failure;
 * get-or-create and update are sent again after a 5xx or a network failure, up to a limit; a
 * rotation is journaled before it is sent and never sent again. Requests that find the server
 * down five times in a row pause the run (the circuit breaker), as does a failed row under
 * `bail`; resuming goes on where it stopped. Pause and cancel let the requests in flight finish.
 *
 * The run's one state is `phase` (see run-phase.ts); its parts: RowClaims hands out the rows,
 * sendRow sends one to its end, RunRecord journals and counts each row's end, the Pacer paces,
 * ServerDownBreaker and bail stop the run, progressEvents reports it.
 */
export function startRun(options: RunnerOptions): RunControl {
  const { journal, runId, sender, settings } = options
  const now = options.now ?? Date.now
  const random = options.random ?? Math.random
  const sleep = options.sleep ?? defaultSleep
  const pacer = options.pacer ?? new Pacer(settings.ratePerMinute, now, sleep)
  pacer.setRate(settings.ratePerMinute)

  let lease = options.lease.acquire()
  const runRecord = new RunRecord({ journal, runId, now })
  let phase: RunPhase = RUNNING
  const claims = new RowClaims({ journal, runId })
  const breaker = new ServerDownBreaker()
  const idleWaiters: Array<(state: BulkRunState) => void> = []
  let resolveDone: (state: BulkRunState) => void = () => {}
  const done = new Promise<BulkRunState>((resolve) => (resolveDone = resolve))

  const progress = () =>
    runRecord.progress({ state: shownState(phase), pausedReason: pausedReasonOf(phase), waitingUntil: pacer.waitingUntil() })
  const events = progressEvents({ onProgress: options.onProgress, now, progress })

  /** The run stops taking rows, for a reason the operator is told; the first reason stands. */
  const stopFor = (reason: string) => {
    phase = whenStopped(phase, reason)
  }
  const keepLease = () => renewWhileSending({ renew: () => options.lease.renew(lease), lost: () => stopFor(TAKEN_OVER) })
  let stopRenewing = keepLease()

  const rowHooks: RowRunHooks = {
    stopReason: () => stopReasonOf(phase),
    stopFor,
    record(item: JournalItem, settlement: ItemSettlement, fence?: Lease) {
      runRecord.settle(item, settlement, fence)
      const bail = settings.bail ? bailReason(item, settlement) : null
      if (bail) stopFor(bail)
    },
    heardAnswer(error) {
      const tripped = breaker.heard(error)
      if (tripped) stopFor(tripped)
    },
    countRetry: () => runRecord.countRetry(),
    waited: () => events.emitIfDue(),
  }
  const rowOptions = { journal, runId, sender, pacer, sendUpdate: settings.sendUpdate, run: rowHooks, now, random, sleep }

  async function worker(): Promise<void> {
    for (;;) {
      if (phase.kind !== 'running') return
      const next = claims.next(lease)
      if (next.kind === 'stop') stopFor(next.reason)
      if (next.kind !== 'row') return
      await sendRow(next.item, { ...rowOptions, lease })
      events.emitIfDue()
    }
  }

  /**
   * Rotations whose answer was lost are settled before the run reports its end: a fetch of each
   * group tells whether it happened (another token) or not (the same). A failure leaves the row
   * unknown, for Check now later.
   */
  async function settleUnknowns(): Promise<void> {
    if (runRecord.tallies.unknown === 0) return
    for (const item of journal.items(runId, { action: 'rotate', state: 'unknown' }, 0, 10_000).items) {
      await sender.getOrCreate({ user_group_id: item.groupId }, () => {}).catch(() => undefined)
    }
    runRecord.refresh()
  }

  /** Runs the workers until they run dry or stop, then brings the run to rest. */
  async function drain(): Promise<void> {
    await Promise.all(Array.from({ length: settings.concurrency }, worker))
    claims.giveBack(lease)
    const stoppedItself = stopReasonOf(phase) !== null
    if (phase.kind === 'cancelling') runRecord.skipRest()
    const rest = whenDrained(phase, runRecord.tallies.pending)
    phase = rest
    if (rest.kind === 'finished' && !stoppedItself) await settleUnknowns()
    journal.setState(runId, rest.kind, rest.kind === 'paused' ? rest.reason : null)
    // Given back at once: a paused run may be resumed by another process (the CLI, another window).
    stopRenewing()
    options.lease.release(lease)
    events.emit()
    if (rest.kind !== 'paused') resolveDone(rest.kind)
    for (const waiter of idleWaiters.splice(0)) waiter(rest.kind)
  }

  void drain()
  events.emit()

  return {
    pause() {
      phase = whenPaused(phase)
    },
    resume() {
      if (phase.kind !== 'paused') return
      lease = options.lease.acquire()
      stopRenewing = keepLease()
      runRecord.restart()
      phase = RUNNING
      breaker.reset()
      claims.rewind()
      events.emit()
      void drain()
    },
    cancel() {
      const before = phase
      phase = whenCancelled(phase)
      // A paused run has nothing in flight: it ends at once.
      if (before.kind === 'paused') void drain()
    },
    setRate(ratePerMinute) {
      pacer.setRate(ratePerMinute)
    },
    progress,
    idle: () =>
      shownState(phase) === 'running' ? new Promise((resolve) => idleWaiters.push(resolve)) : Promise.resolve(shownState(phase)),
    done,
  }
}
