import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Libsql from 'libsql'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { tokenFingerprint } from '../../../src-main/groups/rotation-journal'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { serverKey } from '../../../src-main/team/team-url'
import { type FlakyOptions, type FlakyProxy, startFlakyProxy } from '../../helpers/flaky-proxy'
import { readSandboxData } from '../../helpers/sandbox-data'
import {
  cliProcess,
  closedAfterEach,
  joinedFolder,
  lastJson,
  letLocalLeasesExpire,
  letTeamLeasesExpire,
  openFolder,
  profileIdOf,
  type TeamCluster,
  teamForThisFile,
} from '../../helpers/team'

/*
 * Team mode when a process is killed -9: the outbox loses nothing and publishes nothing twice,
 * and a run's lease holder that dies mid-rotation is taken over without any group rotating twice,
 * in the team database as in the data folder.
 */

const team = await teamForThisFile()

const closers = closedAfterEach()

async function server(options: FlakyOptions = {}): Promise<{ sandbox: Sandbox; sandboxFile: string; proxy: FlakyProxy; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'ec-team-crash-'))
  const sandboxFile = join(dir, 'sandbox.db')
  const sandbox = await startSandbox({ dataFile: sandboxFile })
  closers.push(() => sandbox.close())
  const proxy = await startFlakyProxy(sandbox.baseUrl, () => null, options)
  closers.push(() => proxy.close())
  return { sandbox, sandboxFile, proxy, dir }
}

const sharedCount = async (sql: string, params: unknown[] = []) => Number((await team!.query<{ n: string }>(sql, params)).rows[0]!.n)

/** The data folder's database as another process reads it. */
function readFolder<T>(dataDir: string, sql: string): T[] {
  const db = new Libsql(join(dataDir, 'embed-console.db'), { readonly: true })
  try {
    return db.prepare(sql).all() as T[]
  } finally {
    db.close()
  }
}

