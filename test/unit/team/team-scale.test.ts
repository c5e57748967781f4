import { beforeAll, describe, expect, it } from 'vitest'
import { activityQuery, changesQuery } from '../../../src-main/team/team-link'
import type { TeamActivityQuery } from '../../../src-shared/team/schemas'
import { loginsEndedAfterEach, publishedCall, recordCalls, type TeamCluster, teamForThisFile } from '../../helpers/team'

/*
 * The team database at the size of a team that has worked for years: every filter the Team view
 * offers reads an index that leads with its column (EXPLAIN, with the planner's own statistics
 * of 60,000 audit rows), the actor list is a small table, a pull reads changes through its
 * index, and publishers do not wait for each other.
 */

const team = await teamForThisFile()

const login = loginsEndedAfterEach()

const ROWS = 60_000

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  Plans?: PlanNode[]
}

/** Every node of a plan, depth first. */
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)]

async function planOf(sql: string, params: unknown[]): Promise<PlanNode[]> {
  const { rows } = await team!.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${sql}`, params)
  return nodes(rows[0]!['QUERY PLAN'][0]!.Plan)
}

/** How the plan reads the audit log: each access to it, as "Seq Scan" or the index's name. */
const accesses = (plan: PlanNode[]) =>
  plan.flatMap((node) =>
    node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'activity'
      ? ['Seq Scan']
      : node['Index Name']?.startsWith('activity')
        ? [node['Index Name']]
        : [],
  )

describe.skipIf(!team)('the team database at scale', () => {
  beforeAll(async () => {
    // Eight operators and one who calls rarely; 5,000 groups; rotations 0.2 %, failures 2 %, unknown outcomes 0.1 %.
    await team!.query(`
      INSERT INTO embed_console.activity (id, actor, recorded_at, called_at, server, profile_name, operation, group_id, outcome, duration_ms)
      SELECT gen_random_uuid(), CASE WHEN i % 100 = 0 THEN 'ops-rare' ELSE 'ops-' || (i % 8) END,
             now() - (${ROWS} - i) * interval '1 second', now() - (${ROWS} - i) * interval '1 second',
             'https://api.example.com', 'Production',
             CASE WHEN i % 500 = 1 THEN 'rotateToken' WHEN i % 4 = 0 THEN 'update' ELSE 'getOrCreate' END,
             'group-' || (i * 7919 % 5000),
             CASE WHEN i % 1000 = 7 THEN 'unknown' WHEN i % 50 = 3 THEN 'failure' ELSE 'success' END, 5
        FROM generate_series(1, ${ROWS}) AS i`)
    await team!.query(
      'INSERT INTO embed_console.actors (actor, first_seen) SELECT DISTINCT actor, now() FROM embed_console.activity ON CONFLICT DO NOTHING',
    )
    // And a catalog of 20,000 groups (written by one transaction: as a migration or a big batch leaves them).
    await team!.query(`
      INSERT INTO embed_console.groups (server, group_id, changed_by, changed_at, change_seq, change_xid)
      SELECT 'https://api.example.com', 'group-' || i, 'ops-1', now(), nextval('embed_console.change_seq'), txid_current()
        FROM generate_series(1, 20000) AS i`)
    await team!.query('ANALYZE embed_console.activity')
    await team!.query('ANALYZE embed_console.groups')
  }, 60_000)

  it('each Team view filter, alone or with others, on its first page and further on, reads an index that leads with a filtered column, never a scan', async () => {
    const filters: Array<[keyof TeamActivityQuery, string, string]> = [
      ['groupId', 'group-42', 'activity_by_group'],
      ['outcome', 'unknown', 'activity_by_outcome'],
      ['operation', 'rotateToken', 'activity_by_operation'],
      ['actor', 'ops-rare', 'activity_by_actor'],
    ]
    const wanted: Array<{ query: TeamActivityQuery; indexes: string[] }> = [{ query: { limit: 100 }, indexes: ['activity_seq_key'] }]
    for (const [index, [key, value, name]] of filters.entries()) {
      wanted.push({ query: { limit: 100, [key]: value }, indexes: [name] })
      for (const [otherKey, otherValue, otherName] of filters.slice(index + 1))
        wanted.push({ query: { limit: 100, [key]: value, [otherKey]: otherValue }, indexes: [name, otherName] })
    }
    const problems: string[] = []
    for (const { query, indexes } of wanted) {
      for (const cursor of [undefined, 30_000]) {
        const { sql, params } = activityQuery({ ...query, ...(cursor ? { cursor } : {}) })
        const read = accesses(await planOf(sql, params))
        if (read.length === 0 || read.some((access) => !indexes.includes(access)))
          problems.push(`${JSON.stringify({ ...query, cursor })}: ${read.join(', ') || 'no access found'}`)
      }
    }
    expect(problems).toEqual([])
    // Common values too (most calls succeed, most are fetches): whatever the planner picks, never a scan.
    for (const common of [{ outcome: 'success' }, { operation: 'getOrCreate' }, { actor: 'ops-3' }] as const) {
      const { sql, params } = activityQuery({ limit: 100, ...common })
      expect(accesses(await planOf(sql, params)), JSON.stringify(common)).not.toContain('Seq Scan')
    }
  })

  it('the actor list is a small table that every first call fills, never a scan of the audit log', async () => {
    const plan = await planOf('SELECT actor FROM embed_console.actors ORDER BY actor', [])
    expect(plan.some((node) => node['Relation Name'] === 'activity' || node['Index Name']?.startsWith('activity'))).toBe(false)
    const newcomer = await login((await (team as TeamCluster).operator('ops-newcomer')).url)
    await recordCalls(newcomer, [publishedCall({ operation: 'update', groupId: 'g', group: undefined })])
    const { rows } = await newcomer.query<{ actor: string }>('SELECT actor FROM embed_console.actors ORDER BY actor')
    expect(rows.map((row) => row.actor)).toEqual([
      'ops-0',
      'ops-1',
      'ops-2',
      'ops-3',
      'ops-4',
      'ops-5',
      'ops-6',
      'ops-7',
      'ops-newcomer',
      'ops-rare',
    ])
  })

  it('a pull reads the changes through their index', async () => {
    for (const table of ['groups', 'profiles'] as const) {
      const { rows } = await team!.query<{ xid: string }>('SELECT max(change_xid)::text AS xid FROM embed_console.groups')
      const plan = await planOf(changesQuery(table), [rows[0]!.xid, '18000', 500])
      expect(plan.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name'])).toEqual([])
      if (table === 'groups') expect(plan.some((node) => node['Index Name'] === 'groups_by_change')).toBe(true)
    }
  })

  it('publishers do not wait for each other, and a pull never skips a change committed late', { timeout: 30_000 }, async () => {
    const operatorLogin = async (name: string) => login((await (team as TeamCluster).operator(name)).url)
    const [alice, bob, reader] = [await operatorLogin('ops-pub-a'), await operatorLogin('ops-pub-b'), await operatorLogin('ops-pub-c')]
    const fetched = (group: string) => [
      publishedCall({ groupId: group, newUserGroup: true, group: { tokenLast4: 'abcd', tokenSha256: 'c'.repeat(64) } }),
    ]
    const cursorNow = (
      await reader.query<{ xid: string; seq: string }>(
        'SELECT coalesce(max(change_xid), 0)::text AS xid, coalesce(max(change_seq), 0)::text AS seq FROM embed_console.groups',
      )
    ).rows[0]!
    const pulled = async () =>
      (await reader.query<{ group_id: string }>(changesQuery('groups'), [cursorNow.xid, cursorNow.seq, 100])).rows.map(
        (row) => row.group_id,
      )

    // Alice's publication is under way (its transaction open); Bob's finishes meanwhile, without waiting.
    await alice.query('BEGIN')
    await recordCalls(alice, fetched('slow-alice'))
    await bob.query("SET statement_timeout = '3s'")
    await recordCalls(bob, fetched('quick-bob'))
    // A pull now sees neither: Bob's change is after Alice's in the order, and Alice's may still commit.
    expect(await pulled()).toEqual([])
    await alice.query('COMMIT')
    expect(await pulled()).toEqual(['slow-alice', 'quick-bob'])
  })
})
