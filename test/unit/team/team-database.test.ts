import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { addOperator, migrateTeam } from '../../../src-main/team/team-admin'
import { migrateTeamSchema, TEAM_MIGRATIONS, TEAM_SCHEMA_VERSION } from '../../../src-main/team/team-schema'
import { AppErrorException } from '../../../src-shared/ipc/result'
import { fingerprintOf, loginsEndedAfterEach, publishedCall, sqlState, type TeamCluster, teamForThisFile } from '../../helpers/team'

/*
 * The shared database as an operator meets it: its schema, migrated once and version-checked;
 * login roles with generated passwords the server never sees; and an audit log nobody can
 * rewrite, delete or sign with another's name. Every refusal is the database's own.
 */

const team = await teamForThisFile()

const connect = loginsEndedAfterEach()

/** A database of its own in the cluster (for schema states the shared one must not have). */
async function freshDatabase(name: string): Promise<string> {
  await team!.query(`CREATE DATABASE ${name}`)
  return team!.adminUrl.replace(/\/embed_team$/, `/${name}`)
}

const fingerprint = fingerprintOf
const callEvent = publishedCall

describe.skipIf(!team)('the shared schema: migrated once, version-checked', () => {
  it('`team migrate` applies every version once; again it does nothing; two admins at once apply them once between them', async () => {
    const url = await freshDatabase('fresh_migrate')
    const [first, second] = await Promise.all([migrateTeam(url), migrateTeam(url)])
    expect([first.applied.length, second.applied.length].sort()).toEqual([0, TEAM_MIGRATIONS.length])
    expect(await migrateTeam(url)).toEqual({ from: TEAM_SCHEMA_VERSION, to: TEAM_SCHEMA_VERSION, applied: [], notes: [] })
    const admin = await connect(url)
    expect((await admin.query('SELECT version, applied_by FROM embed_console.schema_version ORDER BY version')).rows).toEqual(
      TEAM_MIGRATIONS.map(({ version }) => ({ version, applied_by: 'postgres' })),
    )
  })

  it('an admin who is no superuser (CREATEROLE, owner of the database), as docs/team-mode.md has the DBA make one, migrates and adds operators', async () => {
    await team!.query("CREATE ROLE embed_admin LOGIN CREATEROLE PASSWORD 'admin-password'")
    await team!.query('CREATE DATABASE admin_owned OWNER embed_admin')
    const url = team!.url('embed_admin', 'admin-password').replace(/\/embed_team$/, '/admin_owned')
    expect(await migrateTeam(url)).toMatchObject({ from: 0, to: TEAM_SCHEMA_VERSION })
    const operator = await addOperator({ url, name: 'ops-of-admin', resetPassword: false })
    const client = await connect(team!.url('ops-of-admin', operator.password).replace(/\/embed_team$/, '/admin_owned'))
    await client.query('SELECT embed_console.record_calls($1::jsonb)', [JSON.stringify([callEvent()])])
    expect((await client.query('SELECT actor FROM embed_console.activity')).rows).toEqual([{ actor: 'ops-of-admin' }])
    expect(await sqlState(client.query('DELETE FROM embed_console.activity'))).toBe('42501')
  })

  it('a migration that fails leaves the database as it was (one transaction)', async () => {
    const url = await freshDatabase('fresh_failing')
    const admin = await connect(url)
    const broken = [
      ...TEAM_MIGRATIONS,
      { version: TEAM_SCHEMA_VERSION + 1, name: 'broken', sql: 'CREATE TABLE embed_console.fine (id int); SELECT no_such_function();' },
    ]
    expect(await sqlState(migrateTeamSchema(admin, broken))).toBe('42883')
    expect((await admin.query("SELECT to_regclass('embed_console.schema_version') AS found")).rows[0].found).toBeNull()
  })

  it('a database newer than this Embed Console is refused by migrate, and nothing is changed', async () => {
    const url = await freshDatabase('fresh_newer')
    await migrateTeam(url)
    const admin = await connect(url)
    await admin.query("INSERT INTO embed_console.schema_version (version, name) VALUES (99, 'from the future')")
    const refusal = await migrateTeam(url).catch((error: unknown) => error as AppErrorException)
    expect(refusal).toBeInstanceOf(AppErrorException)
    expect((refusal as AppErrorException).message).toBe(
      `The team database is at schema version 99, newer than this Embed Console knows (${TEAM_SCHEMA_VERSION}): update Embed Console before migrating. Nothing was changed.`,
    )
    expect((await admin.query('SELECT max(version) AS v FROM embed_console.schema_version')).rows[0].v).toBe(99)
  })
})

