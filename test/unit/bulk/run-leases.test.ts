import { spawn } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { openAppDatabase } from '../../../src-main/app-database'
import { BulkJournal, ROTATION_IN_FLIGHT } from '../../../src-main/bulk/bulk-journal'
import type { PlannedRow } from '../../../src-main/bulk/bulk-plan'
import { LEASE_TTL_MS, type LeaseOwner, leaseRefusal, processStart, SqliteRunLeases } from '../../../src-main/bulk/run-leases'
import type { Database } from '../../../src-main/storage/database'
import type { BulkAction } from '../../../src-shared/bulk/schemas'
import { failureOf } from '../../helpers/failure-of'

/*
 * The lease and the journal's claims on one real database, with a clock the test moves: the
 * statements team mode ports to Postgres, each rule checked by itself.
 */

const START = Date.parse('2026-11-26T10:02:00Z')
const clock = (at: number) => new Date(at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })
const app: LeaseOwner = { id: 'owner-app', pid: process.pid, host: hostname(), client: 'app' }
const cli: LeaseOwner = { id: 'owner-cli', pid: process.pid, host: hostname(), client: 'cli' }
const settings = { concurrency: 1, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false }

let db: Database
let now: number
let leases: SqliteRunLeases
let journal: BulkJournal

beforeEach(async () => {
  db = openAppDatabase(await mkdtemp(join(tmpdir(), 'ec-leases-')))
  now = START
  leases = new SqliteRunLeases(db, () => now)
  journal = new BulkJournal(db, () => new Date(now))
})

const row = (line: number, action: BulkAction): PlannedRow => ({ line, request: { user_group_id: `g-${line}` }, action })

function plan(
  id = 'run-1',
  rows: PlannedRow[] = [row(2, 'rotate'), row(3, 'rotate'), row(4, 'create'), row(5, 'update')],
  chosen = settings,
) {
  journal.createRun(
    { id, kind: 'rotate', profileId: 'p', baseUrl: 'http://x', fileName: 'rows.csv', inputSha256: id, settings: chosen },
    rows,
  )
  return id
}

const states = (id = 'run-1') => journal.items(id, {}, 0, 100).items.map((item) => [item.groupId, item.state, item.outcome])

