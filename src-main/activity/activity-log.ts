import {
  ACTIVITY_COLUMNS,
  type ActivityDetail,
  type ActivityEntry,
  ActivityEntrySchema,
  type ActivityExportFormat,
  type ActivityFilter,
  type RotationSettlement,
} from '../../src-shared/activity/schemas'
import { csvRows } from '../storage/csv-export'
import type { Database, SqlValue } from '../storage/database'
import { fullTextCondition } from '../storage/full-text'
import type { Redactor } from '../user-api/redact'
import { ACTIVITY_SEARCH } from './activity-search'

interface ActivityRecord {
  seq: number
  id: string
  time: string
  profile_id: string
  profile_name: string
  operation: string
  group_id: string | null
  group_name: string | null
  outcome: string
  http_status: number | null
  error_code: string | null
  message: string | null
  warnings: string | null
  duration_ms: number
  settled_outcome: string | null
  settled_at: string | null
}

interface ActivityBodiesRecord {
  request: string | null
  response: string | null
}

/** The list's columns: pages and exports never read the bodies. */
const ENTRY_COLUMNS =
  'seq, id, time, profile_id, profile_name, operation, group_id, group_name, outcome, http_status, error_code, message, warnings, duration_ms, settled_outcome, settled_at'

/** A body larger than this (as JSON text) is not kept: the log is a history, not an archive. */
export const MAX_KEPT_BODY_CHARACTERS = 64 * 1024

/** What a call sent and got back, already redacted by the caller. */
export interface ActivityBodies {
  request?: unknown
  response?: unknown
}

const OMITTED = '"[omitted]"'

/** JSON text to keep, OMITTED when too large, null when there is nothing. */
function keptBody(body: unknown): string | null {
  if (body === undefined) return null
  const text = JSON.stringify(body)
  if (text === undefined) return null
  return text.length > MAX_KEPT_BODY_CHARACTERS ? OMITTED : text
}

function entryOf(row: ActivityRecord): ActivityEntry {
  return {
    id: row.id,
    time: row.time,
    profileId: row.profile_id,
    profileName: row.profile_name,
    operation: row.operation as ActivityEntry['operation'],
    ...(row.group_id !== null ? { groupId: row.group_id } : {}),
    ...(row.group_name !== null ? { groupName: row.group_name } : {}),
    outcome: row.outcome as ActivityEntry['outcome'],
    ...(row.http_status !== null ? { httpStatus: row.http_status } : {}),
    ...(row.error_code !== null ? { errorCode: row.error_code } : {}),
    ...(row.message !== null ? { message: row.message } : {}),
    ...(row.warnings !== null ? { warnings: JSON.parse(row.warnings) as string[] } : {}),
    durationMs: row.duration_ms,
    ...(row.settled_outcome !== null ? { settledOutcome: row.settled_outcome as RotationSettlement } : {}),
    ...(row.settled_at !== null ? { settledAt: row.settled_at } : {}),
  }
}

/** The WHERE clause of a filter: a group's exact id, and words searched in the full-text index. */
function whereOf(filter: ActivityFilter): { sql: string; params: SqlValue[] } {
  const clauses: string[] = []
  const params: SqlValue[] = []
  const add = (clause: string, ...values: SqlValue[]) => {
    clauses.push(clause)
    params.push(...values)
  }
  if (filter.profileId) add('profile_id = ?', filter.profileId)
  if (filter.groupId) add('group_id = ?', filter.groupId)
  const search = filter.search ? fullTextCondition(ACTIVITY_SEARCH, filter.search) : null
  if (search) add(search.sql, ...search.params)
  if (filter.operation) add('operation = ?', filter.operation)
  if (filter.outcome) add('outcome = ?', filter.outcome)
  if (filter.from) add('time >= ?', filter.from)
  if (filter.to) add('time < ?', filter.to)
  return { sql: clauses.length ? clauses.join(' AND ') : '1', params }
}

const EXPORT_BATCH = 1000

/** A CSV cell: a list (the warnings) is one cell, a sentence a line. */
const csvCell = (value: ActivityEntry[keyof ActivityEntry]) => (Array.isArray(value) ? value.join('\n') : (value ?? ''))

export interface ActivityPage {
  entries: ActivityEntry[]
  /** Entries matching the filter, counted on the first page only (null after). */
  total: number | null
  /** Pass back to get the next (older) page; null at the end. */
  nextCursor: number | null
}

/**
 * The activity log: one database row per API call, newest first by insertion order. Pages and
 * filters run in SQL and the export streams in batches, so neither the start nor any screen
 * loads the whole history. Entries are redacted before they get here (see GroupService), and of
 * every secret the vault keeps here, and checked against the schema, so nothing undeclared is ever written.
 */
export class ActivityLog {
  /** `redact`: what every entry and body is cleared of before it is stored (every secret the vault keeps), whoever wrote it. */
  constructor(
    private readonly db: Database,
    private readonly redact: Redactor = (value) => value,
  ) {}

  /**
   * `bodies` must already be redacted: the log stores them as given (see GroupService). An entry
   * already there under this id is replaced: a rotation presumed unknown (its process seemed gone)
   * whose answer did come is recorded as what it was.
   */
  append(entry: ActivityEntry, bodies: ActivityBodies = {}): void {
    this.insert(ActivityEntrySchema.parse(entry), 'replace', bodies)
  }

