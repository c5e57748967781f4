import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ActivityLog } from '../../../src-main/activity/activity-log'
import { openAppDatabase } from '../../../src-main/app-database'
import { journalBeforeSending } from '../../../src-main/groups/journal-before-send'
import { RotationJournal } from '../../../src-main/groups/rotation-journal'
import type { Database } from '../../../src-main/storage/database'
import { failureOf } from '../../helpers/failure-of'

describe('a rotation is journaled before it is sent', () => {
  let db: Database
  let rotations: RotationJournal

  beforeEach(async () => {
    db = openAppDatabase(await mkdtemp(join(tmpdir(), 'ec-journal-before-send-')))
    rotations = new RotationJournal(db, new ActivityLog(db), (id) => `Profile ${id}`, 'me')
  })
  afterEach(() => db.close())

  const intent = (id: string, sentToken = `token-${id}`) => ({ id, profileId: 'p1', groupId: 'acme', sentToken, timeoutMs: 10_000 })
  const stateOf = (id: string) => db.get<{ state: string }>('SELECT state FROM rotations WHERE id = ?', id)?.state
  const send = (id: string, options: { sentToken?: string; claimRow?: () => void } = {}) =>
    journalBeforeSending({ db, rotations, team: null, intent: intent(id, options.sentToken), claimRow: options.claimRow })

  it('has the rotation on the disk, in flight, when it returns', async () => {
    await send('r1')
    expect(stateOf('r1')).toBe('sending')
  })

  it('refuses a second rotation of the group or of the token while the first is in flight, journaling nothing', async () => {
    await send('r1')
    expect(await failureOf(send('r2'))).toMatchObject({ code: 'conflict', details: { activityId: 'r1' } })
    expect(await failureOf(send('r3', { sentToken: 'token-r1' }))).toMatchObject({ code: 'conflict' })
    expect(stateOf('r2')).toBeUndefined()
    expect(stateOf('r3')).toBeUndefined()
  })

  it("journals nothing when a bulk run's claim of its row throws (its lease lost): the claim runs in the journal's transaction", async () => {
    const claimRow = () => {
      // What the claim writes goes with the journal entry, or not at all.
      db.run(
        `INSERT INTO rotations (id, profile_id, group_id, sent_token_sha256, state, holder, started_at, expires_at)
         VALUES ('claimed', 'p1', 'other', 'x', 'unknown', 'me', '2026-01-01T00:00:00Z', 0)`,
      )
      throw new Error('lease lost')
    }
    await expect(send('r1', { claimRow })).rejects.toThrow('lease lost')
    expect(stateOf('r1')).toBeUndefined()
    expect(stateOf('claimed')).toBeUndefined()
  })
})