describe('run leases', () => {
  it('are taken by one holder at a time; another is refused with a sentence naming the holder', async () => {
    plan()
    expect(leases.acquire('run-1', app, 'The run of rows.csv')).toEqual({ runId: 'run-1', holder: 'owner-app', epoch: 1 })
    expect(leases.holder('run-1')).toEqual({
      holder: 'owner-app',
      pid: process.pid,
      host: hostname(),
      client: 'app',
      since: START,
      expiresAt: START + LEASE_TTL_MS,
    })
    now += 10_000
    const refused = await failureOf(() => leases.acquire('run-1', cli, 'The run of rows.csv'))
    expect(refused.code).toBe('conflict')
    expect(refused.message).toBe(
      `The run of rows.csv is being sent by the app, pid ${process.pid}, since ${clock(START)} — pause it there or wait.`,
    )
    expect(refused.details).toEqual({ owner: { client: 'app', pid: process.pid, host: hostname(), since: new Date(START).toISOString() } })
  })

  it('expire only after their time; the taker gets a new epoch, and the old holder can neither renew nor release it', async () => {
    plan()
    const first = leases.acquire('run-1', app, 'x')
    now += LEASE_TTL_MS - 1
    await failureOf(() => leases.acquire('run-1', cli, 'x'))
    now += 1
    const second = leases.acquire('run-1', cli, 'x')
    expect(second.epoch).toBe(first.epoch + 1)
    expect(leases.renew(first)).toBe(false)
    leases.release(first)
    expect(leases.holder('run-1')?.holder).toBe('owner-cli')
    expect(leases.renew(second)).toBe(true)
    expect(leases.holder('run-1')?.expiresAt).toBe(now + LEASE_TTL_MS)
    leases.release(second)
    expect(leases.holder('run-1')).toBeNull()
  })

  it('a renewal keeps the lease past its first expiry', () => {
    plan()
    const lease = leases.acquire('run-1', app, 'x')
    now += LEASE_TTL_MS - 1000
    expect(leases.renew(lease)).toBe(true)
    now += 2000
    expect(() => leases.acquire('run-1', cli, 'x')).toThrow(/is being sent by the app/)
  })

  it('the same holder taking it again moves the epoch on too (a resume re-reads the journal)', () => {
    plan()
    const first = leases.acquire('run-1', app, 'x')
    expect(leases.acquire('run-1', app, 'x').epoch).toBe(first.epoch + 1)
  })

  it('are not given on a run that ended', async () => {
    plan()
    journal.setState('run-1', 'finished')
    expect((await failureOf(() => leases.acquire('run-1', app, 'The run of rows.csv'))).message).toBe(
      'The run of rows.csv has ended: plan the file again to send it again.',
    )
    expect(leases.holder('run-1')).toBeNull()
  })

  it('are taken over at once from a holder of this machine whose process is gone, or whose pid now names another process', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'])
    await new Promise((started) => child.once('spawn', started))
    const living: LeaseOwner = { id: 'owner-child', pid: child.pid!, host: hostname(), client: 'cli', started: processStart(child.pid!)! }
    expect(living.started).toMatch(/:\d+$/)
    plan('run-1')
    plan('run-2')
    plan('run-3')
    leases.acquire('run-1', living, 'x')
    // Alive: refused, as ever. The same pid with another start time is another process (the pid was reused).
    expect(() => leases.acquire('run-1', app, 'The run')).toThrow(/is being sent by the command line/)
    leases.acquire('run-2', { ...living, id: 'owner-reused', started: `${living.started}9` }, 'x')
    expect(leases.holder('run-2')).toBeNull()
    expect(leases.acquire('run-2', app, 'x').holder).toBe('owner-app')
    // A holder on another machine is never presumed gone, whatever its pid.
    leases.acquire('run-3', { ...living, id: 'owner-elsewhere', host: 'ops-laptop-2', pid: 2 ** 22 + 12345 }, 'x')
    expect(() => leases.acquire('run-3', app, 'The run')).toThrow(/on ops-laptop-2/)

    child.kill('SIGKILL')
    await new Promise((exited) => child.once('exit', exited))
    expect(processStart(child.pid!)).toBeNull()
    // Killed: no wait for the lease to expire, a new epoch, and the dead holder is fenced out.
    expect(leases.holder('run-1')).toBeNull()
    const taken = leases.acquire('run-1', app, 'x')
    expect(taken).toEqual({ runId: 'run-1', holder: 'owner-app', epoch: 2 })
    expect(leases.renew({ runId: 'run-1', holder: 'owner-child', epoch: 1 })).toBe(false)
  })

  it('leave a run whose holder of this machine is gone interrupted, not running, before its lease ends', () => {
    plan()
    leases.acquire('run-1', { ...app, id: 'owner-gone', pid: 2 ** 22 + 12345 }, 'x')
    journal.setState('run-1', 'running')
    expect(journal.markInterrupted()).toEqual(['run-1'])
    expect(journal.run('run-1')).toMatchObject({ state: 'interrupted', owner: null })
  })

  it('say when the holder on this machine has stopped, and when its lease ends; a holder elsewhere is named with its host', () => {
    const since = START
    const gone = leaseRefusal(
      'The run of rows.csv',
      { holder: 'h', pid: 2 ** 22 + 12345, host: hostname(), client: 'cli', since, expiresAt: since + LEASE_TTL_MS },
      since + 5_000,
    )
    expect(gone.message).toBe(
      `The run of rows.csv was being sent by the command line, pid ${2 ** 22 + 12345}, since ${clock(since)}, which has stopped. Its lease ends at ${clock(since + LEASE_TTL_MS)} (in 25 s): resume it then, and the rows it was sending will be checked first.`,
    )
    const elsewhere = leaseRefusal(
      'The run',
      { holder: 'h', pid: 2 ** 22 + 12345, host: 'ops-laptop-2', client: 'browser', since, expiresAt: since + LEASE_TTL_MS },
      since,
    )
    expect(elsewhere.message).toBe(
      `The run is being sent by browser mode, pid ${2 ** 22 + 12345} on ops-laptop-2, since ${clock(since)} — pause it there or wait.`,
    )
  })
})