describe.skipIf(!team)('operators: login roles with generated passwords', () => {
  it('add-operator creates a role that logs in with the password printed once; the server holds only its SCRAM verifier', async () => {
    const operator = await addOperator({ url: team!.adminUrl, name: 'ops-pw', resetPassword: false })
    expect(operator.password).toMatch(/^[A-Za-z0-9_-]{32}$/)
    const client = await connect(team!.url('ops-pw', operator.password))
    expect((await client.query('SELECT session_user AS user')).rows[0].user).toBe('ops-pw')
    const stored = (await team!.query<{ rolpassword: string }>("SELECT rolpassword FROM pg_authid WHERE rolname = 'ops-pw'")).rows[0]!
      .rolpassword
    expect(stored).toMatch(/^SCRAM-SHA-256\$4096:/)
    expect(stored).not.toContain(operator.password)
    expect(await sqlState(connect(team!.url('ops-pw', 'a wrong password')))).toBe('28P01')
  })

  it('refuses a name taken (unless --reset-password, after which only the new password works) and a name that is not a role name', async () => {
    const first = await addOperator({ url: team!.adminUrl, name: 'ops-reset', resetPassword: false })
    await expect(addOperator({ url: team!.adminUrl, name: 'ops-reset', resetPassword: false })).rejects.toThrow(
      'A role named “ops-reset” exists already: pass --reset-password (Reset password in the app) to give it a new password.',
    )
    const second = await addOperator({ url: team!.adminUrl, name: 'ops-reset', resetPassword: true })
    expect(second.password).not.toBe(first.password)
    expect(await sqlState(connect(team!.url('ops-reset', first.password)))).toBe('28P01')
    await connect(team!.url('ops-reset', second.password))
    await expect(addOperator({ url: team!.adminUrl, name: 'Robert"); DROP TABLE x; --', resetPassword: false })).rejects.toThrow(
      /^An operator name is 1 to 63 lower-case letters/,
    )
    await team!.query('CREATE ROLE not_an_operator LOGIN')
    await expect(addOperator({ url: team!.adminUrl, name: 'not_an_operator', resetPassword: true })).rejects.toThrow(
      'The role “not_an_operator” is not an operator of this team (role names are shared by every database on the cluster): choose another name.',
    )
  })
})