describe.skipIf(!team)('the outbox through kill -9', () => {
  it(
    'a CLI run killed -9 three times while publishing: every call recorded reaches the audit log once, none is lost or duplicated',
    { timeout: 240_000 },
    async () => {
      const { proxy, dir, sandbox } = await server()
      const ops = await (team as TeamCluster).operator('ops-outbox')
      const dataDir = await joinedFolder({
        operatorUrl: ops.url,
        baseUrl: proxy.baseUrl,
        apiToken: sandbox.tokens.Customer,
        profileName: 'Ops',
      })
      const ids = Array.from({ length: 600 }, (_, index) => `outbox-${String(index).padStart(3, '0')}`)
      const file = join(dir, 'rows.csv')
      await writeFile(file, ['user_group_id', ...ids].join('\n'))
      const args = ['groups', 'apply', file, '--profile', 'Ops', '--json', '--concurrency', '4', '--data-dir', dataDir]
      const published = () => sharedCount("SELECT count(*) AS n FROM embed_console.activity WHERE actor = 'ops-outbox'")

      const kills: Array<{ published: number; waiting: number }> = []
      for (let round = 0; round < 3; round += 1) {
        const before = await published()
        const { child, exited } = await cliProcess(round === 0 ? args : [...args, '--resume'], closers)
        while ((await published()) < before + 80) await new Promise((next) => setTimeout(next, 5))
        child.kill('SIGKILL')
        expect((await exited).signal).toBe('SIGKILL')
        kills.push({
          published: await published(),
          waiting: readFolder<{ n: number }>(dataDir, 'SELECT count(*) AS n FROM team_outbox')[0]!.n,
        })
        letLocalLeasesExpire(dataDir)
        await letTeamLeasesExpire(team!)
      }
      const finished = await (await cliProcess([...args, '--resume'], closers)).exited
      expect(finished.code, finished.stderr).toBe(0)

      // What this folder recorded, and what the audit log received: the same calls, each once.
      const local = readFolder<{ id: string }>(dataDir, "SELECT id FROM activity WHERE operation = 'getOrCreate'").map((row) => row.id)
      const shared = (await team!.query<{ id: string }>("SELECT id FROM embed_console.activity WHERE actor = 'ops-outbox'")).rows.map(
        (row) => row.id,
      )
      const lost = local.filter((id) => !shared.includes(id))
      const duplicated = shared.length - new Set(shared).size
      const extra = shared.filter((id) => !local.includes(id))
      console.warn(
        `Outbox after kill -9 (3 kills, published at each kill: ${kills.map((kill) => kill.published).join(', ')}; waiting in the outbox: ${kills.map((kill) => kill.waiting).join(', ')}): ` +
          `${local.length} calls recorded, ${shared.length} in the audit log, lost ${lost.length}, duplicated ${duplicated}, unrecorded ${extra.length}.`,
      )
      expect(kills.some((kill) => kill.waiting > 0)).toBe(true)
      expect({ lost, duplicated, extra }).toEqual({ lost: [], duplicated: 0, extra: [] })
      expect(local.length).toBeGreaterThanOrEqual(600)
      expect(readFolder<{ n: number }>(dataDir, 'SELECT count(*) AS n FROM team_outbox')[0]!.n).toBe(0)
      expect(await sharedCount("SELECT count(*) AS n FROM embed_console.groups WHERE group_id LIKE 'outbox-%'")).toBe(600)
    },
  )

  it('events the team database received but the folder had not yet crossed off (a crash in between) are sent again and written once', async () => {
    const { proxy, sandbox } = await server()
    const ops = await (team as TeamCluster).operator('ops-retry')
    const dataDir = await joinedFolder({
      operatorUrl: ops.url,
      baseUrl: proxy.baseUrl,
      apiToken: sandbox.tokens.Customer,
      profileName: 'Ops',
    })
    const services = await openFolder(dataDir)
    closers.push(() => services.close())
    const profileId = profileIdOf(services, 'Ops')
    for (let index = 0; index < 5; index += 1) await services.groups.getOrCreate(profileId, { user_group_id: `retry-${index}` })
    const queued = services.db.all<{ id: string; event: string }>('SELECT id, event FROM team_outbox')
    expect(await services.team.flush(5_000)).toBe(true)
    expect(await sharedCount("SELECT count(*) AS n FROM embed_console.activity WHERE actor = 'ops-retry'")).toBe(5)
    // As a process killed between the team's commit and its own delete leaves them.
    for (const row of queued)
      services.db.run('INSERT INTO team_outbox (id, event, created_at) VALUES (?, ?, ?)', row.id, row.event, new Date().toISOString())
    expect(await services.team.flush(5_000)).toBe(true)
    expect(await sharedCount("SELECT count(*) AS n FROM embed_console.activity WHERE actor = 'ops-retry'")).toBe(5)
    expect(await sharedCount("SELECT count(DISTINCT id) AS n FROM embed_console.activity WHERE actor = 'ops-retry'")).toBe(5)
  })
})

