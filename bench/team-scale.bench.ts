import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import pg from 'pg'
import { afterAll, bench, describe } from 'vitest'
import { createAppServices } from '../src-main/app-services'
import { GroupCatalog } from '../src-main/catalog/group-catalog'
import { addOperator, migrateTeam } from '../src-main/team/team-admin'
import { activityQuery, TeamLink } from '../src-main/team/team-link'
import { TeamPuller } from '../src-main/team/team-puller'
import { startPostgres } from '../test/helpers/postgres'
import { addBenchProfile } from './lib/fixtures'
import { describeSpread, interleave, median, report, spread } from './lib/stats'

// The team database at a team's size: the Team view's filters at 205,000 audit rows (a group, a
// rare outcome, the actor list), against the same rows with schema version 1's indexes and its
// DISTINCT actor; and how long a pull of 21,500 groups holds the event loop, merging in slices
// against one transaction a page (its baseline), interleaved round by round.

const ROWS = 205_000
const GROUPS = 21_500
const ROUNDS = 7
const QUERIES = 20
const PULL_ROUNDS = 3
const SERVER = 'https://api.scale.example.com'

const cluster = await startPostgres()
const rows: Array<[string, string, string]> = []

/** 205,000 calls of 8 operators on 5,000 groups, one in a thousand of unknown outcome. */
const FILL = `
  INSERT INTO embed_console.activity (id, actor, recorded_at, called_at, server, profile_name, operation, group_id, outcome, duration_ms)
  SELECT gen_random_uuid(), 'ops-' || (i % 8), now() - (${ROWS} - i) * interval '1 second', now() - (${ROWS} - i) * interval '1 second',
         '${SERVER}', 'Production', CASE WHEN i % 20 = 0 THEN 'rotateToken' WHEN i % 4 = 0 THEN 'update' ELSE 'getOrCreate' END,
         'group-' || (i * 7919 % 5000), CASE WHEN i % 1000 = 7 THEN 'unknown' WHEN i % 50 = 3 THEN 'failure' ELSE 'success' END, 5
    FROM generate_series(1, ${ROWS}) AS i;
  INSERT INTO embed_console.actors (actor, first_seen) SELECT DISTINCT actor, now() FROM embed_console.activity;
  ANALYZE embed_console.activity;`

/** Schema version 1's indexes on the audit log: by actor, and by server and group (a group filter alone could not use it). */
const VERSION_1_INDEXES = `
  DROP INDEX embed_console.activity_by_group; DROP INDEX embed_console.activity_by_operation; DROP INDEX embed_console.activity_by_outcome;
  CREATE INDEX activity_by_server_group ON embed_console.activity (server, group_id, seq);
  ANALYZE embed_console.activity;`