describe.skipIf(!team)('the audit log cannot be rewritten, deleted or forged', () => {
  it('an operator has no INSERT, UPDATE, DELETE or TRUNCATE on any team table, nor the admin’s function, nor another identity', async () => {
    const ops = await (team as TeamCluster).operator('ops-grants')
    await (team as TeamCluster).operator('ops-other')
    const client = await connect(ops.url)
    await client.query('SELECT embed_console.record_calls($1::jsonb)', [JSON.stringify([callEvent()])])
    const refusals = {
      insert: await sqlState(
        client.query(
          "INSERT INTO embed_console.activity (id, actor, recorded_at, called_at, server, profile_name, operation, outcome, duration_ms) VALUES (gen_random_uuid(), 'ops-other', now(), now(), 's', 'p', 'update', 'success', 1)",
        ),
      ),
      updateActor: await sqlState(client.query("UPDATE embed_console.activity SET actor = 'ops-other'")),
      updateOutcome: await sqlState(client.query("UPDATE embed_console.activity SET outcome = 'failure'")),
      delete: await sqlState(client.query('DELETE FROM embed_console.activity')),
      truncate: await sqlState(client.query('TRUNCATE embed_console.activity')),
      catalog: await sqlState(client.query("UPDATE embed_console.groups SET token_sha256 = repeat('b', 64)")),
      claims: await sqlState(client.query('DELETE FROM embed_console.claims')),
      runs: await sqlState(client.query('UPDATE embed_console.runs SET lease_holder = NULL')),
      sharedProfile: await sqlState(
        client.query("SELECT embed_console.upsert_profile(gen_random_uuid(), 'P', 'https://x', 15, '', 'customer', false)"),
      ),
      newTable: await sqlState(client.query('CREATE TABLE embed_console.mine (id int)')),
      setRole: await sqlState(client.query('SET ROLE "ops-other"')),
      sessionAuthorization: await sqlState(client.query('SET SESSION AUTHORIZATION "ops-other"')),
    }
    expect(refusals).toEqual(Object.fromEntries(Object.keys(refusals).map((key) => [key, '42501'])))
    expect((await client.query('SELECT count(*)::int AS n FROM embed_console.activity')).rows[0].n).toBeGreaterThan(0)
  })

  it('the actor is the session’s login role whatever the event says; a published call is never rewritten, and only its own operator may tell an unknown one’s outcome', async () => {
    const ops = await (team as TeamCluster).operator('ops-actor')
    const other = await (team as TeamCluster).operator('ops-actor-2')
    const client = await connect(ops.url)
    const otherClient = await connect(other.url)
    const record = (by: pg.Client, events: unknown[]) =>
      by.query<{ n: number }>('SELECT embed_console.record_calls($1::jsonb) AS n', [JSON.stringify(events)])
    const row = async (id: string) =>
      (await client.query('SELECT actor, outcome, settled_outcome FROM embed_console.activity WHERE id = $1', [id])).rows[0]

    const forged = callEvent({ actor: 'ops-actor-2' })
    await record(client, [forged])
    expect(await row(forged.id)).toEqual({ actor: 'ops-actor', outcome: 'success', settled_outcome: null })

    // A retry of the same event, or a rewrite of it, changes nothing.
    expect((await record(client, [{ ...forged, outcome: 'failure', message: 'rewritten' }])).rows[0]!.n).toBe(0)
    expect(await row(forged.id)).toMatchObject({ outcome: 'success' })

    // An unknown rotation: another operator can neither answer it nor settle it (refused, with
    // the owner named); its own operator can, once.
    const unknown = callEvent({ operation: 'rotateToken', outcome: 'unknown', errorCode: 'outcome_unknown', group: undefined })
    await record(client, [unknown])
    for (const answer of [
      { ...unknown, outcome: 'success' },
      { kind: 'settled', id: unknown.id, outcome: 'rotated', at: new Date().toISOString() },
    ])
      await expect(record(otherClient, [answer])).rejects.toThrow(
        'The team database refused this call’s record: its id is a call of ops-actor in the audit log: an operator records only calls of their own.',
      )
    expect(await row(unknown.id)).toEqual({ actor: 'ops-actor', outcome: 'unknown', settled_outcome: null })
    await record(client, [{ kind: 'settled', id: unknown.id, outcome: 'not_rotated', at: new Date().toISOString() }])
    await record(client, [{ kind: 'settled', id: unknown.id, outcome: 'rotated', at: new Date().toISOString() }])
    expect(await row(unknown.id)).toEqual({ actor: 'ops-actor', outcome: 'unknown', settled_outcome: 'not_rotated' })
  })

  it('a claim takes a token’s fingerprint, never the token', async () => {
    const ops = await (team as TeamCluster).operator('ops-fp')
    const client = await connect(ops.url)
    const state = await sqlState(
      client.query('SELECT * FROM embed_console.claim_group($1, $2, $3, $4, $5, $6, NULL, NULL, 30000)', [
        'https://x',
        'g',
        randomUUID(),
        'a-real-looking-group-token-1234',
        'holder',
        'host',
      ]),
    )
    expect(state).toBe('22023')
  })
})

