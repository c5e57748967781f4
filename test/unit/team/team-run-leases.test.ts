import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { openAppDatabase } from '../../../src-main/app-database'
import { BulkJournal } from '../../../src-main/bulk/bulk-journal'
import { leaseOwner, SqliteRunLeases } from '../../../src-main/bulk/run-leases'
import type { Database } from '../../../src-main/storage/database'
import { type SharedLeases, type SharedRunLease, TeamRunLeases } from '../../../src-main/team/team-run-leases'

/*
 * Run leases in a joined folder, against a team database stand-in that records what it is asked
 * (the real one is exercised by the team-crashes and two-machines tests): the local lease stays
 * the one that fences the journal; the team's follows it, and what it answers stops the run.
 */

const databases: Database[] = []
afterEach(() => {
  for (const db of databases.splice(0)) db.close()
})

async function folder() {
  const db = openAppDatabase(await mkdtemp(join(tmpdir(), 'ec-team-leases-')))
  databases.push(db)
  new BulkJournal(db).createRun(
    {
      id: 'run-1',
      kind: 'rotate',
      profileId: 'p',
      baseUrl: 'https://api.example.com',
      fileName: 'rows.csv',
      inputSha256: 'x',
      settings: { concurrency: 1, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false },
    },
    [],
  )
  return db
}

/** A team database that grants every lease in turn, unless told to refuse or to be away. */
function standIn() {
  const calls: string[] = []
  let epoch = 0
  const state = { away: false, takenBy: null as string | null, renewals: true }
  const team: SharedLeases = {
    async acquireRun(runId) {
      calls.push(`acquire ${runId}`)
      if (state.away) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'team_offline' })
      if (state.takenBy)
        return { holder: { actor: state.takenBy, pid: 7, host: 'elsewhere', client: 'cli', expiresAt: new Date(Date.now() + 30_000) } }
      epoch += 1
      return { lease: { runId, holder: 'me', epoch } }
    },
    async renewRun(lease: SharedRunLease) {
      calls.push(`renew ${lease.epoch}`)
      return state.renewals
    },
    async releaseRun(lease: SharedRunLease) {
      calls.push(`release ${lease.epoch}`)
    },
  }
  return { team, calls, state }
}

describe('team run leases', () => {
  it('in one person’s mode they are the local leases alone', async () => {
    const db = await folder()
    const leases = new TeamRunLeases(new SqliteRunLeases(db), db, () => null)
    const lease = db.transaction(() => leases.acquire('run-1', leaseOwner('cli'), 'The run of rows.csv'))
    expect(lease.epoch).toBe(1)
    expect(leases.holder('run-1')).toMatchObject({ client: 'cli' })
    expect(leases.renew(lease)).toBe(true)
    await expect(leases.sharedLease('run-1')).rejects.toMatchObject({ code: 'team_offline' })
  })

  it('take the team’s lease once the local one is committed, never for a transaction rolled back', async () => {
    const db = await folder()
    const { team, calls } = standIn()
    const leases = new TeamRunLeases(new SqliteRunLeases(db), db, () => team)
    expect(() =>
      db.transaction(() => {
        leases.acquire('run-1', leaseOwner('cli'), 'The run of rows.csv')
        throw new Error('the journal refused')
      }),
    ).toThrow('the journal refused')
    db.transaction(() => leases.acquire('run-1', leaseOwner('cli'), 'The run of rows.csv'))
    // Acquisitions run in order, so one scheduled by the rolled-back transaction would have been asked first (epoch 1).
    expect(await leases.sharedLease('run-1')).toEqual({ runId: 'run-1', holder: 'me', epoch: 1 })
    expect(calls).toEqual(['acquire run-1'])
  })

  it('stop the run when the team’s lease went to another holder, naming it', async () => {
    const db = await folder()
    const { team, state } = standIn()
    const leases = new TeamRunLeases(new SqliteRunLeases(db), db, () => team)
    const owner = leaseOwner('cli')
    const lease = db.transaction(() => leases.acquire('run-1', owner, 'The run of rows.csv'))
    await leases.sharedLease('run-1')
    state.renewals = false
    expect(leases.renew(lease)).toBe(true)
    // The refusal arrives asynchronously; each renewal asks the team again until one is refused.
    await vi.waitFor(() => expect(leases.renew(lease)).toBe(false))

    state.takenBy = 'ops-9'
    db.transaction(() => leases.acquire('run-1', owner, 'The run of rows.csv'))
    await expect(leases.sharedLease('run-1')).rejects.toMatchObject({
      code: 'lease_lost',
      message: expect.stringMatching(
        /^The run is held in the team database by ops-9 \(cli, pid 7 on elsewhere\) until \d\d:\d\d: resume it after that\.$/,
      ),
    })
  })

  it('try again for a claim after the team database was away, and for a run going when the folder joined', async () => {
    const db = await folder()
    const { team, state, calls } = standIn()
    let joined = false
    const leases = new TeamRunLeases(new SqliteRunLeases(db), db, () => (joined ? team : null))
    db.transaction(() => leases.acquire('run-1', leaseOwner('cli'), 'The run of rows.csv'))
    joined = true
    state.away = true
    await expect(leases.sharedLease('run-1')).rejects.toThrow('ECONNREFUSED')
    state.away = false
    expect(await leases.sharedLease('run-1')).toMatchObject({ epoch: 1 })
    expect(calls).toEqual(['acquire run-1', 'acquire run-1', 'acquire run-1'])
  })
})
