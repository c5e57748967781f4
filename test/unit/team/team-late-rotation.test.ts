import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tokenFingerprint } from '../../../src-main/groups/rotation-journal'
import { openSecretVault } from '../../../src-main/profiles/vault'
import { groupTokenKey } from '../../../src-main/profiles/vault-keys'
import { startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { startFlakyProxy } from '../../helpers/flaky-proxy'
import { startTcpRelay } from '../../helpers/tcp-relay'
import {
  closedAfterEach,
  joinedFolder,
  letTeamLeasesExpire,
  openFolder,
  profileIdOf,
  type TeamCluster,
  teamForThisFile,
} from '../../helpers/team'

/*
 * A machine cut off from the team database longer than a rotation's claim lives publishes its
 * rotation late, after another machine has fetched the new token and rotated again. The late
 * rotation joins the audit log; the catalog keeps the newest token and who rotated it, so the
 * holder of the live token may rotate and the holder of the dead one is told to fetch.
 */

const team = await teamForThisFile()
const closers = closedAfterEach()

describe.skipIf(!team)('a rotation published late', () => {
  it(
    'never takes the catalog back to the token it made once a newer rotation is recorded: the live token’s holder may rotate, the dead one’s is told to fetch',
    { timeout: 120_000 },
    async () => {
      const sandbox = await startSandbox({ dataFile: join(await mkdtemp(join(tmpdir(), 'ec-late-')), 'sandbox.db') })
      closers.push(() => sandbox.close())
      // Machine A reaches the team database through a link of its own, cut the moment its rotation leaves.
      const relay = await startTcpRelay(team!.port)
      closers.push(() => relay.close())
      let cutOnRotation = true
      const proxy = await startFlakyProxy(sandbox.baseUrl, () => null, {
        beforeForward: (req) => {
          if (req.method === 'POST' && cutOnRotation) {
            cutOnRotation = false
            relay.cut()
          }
        },
      })
      closers.push(() => proxy.close())
      const [a, b] = [await (team as TeamCluster).operator('ops-late-a'), await (team as TeamCluster).operator('ops-late-b')]
      const token = sandbox.tokens.Customer
      const folderA = await joinedFolder({
        operatorUrl: a.url.replace(`:${team!.port}/`, `:${relay.port}/`),
        baseUrl: proxy.baseUrl,
        apiToken: token,
        profileName: 'A',
      })
      const folderB = await joinedFolder({ operatorUrl: b.url, baseUrl: proxy.baseUrl, apiToken: token, profileName: 'B' })
      const machineA = await openFolder(folderA)
      closers.push(() => machineA.close())
      const machineB = await openFolder(folderB)
      closers.push(() => machineB.close())
      const [profileA, profileB] = [profileIdOf(machineA, 'A'), profileIdOf(machineB, 'B')]
      const catalog = async () =>
        (
          await team!.query<{ token_sha256: string; rotated_by: string | null }>(
            "SELECT token_sha256, rotated_by FROM embed_console.groups WHERE group_id = 'late'",
          )
        ).rows[0]!

      await machineA.groups.getOrCreate(profileA, { user_group_id: 'late', name: 'Late' })
      expect(await machineA.team.flush(5_000)).toBe(true)
      await machineB.groups.getOrCreate(profileB, { user_group_id: 'late' })
      expect(await machineB.team.flush(5_000)).toBe(true)

      // A rotates (claimed while its link was up); the answer arrives, its record cannot leave.
      const t1 = (await machineA.groups.rotateToken(profileA, { kind: 'catalog', groupId: 'late' })).group.token
      expect(await machineA.team.flush(1_000)).toBe(false)
      // Longer than the claim lives: B fetches the new token (which settles A's claim), and rotates it again.
      await letTeamLeasesExpire(team!)
      expect((await machineB.groups.getOrCreate(profileB, { user_group_id: 'late' })).group.token).toBe(t1)
      const t2 = (await machineB.groups.rotateToken(profileB, { kind: 'catalog', groupId: 'late' })).group.token
      expect(await machineB.team.flush(5_000)).toBe(true)
      expect(await catalog()).toEqual({ token_sha256: tokenFingerprint(t2), rotated_by: 'ops-late-b' })

      // A's link comes back: its rotation reaches the audit log, and changes nothing in the catalog.
      relay.restore()
      expect(await machineA.team.flush(10_000)).toBe(true)
      expect(
        (
          await team!.query<{ actor: string; outcome: string }>(
            "SELECT actor, outcome FROM embed_console.activity WHERE group_id = 'late' AND operation = 'rotateToken' ORDER BY called_at",
          )
        ).rows,
      ).toEqual([
        { actor: 'ops-late-a', outcome: 'success' },
        { actor: 'ops-late-b', outcome: 'success' },
      ])
      expect(await catalog()).toEqual({ token_sha256: tokenFingerprint(t2), rotated_by: 'ops-late-b' })

      // A holds the dead token: told who rotated it and to fetch. B holds the live one: it rotates.
      await expect(machineA.groups.rotateToken(profileA, { kind: 'catalog', groupId: 'late' })).rejects.toThrow(
        /^Rotated by ops-late-b at \d\d:\d\d; fetch the current token first: the token kept here for “late” is no longer the group’s/,
      )
      expect(openSecretVault({ db: machineA.db }).get(groupTokenKey(profileA, 'late'))).toBe(t1)
      const t3 = (await machineB.groups.rotateToken(profileB, { kind: 'catalog', groupId: 'late' })).group.token
      expect(await machineB.team.flush(5_000)).toBe(true)
      expect(await catalog()).toEqual({ token_sha256: tokenFingerprint(t3), rotated_by: 'ops-late-b' })
      expect(proxy.rotated.get('late')).toBe(3)
    },
  )
})