describe('the journal under a lease', () => {
  it('claims a row only for the current holder and epoch, and only a pending row or its own', () => {
    plan()
    const lease = leases.acquire('run-1', app, 'x')
    expect(journal.claimRow(lease, 0, 1)).toBe(true)
    // Its own row again (a retry), under the same epoch: yes.
    expect(journal.claimRow(lease, 0, 2)).toBe(true)
    now += LEASE_TTL_MS
    const taken = leases.acquire('run-1', cli, 'x')
    expect(journal.claimRow(lease, 1, 1)).toBe(false)
    // The new holder cannot take the old holder's row in flight either: only the takeover decides it.
    expect(journal.claimRow(taken, 0, 3)).toBe(false)
    expect(journal.claimRow(taken, 1, 1)).toBe(true)
  })

  it('a takeover makes the rotation in flight unknown (never pending), sends idempotent rows again, and skips what was not chosen', () => {
    plan('run-1', [row(2, 'rotate'), row(3, 'rotate'), row(4, 'create'), row(5, 'update'), row(6, 'create')], {
      ...settings,
      sendCreate: false,
    })
    const lease = leases.acquire('run-1', app, 'x')
    journal.takeOver('run-1', lease)
    expect(journal.claimRow(lease, 0, 1)).toBe(true)
    expect(journal.claimRow(lease, 3, 1)).toBe(true)
    now += LEASE_TTL_MS
    const taken = leases.acquire('run-1', cli, 'x')
    journal.takeOver('run-1', taken)
    expect(states()).toEqual([
      ['g-2', 'unknown', 'unknown'],
      ['g-3', 'pending', null],
      ['g-4', 'skipped', 'skipped'],
      ['g-5', 'pending', null],
      ['g-6', 'skipped', 'skipped'],
    ])
    expect(journal.items('run-1', { state: 'unknown' }, 0, 1).items[0]!.message).toBe(ROTATION_IN_FLIGHT)
    expect(journal.run('run-1')?.state).toBe('running')
  })

  it('a takeover leaves the rows the new holder claimed alone', () => {
    plan()
    const lease = leases.acquire('run-1', app, 'x')
    journal.takeOver('run-1', lease)
    expect(journal.claimRow(lease, 0, 1)).toBe(true)
    journal.takeOver('run-1', lease)
    expect(states()[0]).toEqual(['g-2', 'sending', null])
  })

  it('gives back a claimed row only to its own epoch', () => {
    plan()
    const lease = leases.acquire('run-1', app, 'x')
    expect(journal.claimRow(lease, 2, 1)).toBe(true)
    journal.unclaimRow({ ...lease, epoch: lease.epoch + 1 }, 2)
    expect(states()[2]).toEqual(['g-4', 'sending', null])
    journal.unclaimRow(lease, 2)
    expect(states()[2]).toEqual(['g-4', 'pending', null])
  })

  it('marks a running run interrupted once its lease has expired, not before', () => {
    plan()
    const lease = leases.acquire('run-1', app, 'x')
    journal.takeOver('run-1', lease)
    expect(journal.markInterrupted()).toEqual([])
    now += LEASE_TTL_MS - 1
    expect(journal.markInterrupted()).toEqual([])
    now += 1
    expect(journal.markInterrupted()).toEqual(['run-1'])
    expect(journal.run('run-1')?.state).toBe('interrupted')
  })

  it('names the live holder on the run, and no one once it expired', () => {
    plan()
    leases.acquire('run-1', app, 'x')
    expect(journal.run('run-1')?.owner).toEqual({ client: 'app', pid: process.pid, host: hostname(), since: new Date(START).toISOString() })
    now += LEASE_TTL_MS
    expect(journal.run('run-1')?.owner).toBeNull()
  })

  it('settles a rotation row from the rotation journal: unknown while sending, then rotated or failed', () => {
    plan()
    const lease = leases.acquire('run-1', app, 'x')
    expect(journal.claimRow(lease, 0, 1)).toBe(true)
    expect(journal.claimRow(lease, 1, 1)).toBe(true)
    journal.rotationUnknown({ runId: 'run-1', seq: 0 }, 'lost')
    journal.rotationUnknown({ runId: 'run-1', seq: 2 }, 'not sending: untouched')
    expect(states().slice(0, 3)).toEqual([
      ['g-2', 'unknown', 'unknown'],
      ['g-3', 'sending', null],
      ['g-4', 'pending', null],
    ])
    journal.rotationSettled({ runId: 'run-1', seq: 0 }, 'rotated', 'it happened')
    journal.rotationSettled({ runId: 'run-1', seq: 1 }, 'not_rotated', 'it did not')
    journal.rotationSettled({ runId: 'run-1', seq: 2 }, 'rotated', 'pending: untouched')
    expect(states().slice(0, 3)).toEqual([
      ['g-2', 'done', 'rotated'],
      ['g-3', 'failed', 'failed'],
      ['g-4', 'pending', null],
    ])
  })

  it('finds the unfinished run of a file, whether any row went out, and replaces only a plan never started', () => {
    plan()
    const target = { profileId: 'p', baseUrl: 'http://x' }
    expect(journal.unfinishedRun('run-1', target)).toEqual({ id: 'run-1', state: 'planned', sent: false })
    expect(journal.unfinishedRun('run-1', { profileId: 'other', baseUrl: 'http://x' })).toBeUndefined()
    journal.supersede('run-1')
    expect(journal.run('run-1')?.state).toBe('cancelled')
    expect(journal.unfinishedRun('run-1', target)).toBeUndefined()

    plan('run-2')
    const lease = leases.acquire('run-2', app, 'x')
    journal.takeOver('run-2', lease)
    journal.claimRow(lease, 0, 1)
    journal.settle('run-2', 0, { state: 'done', outcome: 'rotated', attempts: 1 })
    expect(journal.unfinishedRun('run-2', target)).toEqual({ id: 'run-2', state: 'running', sent: true })
    journal.supersede('run-2')
    expect(journal.run('run-2')?.state).toBe('running')
  })
})

