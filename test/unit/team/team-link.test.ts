import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../../src-main/cli/index'
import type { CliIo } from '../../../src-main/cli/usage'
import { TEAM_PASSWORD_KEY } from '../../../src-main/profiles/vault-keys'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { addOperator, migrateTeam } from '../../../src-main/team/team-admin'
import { parseTeamUrl, sameServerBySchemes, serverKey } from '../../../src-main/team/team-url'
import { type FlakyProxy, startFlakyProxy } from '../../helpers/flaky-proxy'
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
 * A joined data folder's link: joining and leaving from the command line (the password to the
 * vault, never to a plain setting), the team database going away (rotations refused, runs
 * paused and resumable, calls queued and published later), and schema versions this client
 * cannot write.
 */

const team = await teamForThisFile()

const closers = closedAfterEach()

function io(env: NodeJS.ProcessEnv = {}, stdin = ''): CliIo & { out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  return { out, err, env, stdout: (text) => out.push(text), stderr: (text) => err.push(text), stdin: async () => stdin }
}

async function api(): Promise<{ sandbox: Sandbox; proxy: FlakyProxy; posts: () => number }> {
  const sandbox = await startSandbox({ dataFile: join(await mkdtemp(join(tmpdir(), 'ec-team-link-')), 'sandbox.db') })
  closers.push(() => sandbox.close())
  let posts = 0
  const proxy = await startFlakyProxy(sandbox.baseUrl, () => null, { beforeForward: (req) => void (req.method === 'POST' && (posts += 1)) })
  closers.push(() => proxy.close())
  return { sandbox, proxy, posts: () => posts }
}

