import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'
import { fingerprintOf, loginsEndedAfterEach, publishedCall, recordCalls, type TeamCluster, teamForThisFile } from '../../helpers/team'

/*
 * A hostile operator: her own database login, psql in hand (a pg client here, never the app),
 * and every id she can read or guess of her teammates'. Every function an operator may execute
 * is called as her with someone else's claims, leases, calls and settlements: each is refused
 * or harmless, and the teammate's own calls go on as if she were not there.
 */

const team = await teamForThisFile()

const login = loginsEndedAfterEach()

/** The SQLSTATE and sentence a statement failed with, or 'no error'. */
async function refusal(work: Promise<unknown>): Promise<{ code: string; message: string } | 'no error'> {
  try {
    await work
  } catch (error) {
    return { code: String((error as { code?: string }).code), message: (error as Error).message }
  }
  return 'no error'
}

const fingerprint = fingerprintOf
const SERVER = 'https://api.hostile.example.com'
const call = (overrides: Record<string, unknown> = {}) => publishedCall({ server: SERVER, ...overrides })
const record = recordCalls

const claim = (
  by: pg.Client,
  group: string,
  claimId: string,
  sent: string,
  options: { run?: string; holder?: string; epoch?: number; ttl?: number } = {},
) =>
  by
    .query<{ outcome: string; actor: string | null }>(
      'SELECT outcome, actor FROM embed_console.claim_group($1, $2, $3, $4, $5, $6, $7, $8, $9)',
      [SERVER, group, claimId, sent, options.holder ?? 'holder', 'host', options.run ?? null, options.epoch ?? null, options.ttl ?? 30_000],
    )
    .then((result) => result.rows[0]!)

/** What the superuser sees: the truth, whatever an operator may read. */
const truth = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await team!.query<T>(sql, params)).rows

let alice: pg.Client
let bob: pg.Client
let carol: pg.Client
const urls: Record<'alice' | 'bob' | 'carol', string> = { alice: '', bob: '', carol: '' }

