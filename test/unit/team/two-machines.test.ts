import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSecretVault } from '../../../src-main/profiles/vault'
import { groupTokenKey, profileTokenKey, TEAM_PASSWORD_KEY } from '../../../src-main/profiles/vault-keys'
import { startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { startFlakyProxy } from '../../helpers/flaky-proxy'
import { readSandboxData } from '../../helpers/sandbox-data'
import {
  cliProcess,
  closedAfterEach,
  joinedFolder,
  lastJson,
  openFolder,
  profileIdOf,
  type TeamCluster,
  teamForThisFile,
} from '../../helpers/team'

/*
 * The issue's "done when", through real processes: two data folders (two operators' machines),
 * each joined to one Postgres as its own operator, each with its own profile on the same API
 * server, run the same 200-group rotation plan at once. The API sits behind a loopback proxy
 * that counts every rotation request and every rotation the server made.
 */

const team = await teamForThisFile()

const closers = closedAfterEach()

describe.skipIf(!team)('two machines, one team, the same 200-group rotation plan at once', () => {
  let proxy: Awaited<ReturnType<typeof startFlakyProxy>>
  let sandboxFile: string
  let sandboxTokens: { Customer: string; Testing: string }
  let machines: Array<{ operator: string; dataDir: string; profile: string }>
  let ids: string[]
  let file: string
  let rotationRequests = 0
  const tokensEverIssued = new Set<string>()

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ec-two-machines-'))
    sandboxFile = join(dir, 'sandbox.db')
    const sandbox = await startSandbox({ dataFile: sandboxFile })
    sandboxTokens = sandbox.tokens
    proxy = await startFlakyProxy(sandbox.baseUrl, () => null, {
      delayMs: 2,
      beforeForward: (req) => {
        if (req.method === 'POST') rotationRequests += 1
      },
    })
    afterAll(async () => {
      await proxy.close()
      await sandbox.close()
    })
    const [ops1, ops2] = [await (team as TeamCluster).operator('ops-1'), await (team as TeamCluster).operator('ops-2')]
    // Two machines, two profiles of their own (other names, the same server), two operators.
    machines = [
      {
        operator: 'ops-1',
        profile: 'Production',
        dataDir: await joinedFolder({
          operatorUrl: ops1.url,
          baseUrl: proxy.baseUrl,
          apiToken: sandbox.tokens.Customer,
          profileName: 'Production',
        }),
      },
      {
        operator: 'ops-2',
        profile: 'Prod (Berlin)',
        dataDir: await joinedFolder({
          operatorUrl: ops2.url.replace('127.0.0.1', 'localhost'),
          baseUrl: proxy.baseUrl.replace('http://', 'HTTP://'),
          apiToken: sandbox.tokens.Customer,
          profileName: 'Prod (Berlin)',
        }),
      },
    ]
    ids = Array.from({ length: 200 }, (_, index) => `acme-${String(index).padStart(3, '0')}`)
    file = join(dir, 'rotate.csv')
    await writeFile(file, ['user_group_id', ...ids].join('\n'))
    // The first machine creates the groups; the second fetches each one: both keep every current token.
    for (const [index, machine] of machines.entries()) {
      const services = await openFolder(machine.dataDir)
      const profileId = profileIdOf(services, machine.profile)
      for (const id of ids)
        await services.groups.getOrCreate(profileId, { user_group_id: id, ...(index === 0 ? { name: `Acme ${id}` } : {}) })
      await services.close()
    }
    for (const group of readSandboxData(sandboxFile).groups) tokensEverIssued.add(group.token)
    rotationRequests = 0
  }, 120_000)

  it(
    'rotates each group exactly once; the other machine’s rows say who claimed or rotated them; each machine sees the other’s calls with the right actor; pg_dump holds no token',
    { timeout: 180_000 },
    async () => {
      const runs = await Promise.all(
        machines.map(
          async (machine) =>
            (
              await cliProcess(
                ['groups', 'apply', file, '--profile', machine.profile, '--rotate', '--json', '--data-dir', machine.dataDir],
                closers,
              )
            ).exited,
        ),
      )
      for (const group of readSandboxData(sandboxFile).groups) tokensEverIssued.add(group.token)

      // Exactly once: 200 rotation requests reached the server (none sent twice, none refused), each group rotated once.
      const twice = [...proxy.rotated].filter(([, times]) => times !== 1)
      expect(twice).toEqual([])
      expect(proxy.rotated.size).toBe(200)
      expect(rotationRequests).toBe(200)

      const summaries = runs.map((run) => {
        expect(run.code, run.stderr).toBe(0)
        return lastJson(run.stdout).value as { rotated: number; skipped: number; failed: number; unknown: number }
      })
      console.warn(
        `Two machines, one 200-group plan at once: ${summaries.map((summary, index) => `${machines[index]!.operator} rotated ${summary.rotated}, skipped ${summary.skipped}`).join('; ')}; rotation requests ${rotationRequests}, groups rotated twice ${twice.length}.`,
      )
      expect(summaries[0]!.rotated + summaries[1]!.rotated).toBe(200)
      for (const summary of summaries) expect(summary).toMatchObject({ failed: 0, unknown: 0 })
      expect(summaries[0]!.rotated).toBeGreaterThan(0)
      expect(summaries[1]!.rotated).toBeGreaterThan(0)

      // Each machine's rows the other rotated say who: claimed while in flight, rotated once done.
      for (const [index, machine] of machines.entries()) {
        const other = machines[1 - index]!.operator
        const services = await openFolder(machine.dataDir)
        closers.push(() => services.close())
        const run = services.bulk.runs(1)[0]!
        const skipped = services.bulk.items(run.id, { outcome: 'skipped' }, 0, 500).items
        expect(skipped).toHaveLength(summaries[index]!.skipped)
        for (const row of skipped) {
          expect(row.message).toMatch(
            new RegExp(
              `^(Claimed by ${other}: “${row.groupId}” is being rotated on another machine|Rotated by ${other} at \\d\\d:\\d\\d; fetch the current token first)`,
            ),
          )
        }
      }

      // The audit log, read on each machine: the other's calls with the right actor.
      const expectedActors = new Map<string, string>()
      for (const [index, machine] of machines.entries()) {
        const services = await openFolder(machine.dataDir)
        closers.push(() => services.close())
        const run = services.bulk.runs(1)[0]!
        for (const row of services.bulk.items(run.id, { outcome: 'rotated' }, 0, 500).items)
          expectedActors.set(row.groupId, machines[index]!.operator)
      }
      expect(expectedActors.size).toBe(200)
      for (const machine of machines) {
        const shown = await (
          await cliProcess(
            ['team', 'activity', '--operation', 'rotateToken', '--limit', '1000', '--json', '--data-dir', machine.dataDir],
            closers,
          )
        ).exited
        expect(shown.code, shown.stderr).toBe(0)
        const { entries } = envelopeValue(shown.stdout) as {
          entries: Array<{ actor: string; groupId: string; outcome: string; server: string }>
        }
        expect(entries).toHaveLength(200)
        for (const entry of entries) {
          expect(entry.outcome).toBe('success')
          expect(entry.actor).toBe(expectedActors.get(entry.groupId))
        }
        // One server, whichever profile reached it (the second machine's base URL is spelt otherwise).
        expect(new Set(entries.map((entry) => entry.server))).toEqual(new Set([proxy.baseUrl]))
      }

      // The canary: no token reached the shared database, in clear or in any other column.
      const dump = await (team as TeamCluster).dump()
      expect(dump).toContain('rotateToken')
      expect(dump).toMatch(/ops-1/)
      const secrets = new Set<string>([...tokensEverIssued, sandboxTokens.Customer, sandboxTokens.Testing])
      for (const machine of machines) {
        const services = await openFolder(machine.dataDir)
        closers.push(() => services.close())
        const profileId = profileIdOf(services, machine.profile)
        for (const key of [TEAM_PASSWORD_KEY, profileTokenKey(profileId), ...ids.map((id) => groupTokenKey(profileId, id))]) {
          const secret = openSecretVault({ db: services.db }).get(key)
          if (secret) secrets.add(secret)
        }
      }
      // 400 group tokens (200 before, 200 after), 2 API tokens, 2 team passwords.
      expect(secrets.size).toBe(404)
      const leaked = [...secrets].filter((secret) => dump.includes(secret))
      console.warn(
        `pg_dump canary: ${dump.length} characters searched for ${secrets.size} secrets (every group token issued, the API tokens, the team passwords): ${leaked.length} found.`,
      )
      expect(leaked).toEqual([])
    },
  )
})

/** A command's one JSON envelope (printed over several lines), as its value. */
function envelopeValue(stdout: string): unknown {
  const envelope = JSON.parse(stdout) as { ok: boolean; value?: unknown }
  expect(envelope.ok).toBe(true)
  return envelope.value
}
