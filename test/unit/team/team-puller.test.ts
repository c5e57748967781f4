import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { type AppServices, createAppServices } from '../../../src-main/app-services'
import { GroupCatalog } from '../../../src-main/catalog/group-catalog'
import type { SharedGroupRow, TeamLink } from '../../../src-main/team/team-link'
import { TeamPuller } from '../../../src-main/team/team-puller'

// The team database is stood in for by its two reads, held at a gate, so the order of a pull under
// way and a change committed meanwhile is the test's to choose (team-pull.test.ts runs the same
// puller against a real Postgres, where that order was left to chance and the test flaked).

let services: AppServices | undefined
afterEach(() => services?.close())

const row = (groupId: string, seq: number): SharedGroupRow =>
  ({
    server: 'https://api.example.com',
    group_id: groupId,
    name: groupId,
    environment_tag: 'Customer',
    team_id: null,
    properties: null,
    mapping: null,
    token_last4: null,
    token_sha256: null,
    changed_by: 'ops-a',
    changed_at: new Date(),
    rotated_by: null,
    rotated_at: null,
    change_xid: String(1000 + seq),
    change_seq: String(seq),
  }) as SharedGroupRow

it('a pull asked for while one is under way reads the team again after it: a change committed meanwhile is never missed', async () => {
  services = await createAppServices({ dataDir: await mkdtemp(join(tmpdir(), 'ec-puller-')), transport: 'browser', sandbox: false })
  const team: SharedGroupRow[] = [row('before', 1)]
  let release: () => void = () => {}
  let gate: Promise<void> | null = new Promise((resolve) => (release = resolve))
  let reads = 0
  const link = {
    async groupsChangedAfter(cursor: { xid: string; seq: string }) {
      reads += 1
      const answer = team.filter((shared) => Number(shared.change_xid) > Number(cursor.xid))
      if (gate) await gate
      return answer
    },
    async profilesChangedAfter() {
      return []
    },
  } as unknown as TeamLink
  const puller = new TeamPuller(services.db, link, new GroupCatalog(services.db), services.profiles)
  const seen = () =>
    services!.db.all<{ group_id: string }>('SELECT group_id FROM team_groups ORDER BY group_id').map((shared) => shared.group_id)

  const underWay = puller.pull() // reads the team now, answers when the gate opens
  team.push(row('committed-meanwhile', 2)) // another machine's flush lands after that read
  const asked = puller.pull()
  const alsoAsked = puller.pull()
  gate = null
  release()
  expect(await underWay).toEqual({ groups: 1, profiles: 0 })
  expect(await asked).toEqual({ groups: 1, profiles: 0 })
  expect(await alsoAsked).toEqual({ groups: 1, profiles: 0 })
  expect(seen()).toEqual(['before', 'committed-meanwhile'])
  expect(reads).toBe(2) // the two callers who asked meanwhile share one pull after it
})

it('merges a pull in slices, letting the event loop run between them: never a page, let alone a pull, in one go', async () => {
  services = await createAppServices({ dataDir: await mkdtemp(join(tmpdir(), 'ec-puller-slices-')), transport: 'browser', sandbox: false })
  await services.profiles.create({
    name: 'Same server',
    baseUrl: 'https://api.example.com',
    timeoutSeconds: 5,
    environmentLabel: '',
    apiToken: 'api-token-slices',
    tokenStorage: 'file',
  })
  const team = Array.from({ length: 2_000 }, (_, index) => row(`sliced-${String(index).padStart(4, '0')}`, index + 1))
  const link = {
    async groupsChangedAfter(cursor: { xid: string }, limit: number) {
      return team.filter((shared) => Number(shared.change_xid) > Number(cursor.xid)).slice(0, limit)
    },
    async profilesChangedAfter() {
      return []
    },
    async groupsOfServer() {
      return []
    },
  } as unknown as TeamLink
  // A clock that moves one millisecond each time it is read: a row costs one, a slice holds ten.
  let now = 0
  const puller = new TeamPuller(services.db, link, new GroupCatalog(services.db), services.profiles, {
    clock: () => (now += 1),
    sliceMs: 10,
  })
  let turns = 0
  let pulling = true
  const tick = () => {
    turns += 1
    if (pulling) setImmediate(tick)
  }
  setImmediate(tick)
  expect(await puller.pull()).toEqual({ groups: 2_000, profiles: 0 })
  pulling = false
  expect(services.db.get<{ n: number }>('SELECT count(*) AS n FROM catalog')!.n).toBe(2_000)
  // 2,000 rows in slices of ten: the event loop turned between them (four pages in one go each would give it four turns).
  expect(turns).toBeGreaterThanOrEqual(190)
})