  /** An entry presumed for a call whose process died; one already written by the call itself wins. */
  appendIfMissing(entry: ActivityEntry): void {
    this.insert(ActivityEntrySchema.parse(entry), 'ignore')
  }

  /** A rotation of unknown outcome, settled: how it turned out and when that was learned. */
  settle(id: string, outcome: RotationSettlement, at: string): void {
    this.db.run("UPDATE activity SET settled_outcome = ?, settled_at = ? WHERE id = ? AND outcome = 'unknown'", outcome, at, id)
  }

  /** One call with its request and response, for the detail view; undefined when there is none. */
  get(id: string): ActivityDetail | undefined {
    const row = this.db.get<ActivityRecord & ActivityBodiesRecord>('SELECT * FROM activity WHERE id = ?', id)
    if (!row) return undefined
    const omitted = (['request', 'response'] as const).filter((key) => row[key] === OMITTED)
    const body = (text: string | null) => (text === null || text === OMITTED ? {} : { value: JSON.parse(text) as unknown })
    const request = body(row.request)
    const response = body(row.response)
    return {
      ...entryOf(row),
      ...('value' in request ? { request: request.value } : {}),
      ...('value' in response ? { response: response.value } : {}),
      ...(omitted.length ? { omitted } : {}),
    } as ActivityDetail
  }

  /** Entries carried over from an earlier release's log; an id already here is skipped. */
  importEntries(entries: readonly ActivityEntry[]): void {
    this.db.transaction(() => entries.forEach((entry) => this.insert(entry, 'ignore')))
  }

  private insert(given: ActivityEntry, conflict: 'replace' | 'ignore', givenBodies: ActivityBodies = {}): void {
    // The search index and the exports are made of these columns: cleared here, they hold no secret either.
    const entry = this.redact(given)
    const bodies = this.redact(givenBodies)
    const onConflict =
      conflict === 'ignore'
        ? 'DO NOTHING'
        : `DO UPDATE SET group_name = coalesce(excluded.group_name, activity.group_name), outcome = excluded.outcome, http_status = excluded.http_status,
             error_code = excluded.error_code, message = excluded.message, warnings = excluded.warnings, duration_ms = excluded.duration_ms,
             request = coalesce(excluded.request, activity.request), response = excluded.response, settled_outcome = NULL, settled_at = NULL`
    this.db.run(
      `INSERT INTO activity (id, time, profile_id, profile_name, operation, group_id, group_name, outcome, http_status, error_code, message, warnings, duration_ms, request, response)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) ${onConflict}`,
      entry.id,
      entry.time,
      entry.profileId,
      entry.profileName,
      entry.operation,
      entry.groupId ?? null,
      entry.groupName ?? null,
      entry.outcome,
      entry.httpStatus ?? null,
      entry.errorCode ?? null,
      entry.message ?? null,
      entry.warnings?.length ? JSON.stringify(entry.warnings) : null,
      entry.durationMs,
      keptBody(bodies.request),
      keptBody(bodies.response),
    )
  }

  /** Newest first, `limit` entries older than `cursor` (a position from an earlier page). */
  page(filter: ActivityFilter, limit: number, cursor?: number): ActivityPage {
    const { sql, params } = whereOf(filter)
    const rows = this.db.all<ActivityRecord>(
      `SELECT ${ENTRY_COLUMNS} FROM activity WHERE ${sql} AND seq < ? ORDER BY seq DESC LIMIT ?`,
      ...params,
      cursor ?? Number.MAX_SAFE_INTEGER,
      limit + 1,
    )
    const more = rows.length > limit
    const shown = more ? rows.slice(0, limit) : rows
    const total =
      cursor === undefined ? (this.db.get<{ n: number }>(`SELECT count(*) AS n FROM activity WHERE ${sql}`, ...params)?.n ?? 0) : null
    return { entries: shown.map(entryOf), total, nextCursor: more ? shown.at(-1)!.seq : null }
  }

  /**
   * The matching entries, newest first, as CSV or JSON Lines text in chunks: a thousand rows are
   * read at a time, so exporting a million entries never holds more than one batch.
   */
  async *export(format: ActivityExportFormat, filter: ActivityFilter): AsyncGenerator<string> {
    const { sql, params } = whereOf(filter)
    if (format === 'csv') yield csvRows([ACTIVITY_COLUMNS])
    let cursor = Number.MAX_SAFE_INTEGER
    for (;;) {
      const rows = this.db.all<ActivityRecord>(
        `SELECT ${ENTRY_COLUMNS} FROM activity WHERE ${sql} AND seq < ? ORDER BY seq DESC LIMIT ?`,
        ...params,
        cursor,
        EXPORT_BATCH,
      )
      if (rows.length === 0) return
      cursor = rows.at(-1)!.seq
      const entries = rows.map(entryOf)
      yield format === 'jsonl'
        ? entries.map((entry) => `${JSON.stringify(entry)}\n`).join('')
        : csvRows(entries.map((entry) => ACTIVITY_COLUMNS.map((column) => csvCell(entry[column]))))
      // Lets the transport send this batch (and other calls run) before the next is read.
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
}
