import { createHash } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ActivityLog } from '../../../src-main/activity/activity-log'
import { openAppDatabase } from '../../../src-main/app-database'
import {
  RotationJournal,
  type RotationListener,
  settledMessage,
  STOPPED_WHILE_SENDING,
  tokenFingerprint,
} from '../../../src-main/groups/rotation-journal'
import type { Database } from '../../../src-main/storage/database'
import type { ActivityEntry } from '../../../src-shared/activity/schemas'
import { failureOf } from '../../helpers/failure-of'

const TIMEOUT_MS = 10_000
/** A rotation in flight in another process is trusted this long: its timeout and 30 s of grace. */
const TRUSTED_MS = TIMEOUT_MS + 30_000

/** What the bulk journal would be told. */
function recorder() {
  const heard: string[] = []
  const presumed: ActivityEntry[] = []
  const listener: Required<RotationListener> = {
    unknown: (run, message) => heard.push(`unknown ${run.runId}#${run.seq}: ${message}`),
    settled: (run, outcome, message) => heard.push(`settled ${run.runId}#${run.seq} ${outcome}: ${message}`),
    presumed: (entry) => presumed.push(entry),
  }
  return { heard, presumed, listener }
}

describe('the rotation journal', () => {
  let db: Database
  let activity: ActivityLog
  let now: number
  const journalOf = (holder: string) =>
    new RotationJournal(
      db,
      activity,
      (id) => `Profile ${id}`,
      holder,
      () => new Date(now),
    )
  let journal: RotationJournal

  beforeEach(async () => {
    db = openAppDatabase(await mkdtemp(join(tmpdir(), 'ec-rotations-')))
    activity = new ActivityLog(db)
    now = Date.parse('2026-03-01T10:00:00Z')
    journal = journalOf('me')
  })
  afterEach(() => db.close())

  const begin = (
    target: RotationJournal,
    id: string,
    options: { groupId?: string | null; token?: string; run?: { runId: string; seq: number } } = {},
  ) =>
    db.transaction(
      () =>
        target.begin({
          id,
          profileId: 'p1',
          groupId: options.groupId === undefined ? 'acme' : options.groupId,
          sentToken: options.token ?? `token-${id}`,
          timeoutMs: TIMEOUT_MS,
          ...(options.run ? { run: options.run } : {}),
        }),
      { durable: true },
    )
  const refusal = async (groupId: string | null, token = 'another-token') =>
    failureOf(() => journal.assertNoneUnsettled('p1', groupId, token))
  const rightNow = /is being rotated right now/
  const unknownOutcome = /has an unknown outcome/
  const stateOf = (id: string) => db.get<{ state: string }>('SELECT state FROM rotations WHERE id = ?', id)?.state

  it('fingerprints a token as the SHA-256 of its UTF-8', () => {
    expect(tokenFingerprint('tök')).toBe(createHash('sha256').update(Buffer.from('tök', 'utf8')).digest('hex'))
    expect(tokenFingerprint('a')).not.toBe(tokenFingerprint('b'))
  })

  it('lets a rotation through when none is unsettled, and after one was answered', async () => {
    expect(() => journal.assertNoneUnsettled('p1', 'acme', 'token-1')).not.toThrow()
    begin(journal, 'r1')
    journal.answered('r1')
    expect(stateOf('r1')).toBeUndefined()
    expect(() => journal.assertNoneUnsettled('p1', 'acme', 'token-r1')).not.toThrow()
  })

  it('refuses a second rotation while the first is in flight here, by group or by token, naming the first', async () => {
    begin(journal, 'r1')
    expect(await refusal('acme')).toMatchObject({ code: 'conflict', message: rightNow, details: { activityId: 'r1' } })
    expect((await failureOf(() => journal.assertNoneUnsettled('p1', 'other', 'token-r1'))).message).toMatch(rightNow)
    expect(() => journal.assertNoneUnsettled('p1', 'other', 'another-token')).not.toThrow()
  })

  it('names “the group”, or “this group” when the rotation has none', async () => {
    begin(journal, 'r1', { groupId: null, token: 'shared' })
    expect((await failureOf(() => journal.assertNoneUnsettled('p1', null, 'shared'))).message).toMatch(
      /^The token of this group is being rotated/,
    )
    begin(journal, 'r2', { groupId: 'acme' })
    expect((await refusal('acme')).message).toMatch(/^The token of “acme” is being rotated/)
  })

  it('counts a rotation of this process that is not in flight as unknown: rolled back, lost, or unrecorded', async () => {
    expect(() =>
      db.transaction(() => {
        journal.begin({ id: 'r0', profileId: 'p1', groupId: 'rolled', sentToken: 't0', timeoutMs: TIMEOUT_MS })
        throw new Error('rolled back')
      }),
    ).toThrow('rolled back')
    expect(stateOf('r0')).toBeUndefined()

    begin(journal, 'r1')
    journal.lost('r1')
    expect(stateOf('r1')).toBe('unknown')
    expect(await refusal('acme')).toMatchObject({ code: 'conflict', message: unknownOutcome, details: { activityId: 'r1' } })

    begin(journal, 'r2', { groupId: 'beta' })
    journal.unrecorded('r2')
    expect(stateOf('r2')).toBe('unknown')
    expect((await refusal('beta')).message).toMatch(unknownOutcome)
    // A new start of this process: its earlier rotation is not in flight any more.
    begin(journal, 'r3', { groupId: 'gamma' })
    journal = journalOf('me')
    expect((await refusal('gamma')).message).toMatch(unknownOutcome)
  })

  it('counts an answered rotation as unknown when even recording that fails (a full disk)', async () => {
    let full = false
    const disk: Database = {
      ...db,
      run: (...args: Parameters<Database['run']>) => {
        if (full) throw new Error('SQLITE_FULL')
        return db.run(...args)
      },
    }
    const failing = new RotationJournal(
      disk,
      activity,
      () => 'P',
      'me',
      () => new Date(now),
    )
    begin(failing, 'r2', { groupId: 'beta' })
    full = true
    expect(() => failing.unrecorded('r2')).not.toThrow()
    expect(stateOf('r2')).toBe('sending')
    expect((await failureOf(() => failing.assertNoneUnsettled('p1', 'beta', 'x'))).message).toMatch(unknownOutcome)
  })

  it('trusts another process’s rotation until its timeout and grace are over, and no longer', async () => {
    begin(journalOf('other'), 'r1')
    now += TRUSTED_MS - 1
    expect((await refusal('acme')).message).toMatch(rightNow)
    expect(journal.unsettled('p1', 'acme')).toEqual([])
    now += 1
    expect((await refusal('acme')).message).toMatch(unknownOutcome)
    expect(journal.unsettled('p1', 'acme')).toEqual([{ id: 'r1', startedAt: '2026-03-01T10:00:00.000Z' }])
  })

  it('never trusts one already found unknown, whoever sent it', async () => {
    const other = journalOf('other')
    begin(other, 'r1')
    other.lost('r1')
    expect((await refusal('acme')).message).toMatch(unknownOutcome)
  })

  it('sweeps rotations whose process died into the activity log, the run and the team, and leaves those in flight', () => {
    const { heard, presumed, listener } = recorder()
    journal.listen(listener)
    begin(journal, 'mine')
    begin(journalOf('dead'), 'with-run', { groupId: 'beta', run: { runId: 'run-1', seq: 3 } })
    begin(journalOf('dead'), 'no-group', { groupId: null, token: 'x' })
    begin(journalOf('alive'), 'recent', { groupId: 'gamma' })
    now += TRUSTED_MS
    begin(journalOf('alive'), 'fresh', { groupId: 'delta' })
    expect(journal.sweep()).toBe(3)
    expect(stateOf('mine')).toBe('sending')
    expect(stateOf('fresh')).toBe('sending')
    expect(stateOf('with-run')).toBe('unknown')
    const message = STOPPED_WHILE_SENDING('2026-03-01T10:00:00.000Z')
    expect(activity.get('with-run')).toMatchObject({
      id: 'with-run',
      time: '2026-03-01T10:00:00.000Z',
      profileId: 'p1',
      profileName: 'Profile p1',
      operation: 'rotateToken',
      groupId: 'beta',
      outcome: 'unknown',
      errorCode: 'outcome_unknown',
      message,
      durationMs: 0,
    })
    expect(activity.get('no-group')).not.toHaveProperty('groupId')
    expect(presumed.map((entry) => entry.id).sort()).toEqual(['no-group', 'recent', 'with-run'])
    expect(heard).toEqual([`unknown run-1#3: ${message}`])
    // Swept once: a second sweep finds nothing new.
    expect(journal.sweep()).toBe(0)
  })

  it('sweeps without a listener, or with one that publishes nothing', () => {
    begin(journalOf('dead'), 'r1', { run: { runId: 'run-1', seq: 1 } })
    now += TRUSTED_MS
    expect(journal.sweep()).toBe(1)
    begin(journalOf('dead'), 'r2', { groupId: 'beta', run: { runId: 'run-1', seq: 2 } })
    now += TRUSTED_MS
    journal.listen({ unknown: () => {}, settled: () => {} })
    expect(journal.sweep()).toBe(1)
  })

  it('settles a group’s unknown rotations by the token the server holds, and leaves the one in flight', () => {
    const { heard, listener } = recorder()
    journal.listen(listener)
    begin(journalOf('dead'), 'old', { token: 'sent-1', run: { runId: 'run-1', seq: 1 } })
    now += 60_000
    begin(journal, 'lost', { token: 'sent-2', run: { runId: 'run-1', seq: 2 } })
    journal.lost('lost')
    now += TRUSTED_MS
    begin(journal, 'flying', { token: 'sent-3' })
    const settledAt = new Date(now).toISOString()
    expect(journal.settle('p1', 'acme', 'sent-2')).toEqual([
      { id: 'old', outcome: 'rotated', at: settledAt, run: { runId: 'run-1', seq: 1 } },
      { id: 'lost', outcome: 'not_rotated', at: settledAt, run: { runId: 'run-1', seq: 2 } },
    ])
    expect(stateOf('old')).toBeUndefined()
    expect(stateOf('flying')).toBe('sending')
    // The dead process's rotation is presumed unknown (an entry written), then settled.
    expect(activity.get('old')).toMatchObject({ outcome: 'unknown', settledOutcome: 'rotated', settledAt })
    expect(activity.get('lost')).toBeUndefined()
    expect(heard).toEqual([
      `unknown run-1#1: ${STOPPED_WHILE_SENDING('2026-03-01T10:00:00.000Z')}`,
      `settled run-1#1 rotated: ${settledMessage('rotated', settledAt)}`,
      `settled run-1#2 not_rotated: ${settledMessage('not_rotated', settledAt)}`,
    ])
    expect(settledMessage('rotated', settledAt)).toMatch(/^The rotation happened \(confirmed at \d\d:\d\d\)/)
    expect(settledMessage('not_rotated', settledAt)).toMatch(/^The rotation did not happen \(checked at \d\d:\d\d\)/)
    expect(STOPPED_WHILE_SENDING(settledAt)).toMatch(/^Embed Console stopped while this rotation was being sent \(at \d\d:\d\d\)/)
  })

  it('settles without a listener, and a rotation outside any run tells no run', () => {
    begin(journalOf('dead'), 'r1', { run: { runId: 'run-1', seq: 1 } })
    now += TRUSTED_MS
    expect(journal.settle('p1', 'acme', 'x')).toHaveLength(1)
    const { heard, listener } = recorder()
    journal.listen(listener)
    begin(journalOf('dead'), 'r2')
    now += TRUSTED_MS
    expect(journal.settle('p1', 'acme', 'x')).toEqual([expect.objectContaining({ id: 'r2', run: null })])
    expect(heard).toEqual([])
  })
})