describe.skipIf(!team)('kill -9 of a run’s lease holder in team mode', () => {
  it(
    'the group it was rotating stays claimed, then unknown, for every machine; the takeover never sends it again; a fetch settles it and the stale machine is told to fetch',
    { timeout: 180_000 },
    async () => {
      let held = 0
      const { proxy, dir, sandboxFile, sandbox } = await server({ holdAnswer: (_index, req) => req.method === 'POST' && held++ === 3 })
      const [ops1, ops2] = [await (team as TeamCluster).operator('ops-lease-1'), await (team as TeamCluster).operator('ops-lease-2')]
      const token = sandbox.tokens.Customer
      const machineA = await joinedFolder({ operatorUrl: ops1.url, baseUrl: proxy.baseUrl, apiToken: token, profileName: 'Ops' })
      const machineB = await joinedFolder({ operatorUrl: ops2.url, baseUrl: proxy.baseUrl, apiToken: token, profileName: 'Ops' })
      const ids = Array.from({ length: 8 }, (_, index) => `lease-${index}`)
      for (const dataDir of [machineA, machineB]) {
        const services = await openFolder(dataDir)
        for (const id of ids) await services.groups.getOrCreate(profileIdOf(services, 'Ops'), { user_group_id: id })
        await services.close()
      }
      const file = join(dir, 'rows.csv')
      await writeFile(file, ['user_group_id', ...ids].join('\n'))
      const args = ['groups', 'apply', file, '--profile', 'Ops', '--rotate', '--json', '--data-dir', machineA]

      const { child, exited } = await cliProcess(args, closers)
      while (held < 4) await new Promise((next) => setTimeout(next, 10))
      child.kill('SIGKILL')
      await exited
      const heldId = ids[3]!
      expect(proxy.rotated.get(heldId)).toBe(1)
      const run = (
        await team!.query<{ id: string; lease_epoch: string; lease_actor: string }>(
          'SELECT id, lease_epoch, lease_actor FROM embed_console.runs',
        )
      ).rows.find((row) => row.lease_actor === 'ops-lease-1')!
      expect(run).toBeDefined()

      // The other machine: the held group is claimed while the dead process's claim lives, unknown after.
      const other = await openFolder(machineB)
      closers.push(() => other.close())
      const otherProfile = profileIdOf(other, 'Ops')
      await expect(other.groups.rotateToken(otherProfile, { kind: 'catalog', groupId: heldId })).rejects.toThrow(
        new RegExp(`^Claimed by ops-lease-1: “${heldId}” is being rotated on another machine \\(since \\d\\d:\\d\\d\\)`),
      )
      await letTeamLeasesExpire(team!)
      await expect(other.groups.rotateToken(otherProfile, { kind: 'catalog', groupId: heldId })).rejects.toThrow(
        new RegExp(`^A rotation of “${heldId}” by ops-lease-1 \\(at \\d\\d:\\d\\d\\) has an unknown outcome: fetch the group first`),
      )
      const requestsBefore = proxy.forwarded

      // The takeover, once both leases have expired: the held row is never sent again; the run ends settling it.
      letLocalLeasesExpire(machineA)
      const resumed = await (await cliProcess([...args, '--resume'], closers)).exited
      expect(resumed.code, resumed.stderr).toBe(0)
      expect(lastJson(resumed.stdout)).toMatchObject({ ok: true, value: { state: 'finished', rotated: 8, unknown: 0, failed: 0 } })
      for (const id of ids) expect(proxy.rotated.get(id)).toBe(1)
      expect(proxy.forwarded).toBeGreaterThan(requestsBefore)
      const takenOver = (
        await team!.query<{ lease_epoch: string; lease_holder: string | null }>(
          'SELECT lease_epoch, lease_holder FROM embed_console.runs WHERE id = $1',
          [run.id],
        )
      ).rows[0]!
      expect(Number(takenOver.lease_epoch)).toBeGreaterThan(Number(run.lease_epoch))
      expect(takenOver.lease_holder).toBeNull()
      expect(await sharedCount('SELECT count(*) AS n FROM embed_console.claims')).toBe(0)

      // The other machine's kept tokens are stale now: it is told who rotated, fetches, and may rotate.
      await expect(other.groups.rotateToken(otherProfile, { kind: 'catalog', groupId: heldId })).rejects.toThrow(
        new RegExp(
          `^Rotated by ops-lease-1 at \\d\\d:\\d\\d; fetch the current token first: the token kept here for “${heldId}” is no longer the group’s`,
        ),
      )
      const fetched = await other.groups.getOrCreate(otherProfile, { user_group_id: heldId })
      expect(fetched.group.token).toBe(readSandboxData(sandboxFile).groups.find((group) => group.provided_id === heldId)!.token)
      await other.groups.rotateToken(otherProfile, { kind: 'catalog', groupId: heldId })
      expect(proxy.rotated.get(heldId)).toBe(2)
      expect(await other.team.flush(5_000)).toBe(true)
      const audit = (
        await team!.query<{ actor: string; outcome: string; settled_outcome: string | null }>(
          "SELECT actor, outcome, settled_outcome FROM embed_console.activity WHERE group_id = $1 AND operation = 'rotateToken' ORDER BY seq",
          [heldId],
        )
      ).rows
      expect(audit).toEqual([
        { actor: 'ops-lease-1', outcome: 'unknown', settled_outcome: 'rotated' },
        { actor: 'ops-lease-2', outcome: 'success', settled_outcome: null },
      ])
    },
  )
})

