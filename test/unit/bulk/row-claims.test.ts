import { mkdtemp } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { openAppDatabase } from '../../../src-main/app-database'
import { BulkJournal, type JournalItem } from '../../../src-main/bulk/bulk-journal'
import type { PlannedRow } from '../../../src-main/bulk/bulk-plan'
import { type NextRow, RowClaims } from '../../../src-main/bulk/row-claims'
import { type Lease, type LeaseOwner, SqliteRunLeases } from '../../../src-main/bulk/run-leases'
import type { Database } from '../../../src-main/storage/database'
import type { BulkAction } from '../../../src-shared/bulk/schemas'

/*
 * The rows a run's workers are handed, on a real journal and real leases: idempotent rows claimed
 * ahead in one commit (fenced on the lease, each counted tried), a rotation handed out unclaimed,
 * nothing claimed under a lease another process took, and the rows claimed ahead given back as
 * untried as they were.
 */

const owner: LeaseOwner = { id: 'owner-cli', pid: process.pid, host: hostname(), client: 'cli' }
const other: LeaseOwner = { id: 'owner-app', pid: process.pid, host: hostname(), client: 'app' }
const settings = { concurrency: 4, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false }
const runId = 'run-1'

let db: Database
let journal: BulkJournal
let leases: SqliteRunLeases
let lease: Lease

beforeEach(async () => {
  db = openAppDatabase(await mkdtemp(join(tmpdir(), 'ec-row-claims-')))
  journal = new BulkJournal(db)
  leases = new SqliteRunLeases(db)
})

/** A run of these actions, in file order, with its lease taken as the runner takes it. */
function run(actions: BulkAction[]) {
  const rows: PlannedRow[] = actions.map((action, index) => ({ line: index + 2, request: { user_group_id: `g-${index}` }, action }))
  journal.createRun(
    { id: runId, kind: 'apply', profileId: 'p', baseUrl: 'http://x', fileName: 'rows.csv', inputSha256: 'x', settings },
    rows,
  )
  lease = db.transaction(() => {
    const taken = leases.acquire(runId, owner, 'The run of rows.csv')
    journal.takeOver(runId, taken)
    return taken
  })
  return new RowClaims({ journal, runId })
}

const onDisk = () =>
  db
    .all<{ seq: number; state: string; attempts: number }>(
      'SELECT seq, state, attempts FROM bulk_items WHERE run_id = ? ORDER BY seq',
      runId,
    )
    .map((row) => `${row.seq}:${row.state}:${row.attempts}`)

const item = (next: NextRow): JournalItem => {
  if (next.kind !== 'row') throw new Error(`no row: ${JSON.stringify(next)}`)
  return next.item
}

describe('the rows handed to a run’s workers', () => {
  it('claims idempotent rows 32 at a time, each counted tried, and hands a rotation out unclaimed, in file order', () => {
    const claims = run([...Array<BulkAction>(40).fill('create'), 'rotate', 'update'])
    expect(item(claims.next(lease)).seq).toBe(0)
    expect(onDisk().filter((row) => row.endsWith(':sending:1'))).toHaveLength(32)
    expect(onDisk().slice(32)).toEqual([
      ...Array.from({ length: 8 }, (_, index) => `${32 + index}:pending:0`),
      '40:pending:0',
      '41:pending:0',
    ])
    const handed = [0]
    for (let turn = 0; turn < 39; turn += 1) handed.push(item(claims.next(lease)).seq)
    // The second batch stops at the rotation: it is claimed when it is journaled, just before it is sent.
    expect(handed).toEqual(Array.from({ length: 40 }, (_, index) => index))
    const rotation = item(claims.next(lease))
    expect(rotation).toMatchObject({ seq: 40, action: 'rotate', attempts: 0 })
    expect(onDisk()[40]).toBe('40:pending:0')
    expect(item(claims.next(lease)).seq).toBe(41)
    expect(onDisk()[41]).toBe('41:sending:1')
    expect(claims.next(lease)).toEqual({ kind: 'none' })
  })

  it('claims nothing under a lease another process took, and says the run must stop', () => {
    const claims = run(Array<BulkAction>(5).fill('create'))
    leases.release(lease)
    db.transaction(() => journal.takeOver(runId, leases.acquire(runId, other, 'The run of rows.csv')))
    expect(claims.next(lease)).toEqual({
      kind: 'stop',
      reason: 'Another Embed Console process took this run over: this one stopped sending.',
    })
    expect(onDisk()).toEqual(['0:pending:0', '1:pending:0', '2:pending:0', '3:pending:0', '4:pending:0'])
  })

  it('gives back the rows claimed ahead and not handed out, as untried as they were; a rewind hands them out again', () => {
    const claims = run(Array<BulkAction>(4).fill('create'))
    expect(item(claims.next(lease)).seq).toBe(0)
    claims.giveBack(lease)
    expect(onDisk()).toEqual(['0:sending:1', '1:pending:0', '2:pending:0', '3:pending:0'])
    // Read to its end, the journal is not read again until a rewind (a resume).
    expect(claims.next(lease)).toEqual({ kind: 'none' })
    claims.rewind()
    expect(item(claims.next(lease)).seq).toBe(1)
    expect(onDisk()).toEqual(['0:sending:1', '1:sending:1', '2:sending:1', '3:sending:1'])
  })
})
