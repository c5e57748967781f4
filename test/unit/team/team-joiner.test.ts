import { randomUUID } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { main } from '../../../src-main/cli/index'
import type { CliIo } from '../../../src-main/cli/usage'
import { serverKey } from '../../../src-main/team/team-url'
import { closedAfterEach, joinedFolder, openFolder, profileIdOf, type TeamCluster, teamForThisFile } from '../../helpers/team'

/*
 * A machine that joins a team that has worked for a while: every profile it has, shares or
 * creates later for a server the team knows holds the team's whole catalog of it, whether the
 * profile was there before the first pull, arrived with it (shared), or came after.
 */

const team = await teamForThisFile()
const closers = closedAfterEach()

const quiet = (): CliIo => ({ env: {}, stdout: () => {}, stderr: () => {}, stdin: async () => '' })

/** The team's existing catalog: `count` groups on `baseUrl`'s server, published by another operator, more than a page of them. */
async function existingCatalog(baseUrl: string, count: number, by: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: (await (team as TeamCluster).operator(by)).url })
  await client.connect()
  const ids = Array.from({ length: count }, (_, index) => `known-${String(index).padStart(4, '0')}`)
  for (let start = 0; start < count; start += 500) {
    const events = ids.slice(start, start + 500).map((id) => ({
      kind: 'call',
      id: randomUUID(),
      calledAt: new Date().toISOString(),
      server: serverKey(baseUrl),
      profileName: 'Theirs',
      operation: 'getOrCreate',
      groupId: id,
      outcome: 'success',
      durationMs: 3,
      newUserGroup: true,
      group: { name: `Known ${id}`, properties: { plan: 'pro' }, tokenLast4: 'abcd', tokenSha256: 'a'.repeat(64) },
    }))
    await client.query('SELECT embed_console.record_calls($1::jsonb)', [JSON.stringify(events)])
  }
  await client.end()
  return ids
}

describe.skipIf(!team)('a machine that joins late', () => {
  it(
    'a shared profile, a profile created after joining and one pointed at the team’s server later each hold every group the team knows',
    { timeout: 120_000 },
    async () => {
      const baseUrl = 'https://api.joiner.example.com'
      const ids = await existingCatalog(baseUrl, 1_100, 'ops-before')
      expect(
        await main(
          ['team', 'share-profile', 'Shared prod', '--base-url', baseUrl, '--environment', 'customer', '--url', team!.adminUrl],
          quiet(),
        ),
      ).toBe(0)
      const ops = await (team as TeamCluster).operator('ops-joiner')
      // Joins with a profile of its own on another server: the team's groups are not its business.
      const dataDir = await joinedFolder({
        operatorUrl: ops.url,
        baseUrl: 'https://elsewhere.example.com',
        apiToken: 'api-token-x',
        profileName: 'Mine',
      })
      const services = await openFolder(dataDir)
      closers.push(() => services.close())
      const groupsOf = (profileId: string) =>
        services.db
          .all<{ group_id: string }>('SELECT group_id FROM catalog WHERE profile_id = ? ORDER BY group_id', profileId)
          .map((row) => row.group_id)

      // Arrived with the first pull, after the catalog had gone by.
      const shared = services.profiles.list().find((profile) => profile.name === 'Shared prod')!
      expect(groupsOf(shared.id)).toEqual(ids)
      expect(groupsOf(profileIdOf(services, 'Mine'))).toEqual([])
      const entry = services.db.get<{ name: string; properties: string }>(
        'SELECT name, properties FROM catalog WHERE profile_id = ? AND group_id = ?',
        shared.id,
        'known-0042',
      )
      expect(entry).toEqual({ name: 'Known known-0042', properties: '{"plan":"pro"}' })

      // Created after joining, for the same server (another spelling of it): filled by the next pull.
      const later = await services.profiles.create({
        name: 'Later',
        baseUrl: 'HTTPS://API.joiner.example.com/',
        timeoutSeconds: 5,
        environmentLabel: '',
        apiToken: 'api-token-y',
        tokenStorage: 'file',
      })
      await services.team.pull()
      expect(groupsOf(later.id)).toEqual(ids)

      // Pointed at the team's server later.
      await services.profiles.update(profileIdOf(services, 'Mine'), { baseUrl })
      await services.team.pull()
      expect(groupsOf(profileIdOf(services, 'Mine'))).toEqual(ids)
    },
  )

  it(
    'in the app, a profile saved for a server the team knows gets its catalog without waiting for the next pull',
    { timeout: 60_000 },
    async () => {
      const baseUrl = 'https://api.app-joiner.example.com'
      const ids = await existingCatalog(baseUrl, 30, 'ops-before-app')
      const ops = await (team as TeamCluster).operator('ops-app-joiner')
      const dataDir = join(await mkdtemp(join(tmpdir(), 'ec-app-joiner-')), 'data')
      const services = await openFolder(dataDir)
      closers.push(() => services.close())
      await services.team.join(ops.url)
      const created = (await services.router.dispatch(
        'profiles.create',
        {
          name: 'Fresh',
          baseUrl,
          timeoutSeconds: 5,
          environmentLabel: '',
          environmentKind: 'customer',
          apiToken: 'api-token-z',
          tokenStorage: 'file',
        },
        { transport: 'test' },
      )) as { ok: true; value: { id: string } }
      expect(created.ok).toBe(true)
      await expect
        .poll(() => services.db.get<{ n: number }>('SELECT count(*) AS n FROM catalog WHERE profile_id = ?', created.value.id)!.n, {
          timeout: 10_000,
        })
        .toBe(ids.length)
    },
  )
})
