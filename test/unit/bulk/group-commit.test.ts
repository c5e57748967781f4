import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Libsql from 'libsql'
import { describe, expect, it } from 'vitest'
import { BulkJournal } from '../../../src-main/bulk/bulk-journal'
import { startRun, type BulkSender, type SenderSettlement } from '../../../src-main/bulk/bulk-runner'
import { leaseOwner, SqliteRunLeases } from '../../../src-main/bulk/run-leases'
import { APP_DATABASE_FILE, openAppDatabase } from '../../../src-main/storage/app-database'

/*
 * A run's rows share group commits (a claim with the rows settled in the same moment), and still
 * every claim is on the disk before its request leaves, with every row settled before it: seen at
 * the instant of sending, from a second connection, as a process taking the run over would see it.
 */

describe('a bulk run in group commits', () => {
  it('has each row claimed, and the rows settled before it, on the disk before its request leaves', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ec-bulk-group-'))
    const db = openAppDatabase(dataDir)
    const other = new Libsql(join(dataDir, APP_DATABASE_FILE), { readonly: true })
    const journal = new BulkJournal(db)
    const runId = 'run-1'
    const rows = Array.from({ length: 200 }, (_, index) => ({
      line: index + 2,
      request: { user_group_id: `g-${index}` },
      action: 'create' as const,
    }))
    const settings = { concurrency: 8, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false }
    journal.createRun(
      { id: runId, kind: 'apply', profileId: null, baseUrl: 'http://127.0.0.1:1', fileName: 'rows.csv', inputSha256: 'x', settings },
      rows,
    )
    const leases = new SqliteRunLeases(db)
    const owner = leaseOwner('cli')

    const onDisk = (groupId: string) =>
      other.prepare('SELECT state, attempts FROM bulk_items WHERE run_id = ? AND group_id = ?').get(runId, groupId) as {
        state: string
        attempts: number
      }
    const settledOnDisk = () =>
      (other.prepare("SELECT count(*) AS n FROM bulk_items WHERE run_id = ? AND state = 'done'").get(runId) as { n: number }).n
    let settled = 0
    const misses: string[] = []
    const answer = (request: { user_group_id: string }, settle: (settlement: SenderSettlement) => void) => {
      // The instant the request would leave: its claim, and every row settled before it, on the disk.
      const row = onDisk(request.user_group_id)
      if (row.state !== 'sending' || row.attempts !== 1) misses.push(`${request.user_group_id}: ${row.state}`)
      if (settledOnDisk() < settled) misses.push(`${request.user_group_id}: ${settledOnDisk()} of ${settled} settled rows`)
      return new Promise<ReturnType<typeof sent>>((resolve) =>
        setImmediate(() => {
          const value = sent(request.user_group_id)
          settle({ ok: true, sent: value })
          settled += 1
          resolve(value)
        }),
      )
    }
    const sent = (groupId: string) => ({
      group: { provided_id: groupId, token: 'a-group-token', team_id: 1, name: null },
      newUserGroup: true,
      httpStatus: 200,
    })
    const sender: BulkSender = { getOrCreate: answer, update: answer, rotate: () => Promise.reject(new Error('no rotation here')) }
    const run = startRun({
      journal,
      runId,
      settings,
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
    expect(await run.done).toBe('finished')
    expect(misses).toEqual([])
    expect(journal.tallies(runId)).toMatchObject({ created: 200, pending: 0 })
    expect(settledOnDisk()).toBe(200)
    other.close()
    db.close()
  })
})