describe.skipIf(!team)('per-group claims', () => {
  const claim = (client: pg.ClientBase | pg.Pool, group: string, sent: string, holder = 'holder') =>
    client
      .query<{ outcome: string; actor: string }>(
        'SELECT outcome, actor FROM embed_console.claim_group($1, $2, $3, $4, $5, $6, NULL, NULL, 30000)',
        ['https://race.example.com', group, randomUUID(), sent, holder, 'host'],
      )
      .then((result) => result.rows[0]!)

  it('forty claims of one group at once from two operators on four connections: exactly one is granted, the others name its holder', async () => {
    const [a, b] = [await (team as TeamCluster).operator('ops-race-a'), await (team as TeamCluster).operator('ops-race-b')]
    const pools = [new pg.Pool({ connectionString: a.url, max: 2 }), new pg.Pool({ connectionString: b.url, max: 2 })]
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) => claim(pools[index % 2]!, 'contested', fingerprint('c'), `holder-${index}`)),
    ).finally(() => Promise.all(pools.map((pool) => pool.end())))
    const granted = answers.filter((answer) => answer.outcome === 'claimed')
    expect(granted).toHaveLength(1)
    expect(answers.filter((answer) => answer.outcome === 'held').every((answer) => answer.actor === granted[0]!.actor)).toBe(true)
    expect(answers.filter((answer) => answer.outcome === 'held')).toHaveLength(39)
  })

  it('a run’s row is claimed only under the run’s current lease: a holder that lost it to a takeover claims nothing', async () => {
    const ops = await (team as TeamCluster).operator('ops-fenced')
    const client = await connect(ops.url)
    const acquire = (holder: string) =>
      client
        .query<{ epoch: string | null }>(
          "SELECT epoch FROM embed_console.acquire_run('fenced-run', 'rows.csv', $1, 1, 'host', 'cli', 30000)",
          [holder],
        )
        .then((result) => result.rows[0]!.epoch)
    const claimRow = (group: string, holder: string, epoch: string) =>
      client
        .query<{ outcome: string }>('SELECT outcome FROM embed_console.claim_group($1, $2, $3, $4, $5, $6, $7, $8, 30000)', [
          'https://fenced.example.com',
          group,
          randomUUID(),
          fingerprint('f'),
          holder,
          'host',
          'fenced-run',
          epoch,
        ])
        .then((result) => result.rows[0]!.outcome)
    const first = await acquire('first')
    expect(first).toBe('1')
    expect(await acquire('second')).toBeNull()
    expect(await claimRow('fenced-1', 'first', first!)).toBe('claimed')
    // The first holder stalls past its lease; the second takes over (a new epoch).
    await team!.query("UPDATE embed_console.runs SET lease_expires_at = now() - interval '1 second' WHERE id = 'fenced-run'")
    const second = await acquire('second')
    expect(second).toBe('2')
    expect(await claimRow('fenced-2', 'first', first!)).toBe('lease_lost')
    expect(await claimRow('fenced-2', 'second', second!)).toBe('claimed')
  })

  it('a group whose token the team knows refuses a claim with another token, naming who rotated it', async () => {
    const ops = await (team as TeamCluster).operator('ops-stale')
    const client = await connect(ops.url)
    const rotation = callEvent({
      server: 'https://race.example.com',
      groupId: 'stale-group',
      operation: 'rotateToken',
      group: { tokenLast4: 'new1', tokenSha256: fingerprint('d') },
    })
    await client.query('SELECT embed_console.record_calls($1::jsonb)', [JSON.stringify([rotation])])
    expect(await claim(client, 'stale-group', fingerprint('e'))).toEqual({ outcome: 'stale', actor: 'ops-stale' })
    expect(await claim(client, 'stale-group', fingerprint('d'))).toEqual({ outcome: 'claimed', actor: 'ops-stale' })
  })
})