if (typeof cluster === 'string') {
  rows.push(['team mode at scale', `skipped: ${cluster}`, ''])
} else {
  const databases = { current: 'scale_current', version1: 'scale_version1' } as const
  const clients: Record<keyof typeof databases, pg.Client> = {} as never
  for (const [kind, name] of Object.entries(databases) as Array<[keyof typeof databases, string]>) {
    await cluster.query(`CREATE DATABASE ${name}`)
    const url = cluster.adminUrl.replace(/\/embed_team$/, `/${name}`)
    await migrateTeam(url)
    clients[kind] = new pg.Client({ connectionString: url })
    await clients[kind].connect()
    await clients[kind].query(FILL)
    if (kind === 'version1') await clients[kind].query(VERSION_1_INDEXES)
  }
  const timed =
    (client: pg.Client, sql: string, params: unknown[] = []) =>
    async () => {
      const samples: number[] = []
      for (let index = 0; index < QUERIES; index++) {
        const started = performance.now()
        await client.query(sql, params)
        samples.push(performance.now() - started)
      }
      return median(samples)
    }
  const group = activityQuery({ groupId: 'group-4242', limit: 100 })
  const rare = activityQuery({ outcome: 'unknown', limit: 100 })
  const runs = await interleave(ROUNDS, {
    groupCurrent: timed(clients.current, group.sql, group.params),
    groupVersion1: timed(clients.version1, group.sql, group.params),
    rareCurrent: timed(clients.current, rare.sql, rare.params),
    rareVersion1: timed(clients.version1, rare.sql, rare.params),
    actorsCurrent: timed(clients.current, 'SELECT actor FROM embed_console.actors ORDER BY actor'),
    actorsVersion1: timed(clients.version1, 'SELECT DISTINCT actor FROM embed_console.activity ORDER BY actor'),
  })
  rows.push(
    [
      `a group filter, ${ROWS.toLocaleString('en')} audit rows, schema version 1's indexes (the baseline)`,
      describeSpread(spread(runs.groupVersion1), 'ms'),
      '',
    ],
    ['… with the index (group_id, seq)', describeSpread(spread(runs.groupCurrent), 'ms'), ''],
    ['a rare outcome (unknown, 0.1 %), version 1’s indexes', describeSpread(spread(runs.rareVersion1), 'ms'), ''],
    ['… with the index (outcome, seq)', describeSpread(spread(runs.rareCurrent), 'ms'), ''],
    ['the actor list, SELECT DISTINCT actor over the audit log (version 1)', describeSpread(spread(runs.actorsVersion1), 'ms'), ''],
    ['… from the actors table', describeSpread(spread(runs.actorsCurrent), 'ms'), ''],
  )
  for (const client of Object.values(clients)) await client.end()

  // A pull of 21,500 groups into a profile on their server, in slices and in one transaction a page.
  await migrateTeam(cluster.adminUrl)
  const { password } = await addOperator({ url: cluster.adminUrl, name: 'ops-scale', resetPassword: false })
  await cluster.query(`
    INSERT INTO embed_console.groups (server, group_id, name, properties, token_last4, token_sha256, changed_by, changed_at, change_seq, change_xid)
    SELECT '${SERVER}', 'group-' || i, 'Group ' || i, '{"plan":"pro"}', 'abcd', repeat('a', 64), 'ops-1', now(), nextval('embed_console.change_seq'), txid_current()
      FROM generate_series(1, ${GROUPS}) AS i`)
  const services = await createAppServices({
    dataDir: await mkdtemp(join(tmpdir(), 'ec-bench-team-scale-')),
    transport: 'browser',
    sandbox: false,
  })
  const profile = await addBenchProfile(services, { baseUrl: SERVER, apiToken: 'api-token-scale' })
  const link = new TeamLink({ url: cluster.url('ops-scale'), user: 'ops-scale' }, password)
  const catalog = new GroupCatalog(services.db)
  const pullOnce = (sliceMs: number) => async () => {
    services.db.run("DELETE FROM settings WHERE key IN ('team.sync', 'team.backfill')")
    services.db.run('DELETE FROM team_groups')
    catalog.removeProfile(profile.id)
    const delay = monitorEventLoopDelay({ resolution: 1 })
    delay.enable()
    const started = performance.now()
    await new TeamPuller(services.db, link, catalog, services.profiles, { sliceMs }).pull()
    const took = performance.now() - started
    delay.disable()
    return { longestMs: delay.max / 1e6, p99Ms: delay.percentile(99) / 1e6, took }
  }
  const pulls = await interleave(PULL_ROUNDS, { sliced: pullOnce(10), page: pullOnce(Number.POSITIVE_INFINITY) })
  rows.push(
    [
      `a pull of ${GROUPS.toLocaleString('en')} groups, one transaction a page of 500 (the baseline): the longest the event loop waited`,
      describeSpread(spread(pulls.page.map((pull) => pull.longestMs)), 'ms'),
      '',
    ],
    ['… in slices of 10 ms', describeSpread(spread(pulls.sliced.map((pull) => pull.longestMs)), 'ms'), '≤ 50 ms'],
    ['… the 99th percentile of its waits, a page at a time', describeSpread(spread(pulls.page.map((pull) => pull.p99Ms)), 'ms'), ''],
    ['… the 99th percentile, in slices', describeSpread(spread(pulls.sliced.map((pull) => pull.p99Ms)), 'ms'), ''],
    ['… the whole pull, a page at a time', describeSpread(spread(pulls.page.map((pull) => pull.took / 1000)), 's'), ''],
    ['… the whole pull, in slices', describeSpread(spread(pulls.sliced.map((pull) => pull.took / 1000)), 's'), ''],
  )
  await link.close()
  await services.close()
  await cluster.stop()
}

afterAll(() => {
  report(`Team mode at scale: interleaved rounds on a local Postgres, median (min, max)`, rows)
})

describe('team mode at scale', () => {
  // The figures are the interleaved rounds above; vitest bench needs one case to run the file.
  bench('report', () => {}, { iterations: 1, time: 0 })
})