describe('the team database’s address', () => {
  it('keeps no password, and off this computer takes only TLS with the certificate and name checked', () => {
    expect(parseTeamUrl('postgres://ops-2:s3cret%2F@127.0.0.1:6543/embed_team')).toEqual({
      url: 'postgres://ops-2@127.0.0.1:6543/embed_team',
      user: 'ops-2',
      host: '127.0.0.1',
      port: 6543,
      database: 'embed_team',
      password: 's3cret/',
    })
    expect(() => parseTeamUrl('postgres://ops-2:pw@db.example.com/embed_team')).toThrow(
      /^Off this computer the team database is reached over TLS/,
    )
    expect(() => parseTeamUrl('postgres://ops-2@db.example.com/embed_team?sslmode=require')).toThrow(/sslmode=verify-full/)
    expect(parseTeamUrl('postgres://ops-2@db.example.com/embed_team?sslmode=verify-full').url).toBe(
      'postgres://ops-2@db.example.com/embed_team?sslmode=verify-full',
    )
    expect(() => parseTeamUrl('postgres://db.example.com/embed_team')).toThrow(/^Put your login role in the team database address/)
    expect(() => parseTeamUrl('postgres://ops-2:hunter2@127.0.0.1/embed_team?password=x')).toThrow(
      'The team database address has a setting Embed Console does not use (“password”): only sslmode, sslrootcert, sslcert, sslkey, connect_timeout.',
    )
    for (const bad of ['https://ops:pw@x/db', 'postgres://ops:hunter2@127.0.0.1/', 'not a url hunter2']) {
      try {
        parseTeamUrl(bad)
      } catch (error) {
        expect((error as Error).message).not.toContain('hunter2')
        expect((error as Error).message).not.toContain(':pw@')
      }
    }
  })

  it('names one server however a profile spells its base URL, and tells two schemes of one host apart, with a warning', () => {
    expect(serverKey('HTTPS://API.Example.com:443/v1/')).toBe(serverKey('https://api.example.com/v1'))
    expect(serverKey('https://api.example.com./v1')).toBe(serverKey('https://api.example.com/v1'))
    expect(serverKey('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080')
    for (const name of ['http://localhost:8080/', 'http://LOCALHOST:8080', 'http://[::1]:8080', 'http://api.localhost:8080'])
      expect(serverKey(name)).toBe('http://127.0.0.1:8080')
    expect(serverKey('https://api.example.com')).not.toBe(serverKey('https://api.example.com/eu'))
    expect(serverKey('http://api.example.com')).not.toBe(serverKey('https://api.example.com'))
    expect(sameServerBySchemes(serverKey('http://api.example.com/v1/'), serverKey('https://API.example.com/v1'))).toBe(true)
    expect(sameServerBySchemes(serverKey('http://api.example.com:8080'), serverKey('https://api.example.com'))).toBe(false)
    expect(sameServerBySchemes(serverKey('https://api.example.com'), serverKey('https://api.example.com'))).toBe(false)
  })
})

describe.skipIf(!team)('joining and leaving from the command line', () => {
  it('add-operator --json answers the name and password once; join keeps the password in the vault only; status and leave answer in the envelope', async () => {
    const admin = io()
    expect(await main(['team', 'migrate', '--url', team!.adminUrl, '--json'], admin)).toBe(0)
    expect(JSON.parse(admin.out.join('\n'))).toEqual({ ok: true, value: { from: 2, to: 2, applied: [], notes: [] } })

    const added = io({ EMBED_CONSOLE_TEAM_PASSWORD: team!.adminPassword })
    expect(await main(['team', 'add-operator', 'ops-cli', '--url', team!.url('postgres'), '--json'], added)).toBe(0)
    const operator = JSON.parse(added.out.join('\n')) as { ok: true; value: { name: string; password: string } }
    expect(operator).toEqual({ ok: true, value: { name: 'ops-cli', password: expect.stringMatching(/^[\w-]{32}$/) } })
    const text = io({ EMBED_CONSOLE_TEAM_PASSWORD: team!.adminPassword })
    expect(await main(['team', 'add-operator', 'ops-cli-text', '--url', team!.url('postgres')], text)).toBe(0)
    expect(text.out).toEqual([expect.stringMatching(/^[\w-]{32}$/)])
    expect(text.err.join('\n')).toContain(
      `embed-console team join --url "postgres://ops-cli-text@127.0.0.1:${team!.port}/embed_team" --password -`,
    )

    const dataDir = join(await mkdtemp(join(tmpdir(), 'ec-team-cli-')), 'data')
    const joined = io({}, `${operator.value.password}\n`)
    expect(await main(['team', 'join', '--url', team!.url('ops-cli'), '--password', '-', '--data-dir', dataDir, '--json'], joined)).toBe(0)
    expect(JSON.parse(joined.out.join('\n'))).toMatchObject({
      ok: true,
      value: {
        joined: true,
        connected: true,
        user: 'ops-cli',
        schemaVersion: 2,
        supportedVersion: 2,
        readOnly: false,
        problem: null,
        outboxBacklog: 0,
        passwordStorage: 'file',
      },
    })

    const services = await openFolder(dataDir)
    const settings = services.db.all<{ key: string; value: string }>("SELECT key, value FROM settings WHERE key LIKE 'team.%'")
    expect(settings.map((row) => row.value).join('\n')).not.toContain(operator.value.password)
    expect(services.db.get<{ storage: string }>('SELECT storage FROM secrets WHERE key = ?', TEAM_PASSWORD_KEY)).toEqual({
      storage: 'file',
    })
    await services.close()

    const status = io()
    expect(await main(['team', 'status', '--data-dir', dataDir], status)).toBe(0)
    expect(status.out[0]).toBe(
      `Team database: postgres://ops-cli@127.0.0.1:${team!.port}/embed_team as ops-cli, joined ${status.out[0]!.split(', joined ')[1]}`,
    )
    expect(status.out[1]).toBe('Connected: yes, schema version 2 (this Embed Console: 2)')

    const left = io()
    expect(await main(['team', 'leave', '--data-dir', dataDir, '--json'], left)).toBe(0)
    expect(JSON.parse(left.out.join('\n'))).toMatchObject({ ok: true, value: { joined: false, outboxBacklog: 0 } })
    const after = await openFolder(dataDir)
    expect(after.db.get('SELECT 1 AS kept FROM secrets WHERE key = ?', TEAM_PASSWORD_KEY)).toBeUndefined()
    await after.close()
  })

  it('refuses to join a database without the schema, and a role that is not an operator, saying what to do', async () => {
    const empty = team!.adminUrl.replace(/\/embed_team$/, '/no_schema')
    await team!.query('CREATE DATABASE no_schema')
    const dataDir = join(await mkdtemp(join(tmpdir(), 'ec-team-refused-')), 'data')
    const noSchema = io()
    expect(await main(['team', 'join', '--url', empty, '--data-dir', dataDir], noSchema)).toBe(1)
    expect(noSchema.err).toEqual([
      'The team database has no Embed Console schema yet: ask an admin to run `embed-console team migrate --url …`.',
    ])
    await team!.query("CREATE ROLE stranger LOGIN PASSWORD 'stranger-password'")
    const stranger = io()
    expect(await main(['team', 'join', '--url', team!.url('stranger', 'stranger-password'), '--data-dir', dataDir], stranger)).toBe(1)
    expect(stranger.err).toEqual([
      '“stranger” may not connect to this team database: only its own team’s roles may. Ask its admin for `embed-console team add-operator stranger`.',
    ])
    const wrong = io()
    expect(await main(['team', 'join', '--url', team!.url('ops-cli', 'not-the-password'), '--data-dir', dataDir], wrong)).toBe(1)
    expect(wrong.err[0]).toMatch(/^The team database refused the login of “ops-cli”/)
  })
})

describe.skipIf(!team)('while the team database is away', () => {
  it(
    'get-or-create works and queues its audit; a rotation is refused; a rotation run pauses, resumable; all of it reaches the team once it is back',
    { timeout: 120_000 },
    async () => {
      const { sandbox, proxy, posts } = await api()
      const ops = await (team as TeamCluster).operator('ops-away')
      const dataDir = await joinedFolder({
        operatorUrl: ops.url,
        baseUrl: proxy.baseUrl,
        apiToken: sandbox.tokens.Customer,
        profileName: 'Ops',
      })
      const ids = ['away-0', 'away-1', 'away-2']
      const services = await openFolder(dataDir)
      const profileId = profileIdOf(services, 'Ops')
      for (const id of ids) await services.groups.getOrCreate(profileId, { user_group_id: id })
      expect(await services.team.flush(5_000)).toBe(true)

      await team!.pause()
      try {
        const fetched = await services.groups.getOrCreate(profileId, { user_group_id: 'away-3' })
        expect(fetched.newUserGroup).toBe(true)
        await expect(services.groups.rotateToken(profileId, { kind: 'catalog', groupId: 'away-0' })).rejects.toMatchObject({
          code: 'team_offline',
          message: expect.stringMatching(
            /^The team database cannot be reached \((connection refused|the connection broke)\): rotations wait until it answers, so no other machine can rotate the same group\. Get or create and update still work; their audit is sent when it is back\.$/,
          ),
        })
        // Refused before anything was journaled or sent: not in the local log either.
        expect(
          (await services.router.dispatch('activity.list', { operation: 'rotateToken', limit: 10 }, { transport: 'test' })) as unknown,
        ).toMatchObject({ ok: true, value: { entries: [] } })
        const status = await services.team.status()
        expect(status).toMatchObject({ joined: true, connected: false, outboxBacklog: 1 })
        expect(status.problem).toMatch(/^The team database cannot be reached/)
        await expect(services.team.leave(false)).rejects.toThrow(
          /^1 call recorded here has not reached the team’s audit log yet \(The team database cannot be reached .+\): leave once the team database answers, or discard it \(--discard-unpublished\)\.$/,
        )
        await services.close()

        const file = join(dataDir, '..', 'rows.csv')
        await writeFile(file, ['user_group_id', ...ids].join('\n'))
        const args = ['groups', 'apply', file, '--profile', 'Ops', '--rotate', '--json', '--data-dir', dataDir]
        const paused = await (await cliProcess(args, closers)).exited
        expect(paused.code).toBe(1)
        expect(lastJson(paused.stdout).error).toMatchObject({
          code: 'paused',
          details: { state: 'paused', pending: 3, rotated: 0, failed: 0 },
        })
        expect(lastJson(paused.stdout).error!.details!.pausedReason).toMatch(/^The team database cannot be reached/)
        expect(posts()).toBe(0)
      } finally {
        await team!.resume()
      }

      const resumed = await (
        await cliProcess(
          ['groups', 'apply', join(dataDir, '..', 'rows.csv'), '--profile', 'Ops', '--rotate', '--json', '--data-dir', dataDir, '--resume'],
          closers,
        )
      ).exited
      expect(resumed.code, resumed.stderr).toBe(0)
      expect(lastJson(resumed.stdout)).toMatchObject({ ok: true, value: { state: 'finished', rotated: 3 } })
      expect(posts()).toBe(3)
      const back = await openFolder(dataDir)
      closers.push(() => back.close())
      expect(await back.team.flush(5_000)).toBe(true)
      expect(await back.team.status()).toMatchObject({ connected: true, outboxBacklog: 0 })
      const shared = (
        await team!.query<{ group_id: string; operation: string }>(
          "SELECT group_id, operation FROM embed_console.activity WHERE actor = 'ops-away' ORDER BY seq",
        )
      ).rows
      expect(shared.map((row) => `${row.operation} ${row.group_id}`)).toEqual([
        ...ids.map((id) => `getOrCreate ${id}`),
        'getOrCreate away-3',
        ...ids.map((id) => `rotateToken ${id}`),
      ])
    },
  )
})

describe.skipIf(!team)('a team database at another schema version', () => {
  it('newer: team mode is read-only here, with “update Embed Console”; calls wait in the outbox and rotations wait', async () => {
    const url = team!.adminUrl.replace(/\/embed_team$/, '/newer_schema')
    await team!.query('CREATE DATABASE newer_schema')
    await migrateTeam(url)
    const { sandbox, proxy, posts } = await api()
    // An operator of that database's team (each team database has roles of its own).
    const ops = await addOperator({ url, name: 'ops-newer', resetPassword: false })
    const dataDir = await joinedFolder({
      operatorUrl: team!.url('ops-newer', ops.password).replace(/\/embed_team$/, '/newer_schema'),
      baseUrl: proxy.baseUrl,
      apiToken: sandbox.tokens.Customer,
      profileName: 'Ops',
    })
    const pgAdmin = new (await import('pg')).default.Client({ connectionString: url })
    await pgAdmin.connect()
    await pgAdmin.query("INSERT INTO embed_console.schema_version (version, name) VALUES (3, 'a later Embed Console')")
    await pgAdmin.end()

    const services = await openFolder(dataDir)
    closers.push(() => services.close())
    const profileId = profileIdOf(services, 'Ops')
    const status = await services.team.status()
    expect(status).toMatchObject({ connected: true, schemaVersion: 3, supportedVersion: 2, readOnly: true })
    expect(status.problem).toBe(
      'The team database has schema version 3, newer than this Embed Console knows (2): update Embed Console. Until then team mode is read-only here: rotations are refused and calls wait in this machine’s outbox.',
    )
    await services.groups.getOrCreate(profileId, { user_group_id: 'newer-0' })
    expect(await services.team.flush(2_000)).toBe(false)
    expect((await services.team.status()).outboxBacklog).toBe(1)
    await expect(services.groups.rotateToken(profileId, { kind: 'catalog', groupId: 'newer-0' })).rejects.toMatchObject({
      code: 'team_offline',
      message: status.problem,
    })
    expect(posts()).toBe(0)
  })
})

describe.skipIf(!team)('what team status says beyond the link', () => {
  it('two profiles that may reach one server by two schemes are warned of; a run whose holder stopped renewing is not shown as running', async () => {
    const ops = await (team as TeamCluster).operator('ops-status')
    const dataDir = await joinedFolder({
      operatorUrl: ops.url,
      baseUrl: 'http://api.status.example.com',
      apiToken: 'api-token-1',
      profileName: 'Plain',
    })
    const services = await openFolder(dataDir)
    closers.push(() => services.close())
    await services.profiles.create({
      name: 'Secure',
      baseUrl: 'https://api.status.example.com',
      timeoutSeconds: 5,
      environmentLabel: '',
      apiToken: 'api-token-2',
      tokenStorage: 'file',
    })
    const warning =
      'http://api.status.example.com and https://api.status.example.com may be one server reached two ways: the team keys them apart, so a rotation claimed through one never meets a claim through the other. Use one address for it on every machine.'
    expect((await services.team.status()).warnings).toEqual([warning])
    const text = io()
    await services.close()
    expect(await main(['team', 'status', '--data-dir', dataDir], text)).toBe(0)
    expect(text.out).toContain(`Warning: ${warning}`)

    const again = await openFolder(dataDir)
    closers.push(() => again.close())
    const operator = new (await import('pg')).default.Client({ connectionString: ops.url })
    await operator.connect()
    await operator.query(
      "SELECT * FROM embed_console.acquire_run('nightly.csv', 'The run of nightly.csv', 'holder-1', 42, 'host-1', 'cli', 30000)",
    )
    await operator.end()
    expect((await again.team.status()).runs).toEqual([
      expect.objectContaining({ label: 'The run of nightly.csv', actor: 'ops-status', host: 'host-1' }),
    ])
    // Its process stopped renewing (killed, or cut off) 20 s ago: its lease lives on, but it is not running.
    await team!.query("UPDATE embed_console.runs SET lease_renewed_at = now() - interval '20 seconds' WHERE id = 'nightly.csv'")
    expect((await again.team.status()).runs).toEqual([])
  })
})
