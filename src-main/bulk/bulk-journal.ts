import type {
  BulkAction,
  BulkCounts,
  BulkItem,
  BulkItemState,
  BulkKind,
  BulkOutcome,
  BulkRun,
  BulkRunState,
  BulkSettings,
  BulkTallies,
} from '../../src-shared/bulk/schemas'
import type { GetOrCreateRequest } from '../../src-shared/user-api/schemas'
import type { Database, SqlValue } from '../storage/database'
import type { PlannedRow } from './bulk-plan'

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
  owner_pid: number | null
  heartbeat_at: string | null
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

/** A run whose process stopped writing this long ago is taken to be dead. */
const STALE_AFTER_MS = 30_000
const INSERT_BATCH = 10_000

const isAlive = (pid: number | null) => {
  if (!pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The bulk runs and their journal in the app database: a row per input row, written as each one
 * is settled, so a run can be resumed after a crash, row by row, from where it stood.
 */
export class BulkJournal {
  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private stamp = () => this.now().toISOString()

  createRun(run: NewRun, planned: readonly PlannedRow[]): void {
    const at = this.stamp()
    this.db.transaction(() => {
      this.db.run(
        `INSERT INTO bulk_runs (id, kind, profile_id, base_url, file_name, input_sha256, state, send_create, send_update, concurrency, rate_per_minute, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'planned', ?, ?, ?, ?, ?, ?)`,
        run.id, run.kind, run.profileId, run.baseUrl, run.fileName, run.inputSha256, Number(run.settings.sendCreate), Number(run.settings.sendUpdate),
        run.settings.concurrency, run.settings.ratePerMinute, at, at,
      )
    })
    // In batches of their own: 100,000 rows never hold the write lock for long at once.
    for (let start = 0; start < planned.length; start += INSERT_BATCH) {
      this.db.transaction(() => {
        planned.slice(start, start + INSERT_BATCH).forEach((row, offset) => {
          // Unchanged rows are settled at once: nothing will be sent for them.
          const unchanged = row.action === 'unchanged'
          this.db.run(
            `INSERT INTO bulk_items (run_id, seq, line, group_id, request, action, state, outcome, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            run.id, start + offset, row.line, row.request.user_group_id, JSON.stringify(row.request), row.action,
            unchanged ? 'done' : 'pending', unchanged ? 'unchanged' : null, at,
          )
        })
      })
    }
  }

  private record(id: string): RunRecord | undefined {
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
      planned: this.planned(record.id),
      tallies: this.tallies(record.id),
      createdAt: record.created_at,
      updatedAt: record.updated_at,
    }
  }

  planned(id: string): BulkCounts {
    const counts: BulkCounts = { total: 0, create: 0, update: 0, unchanged: 0, rotate: 0 }
    for (const { action, n } of this.db.all<{ action: BulkAction; n: number }>('SELECT action, count(*) AS n FROM bulk_items WHERE run_id = ? GROUP BY action', id)) {
      counts[action] = n
      counts.total += n
    }
    return counts
  }

  tallies(id: string): BulkTallies {
    const tallies: BulkTallies = { created: 0, updated: 0, unchanged: 0, rotated: 0, failed: 0, unknown: 0, skipped: 0, pending: 0 }
    const rows = this.db.all<{ outcome: BulkOutcome | null; n: number }>('SELECT outcome, count(*) AS n FROM bulk_items WHERE run_id = ? GROUP BY outcome', id)
    for (const { outcome, n } of rows) tallies[outcome ?? 'pending'] += n
    return tallies
  }

  /** The newest runs first; runs a process left behind are marked interrupted on the way. */
  runs(limit: number, profileName: (profileId: string) => string | null = () => null): BulkRun[] {
    this.markInterrupted()
    return this.db.all<RunRecord>('SELECT * FROM bulk_runs ORDER BY created_at DESC LIMIT ?', limit).map((record) => this.view(record, profileName))
  }

  /** A run left `running` by a process that is gone (or silent for 30 s) is `interrupted`. */
  markInterrupted(): string[] {
    const stale = new Date(this.now().getTime() - STALE_AFTER_MS).toISOString()
    const left = this.db
      .all<RunRecord>("SELECT * FROM bulk_runs WHERE state = 'running'")
      .filter((run) => run.owner_pid !== process.pid && (!isAlive(run.owner_pid) || (run.heartbeat_at ?? run.updated_at) < stale))
    for (const run of left) this.db.run("UPDATE bulk_runs SET state = 'interrupted', updated_at = ? WHERE id = ? AND state = 'running'", this.stamp(), run.id)
    return left.map((run) => run.id)
  }

  /** The newest run of this input, against this profile or base URL, that did not finish. */
  unfinishedRun(inputSha256: string, target: { profileId: string | null; baseUrl: string }): string | undefined {
    this.markInterrupted()
    return this.db.get<{ id: string }>(
      `SELECT id FROM bulk_runs WHERE input_sha256 = ? AND state IN ('planned', 'paused', 'interrupted')
         AND (profile_id = ? OR (profile_id IS NULL AND ? IS NULL AND base_url = ?)) ORDER BY created_at DESC LIMIT 1`,
      inputSha256, target.profileId, target.profileId, target.baseUrl,
    )?.id
  }

  /**
   * Takes a run for this process. Rows a crash left `sending` are sent again when that is safe
   * (get-or-create and update are idempotent); a rotation left `sending` may have happened, so it
   * becomes `unknown` and is never sent again. Rows the operator chose not to send are skipped.
   */
  claim(id: string): void {
    const at = this.stamp()
    this.db.transaction(() => {
      const run = this.record(id)
      if (!run) return
      this.db.run("UPDATE bulk_items SET state = 'unknown', outcome = 'unknown', message = ?, updated_at = ? WHERE run_id = ? AND state = 'sending' AND action = 'rotate'",
        'The run stopped while this rotation was being sent: the old token may already be invalid. Check the group before rotating it again.', at, id)
      this.db.run("UPDATE bulk_items SET state = 'pending', updated_at = ? WHERE run_id = ? AND state = 'sending'", at, id)
      if (!run.send_create) this.db.run("UPDATE bulk_items SET state = 'skipped', outcome = 'skipped', updated_at = ? WHERE run_id = ? AND state = 'pending' AND action = 'create'", at, id)
      if (!run.send_update) this.db.run("UPDATE bulk_items SET state = 'skipped', outcome = 'skipped', updated_at = ? WHERE run_id = ? AND state = 'pending' AND action = 'update'", at, id)
      this.db.run("UPDATE bulk_runs SET state = 'running', owner_pid = ?, heartbeat_at = ?, updated_at = ? WHERE id = ?", process.pid, at, at, id)
    })
  }

  setSettings(id: string, settings: BulkSettings): void {
    this.db.run('UPDATE bulk_runs SET send_create = ?, send_update = ?, concurrency = ?, rate_per_minute = ?, updated_at = ? WHERE id = ?',
      Number(settings.sendCreate), Number(settings.sendUpdate), settings.concurrency, settings.ratePerMinute, this.stamp(), id)
  }

  setState(id: string, state: BulkRunState): void {
    this.db.run('UPDATE bulk_runs SET state = ?, owner_pid = CASE WHEN ? = \'running\' THEN owner_pid ELSE NULL END, updated_at = ? WHERE id = ?', state, state, this.stamp(), id)
  }

  heartbeat(id: string): void {
    this.db.run('UPDATE bulk_runs SET heartbeat_at = ? WHERE id = ?', this.stamp(), id)
  }

  /** The next rows to send, in file order. */
  pending(id: string, afterSeq: number, limit: number): JournalItem[] {
    return this.db
      .all<ItemRecord>("SELECT * FROM bulk_items WHERE run_id = ? AND state = 'pending' AND seq > ? ORDER BY seq LIMIT ?", id, afterSeq, limit)
      .map((item) => ({ seq: item.seq, line: item.line, groupId: item.group_id, request: JSON.parse(item.request) as GetOrCreateRequest, action: item.action, attempts: item.attempts }))
  }

  /**
   * Written before a row is sent. A rotation marked so is never sent again after a crash; a
   * get-or-create or update is sent again (it is idempotent) and known to have been tried.
   */
  markSending(id: string, seq: number, attempts: number): void {
    this.db.run("UPDATE bulk_items SET state = 'sending', attempts = ?, updated_at = ? WHERE run_id = ? AND seq = ?", attempts, this.stamp(), id, seq)
  }

  settle(id: string, seq: number, settlement: ItemSettlement): void {
    this.db.run(
      `UPDATE bulk_items SET state = ?, outcome = ?, attempts = ?, http_status = ?, error_code = ?, message = ?, token_last4 = coalesce(?, token_last4), updated_at = ?
       WHERE run_id = ? AND seq = ?`,
      settlement.state, settlement.outcome, settlement.attempts, settlement.httpStatus ?? null, settlement.errorCode ?? null, settlement.message ?? null,
      settlement.tokenLast4 ?? null, this.stamp(), id, seq,
    )
  }

  /** Rows left to send become skipped: the run was cancelled. */
  skipPending(id: string): void {
    this.db.run("UPDATE bulk_items SET state = 'skipped', outcome = 'skipped', updated_at = ? WHERE run_id = ? AND state = 'pending'", this.stamp(), id)
  }

  items(id: string, filter: ItemFilter, offset: number, limit: number): { matching: number; items: BulkItem[] } {
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
    const items = this.db.all<ItemRecord>(`SELECT * FROM bulk_items WHERE ${sql} ORDER BY seq LIMIT ? OFFSET ?`, ...params, limit, offset).map(itemView)
    return { matching, items }
  }

  /** Every row in file order, a batch at a time (for results files). */
  *allItems(id: string, batch = 1000): Generator<BulkItem[]> {
    for (let after = -1; ; ) {
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