const onDisk = (id = 'run-1') =>
  db
    .all<{ seq: number; state: string; attempts: number }>('SELECT seq, state, attempts FROM bulk_items WHERE run_id = ? ORDER BY seq', id)
    .map((item) => `${item.seq}:${item.state}:${item.attempts}`)

describe('claims and settlements of several rows', () => {
  it('leaves a run whose holder’s pid now names another process interrupted, and one whose holder lives running', () => {
    plan('run-1')
    plan('run-2')
    const started = processStart(process.pid)!
    leases.acquire('run-1', { ...app, id: 'owner-reused', started: `${started}9` }, 'x')
    leases.acquire('run-2', { ...app, id: 'owner-living', started }, 'x')
    journal.setState('run-1', 'running')
    journal.setState('run-2', 'running')
    expect(journal.markInterrupted()).toEqual(['run-1'])
    expect(journal.run('run-2')?.state).toBe('running')
  })

  it('claims rows all together, each with the attempts it is given, or none of them when one cannot be claimed', () => {
    plan('run-1', [row(2, 'create'), row(3, 'update'), row(4, 'unchanged'), row(5, 'create')])
    const lease = leases.acquire('run-1', app, 'x')
    expect(
      journal.claimRows(lease, [
        { seq: 0, attempts: 2 },
        { seq: 1, attempts: 1 },
      ]),
    ).toBe(true)
    expect(onDisk()).toEqual(['0:sending:2', '1:sending:1', '2:done:0', '3:pending:0'])
    // The unchanged row was settled at planning: the set is refused whole, the pending row untouched.
    expect(
      journal.claimRows(lease, [
        { seq: 3, attempts: 1 },
        { seq: 2, attempts: 1 },
      ]),
    ).toBe(false)
    expect(onDisk()).toEqual(['0:sending:2', '1:sending:1', '2:done:0', '3:pending:0'])
  })

  it('claims nothing under a lease taken over, inside a transaction as outside one', () => {
    plan('run-1', [row(2, 'create'), row(3, 'update')])
    const lease = leases.acquire('run-1', app, 'x')
    now += LEASE_TTL_MS
    leases.acquire('run-1', cli, 'x')
    expect(journal.claimRows(lease, [{ seq: 0, attempts: 1 }])).toBe(false)
    expect(db.transaction(() => journal.claimRows(lease, [{ seq: 1, attempts: 1 }]))).toBe(false)
    expect(onDisk()).toEqual(['0:pending:0', '1:pending:0'])
  })

  it('throws what the database said rather than take it for a lost lease', () => {
    plan('run-1', [row(2, 'create')])
    const lease = leases.acquire('run-1', app, 'x')
    db.exec('ALTER TABLE bulk_items RENAME TO bulk_items_elsewhere')
    expect(() => journal.claimRows(lease, [{ seq: 0, attempts: 1 }])).toThrow(/no such table: bulk_items/)
  })

  it('gives a row back with the attempts it had before its claim', () => {
    plan('run-1', [row(2, 'create')])
    const lease = leases.acquire('run-1', app, 'x')
    expect(journal.claimRows(lease, [{ seq: 0, attempts: 2 }])).toBe(true)
    journal.unclaimRow(lease, 0, 1)
    expect(onDisk()).toEqual(['0:pending:1'])
  })

  it('settles a row fenced on the lease only while the lease holds, once its batch is committed', async () => {
    plan('run-1', [row(2, 'create'), row(3, 'update'), row(4, 'create')])
    const lease = leases.acquire('run-1', app, 'x')
    expect(
      journal.claimRows(lease, [
        { seq: 0, attempts: 1 },
        { seq: 1, attempts: 1 },
      ]),
    ).toBe(true)
    journal.settle('run-1', 0, { state: 'done', outcome: 'created', attempts: 1 }, lease)
    // Deferred to the next batch: not written yet, then written with it.
    expect(onDisk()[0]).toBe('0:sending:1')
    await journal.committed()
    expect(onDisk()[0]).toBe('0:done:1')
    now += LEASE_TTL_MS
    leases.acquire('run-1', cli, 'x')
    journal.settle('run-1', 1, { state: 'done', outcome: 'updated', attempts: 1 }, lease)
    journal.settle('run-1', 2, { state: 'failed', outcome: 'failed', attempts: 1 })
    await journal.committed()
    // The old holder's settlement is dropped; one without a fence (a rotation's, journaled) is written.
    expect(onDisk().slice(1)).toEqual(['1:sending:1', '2:failed:1'])
  })
})

