import { messageOf } from '../../src-shared/ipc/error-message'
import type { BulkJournal, JournalItem } from './bulk-journal'
import type { Lease } from './run-leases'
import { pausedUntilResumed, TAKEN_OVER } from './run-stops'

/** Pending rows read from the journal this many at a time, in file order. */
const FETCH_BATCH = 500
/**
 * Get-or-create and update rows are claimed this many at a time, in one commit, before they are
 * sent: after a crash they are known to have been tried (a group already there is the run's own),
 * at a commit per this many rows. Those a pause keeps from being sent are given back untried.
 */
const CLAIM_AHEAD = 32

/** What a worker gets when it asks for a row. */
export type NextRow =
  | { kind: 'row'; item: JournalItem }
  /** Every pending row was handed out. */
  | { kind: 'none' }
  /** The claim was refused (the lease was lost) or failed (the disk is full): the run must stop, for this reason. */
  | { kind: 'stop'; reason: string }

export interface RowClaimsOptions {
  journal: BulkJournal
  runId: string
}

/**
 * Hands the run's pending rows to its workers in file order. An idempotent row is handed out
 * claimed (fenced on the lease, `attempts` counted), a batch at a time; a rotation is handed out
 * unclaimed, since it is claimed on its own when it is journaled, just before it is sent.
 */
export class RowClaims {
  private lastSeq = -1
  private exhausted = false
  private queue: JournalItem[] = []
  /** Idempotent rows claimed and not yet handed out (see CLAIM_AHEAD). */
  private claimed: JournalItem[] = []

  constructor(private readonly options: RowClaimsOptions) {}

  next(lease: Lease): NextRow {
    const claimedItem = this.claimed.shift()
    if (claimedItem) return { kind: 'row', item: claimedItem }
    this.readAhead()
    if (!this.idempotentNext()) {
      const item = this.queue.shift()
      return item ? { kind: 'row', item } : { kind: 'none' }
    }
    const batch: JournalItem[] = []
    while (batch.length < CLAIM_AHEAD && this.idempotentNext()) batch.push(this.queue.shift()!)
    let held: boolean
    try {
      held = this.options.journal.claimRows(
        lease,
        batch.map((item) => ({ seq: item.seq, attempts: item.attempts + 1 })),
      )
    } catch (error) {
      // The disk is full, or the database busy for too long: nothing was claimed, nothing is sent.
      return { kind: 'stop', reason: pausedUntilResumed(messageOf(error)) }
    }
    if (!held) return { kind: 'stop', reason: TAKEN_OVER }
    this.claimed = batch
    return { kind: 'row', item: this.claimed.shift()! }
  }

  /** Rows claimed ahead that no worker took (the run is stopping): pending again, as untried as they were. */
  giveBack(lease: Lease): void {
    for (const item of this.claimed.splice(0)) this.options.journal.unclaimRow(lease, item.seq, item.attempts)
  }

  /** A resumed run reads the journal again from its first pending row. */
  rewind(): void {
    this.queue = []
    this.exhausted = false
    this.lastSeq = -1
  }

  private readAhead(): void {
    if (this.queue.length > 0 || this.exhausted) return
    this.queue = this.options.journal.pending(this.options.runId, this.lastSeq, FETCH_BATCH)
    if (this.queue.length < FETCH_BATCH) this.exhausted = true
    if (this.queue.length) this.lastSeq = this.queue.at(-1)!.seq
  }

  /** A rotation is claimed on its own, when it is journaled; the others a few at a time. */
  private idempotentNext(): boolean {
    return this.queue.length > 0 && this.queue[0]!.action !== 'rotate'
  }
}
