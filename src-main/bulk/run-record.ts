import type { BulkCounts, BulkProgress, BulkRunState, BulkTallies } from '../../src-shared/bulk/schemas'
import type { BulkJournal, ItemSettlement, JournalItem } from './bulk-journal'
import type { Lease } from './run-leases'

const PROGRESS_EVERY_MS = 250
const RATE_WINDOW_MS = 10_000

export interface RunRecordOptions {
  journal: BulkJournal
  runId: string
  now: () => number
}

/** What the progress shows beside the counts: the run's state, and the pace's wait. */
export interface ProgressView {
  state: BulkRunState
  pausedReason: string | null
  /** When the server let requests go again (a 429's Retry-After), if it is still ahead. */
  waitingUntil: number | null
}

/**
 * The run's counts, kept in memory beside the journal: every row's end is written through
 * `settle`, so the progress moves with what the journal holds without reading it back after
 * each row. Read from the journal again where another writer may have moved it (a resume, the
 * lost rotations checked at the end).
 */
export class RunRecord {
  private counts: BulkTallies
  private readonly planned: BulkCounts
  private total: number
  private retried = 0
  /** Rows a cancel skipped: never sent, so never counted as done. */
  private cancelledRows = 0
  /** When each of the last rows ended, for the rate over RATE_WINDOW_MS. */
  private readonly finishedAt: number[] = []

  constructor(private readonly options: RunRecordOptions) {
    this.counts = options.journal.tallies(options.runId)
    this.planned = options.journal.planned(options.runId)
    this.total = this.rowsToSend()
  }

  get tallies(): Readonly<BulkTallies> {
    return this.counts
  }

  /** A row's end, journaled (fenced on `fence` when given: settled only while the lease holds) and counted. */
  settle(item: JournalItem, settlement: ItemSettlement, fence?: Lease): void {
    this.options.journal.settle(this.options.runId, item.seq, settlement, fence)
    this.counts[settlement.outcome ?? 'failed'] += 1
    this.counts.pending -= 1
    this.finishedAt.push(this.options.now())
  }

  countRetry(): void {
    this.retried += 1
  }

  /** A cancel: every row not sent is skipped, in the journal and in the counts. */
  skipRest(): void {
    this.options.journal.skipPending(this.options.runId)
    this.cancelledRows = this.counts.pending
    this.counts.skipped += this.counts.pending
    this.counts.pending = 0
  }

  /** The counts as the journal has them now. */
  refresh(): void {
    this.counts = this.options.journal.tallies(this.options.runId)
  }

  /** A resume: the counts as the journal has them, and the rows to send counted again. */
  restart(): void {
    this.refresh()
    this.total = this.rowsToSend()
  }

  progress(view: ProgressView): BulkProgress {
    const { counts, total } = this
    const cutoff = this.options.now() - RATE_WINDOW_MS
    while (this.finishedAt.length && this.finishedAt[0]! < cutoff) this.finishedAt.shift()
    const ratePerMinute = (this.finishedAt.length * 60_000) / RATE_WINDOW_MS
    return {
      runId: this.options.runId,
      state: view.state,
      total,
      done: total - counts.pending - this.cancelledRows,
      failed: counts.failed,
      unknown: counts.unknown,
      retried: this.retried,
      ratePerMinute: Math.round(ratePerMinute),
      etaSeconds: ratePerMinute > 0 && view.state === 'running' ? Math.round((counts.pending / ratePerMinute) * 60) : null,
      waitingUntil: view.waitingUntil ? new Date(view.waitingUntil).toISOString() : null,
      pausedReason: view.pausedReason,
    }
  }

  /** The rows this run sends: not the unchanged ones, nor those the operator chose not to send. */
  private rowsToSend(): number {
    return this.planned.total - this.planned.unchanged - this.counts.skipped
  }
}

export interface ProgressEventsOptions {
  onProgress?: (progress: BulkProgress) => void
  now: () => number
  progress: () => BulkProgress
}

/** The progress events of a run: at most one every PROGRESS_EVERY_MS as rows end, and one at each change of state. */
export function progressEvents({ onProgress, now, progress }: ProgressEventsOptions) {
  let lastAt = 0
  const emit = () => {
    lastAt = now()
    onProgress!(progress())
  }
  return {
    /** A row ended, or a wait did: an event unless one went out in the last PROGRESS_EVERY_MS. */
    emitIfDue(): void {
      if (onProgress && now() - lastAt >= PROGRESS_EVERY_MS) emit()
    },
    /** The run started, stopped or went on: always an event. */
    emit(): void {
      if (onProgress) emit()
    },
  }
}
