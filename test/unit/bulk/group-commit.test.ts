import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Libsql from 'libsql'
import { afterEach, describe, expect, it } from 'vitest'
import type { BulkSettings } from '../../../src-shared/bulk/schemas'
import { BulkJournal } from '../../../src-main/bulk/bulk-journal'
import { startRun, type BulkSender, type RunControl, type SenderSettlement } from '../../../src-main/bulk/bulk-runner'
import { leaseOwner, SqliteRunLeases } from '../../../src-main/bulk/run-leases'
import { APP_DATABASE_FILE, openAppDatabase } from '../../../src-main/storage/app-database'
import type { Database } from '../../../src-main/storage/database'

/*
 * A run's rows share group commits: one commit claims the next rows (up to 32, unpaced) and
 * carries the rows settled since the last one. Still every row's claim is on the disk before its
 * request leaves; a row claimed ahead is never sent once the lease is another's, and is pending
 * again when the run pauses. Seen at the instant of sending, from a second connection, as a
 * process taking the run over would see it.
 */

const ROWS = 200
const opened: Array<{ close(): void }> = []
afterEach(() => {
  for (const db of opened.splice(0)) db.close()
})

interface Bench {
  db: Database
  other: Libsql.Database
  journal: BulkJournal
  runId: string
  onDisk(groupId: string): { state: string; attempts: number }
  sendingOnDisk(): number
  /** Changes each time another connection (the run's) commits. */
  commitsSeen(): number
  start(settings: Partial<BulkSettings>, answer: (groupId: string) => void | 'hold'): RunControl
}

async function bench(): Promise<Bench> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ec-bulk-group-'))
  const db = openAppDatabase(dataDir)
  const other = new Libsql(join(dataDir, APP_DATABASE_FILE), { readonly: true })
  opened.push(other, db)
  const journal = new BulkJournal(db)
  const runId = 'run-1'
  const base: BulkSettings = { concurrency: 8, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false }
  journal.createRun(
    { id: runId, kind: 'apply', profileId: null, baseUrl: 'http://127.0.0.1:1', fileName: 'rows.csv', inputSha256: 'x', settings: base },
    Array.from({ length: ROWS }, (_, index) => ({ line: index + 2, request: { user_group_id: `g-${index}` }, action: 'create' as const })),
  )
  const leases = new SqliteRunLeases(db)
  const owner = leaseOwner('cli')
  return {
    db,
    other,
    journal,
    runId,
    onDisk: (groupId) =>
      other.prepare('SELECT state, attempts FROM bulk_items WHERE run_id = ? AND group_id = ?').get(runId, groupId) as {
        state: string
        attempts: number
      },
    sendingOnDisk: () =>
      (other.prepare("SELECT count(*) AS n FROM bulk_items WHERE run_id = ? AND state = 'sending'").get(runId) as { n: number }).n,
    commitsSeen: () => (other.prepare('PRAGMA data_version').get() as { data_version: number }).data_version,
    start(settings, answer) {
      const respond = (request: { user_group_id: string }, settle: (settlement: SenderSettlement) => void) => {
        const held = answer(request.user_group_id)
        const value = {
          group: { provided_id: request.user_group_id, token: 'a-group-token', team_id: 1, name: null },
          newUserGroup: true,
          httpStatus: 200,
        }
        return new Promise<typeof value>((resolve) =>
          setImmediate(() => {
            if (held === 'hold') return
            settle({ ok: true, sent: value })
            resolve(value)
          }),
        )
      }
      const sender: BulkSender = { getOrCreate: respond, update: respond, rotate: () => Promise.reject(new Error('no rotation here')) }
      return startRun({
        journal,
        runId,
        settings: { ...base, ...settings },
        sender,
        lease: {
          acquire: () =>
            db.transaction(() => {
              const lease = leases.acquire(runId, owner, 'rows.csv')
              journal.takeOver(runId, lease)
              return lease
            }),
          renew: (lease) => leases.renew(lease),
          release: (lease) => leases.release(lease),
        },
      })
    },
  }
}

describe('a bulk run in group commits', () => {
  it('has each row claimed on the disk before its request leaves, the claims of many rows in one commit', async () => {
    const run = await bench()
    const misses: string[] = []
    const commits = new Set<number>()
    const control = run.start({}, (groupId) => {
      // The instant the request would leave: its claim on the disk, as a process taking over would read it.
      const row = run.onDisk(groupId)
      if (row.state !== 'sending' || row.attempts !== 1) misses.push(`${groupId}: ${row.state}, attempt ${row.attempts}`)
      commits.add(run.commitsSeen())
    })
    expect(await control.done).toBe('finished')
    expect(misses).toEqual([])
    // A commit a row would be about 200 here: the claims go 32 at a time.
    expect(commits.size).toBeLessThanOrEqual(20)
    expect(run.journal.tallies(run.runId)).toMatchObject({ created: ROWS, pending: 0 })
    expect((run.other.prepare("SELECT count(*) AS n FROM bulk_items WHERE state = 'done'").get() as { n: number }).n).toBe(ROWS)
  })

  it('claims one row at a time when the run is paced', async () => {
    const run = await bench()
    let mostSending = 0
    const control = run.start({ concurrency: 4, ratePerMinute: 600_000 }, () => {
      mostSending = Math.max(mostSending, run.sendingOnDisk())
    })
    expect(await control.done).toBe('finished')
    expect(mostSending).toBeGreaterThan(0)
    expect(mostSending).toBeLessThanOrEqual(4)
  })

  it('gives back the rows it claimed ahead when it pauses, and sends each row once when resumed', async () => {
    const run = await bench()
    const sent = new Map<string, number>()
    let control: RunControl | undefined = undefined
    control = run.start({}, (groupId) => {
      sent.set(groupId, (sent.get(groupId) ?? 0) + 1)
      if (sent.size === 10) control!.pause()
    })
    expect(await control.idle()).toBe('paused')
    expect(run.sendingOnDisk()).toBe(0)
    const { pending } = run.journal.tallies(run.runId)
    expect(pending).toBe(ROWS - sent.size)
    expect(pending).toBeGreaterThan(0)
    control.resume()
    expect(await control.done).toBe('finished')
    expect(sent.size).toBe(ROWS)
    expect([...sent.values()].every((times) => times === 1)).toBe(true)
  })

  it('never sends a row claimed ahead once another process holds the run', async () => {
    const run = await bench()
    const sent: string[] = []
    let takenAt = -1
    const control = run.start({ concurrency: 2 }, (groupId) => {
      sent.push(groupId)
      if (sent.length === 3) {
        // Another process takes the run over (its lease had expired, as it would for a stalled holder).
        run.db.run("UPDATE bulk_runs SET lease_epoch = lease_epoch + 1, lease_holder = 'another process' WHERE id = ?", run.runId)
        takenAt = sent.length
        // This request never answers: the run must stop on the lease, not on its answer.
        return 'hold'
      }
    })
    const state = await Promise.race([control.idle(), new Promise((resolve) => setTimeout(() => resolve('still running'), 300))])
    // Rows claimed ahead of the takeover were not sent: at most the one other request already in flight.
    expect(sent.length - takenAt).toBeLessThanOrEqual(1)
    expect(state).not.toBe('finished')
  })
})