describe.skipIf(!team)('a hostile operator with her own login', () => {
  beforeAll(async () => {
    for (const name of ['alice', 'bob', 'carol'] as const) urls[name] = (await (team as TeamCluster).operator(name)).url
  })
  const connectAll = async () => {
    ;[alice, bob, carol] = [await login(urls.alice), await login(urls.bob), await login(urls.carol)]
  }

  it('cannot read the ids of others’ claims (the ids of the audit rows that will settle them), only who claimed what and when', async () => {
    await connectAll()
    await record(bob, [call({ groupId: 'unreadable' })])
    expect((await claim(bob, 'unreadable', randomUUID(), fingerprint('a'))).outcome).toBe('claimed')
    expect(await refusal(alice.query('SELECT claim_id FROM embed_console.claims'))).toMatchObject({ code: '42501' })
    expect(await refusal(alice.query('SELECT * FROM embed_console.claims'))).toMatchObject({ code: '42501' })
    expect(await refusal(alice.query('SELECT holder FROM embed_console.claims'))).toMatchObject({ code: '42501' })
    expect((await alice.query("SELECT group_key, state, actor FROM embed_console.claims WHERE group_key = 'unreadable'")).rows).toEqual([
      { group_key: 'unreadable', state: 'sending', actor: 'bob' },
    ])
  })

  it('publishing under another’s claim id is refused, naming its owner: the claim stays, a third operator is held off, and the owner’s real rotation lands with its token', async () => {
    await connectAll()
    await record(bob, [call({ groupId: 'swallowed' })])
    const bobsClaim = randomUUID()
    expect((await claim(bob, 'swallowed', bobsClaim, fingerprint('a'))).outcome).toBe('claimed')

    // Alice learned the id (she cannot read it; say it leaked) and publishes a fake rotation under it.
    const fake = call({
      id: bobsClaim,
      groupId: 'swallowed',
      operation: 'rotateToken',
      group: { tokenLast4: 'ffff', tokenSha256: fingerprint('f') },
    })
    expect(await refusal(record(alice, [fake]))).toEqual({
      code: 'EC001',
      message:
        'The team database refused this call’s record: its id is a rotation bob claimed: an operator records only calls of their own.',
    })
    // Nor can she give his claim back, or pass it off as hers.
    expect((await alice.query('SELECT embed_console.release_claim($1) AS released', [bobsClaim])).rows[0].released).toBe(false)
    expect(await claim(alice, 'swallowed', bobsClaim, fingerprint('a'))).toEqual({ outcome: 'held', actor: 'bob' })
    expect(await truth('SELECT actor, state FROM embed_console.claims WHERE claim_id = $1', [bobsClaim])).toEqual([
      { actor: 'bob', state: 'sending' },
    ])
    expect(await truth('SELECT count(*)::int AS n FROM embed_console.activity WHERE id = $1', [bobsClaim])).toEqual([{ n: 0 }])
    // A third operator's rotation of the group is not granted while bob's is in flight.
    expect(await claim(carol, 'swallowed', randomUUID(), fingerprint('a'))).toEqual({ outcome: 'held', actor: 'bob' })

    // Bob's real rotation arrives: written under his name, the claim settled, the catalog on his new token.
    const real = { ...fake, group: { tokenLast4: 'bbbb', tokenSha256: fingerprint('b') } }
    expect(await record(bob, [real])).toBe(1)
    expect(await truth('SELECT actor, outcome FROM embed_console.activity WHERE id = $1', [bobsClaim])).toEqual([
      { actor: 'bob', outcome: 'success' },
    ])
    expect(await truth('SELECT count(*)::int AS n FROM embed_console.claims WHERE claim_id = $1', [bobsClaim])).toEqual([{ n: 0 }])
    expect(
      await truth("SELECT token_sha256, rotated_by FROM embed_console.groups WHERE server = $1 AND group_id = 'swallowed'", [SERVER]),
    ).toEqual([{ token_sha256: fingerprint('b'), rotated_by: 'bob' }])
    // The dead token is refused to everyone now; the live one is claimable.
    expect(await claim(carol, 'swallowed', randomUUID(), fingerprint('a'))).toEqual({ outcome: 'stale', actor: 'bob' })
    expect((await claim(carol, 'swallowed', randomUUID(), fingerprint('b'))).outcome).toBe('claimed')
  })

  it('another’s published call can be neither rewritten, answered nor settled: each attempt raises, the row is unchanged', async () => {
    await connectAll()
    const unknown = call({
      groupId: 'settle-me',
      operation: 'rotateToken',
      outcome: 'unknown',
      errorCode: 'outcome_unknown',
      group: undefined,
    })
    const bobsClaim = unknown.id
    await record(bob, [call({ groupId: 'settle-me' })])
    expect((await claim(bob, 'settle-me', bobsClaim, fingerprint('a'))).outcome).toBe('claimed')
    expect(await record(bob, [unknown])).toBe(1)
    const sentence =
      'The team database refused this call’s record: its id is a call of bob in the audit log: an operator records only calls of their own.'
    for (const attempt of [
      { ...unknown, outcome: 'success', group: { tokenLast4: 'eeee', tokenSha256: fingerprint('e') } },
      { ...unknown, outcome: 'failure', message: 'rewritten by alice' },
      { kind: 'settled', id: unknown.id, outcome: 'not_rotated', at: new Date().toISOString() },
      { kind: 'settled', id: unknown.id, outcome: 'rotated', at: new Date().toISOString() },
    ])
      expect(await refusal(record(alice, [attempt]))).toEqual({ code: 'EC001', message: sentence })
    expect(await truth('SELECT actor, outcome, message, settled_outcome FROM embed_console.activity WHERE id = $1', [bobsClaim])).toEqual([
      { actor: 'bob', outcome: 'unknown', message: null, settled_outcome: null },
    ])
    expect(await truth('SELECT actor, state FROM embed_console.claims WHERE claim_id = $1', [bobsClaim])).toEqual([
      { actor: 'bob', state: 'unknown' },
    ])
    expect(await truth('SELECT count(*)::int AS n FROM embed_console.retired_tokens WHERE group_id = $1', ['settle-me'])).toEqual([
      { n: 0 },
    ])
    // Bob settles his own, once.
    expect(await record(bob, [{ kind: 'settled', id: unknown.id, outcome: 'rotated', at: new Date().toISOString() }])).toBe(1)
    expect(await truth('SELECT settled_outcome FROM embed_console.activity WHERE id = $1', [bobsClaim])).toEqual([
      { settled_outcome: 'rotated' },
    ])
  })

  it('another’s run lease can be neither taken, renewed, freed nor used to fence a claim: her calls touch only runs of her own', async () => {
    await connectAll()
    const acquire = (by: pg.Client, holder: string, ttl = 30_000) =>
      by
        .query<{ epoch: string | null; actor: string }>(
          "SELECT epoch, actor FROM embed_console.acquire_run('nightly.csv', 'The run of nightly.csv', $1, 7, 'host', 'cli', $2)",
          [holder, ttl],
        )
        .then((result) => result.rows[0]!)
    const bobsLease = async () =>
      (
        await truth<{ lease_holder: string | null; lease_epoch: string; lease_expires_at: Date }>(
          "SELECT lease_holder, lease_epoch, lease_expires_at FROM embed_console.runs WHERE id = 'nightly.csv' AND lease_actor = 'bob'",
        )
      )[0]!
    expect(await acquire(bob, 'bob-holder')).toEqual({ epoch: '1', actor: 'bob' })
    const before = await bobsLease()

    // She reads his holder id and epoch (they are readable) and uses them.
    expect((await alice.query("SELECT lease_holder, lease_epoch FROM embed_console.runs WHERE lease_actor = 'bob'")).rows).toEqual([
      { lease_holder: 'bob-holder', lease_epoch: '1' },
    ])
    expect(
      (await alice.query("SELECT embed_console.renew_run('nightly.csv', 'bob-holder', 1, 2000000000) AS renewed")).rows[0].renewed,
    ).toBe(false)
    expect((await alice.query("SELECT embed_console.release_run('nightly.csv', 'bob-holder', 1) AS released")).rows[0].released).toBe(false)
    expect(await claim(alice, 'fenced', randomUUID(), fingerprint('a'), { run: 'nightly.csv', holder: 'bob-holder', epoch: 1 })).toEqual({
      outcome: 'lease_lost',
      actor: null,
    })
    // Taking the run as herself, even with his holder id, is a run of her own: his is untouched.
    expect(await acquire(alice, 'bob-holder')).toEqual({ epoch: '1', actor: 'alice' })
    expect(await bobsLease()).toEqual(before)
    expect(
      (await claim(bob, 'fenced', randomUUID(), fingerprint('a'), { run: 'nightly.csv', holder: 'bob-holder', epoch: 1 })).outcome,
    ).toBe('claimed')
    // And after his lease expires she still cannot take it: he takes it over himself, on the next epoch.
    await team!.query("UPDATE embed_console.runs SET lease_expires_at = now() - interval '1 second' WHERE id = 'nightly.csv'")
    expect(await acquire(alice, 'alice-2')).toEqual({ epoch: '2', actor: 'alice' })
    expect(await bobsLease()).toMatchObject({ lease_holder: 'bob-holder', lease_epoch: '1' })
    expect(await acquire(bob, 'bob-holder-2')).toEqual({ epoch: '2', actor: 'bob' })
  })

  it('nobody holds a group or a run longer than a call may take, whatever time to live they ask for', async () => {
    await connectAll()
    await record(alice, [call({ groupId: 'squatted' })])
    expect((await claim(alice, 'squatted', randomUUID(), fingerprint('a'), { ttl: 2_000_000_000 })).outcome).toBe('claimed')
    await alice.query("SELECT * FROM embed_console.acquire_run('squat.csv', 'squat', 'h', 1, 'host', 'cli', 2000000000)")
    const [held] = await truth<{ claim: number; run: number }>(
      `SELECT (SELECT extract(epoch FROM expires_at - now()) FROM embed_console.claims WHERE group_key = 'squatted')::int AS claim,
              (SELECT extract(epoch FROM lease_expires_at - now()) FROM embed_console.runs WHERE id = 'squat.csv')::int AS run`,
    )
    expect(held!.claim).toBeLessThanOrEqual(600)
    expect(held!.run).toBeLessThanOrEqual(300)
  })

  it('a call dated in the future is recorded at the server’s time at the latest, and cannot make its token the newest', async () => {
    await connectAll()
    await record(bob, [call({ groupId: 'dated', group: { tokenLast4: 'aaaa', tokenSha256: fingerprint('a') } })])
    // Alice claims to have fetched another token a year from now.
    const future = call({
      groupId: 'dated',
      calledAt: new Date(Date.now() + 365 * 86_400_000).toISOString(),
      group: { tokenLast4: 'dddd', tokenSha256: fingerprint('d') },
    })
    await record(alice, [future])
    const [stored] = await truth<{ late: boolean; recorded: boolean }>(
      'SELECT called_at <= now() AS late, recorded_at <= now() AS recorded FROM embed_console.activity WHERE id = $1',
      [future.id],
    )
    expect(stored).toEqual({ late: true, recorded: true })
    // A later honest fetch of the real token wins over hers.
    await record(bob, [call({ groupId: 'dated', group: { tokenLast4: 'aaaa', tokenSha256: fingerprint('a') } })])
    expect(await truth("SELECT token_sha256 FROM embed_console.groups WHERE server = $1 AND group_id = 'dated'", [SERVER])).toEqual([
      { token_sha256: fingerprint('a') },
    ])
  })

  it('a value the database cannot store is refused with a sentence naming it, never a bare cast error, and only that call fails', async () => {
    await connectAll()
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['uuid', { id: 'not-a-uuid' }, 'its id is not a UUID.'],
      ['int', { httpStatus: 10_000_000_000 }, 'its httpStatus (10000000000) is not a whole number from 0 to 999.'],
      ['int (a fraction)', { httpStatus: 200.5 }, 'its httpStatus (200.5) is not a whole number from 0 to 999.'],
      [
        'bigint',
        { group: { tokenSha256: fingerprint('a'), tokenLast4: 'aaaa', teamId: 1e30 } },
        'its teamId (1000000000000000000000000000000) is not a whole number from -9223372036854775808 to 9223372036854775807.',
      ],
      ['timestamptz', { calledAt: 'yesterday' }, 'its calledAt is not a time (ISO 8601 with an offset).'],
      [
        'timestamptz (a day that does not exist)',
        { calledAt: '2024-02-30T10:00:00Z' },
        'its calledAt (2024-02-30T10:00:00Z) is not a time that exists.',
      ],
      ['text', { message: 42 }, 'its message is not a string.'],
      [
        'a newer kind',
        { kind: 'deleted' },
        'its kind (deleted) is not one this schema knows: update Embed Console here, or the team database.',
      ],
    ]
    for (const [what, overrides, reason] of cases) {
      expect(await refusal(record(alice, [call(overrides)])), what).toEqual({
        code: 'EC001',
        message: `The team database refused this call’s record: ${reason}`,
      })
    }
    // A NUL cannot even reach the function: jsonb refuses the whole text (the client makes it storable first).
    expect(await refusal(record(alice, [call({ message: 'a\u0000b' })]))).toMatchObject({ code: '22P05' })
  })
})
