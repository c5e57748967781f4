import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Libsql from 'libsql'
import { describe, expect, it } from 'vitest'
import { APP_DATABASE_FILE, openAppDatabase } from '../../../src-main/app-database'
import { BulkJournal } from '../../../src-main/bulk/bulk-journal'
import { startRun } from '../../../src-main/bulk/bulk-runner'
import type { SenderSettlement } from '../../../src-main/bulk/row-answers'
import type { BulkSender } from '../../../src-main/bulk/row-sender'
import { leaseOwner, SqliteRunLeases } from '../../../src-main/bulk/run-leases'

/*
 * A run's idempotent rows are settled after their answers, in batches, and the write lock is
 * never held between batches: at every answer another connection (as another process) can take
 * it at once. Seen from a second connection of the same file. A run paused part way leaves the
 * rows it did not send untried.
 */

async function journalOf(rows: number) {
  const dataDir = await mkdtemp(join(tmpdir(), 'ec-bulk-batch-'))
  const db = openAppDatabase(dataDir)
  const other = new Libsql(join(dataDir, APP_DATABASE_FILE), { timeout: 0 })
  other.exec('CREATE TABLE IF NOT EXISTS elsewhere (note TEXT)')
  const journal = new BulkJournal(db)
  const runId = 'run-1'
  const settings = { concurrency: 8, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false }
  journal.createRun(
    { id: runId, kind: 'apply', profileId: null, baseUrl: 'http://127.0.0.1:1', fileName: 'rows.csv', inputSha256: 'x', settings },
    Array.from({ length: rows }, (_, index) => ({ line: index + 2, request: { user_group_id: `g-${index}` }, action: 'create' as const })),
  )
  const leases = new SqliteRunLeases(db)
  const owner = leaseOwner('cli')
  const lease = {
    acquire: () =>
      db.transaction(() => {
        const taken = leases.acquire(runId, owner, 'rows.csv')
        journal.takeOver(runId, taken)
        return taken
      }),
    renew: (taken: Parameters<typeof leases.renew>[0]) => leases.renew(taken),
    release: (taken: Parameters<typeof leases.release>[0]) => leases.release(taken),
  }
  const settledOnDisk = () =>
    (other.prepare("SELECT count(*) AS n FROM bulk_items WHERE run_id = ? AND state = 'done'").get(runId) as { n: number }).n
  return { db, other, journal, runId, settings, lease, settledOnDisk }
}

const sent = (groupId: string) => ({
  group: { provided_id: groupId, token: 'a-group-token', team_id: 1, name: null },
  newUserGroup: true,
  httpStatus: 200,
})

describe('a bulk run settled in batches', () => {
  it('writes every row, in fewer commits than rows, and never holds the write lock from one turn to the next', async () => {
    const { db, other, journal, runId, settings, lease, settledOnDisk } = await journalOf(600)
    const refused: string[] = []
    const seenSettled = new Set<number>()
    const answer = (request: { user_group_id: string }, settle: (settlement: SenderSettlement) => void) =>
      new Promise<ReturnType<typeof sent>>((resolve) =>
        setImmediate(() => {
          // Another process writing now takes the lock at once (busy timeout 0): no transaction is left open.
          try {
            other.exec("BEGIN IMMEDIATE; INSERT INTO elsewhere (note) VALUES ('mine'); COMMIT")
          } catch (error) {
            refused.push(`${request.user_group_id}: ${(error as Error).message}`)
          }
          seenSettled.add(settledOnDisk())
          const value = sent(request.user_group_id)
          settle({ ok: true, sent: value })
          resolve(value)
        }),
      )
    const sender: BulkSender = { getOrCreate: answer, update: answer, rotate: () => Promise.reject(new Error('no rotation here')) }
    const run = startRun({ journal, runId, settings, sender, lease })
    expect(await run.done).toBe('finished')
    expect(refused).toEqual([])
    expect(journal.tallies(runId)).toMatchObject({ created: 600, pending: 0 })
    expect(settledOnDisk()).toBe(600)
    // The settled count moved in steps (batches), not row by row.
    expect(seenSettled.size).toBeLessThan(600 / 4)
    expect(seenSettled.size).toBeGreaterThan(1)
    other.close()
    db.close()
  })

  it('leaves the rows a pause kept from being sent untried: pending, never attempted', async () => {
    const { db, other, journal, runId, settings, lease } = await journalOf(200)
    let answered = 0
    let pause = () => {}
    const answer = (request: { user_group_id: string }, settle: (settlement: SenderSettlement) => void) =>
      new Promise<ReturnType<typeof sent>>((resolve) =>
        setImmediate(() => {
          if (++answered === 50) pause()
          const value = sent(request.user_group_id)
          settle({ ok: true, sent: value })
          resolve(value)
        }),
      )
    const sender: BulkSender = { getOrCreate: answer, update: answer, rotate: () => Promise.reject(new Error('no rotation here')) }
    const run = startRun({ journal, runId, settings, sender, lease })
    pause = () => run.pause()
    expect(await run.idle()).toBe('paused')
    const rows = other.prepare('SELECT state, attempts FROM bulk_items WHERE run_id = ?').all(runId) as Array<{
      state: string
      attempts: number
    }>
    expect(rows.filter((row) => row.state === 'done')).toHaveLength(answered)
    expect(rows.filter((row) => row.state !== 'done').every((row) => row.state === 'pending' && row.attempts === 0)).toBe(true)
    other.close()
    db.close()
  })
})