describe('the bulk journal, rule by rule', () => {
  it('writes a plan of more rows than one batch holds, each once, in file order', () => {
    const rows = Array.from({ length: 10_001 }, (_, index) => row(index + 2, 'create'))
    plan('big', rows)
    expect(journal.planned('big')).toMatchObject({ total: 10_001, create: 10_001 })
    expect(journal.pending('big', 9_998, 5).map((item) => [item.seq, item.line])).toEqual([
      [9_999, 10_001],
      [10_000, 10_002],
    ])
  })

  it('settles unchanged rows in the plan itself: nothing is sent for them', () => {
    plan('run-1', [row(2, 'unchanged'), row(3, 'create')])
    expect(states()).toEqual([
      ['g-2', 'done', 'unchanged'],
      ['g-3', 'pending', null],
    ])
    expect(journal.pending('run-1', -1, 10).map((item) => item.groupId)).toEqual(['g-3'])
  })

  it('skips on takeover the kinds of row the operator chose not to send, each kind by itself', () => {
    plan('no-update', [row(2, 'create'), row(3, 'update')], { ...settings, sendUpdate: false })
    journal.takeOver('no-update', leases.acquire('no-update', app, 'x'))
    expect(states('no-update')).toEqual([
      ['g-2', 'pending', null],
      ['g-3', 'skipped', 'skipped'],
    ])
    plan('no-create', [row(2, 'create'), row(3, 'update')], { ...settings, sendCreate: false })
    journal.takeOver('no-create', leases.acquire('no-create', app, 'x'))
    expect(states('no-create')).toEqual([
      ['g-2', 'skipped', 'skipped'],
      ['g-3', 'pending', null],
    ])
  })

  it('takes over a run that is not there without a word', () => {
    expect(() => journal.takeOver('missing', { runId: 'missing', holder: 'owner-app', epoch: 1 })).not.toThrow()
  })

  it('keeps the settings the operator changes', () => {
    plan()
    journal.setSettings('run-1', { concurrency: 3, ratePerMinute: 60, sendCreate: false, sendUpdate: false, bail: true })
    expect(journal.run('run-1')).toMatchObject({ concurrency: 3, ratePerMinute: 60, sendCreate: false, sendUpdate: false, bail: true })
    journal.setSettings('run-1', settings)
    expect(journal.run('run-1')).toMatchObject({ concurrency: 1, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false })
  })

  it('records a settled row whole: its error code and message included', () => {
    plan()
    journal.settle('run-1', 0, {
      state: 'failed',
      outcome: 'failed',
      attempts: 2,
      httpStatus: 502,
      errorCode: 'http_error',
      message: 'Bad gateway.',
    })
    const row = () =>
      db.get('SELECT state, outcome, attempts, http_status, error_code, message FROM bulk_items WHERE run_id = ? AND seq = 0', 'run-1')
    // Written with the next batch (or the next write of this process), not at once.
    expect(row()).toMatchObject({ state: 'pending', attempts: 0 })
    db.flush()
    expect(row()).toEqual({
      state: 'failed',
      outcome: 'failed',
      attempts: 2,
      http_status: 502,
      error_code: 'http_error',
      message: 'Bad gateway.',
    })
  })

  it('skips what is left to send when a run is cancelled, and nothing already settled', () => {
    plan()
    journal.settle('run-1', 0, { state: 'done', outcome: 'rotated', attempts: 1 })
    journal.skipPending('run-1')
    expect(states()).toEqual([
      ['g-2', 'done', 'rotated'],
      ['g-3', 'skipped', 'skipped'],
      ['g-4', 'skipped', 'skipped'],
      ['g-5', 'skipped', 'skipped'],
    ])
  })
})

