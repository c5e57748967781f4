import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { addOperator, migrateTeam } from '../../../src-main/team/team-admin'
import { TeamLink } from '../../../src-main/team/team-link'
import { migrateTeamSchema, TEAM_MIGRATIONS } from '../../../src-main/team/team-schema'
import { startPostgres } from '../../helpers/postgres'
import { loginsEndedAfterEach, publishedCall, recordCalls, sqlState } from '../../helpers/team'

/*
 * Two teams on one Postgres cluster, each with its own database and its own admin (CREATEROLE,
 * owner of that database, not a superuser: as docs/team-mode.md has the DBA make them). Roles
 * are per team database: one team's operators and admin reach nothing of the other's, even when
 * a careless DBA lets everyone connect everywhere. Teams of schema version 1 (cluster-wide
 * roles) are separated by the upgrade, and no new team is made while one of them is left.
 */

const started = await startPostgres()
if (typeof started === 'string') console.warn(`Team-mode tests skipped: ${started}.`)
const cluster = typeof started === 'string' ? null : started
afterAll(() => cluster?.stop())

const connect = loginsEndedAfterEach()

const urlOf = (user: string, password: string, database: string) => cluster!.url(user, password).replace(/\/embed_team$/, `/${database}`)

const login = (user: string, password: string, database: string) => connect(urlOf(user, password, database))

const record = (client: pg.Client, groupId: string) =>
  recordCalls(client, [publishedCall({ operation: 'update', groupId, group: undefined })])