describe.skipIf(!team)('kill -9 between a row’s claim and its journal', () => {
  it(
    'the run that takes over gives its own never-sent claim back and rotates the group: nothing left unknown, nothing sent twice',
    { timeout: 180_000 },
    async () => {
      let posts = 0
      const { proxy, dir, sandbox } = await server({ holdAnswer: (_index, req) => req.method === 'POST' && posts++ === 1 })
      const ops = await (team as TeamCluster).operator('ops-claimed')
      const dataDir = await joinedFolder({
        operatorUrl: ops.url,
        baseUrl: proxy.baseUrl,
        apiToken: sandbox.tokens.Customer,
        profileName: 'Ops',
      })
      const ids = ['claimed-0', 'claimed-1', 'claimed-2', 'claimed-3']
      const tokens = new Map<string, string>()
      const services = await openFolder(dataDir)
      for (const id of ids)
        tokens.set(id, (await services.groups.getOrCreate(profileIdOf(services, 'Ops'), { user_group_id: id })).group.token)
      expect(await services.team.flush(5_000)).toBe(true)
      await services.close()
      const file = join(dir, 'rows.csv')
      await writeFile(file, ['user_group_id', ...ids].join('\n'))
      const args = ['groups', 'apply', file, '--profile', 'Ops', '--rotate', '--json', '--data-dir', dataDir]

      // The run rotates the first group, sends the second (its answer held) and is killed.
      const { child, exited } = await cliProcess(args, closers)
      while (posts < 2) await new Promise((next) => setTimeout(next, 10))
      child.kill('SIGKILL')
      await exited
      // As the process would have left the third had it died a moment later: claimed under its
      // lease, never journaled, never sent.
      const run = (
        await team!.query<{ id: string; lease_holder: string; lease_epoch: string }>(
          "SELECT id, lease_holder, lease_epoch FROM embed_console.runs WHERE lease_actor = 'ops-claimed'",
        )
      ).rows[0]!
      const operator = new pg.Client({ connectionString: ops.url })
      await operator.connect()
      const claimed = await operator.query<{ outcome: string }>(
        "SELECT outcome FROM embed_console.claim_group($1, 'claimed-2', gen_random_uuid(), $2, $3, 'dead-host', $4, $5, 30000)",
        [serverKey(proxy.baseUrl), tokenFingerprint(tokens.get('claimed-2')!), run.lease_holder, run.id, run.lease_epoch],
      )
      await operator.end()
      expect(claimed.rows[0]!.outcome).toBe('claimed')

      // Resumed once its leases have expired (the claim has not: it would still read "claimed by" to anyone else).
      letLocalLeasesExpire(dataDir)
      await letTeamLeasesExpire(team!, { claims: false })
      const resumed = await (await cliProcess([...args, '--resume'], closers)).exited
      expect(resumed.code, resumed.stderr).toBe(0)
      expect(lastJson(resumed.stdout)).toMatchObject({
        ok: true,
        value: { state: 'finished', rotated: 4, unknown: 0, skipped: 0, failed: 0 },
      })
      for (const id of ids) expect(proxy.rotated.get(id)).toBe(1)
      expect(await sharedCount('SELECT count(*) AS n FROM embed_console.claims')).toBe(0)
    },
  )
})