describe('lease refusals', () => {
  it('name a process of an unknown kind as another process', () => {
    const holder = {
      holder: 'h',
      pid: process.pid,
      host: 'elsewhere',
      client: 'robot' as never,
      since: START,
      expiresAt: START + LEASE_TTL_MS,
    }
    expect(leaseRefusal('The run', holder, START, 'here').message).toBe(
      `The run is being sent by another process, pid ${process.pid} on elsewhere, since ${clock(START)} — pause it there or wait.`,
    )
  })

  it('refuse a run that has ended, as refused', async () => {
    plan()
    journal.setState('run-1', 'finished')
    expect(await failureOf(() => leases.acquire('run-1', app, 'The run of rows.csv'))).toMatchObject({
      code: 'refused',
      message: 'The run of rows.csv has ended: plan the file again to send it again.',
    })
  })

  it('read a lease an older version wrote without its process details', () => {
    plan()
    db.run(
      "UPDATE bulk_runs SET lease_holder = 'old', lease_pid = NULL, lease_host = NULL, lease_client = NULL, lease_since = NULL, lease_expires_at = ? WHERE id = 'run-1'",
      START + 1000,
    )
    expect(leases.holder('run-1')).toEqual({ holder: 'old', pid: 0, host: '', client: 'cli', since: 0, expiresAt: START + 1000 })
  })
})