describe.skipIf(!cluster)('two teams on one cluster', () => {
  it(
    'each team’s operators and admin reach only their own database: no connection to the other’s, and no privilege there when a DBA lets everyone connect',
    { timeout: 60_000 },
    async () => {
      for (const team of ['one', 'two']) {
        await cluster!.query(`CREATE ROLE admin_${team} LOGIN CREATEROLE PASSWORD 'admin-${team}-pw'`)
        await cluster!.query(`CREATE DATABASE team_${team} OWNER admin_${team}`)
      }
      const one = urlOf('admin_one', 'admin-one-pw', 'team_one')
      const two = urlOf('admin_two', 'admin-two-pw', 'team_two')
      expect(await migrateTeam(one)).toMatchObject({ from: 0, to: 2, notes: [] })
      const second = await migrateTeam(two)
      expect(second).toMatchObject({ from: 0, to: 2 })
      // On Postgres 15 and older the admin is told CREATEROLE reaches across teams.
      const version = Number((await cluster!.query<{ v: string }>("SELECT current_setting('server_version_num') AS v")).rows[0]!.v)
      if (version < 160000)
        expect(second.notes).toEqual([
          expect.stringMatching(/^Another Embed Console team shares this cluster \(embed_console_team_one_owner\)/),
        ])
      const opsOne = await addOperator({ url: one, name: 'ops-one', resetPassword: false })
      const opsTwo = await addOperator({ url: two, name: 'ops-two', resetPassword: false })

      await record(await login('ops-one', opsOne.password, 'team_one'), 'theirs')
      // Team two's operator and admin cannot even connect to team one's database...
      expect(await sqlState(login('ops-two', opsTwo.password, 'team_one'))).toBe('42501')
      expect(await sqlState(login('admin_two', 'admin-two-pw', 'team_one'))).toBe('42501')
      const link = new TeamLink({ url: cluster!.url('ops-two').replace(/\/embed_team$/, '/team_one'), user: 'ops-two' }, opsTwo.password)
      await expect(link.whoami()).rejects.toThrow(
        '“ops-two” may not connect to this team database: only its own team’s roles may. Ask its admin for `embed-console team add-operator ops-two`.',
      )
      await link.close()

      // ...and when a careless DBA lets everyone connect everywhere, they can do nothing there.
      await cluster!.query('GRANT CONNECT ON DATABASE team_one TO PUBLIC')
      const intruder = await login('ops-two', opsTwo.password, 'team_one')
      const admin = await login('admin_two', 'admin-two-pw', 'team_one')
      expect({
        record: await sqlState(record(intruder, 'mine now')),
        read: await sqlState(intruder.query('SELECT * FROM embed_console.activity')),
        claim: await sqlState(
          intruder.query(
            "SELECT * FROM embed_console.claim_group('https://api.example.com', 'g', gen_random_uuid(), repeat('a', 64), 'h', 'h', NULL, NULL, 1000)",
          ),
        ),
        ownerRole: await sqlState(admin.query('SET ROLE embed_console_team_one_owner')),
        operatorRole: await sqlState(admin.query('SET ROLE embed_console_team_one_operator')),
        rewrite: await sqlState(admin.query("UPDATE embed_console.activity SET actor = 'admin_two'")),
        share: await sqlState(
          admin.query(
            "SELECT embed_console.upsert_profile(gen_random_uuid(), 'Evil', 'https://evil.example.com', 15, '', 'customer', false)",
          ),
        ),
      }).toEqual({
        record: '42501',
        read: '42501',
        claim: '42501',
        ownerRole: '42501',
        operatorRole: '42501',
        rewrite: '42501',
        share: '42501',
      })
      const members = await cluster!.query<{ member: string; role: string }>(
        `SELECT m.rolname AS member, r.rolname AS role FROM pg_auth_members a JOIN pg_roles m ON m.oid = a.member JOIN pg_roles r ON r.oid = a.roleid
          WHERE r.rolname LIKE 'embed_console_team_one_%' AND m.rolname IN ('ops-two', 'admin_two')`,
      )
      expect(members.rows).toEqual([])
      // Team one's audit log is its own operator's alone.
      const readOne = await login('ops-one', opsOne.password, 'team_one')
      expect((await readOne.query('SELECT actor, group_id FROM embed_console.activity')).rows).toEqual([
        { actor: 'ops-one', group_id: 'theirs' },
      ])

      // An admin cannot hand one team's operator to another: role names are the cluster's.
      await expect(addOperator({ url: one, name: 'ops-two', resetPassword: true })).rejects.toThrow(
        'The role “ops-two” is not an operator of this team (role names are shared by every database on the cluster): choose another name.',
      )
      await login('ops-two', opsTwo.password, 'team_two')
    },
  )

  it(
    'teams of schema version 1 (one set of cluster-wide roles) are separated by the upgrade; no new team is made while one is left on version 1',
    { timeout: 60_000 },
    async () => {
      for (const name of ['legacy_one', 'legacy_two']) {
        await cluster!.query(`CREATE DATABASE ${name}`)
        const admin = new pg.Client({ connectionString: urlOf('postgres', cluster!.adminPassword, name) })
        await admin.connect()
        await migrateTeamSchema(admin, TEAM_MIGRATIONS.slice(0, 1))
        await admin.end()
      }
      // Version 1's operators: members of one cluster-wide role, which both databases grant.
      for (const name of ['lop_one', 'lop_two'])
        await cluster!.query(`CREATE ROLE ${name} LOGIN PASSWORD '${name}-pw' IN ROLE embed_console_operator`)
      await record(await login('lop_one', 'lop_one-pw', 'legacy_one'), 'one')
      await record(await login('lop_two', 'lop_two-pw', 'legacy_two'), 'two')
      // The hole version 1 left: team two's operator may write team one's audit log.
      const across = await login('lop_two', 'lop_two-pw', 'legacy_one')
      expect((await across.query("SELECT has_function_privilege('embed_console.record_calls(jsonb)', 'EXECUTE') AS can")).rows).toEqual([
        { can: true },
      ])
      await across.end()

      await cluster!.query('CREATE DATABASE brand_new')
      const brandNew = urlOf('postgres', cluster!.adminPassword, 'brand_new')
      await expect(migrateTeam(brandNew)).rejects.toThrow(
        /^Another team database on this cluster \(legacy_one, legacy_two\) still uses the cluster-wide roles of Embed Console schema version 1: migrate it first/,
      )

      const first = await migrateTeam(urlOf('postgres', cluster!.adminPassword, 'legacy_one'))
      expect(first).toMatchObject({ from: 1, to: 2 })
      expect(first.notes).toContain(
        "Not carried over: lop_two (an Embed Console operator of this cluster who never wrote in legacy_one, and may be another team's). If they are this team's, run `embed-console team add-operator lop_two --reset-password`.",
      )
      await record(await login('lop_one', 'lop_one-pw', 'legacy_one'), 'one again')
      expect(await sqlState(login('lop_two', 'lop_two-pw', 'legacy_one'))).toBe('42501')

      await migrateTeam(urlOf('postgres', cluster!.adminPassword, 'legacy_two'))
      await record(await login('lop_two', 'lop_two-pw', 'legacy_two'), 'two again')
      expect(await sqlState(login('lop_one', 'lop_one-pw', 'legacy_two'))).toBe('42501')
      // No database uses the cluster-wide roles any more: they are gone, and a new team may be made.
      expect(
        (
          await cluster!.query(
            "SELECT rolname FROM pg_roles WHERE rolname IN ('embed_console_owner', 'embed_console_operator', 'embed_console_admin')",
          )
        ).rows,
      ).toEqual([])
      expect(await migrateTeam(brandNew)).toMatchObject({ from: 0, to: 2 })
    },
  )

  it('a database that takes the name of a team database renamed away is refused its roles (they are the other one’s), said loudly', async () => {
    await cluster!.query('CREATE DATABASE renamed')
    await migrateTeam(urlOf('postgres', cluster!.adminPassword, 'renamed'))
    await cluster!.query('ALTER DATABASE renamed RENAME TO renamed_old')
    await cluster!.query('CREATE DATABASE renamed')
    await expect(migrateTeam(urlOf('postgres', cluster!.adminPassword, 'renamed'))).rejects.toThrow(
      "The role embed_console_renamed_owner already serves another database on this cluster (renamed_old): one team's roles never reach another team. Rename this database (or that one), then migrate again. Nothing was changed.",
    )
  })
})
