import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { main } from '../../../src-main/cli/index'
import type { CliIo } from '../../../src-main/cli/usage'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { sharedProfileId } from '../../../src-main/team/team-puller'
import { closedAfterEach, joinedFolder, openFolder, profileIdOf, type TeamCluster, teamForThisFile } from '../../helpers/team'

/*
 * What each machine pulls from the team: the admin's shared profiles (settings only: each
 * operator enters their own API token), and the shared catalog, into the local catalog of every
 * profile that reaches the same server, with who last changed and rotated each group and whether
 * the token kept here is still the group's. And one person's mode never loads the Postgres driver.
 */

const run = promisify(execFile)

const team = await teamForThisFile()

const closers = closedAfterEach()

function io(env: NodeJS.ProcessEnv = {}): CliIo & { out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  return { out, err, env, stdout: (text) => out.push(text), stderr: (text) => err.push(text), stdin: async () => '' }
}

async function sandbox(): Promise<Sandbox> {
  const started = await startSandbox({ dataFile: join(await mkdtemp(join(tmpdir(), 'ec-team-pull-')), 'sandbox.db') })
  closers.push(() => started.close())
  return started
}

describe.skipIf(!team)('pulling the team’s profiles and catalog', () => {
  it('a shared profile arrives on every machine without a token; the admin’s edits follow; a withdrawn one stays where it is', async () => {
    const api = await sandbox()
    const ops = await (team as TeamCluster).operator('ops-pull-profiles')
    const share = (args: string[]) => main(['team', 'share-profile', ...args, '--url', team!.adminUrl], io())
    expect(await share(['Shared prod', '--base-url', api.baseUrl, '--environment', 'customer', '--label', 'EU', '--timeout', '20'])).toBe(0)
    const dataDir = await joinedFolder({ operatorUrl: ops.url, baseUrl: api.baseUrl, apiToken: api.tokens.Customer, profileName: 'Mine' })
    const services = await openFolder(dataDir)
    closers.push(() => services.close())
    const pulled = services.profiles.list().filter((profile) => profile.id.startsWith('team-'))
    expect(pulled).toEqual([
      expect.objectContaining({
        name: 'Shared prod',
        baseUrl: api.baseUrl,
        environmentKind: 'customer',
        environmentLabel: 'EU',
        timeoutSeconds: 20,
      }),
    ])
    const id = pulled[0]!.id
    await expect(services.profiles.resolveConnection(id)).rejects.toThrow(
      'The profile “Shared prod” has no API token. Edit the profile and enter one.',
    )
    await services.profiles.update(id, { apiToken: api.tokens.Customer, tokenStorage: 'file' })

    expect(await share(['Shared prod', '--base-url', api.baseUrl, '--environment', 'testing', '--timeout', '30'])).toBe(0)
    await services.team.pull()
    expect(services.profiles.get(id)).toMatchObject({ environmentKind: 'testing', timeoutSeconds: 30 })
    // The operator's own token survives an edit on the same server.
    expect((await services.profiles.resolveConnection(id)).apiToken).toBe(api.tokens.Customer)

    expect(await share(['Shared prod', '--remove'])).toBe(0)
    await services.team.pull()
    expect(services.profiles.get(id).name).toBe('Shared prod')
    expect(sharedProfileId('x')).toBe('team-x')
  })

  it('a group another operator made or changed appears in this machine’s catalog with who did it; a rotation there makes the token kept here stale', async () => {
    const api = await sandbox()
    const [a, b] = [await (team as TeamCluster).operator('ops-pull-a'), await (team as TeamCluster).operator('ops-pull-b')]
    const machineA = await openFolder(
      await joinedFolder({ operatorUrl: a.url, baseUrl: api.baseUrl, apiToken: api.tokens.Customer, profileName: 'A' }),
    )
    closers.push(() => machineA.close())
    const machineB = await openFolder(
      await joinedFolder({ operatorUrl: b.url, baseUrl: api.baseUrl, apiToken: api.tokens.Customer, profileName: 'B' }),
    )
    closers.push(() => machineB.close())
    const [profileA, profileB] = [profileIdOf(machineA, 'A'), profileIdOf(machineB, 'B')]

    await machineA.groups.getOrCreate(profileA, { user_group_id: 'pulled-1', name: 'Pulled One', properties: { plan: 'pro' } })
    expect(await machineA.team.flush(5_000)).toBe(true)
    await machineB.team.pull()
    const listed = (await machineB.router.dispatch('catalog.get', { profileId: profileB, groupId: 'pulled-1' }, { transport: 'test' })) as {
      ok: true
      value: { entry: Record<string, unknown>; tokenKept: boolean }
    }
    expect(listed.value).toMatchObject({
      entry: { groupId: 'pulled-1', name: 'Pulled One', properties: { plan: 'pro' } },
      tokenKept: false,
    })
    expect(await machineB.router.dispatch('team.group', { profileId: profileB, groupId: 'pulled-1' }, { transport: 'test' })).toMatchObject(
      {
        ok: true,
        value: { info: { changedBy: 'ops-pull-a', rotatedBy: null, token: 'not_kept' } },
      },
    )

    // B fetches it (its token is current), then A rotates it: B is told its token is stale.
    await machineB.groups.getOrCreate(profileB, { user_group_id: 'pulled-1' })
    expect(await machineB.team.flush(5_000)).toBe(true)
    await machineB.team.pull()
    expect(machineB.team.group(profileB, 'pulled-1')).toMatchObject({ changedBy: 'ops-pull-b', token: 'current' })
    await machineA.groups.rotateToken(profileA, { kind: 'catalog', groupId: 'pulled-1' })
    expect(await machineA.team.flush(5_000)).toBe(true)
    await machineB.team.pull()
    expect(machineB.team.group(profileB, 'pulled-1')).toMatchObject({ rotatedBy: 'ops-pull-a', changedBy: 'ops-pull-a', token: 'stale' })
    // Another operator's stored JSON nested deeper than the app accepts anywhere is left out, never parsed.
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`
    await team!.query(
      `UPDATE embed_console.groups SET properties = $1::jsonb, name = 'Deep', changed_at = now(), change_seq = nextval('embed_console.change_seq') WHERE group_id = 'pulled-1'`,
      [deep],
    )
    await machineB.team.pull()
    const afterDeep = (await machineB.router.dispatch(
      'catalog.get',
      { profileId: profileB, groupId: 'pulled-1' },
      { transport: 'test' },
    )) as { ok: true; value: { entry: Record<string, unknown> } }
    expect(afterDeep.value.entry).toMatchObject({ name: 'Deep', properties: { plan: 'pro' } })

    // The audit log's Team view, filtered by actor: A's calls, newest first.
    const page = (await machineB.router.dispatch('team.activity', { actor: 'ops-pull-a', limit: 10 }, { transport: 'test' })) as {
      ok: true
      value: { entries: Array<{ operation: string }>; actors: string[] }
    }
    expect(page.value.entries.map((entry) => entry.operation)).toEqual(['rotateToken', 'getOrCreate'])
    expect(page.value.actors).toEqual(expect.arrayContaining(['ops-pull-a', 'ops-pull-b']))
  })
})

describe('one person’s mode loads no Postgres driver', () => {
  const built = resolve('out/main/cli.js')
  it.skipIf(!existsSync(built))(
    '`--version`, a single `--base-url` call and `team status` of a folder that never joined do not load pg; a joined folder’s call does',
    { timeout: 60_000 },
    async () => {
      const hook = join(await mkdtemp(join(tmpdir(), 'ec-pg-hook-')), 'report-pg.mjs')
      await writeFile(
        hook,
        `import { createRequire } from 'node:module'
const require = createRequire(import.meta.url)
process.on('exit', () => process.stderr.write('\\npg-loaded:' + Object.keys(require.cache).some((key) => /[\\\\/]node_modules[\\\\/]pg[\\\\/]/.test(key)) + '\\n'))
`,
      )
      const api = await sandbox()
      const cli = async (args: string[]) => {
        const { stderr } = await run(process.execPath, ['--import', `file://${hook}`, 'bin/embed-console.js', ...args], {
          env: { ...process.env, EMBED_CONSOLE_TOKEN: api.tokens.Customer },
        }).catch((error: { stderr: string }) => error)
        return /pg-loaded:true/.test(stderr)
      }
      const alone = join(await mkdtemp(join(tmpdir(), 'ec-alone-')), 'data')
      expect(await cli(['--version'])).toBe(false)
      expect(await cli(['groups', 'get-or-create', '--base-url', api.baseUrl, '--user-group-id', 'loads-nothing'])).toBe(false)
      expect(await cli(['team', 'status', '--data-dir', alone])).toBe(false)
      if (!team) return
      const ops = await (team as TeamCluster).operator('ops-loads')
      const joined = await joinedFolder({ operatorUrl: ops.url, baseUrl: api.baseUrl, apiToken: api.tokens.Customer, profileName: 'Ops' })
      expect(await cli(['groups', 'get-or-create', '--profile', 'Ops', '--user-group-id', 'loads-pg', '--data-dir', joined])).toBe(true)
    },
  )
})
