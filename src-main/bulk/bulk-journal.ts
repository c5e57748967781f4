import type {
  BulkAction,
  BulkCounts,
  BulkItem,
  BulkItemState,
  BulkKind,
  BulkOutcome,
  BulkRun,
  BulkRunOwner,
  BulkRunState,
  BulkSettings,
  BulkTallies,
} from '../../src-shared/bulk/schemas'
import type { GetOrCreateRequest } from '../../src-shared/user-api/schemas'
import type { Database, SqlValue } from '../storage/database'
import type { Redactor } from '../user-api/redact'
import type { PlannedRow } from './bulk-plan'
import { holderGone, type Lease } from './run-leases'

interface RunRecord {
  id: string
  kind: BulkKind
  profile_id: string | null
  base_url: string
  file_name: string
  input_sha256: string
  state: BulkRunState
  send_create: number
  send_update: number
  concurrency: number
  rate_per_minute: number | null
  bail: number
  lease_holder: string | null
  lease_expires_at: number | null
  lease_since: number | null
  lease_pid: number | null
  lease_host: string | null
  lease_client: BulkRunOwner['client'] | null
  lease_started: string | null
  paused_reason: string | null
  created_at: string
  updated_at: string
}

interface ItemRecord {
  seq: number
  line: number
  group_id: string
  request: string
  action: BulkAction
  state: BulkItemState
  outcome: BulkOutcome | null
  attempts: number
  http_status: number | null
  error_code: string | null
  message: string | null
  token_last4: string | null
}

/** A row to send, as the runner needs it. */
export interface JournalItem {
  seq: number
  line: number
  groupId: string
  request: GetOrCreateRequest
  action: BulkAction
  attempts: number
}

export interface ItemSettlement {
  state: BulkItemState
  outcome: BulkOutcome | null
  attempts: number
  httpStatus?: number | null
  errorCode?: string | null
  message?: string | null
  tokenLast4?: string | null
}

export interface NewRun {
  id: string
  kind: BulkKind
  profileId: string | null
  baseUrl: string
  fileName: string
  inputSha256: string
  settings: BulkSettings
}

export interface ItemFilter {
  action?: BulkAction
  state?: BulkItemState
  outcome?: BulkOutcome
  search?: string
}

const INSERT_BATCH = 10_000

/** A claim among several that another process's lease refused: none of them is kept. */
class LeaseLost extends Error {}

/** A rotation row in flight when its run's holder was replaced: it may have happened. */
export const ROTATION_IN_FLIGHT =
  'The run stopped while this rotation was being sent: the old token may already be invalid. It is never sent again on its own: the next fetch of the group (Check now in Activity) tells whether it happened.'

/** A run not yet sent or stopped part way: the states a second plan of the same file must respect. */
const UNFINISHED = "('planned', 'running', 'paused', 'interrupted')"

/**
 * The bulk runs and their journal in the app database: a row per input row, written as each one
 * is settled, so a run can be resumed after a crash, row by row, from where it stood.
 */
export class BulkJournal {
  /** `redact`: what every stored field of a run and its rows is cleared of (every secret the vault keeps). */
  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
    private readonly redact: Redactor = (value) => value,
  ) {}

  private stamp = () => this.now().toISOString()

  createRun(run: NewRun, planned: readonly PlannedRow[]): void {
    const at = this.stamp()
    this.db.transaction(() => {
      this.db.run(
        `INSERT INTO bulk_runs (id, kind, profile_id, base_url, file_name, input_sha256, state, send_create, send_update, concurrency, rate_per_minute, bail, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'planned', ?, ?, ?, ?, ?, ?, ?)`,
        run.id,
        run.kind,
        run.profileId,
        run.baseUrl,
        this.redact(run.fileName),
        run.inputSha256,
        Number(run.settings.sendCreate),
        Number(run.settings.sendUpdate),
        run.settings.concurrency,
        run.settings.ratePerMinute,
        Number(run.settings.bail),
        at,
        at,
      )
    })
    // In batches of their own: 100,000 rows never hold the write lock for long at once.
    // Stryker disable next-line EqualityOperator: a turn past the end writes an empty batch, which changes nothing.
    for (let start = 0; start < planned.length; start += INSERT_BATCH) {
      this.db.transaction(() => {
        planned.slice(start, start + INSERT_BATCH).forEach((row, offset) => {
          // Unchanged rows are settled at once: nothing will be sent for them.
          const unchanged = row.action === 'unchanged'
          // A row holding a secret is refused at planning (bulk-service.ts): cleared here, no row ever stores one.
          const request = this.redact(row.request)
          this.db.run(
            `INSERT INTO bulk_items (run_id, seq, line, group_id, request, action, state, outcome, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            run.id,
            start + offset,
            row.line,
            request.user_group_id,
            JSON.stringify(request),
            row.action,
            unchanged ? 'done' : 'pending',
            unchanged ? 'unchanged' : null,
            at,
          )
        })
      })
    }
  }

  // Stryker disable all: read-only views that shape rows for the screens and decide nothing (mutation testing, docs/testing.md).
  private record(id: string): RunRecord | undefined {
    // Every view of a run reads it through here or below: the settlements waiting for their batch first.
    this.db.flush()
    return this.db.get<RunRecord>('SELECT * FROM bulk_runs WHERE id = ?', id)
  }

  run(id: string, profileName: (profileId: string) => string | null = () => null): BulkRun | undefined {
    const record = this.record(id)
    return record ? this.view(record, profileName) : undefined
  }

  private view(record: RunRecord, profileName: (profileId: string) => string | null): BulkRun {
    return {
      id: record.id,
      kind: record.kind,
      profileId: record.profile_id,
      profileName: record.profile_id ? profileName(record.profile_id) : null,
      baseUrl: record.base_url,
      fileName: record.file_name,
      state: record.state,
      sendCreate: record.send_create === 1,
      sendUpdate: record.send_update === 1,
      concurrency: record.concurrency,
      ratePerMinute: record.rate_per_minute,
      bail: record.bail === 1,
      planned: this.planned(record.id),
      tallies: this.tallies(record.id),
      pausedReason: record.state === 'paused' ? record.paused_reason : null,
      owner: this.ownerOf(record),
      createdAt: record.created_at,
      updatedAt: record.updated_at,
    }
  }

  /** The process sending the run now: the holder of a lease that has not expired. */
  private ownerOf(record: RunRecord): BulkRunOwner | null {
    if (!record.lease_holder || (record.lease_expires_at ?? 0) <= this.now().getTime()) return null
    if (holderGone({ pid: record.lease_pid ?? 0, host: record.lease_host ?? '', started: record.lease_started ?? undefined })) return null
    return {
      client: record.lease_client ?? 'cli',
      pid: record.lease_pid ?? 0,
      host: record.lease_host ?? '',
      since: new Date(record.lease_since ?? 0).toISOString(),
    }
  }

  planned(id: string): BulkCounts {
    this.db.flush()
    const counts: BulkCounts = { total: 0, create: 0, update: 0, unchanged: 0, rotate: 0 }
    for (const { action, n } of this.db.all<{ action: BulkAction; n: number }>(
      'SELECT action, count(*) AS n FROM bulk_items WHERE run_id = ? GROUP BY action',
      id,
    )) {
      counts[action] = n
      counts.total += n
    }
    return counts
  }

  tallies(id: string): BulkTallies {
    this.db.flush()
    const tallies: BulkTallies = { created: 0, updated: 0, unchanged: 0, rotated: 0, failed: 0, unknown: 0, skipped: 0, pending: 0 }
    const rows = this.db.all<{ outcome: BulkOutcome | null; n: number }>(
      'SELECT outcome, count(*) AS n FROM bulk_items WHERE run_id = ? GROUP BY outcome',
      id,
    )
    for (const { outcome, n } of rows) tallies[outcome ?? 'pending'] += n
    return tallies
  }

  /** The newest runs first; runs a process left behind are marked interrupted on the way. */
  runs(limit: number, profileName: (profileId: string) => string | null = () => null): BulkRun[] {
    this.markInterrupted()
    return this.db
      .all<RunRecord>('SELECT * FROM bulk_runs ORDER BY created_at DESC LIMIT ?', limit)
      .map((record) => this.view(record, profileName))
  }

  /** A run left `running` whose lease expired (its process died, or stalled for the lease's life) is `interrupted`. */
  // Stryker restore all
  markInterrupted(): string[] {
    const at = this.now().getTime()
    const left = this.db.all<{ id: string }>(
      "UPDATE bulk_runs SET state = 'interrupted', updated_at = ? WHERE state = 'running' AND (lease_holder IS NULL OR lease_expires_at <= ?) RETURNING id",
      this.stamp(),
      at,
    )
    // A holder of this machine that is certainly gone (kill -9) left its run before its lease ends.
    const held = this.db.all<Pick<RunRecord, 'id' | 'lease_holder' | 'lease_pid' | 'lease_host' | 'lease_started'>>(
      "SELECT id, lease_holder, lease_pid, lease_host, lease_started FROM bulk_runs WHERE state = 'running' AND lease_holder IS NOT NULL AND lease_expires_at > ?",
      at,
    )
    for (const run of held) {
      if (!holderGone({ pid: run.lease_pid ?? 0, host: run.lease_host ?? '', started: run.lease_started ?? undefined })) continue
      // Unless it changed hands since it was read.
      left.push(
        ...this.db.all<{ id: string }>(
          "UPDATE bulk_runs SET state = 'interrupted', updated_at = ? WHERE id = ? AND state = 'running' AND lease_holder = ? RETURNING id",
          this.stamp(),
          run.id,
          run.lease_holder,
        ),
      )
    }
    return left.map((run) => run.id)
  }

  /**
   * The newest run of this input, against this profile or base URL, that did not finish
   * (planned, going, paused or interrupted), with who is sending it, if anyone.
   */
  unfinishedRun(
    inputSha256: string,
    target: { profileId: string | null; baseUrl: string },
  ): { id: string; state: BulkRunState; sent: boolean } | undefined {
    this.markInterrupted()
    const run = this.db.get<{ id: string; state: BulkRunState }>(
      `SELECT id, state FROM bulk_runs WHERE input_sha256 = ? AND state IN ${UNFINISHED}
         AND (profile_id = ? OR (profile_id IS NULL AND ? IS NULL AND base_url = ?)) ORDER BY created_at DESC LIMIT 1`,
      inputSha256,
      target.profileId,
      target.profileId,
      target.baseUrl,
    )
    if (!run) return undefined
    const sent =
      this.db.get(
        "SELECT 1 AS sent FROM bulk_items WHERE run_id = ? AND state NOT IN ('pending', 'skipped') AND outcome IS NOT 'unchanged' LIMIT 1",
        run.id,
      ) !== undefined
    return { ...run, sent }
  }

  /** A plan never started, replaced by a newer plan of the same file: it will never be sent. */
  supersede(id: string): void {
    this.db.run(
      "UPDATE bulk_runs SET state = 'cancelled', paused_reason = NULL, updated_at = ? WHERE id = ? AND state = 'planned' AND (lease_holder IS NULL OR lease_expires_at <= ?)",
      this.stamp(),
      id,
      this.now().getTime(),
    )
    this.db.run(
      "UPDATE bulk_items SET state = 'skipped', outcome = 'skipped', updated_at = ? WHERE run_id = ? AND state = 'pending'",
      this.stamp(),
      id,
    )
  }

  /**
   * Takes a run for a new lease (in the transaction that took it). Rows a holder left `sending`
   * under an earlier lease are sent again when that is safe (get-or-create and update are
   * idempotent); a rotation left `sending` may have happened, so it becomes `unknown` and is
   * never sent again on its own. Rows the operator chose not to send are skipped.
   */
  takeOver(id: string, lease: Lease): void {
    const at = this.stamp()
    const run = this.record(id)
    if (!run) return
    const earlier = "run_id = ? AND state = 'sending' AND (lease_epoch IS NULL OR lease_epoch < ?)"
    this.db.run(
      `UPDATE bulk_items SET state = 'unknown', outcome = 'unknown', message = ?, updated_at = ? WHERE ${earlier} AND action = 'rotate'`,
      ROTATION_IN_FLIGHT,
      at,
      id,
      lease.epoch,
    )
    this.db.run(`UPDATE bulk_items SET state = 'pending', updated_at = ? WHERE ${earlier}`, at, id, lease.epoch)
    if (!run.send_create)
      this.db.run(
        "UPDATE bulk_items SET state = 'skipped', outcome = 'skipped', updated_at = ? WHERE run_id = ? AND state = 'pending' AND action = 'create'",
        at,
        id,
      )
    if (!run.send_update)
      this.db.run(
        "UPDATE bulk_items SET state = 'skipped', outcome = 'skipped', updated_at = ? WHERE run_id = ? AND state = 'pending' AND action = 'update'",
        at,
        id,
      )
    this.db.run("UPDATE bulk_runs SET state = 'running', paused_reason = NULL, updated_at = ? WHERE id = ?", at, id)
  }

  setSettings(id: string, settings: BulkSettings): void {
    this.db.run(
      'UPDATE bulk_runs SET send_create = ?, send_update = ?, concurrency = ?, rate_per_minute = ?, bail = ?, updated_at = ? WHERE id = ?',
      Number(settings.sendCreate),
      Number(settings.sendUpdate),
      settings.concurrency,
      settings.ratePerMinute,
      Number(settings.bail),
      this.stamp(),
      id,
    )
  }

  setState(id: string, state: BulkRunState, pausedReason: string | null = null): void {
    this.db.run('UPDATE bulk_runs SET state = ?, paused_reason = ?, updated_at = ? WHERE id = ?', state, pausedReason, this.stamp(), id)
  }

  /** The next rows to send, in file order. */
  pending(id: string, afterSeq: number, limit: number): JournalItem[] {
    return this.db
      .all<ItemRecord>(
        "SELECT * FROM bulk_items WHERE run_id = ? AND state = 'pending' AND seq > ? ORDER BY seq LIMIT ?",
        id,
        afterSeq,
        limit,
      )
      .map((item) => ({
        seq: item.seq,
        line: item.line,
        groupId: item.group_id,
        request: JSON.parse(item.request) as GetOrCreateRequest,
        action: item.action,
        attempts: item.attempts,
      }))
  }

  /**
   * Claims a row before it is sent, fenced on the lease: false when another process took the run
   * over (then nothing may be sent). A rotation is claimed alone, in the durable transaction that
   * journals it, and is never sent again after a crash; get-or-create and update rows are claimed
   * a few at a time (claimRows) and are sent again after a crash, known to have been tried. Their
   * settlement follows the answer, fenced the same way.
   */
  claimRow(lease: Lease, seq: number, attempts: number): boolean {
    return (
      this.db.run(
        `UPDATE bulk_items SET state = 'sending', attempts = ?, lease_epoch = ?, updated_at = ?
          WHERE run_id = ? AND seq = ? AND (state = 'pending' OR (state = 'sending' AND lease_epoch = ?))
            AND EXISTS (SELECT 1 FROM bulk_runs WHERE id = ? AND lease_holder = ? AND lease_epoch = ?)`,
        attempts,
        lease.epoch,
        this.stamp(),
        lease.runId,
        seq,
        lease.epoch,
        lease.runId,
        lease.holder,
        lease.epoch,
      ).changes === 1
    )
  }

  /**
   * Claims rows together, on the disk when this returns: all of them, or none when the lease was
   * lost. They share the commit of the settlements waiting for their batch (one commit for both).
   */
  claimRows(lease: Lease, items: ReadonlyArray<{ seq: number; attempts: number }>): boolean {
    let lost = false
    let failure: unknown
    const heard = (error: unknown) => (error instanceof LeaseLost ? (lost = true) : (failure = error))
    try {
      this.db.defer(() => {
        for (const item of items) if (!this.claimRow(lease, item.seq, item.attempts)) throw new LeaseLost()
      }, heard)
      this.db.flush()
    } catch (error) {
      // Inside a transaction, the claims ran at once, in it.
      heard(error)
    }
    if (failure !== undefined) throw failure
    return !lost
  }

  /** Resolves once the settlements written so far are committed. */
  committed(): Promise<void> {
    return this.db.committed()
  }

  /**
   * A row claimed but not sent on (the run paused while it waited, or before its turn came):
   * pending again, with the attempts it had before the claim when they are given, so a row never
   * sent is never taken for tried.
   */
  unclaimRow(lease: Lease, seq: number, attempts?: number): void {
    this.db.run(
      "UPDATE bulk_items SET state = 'pending', attempts = coalesce(?, attempts), updated_at = ? WHERE run_id = ? AND seq = ? AND state = 'sending' AND lease_epoch = ?",
      attempts ?? null,
      this.stamp(),
      lease.runId,
      seq,
      lease.epoch,
    )
  }

  /** A rotation row presumed unknown because its process died (see RotationJournal.sweep). */
  rotationUnknown(run: { runId: string; seq: number }, message: string): void {
    this.db.run(
      "UPDATE bulk_items SET state = 'unknown', outcome = 'unknown', message = ?, updated_at = ? WHERE run_id = ? AND seq = ? AND state = 'sending'",
      this.redact(message),
      this.stamp(),
      run.runId,
      run.seq,
    )
  }

  /** A rotation row of unknown outcome, settled by a fetch of its group. */
  rotationSettled(run: { runId: string; seq: number }, outcome: 'rotated' | 'not_rotated', message: string): void {
    this.db.run(
      "UPDATE bulk_items SET state = ?, outcome = ?, message = ?, updated_at = ? WHERE run_id = ? AND seq = ? AND state IN ('unknown', 'sending')",
      outcome === 'rotated' ? 'done' : 'failed',
      outcome === 'rotated' ? 'rotated' : 'failed',
      this.redact(message),
      this.stamp(),
      run.runId,
      run.seq,
    )
  }

  /**
   * Deferred (Database.defer): inside the transaction of the call it settles (a rotation's), it is
   * written there; otherwise in the next batch, with the records of the calls around it. `fence`,
   * for a row that was not claimed (get-or-create, update): written only while this lease holds
   * the run, so a holder that lost it never settles a row the new holder sends again.
   */
  settle(id: string, seq: number, settlement: ItemSettlement, fence?: Lease): void {
    const at = this.stamp()
    const message = settlement.message ? this.redact(settlement.message) : null
    this.db.defer(() =>
      this.db.run(
        `UPDATE bulk_items SET state = ?, outcome = ?, attempts = ?, http_status = ?, error_code = ?, message = ?, token_last4 = coalesce(?, token_last4), updated_at = ?
       WHERE run_id = ? AND seq = ?${fence ? ' AND EXISTS (SELECT 1 FROM bulk_runs WHERE id = ? AND lease_holder = ? AND lease_epoch = ?)' : ''}`,
        settlement.state,
        settlement.outcome,
        settlement.attempts,
        settlement.httpStatus ?? null,
        settlement.errorCode ?? null,
        message,
        settlement.tokenLast4 ?? null,
        at,
        id,
        seq,
        ...(fence ? [fence.runId, fence.holder, fence.epoch] : []),
      ),
    )
  }

  /** Rows left to send become skipped: the run was cancelled. */
  skipPending(id: string): void {
    this.db.run(
      "UPDATE bulk_items SET state = 'skipped', outcome = 'skipped', updated_at = ? WHERE run_id = ? AND state = 'pending'",
      this.stamp(),
      id,
    )
  }

  // Stryker disable all: read-only views for the screens and results files, to the end of the file.
  items(id: string, filter: ItemFilter, offset: number, limit: number): { matching: number; items: BulkItem[] } {
    this.db.flush()
    const where = ['run_id = ?']
    const params: SqlValue[] = [id]
    const narrow = (clause: string, value: SqlValue) => {
      where.push(clause)
      params.push(value)
    }
    if (filter.action) narrow('action = ?', filter.action)
    if (filter.state) narrow('state = ?', filter.state)
    if (filter.outcome) narrow('outcome = ?', filter.outcome)
    if (filter.search?.trim()) narrow('instr(lower(group_id), ?) > 0', filter.search.trim().toLowerCase())
    const sql = where.join(' AND ')
    const matching = this.db.get<{ n: number }>(`SELECT count(*) AS n FROM bulk_items WHERE ${sql}`, ...params)?.n ?? 0
    const items = this.db
      .all<ItemRecord>(`SELECT * FROM bulk_items WHERE ${sql} ORDER BY seq LIMIT ? OFFSET ?`, ...params, limit, offset)
      .map(itemView)
    return { matching, items }
  }

  /** Every row in file order, a batch at a time (for results files). */
  *allItems(id: string, batch = 1000): Generator<BulkItem[]> {
    this.db.flush()
    for (let after = -1; ;) {
      const rows = this.db.all<ItemRecord>('SELECT * FROM bulk_items WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?', id, after, batch)
      if (rows.length === 0) return
      after = rows.at(-1)!.seq
      yield rows.map(itemView)
    }
  }
}

const itemView = (item: ItemRecord): BulkItem => ({
  seq: item.seq,
  line: item.line,
  groupId: item.group_id,
  action: item.action,
  state: item.state,
  outcome: item.outcome,
  attempts: item.attempts,
  httpStatus: item.http_status,
  message: item.message,
  tokenLast4: item.token_last4,
})
