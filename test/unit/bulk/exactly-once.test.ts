import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Libsql from 'libsql'
import { afterEach, describe, expect, it } from 'vitest'
import { createAppServices } from '../../../src-main/app-services'
import { main } from '../../../src-main/cli/index'
import type { CliIo } from '../../../src-main/cli/usage'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { createOpsProfile, type FlakyOptions, type FlakyProxy, startFlakyProxy } from '../../helpers/flaky-proxy'
import { nodeScript } from '../../helpers/node-script'
import { readSandboxData } from '../../helpers/sandbox-data'

/*
 * Exactly once, through real processes: the CLI as a process of its own (and killed -9), browser
 * mode's main as another, one data folder, the sandbox behind a loopback proxy that counts every
 * rotation the server made. A count above one is a token rotated twice.
 */

const closers: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

interface Folder {
  dataDir: string
  sandbox: Sandbox
  sandboxFile: string
  proxy: FlakyProxy
  ids: string[]
  file: string
}

/** A data folder with profile "Ops" (tokens kept in the database, so every process reads them) and `count` groups it has fetched. */
async function folderWithGroups(count: number, proxyOptions: FlakyOptions = {}, prefix = 'g'): Promise<Folder> {
  const dir = await mkdtemp(join(tmpdir(), 'ec-once-'))
  const sandboxFile = join(dir, 'sandbox.db')
  const sandbox = await startSandbox({ dataFile: sandboxFile })
  closers.push(() => sandbox.close())
  const proxy = await startFlakyProxy(sandbox.baseUrl, () => null, proxyOptions)
  closers.push(() => proxy.close())
  const dataDir = join(dir, 'data')
  const services = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
  const profile = await createOpsProfile(services, proxy, sandbox.tokens.Customer)
  const ids = Array.from({ length: count }, (_, index) => `${prefix}-${String(index).padStart(3, '0')}`)
  const settings = { concurrency: 8, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false }
  const plan = services.bulk.plan({
    kind: 'apply',
    target: { profileId: profile.id },
    fileName: 'groups.csv',
    text: ['user_group_id', ...ids].join('\n'),
    excludeInvalid: false,
    settings,
  })
  expect(await services.bulk.launch(plan.runId!, settings).done).toBe('finished')
  await services.close()
  const file = join(dir, 'rows.csv')
  await writeFile(file, ['user_group_id', ...ids].join('\n'))
  return { dataDir, sandbox, sandboxFile, proxy, ids, file }
}

interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

async function cliProcess(args: string[]): Promise<{ child: ChildProcess; exited: Promise<Exit> }> {
  const cli = await nodeScript(resolve('test/helpers/scripts/cli.ts'))
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const exited = new Promise<Exit>((done) => child.once('exit', (code, signal) => done({ code, signal, stdout, stderr })))
  closers.push(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'))
  return { child, exited }
}

const lastJson = (stdout: string) =>
  JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    ok: boolean
    value?: Record<string, unknown>
    error?: { code: string; message: string; details?: Record<string, unknown> }
  }

/** Every group rotated exactly once by the server, none twice, none missed. */
function expectEachRotatedOnce(folder: Folder) {
  const twice = [...folder.proxy.rotated].filter(([, times]) => times > 1)
  expect(twice).toEqual([])
  expect(folder.proxy.rotated.size).toBe(folder.ids.length)
}

/**
 * Time passing, without the test waiting for it: every run's lease expires (30 s), and with
 * `rotations`, every rotation in flight passes its timeout too (the client's timeout + 30 s).
 */
function letLeasesExpire(dataDir: string, { rotations = true } = {}) {
  const db = new Libsql(join(dataDir, 'embed-console.db'))
  try {
    db.prepare('UPDATE bulk_runs SET lease_expires_at = lease_expires_at - 600000 WHERE lease_expires_at IS NOT NULL').run()
    if (rotations) db.prepare('UPDATE rotations SET expires_at = expires_at - 600000').run()
  } finally {
    db.close()
  }
}

describe('one rotation plan, two processes', () => {
  it(
    'two `groups apply --rotate` of one file started at once: one runs, one is refused naming it, each group rotates once',
    { timeout: 120_000 },
    async () => {
      // A server a little slow (10 ms a request), so the two runs overlap for seconds.
      const folder = await folderWithGroups(200, { delayMs: 10 })
      const args = ['groups', 'apply', folder.file, '--profile', 'Ops', '--rotate', '--json', '--data-dir', folder.dataDir]
      const [first, second] = await Promise.all([cliProcess(args), cliProcess(args)])
      const exits = await Promise.all([first.exited, second.exited])
      const [ran, refused] = exits[0]!.code === 0 ? [exits[0]!, exits[1]!] : [exits[1]!, exits[0]!]
      expect(ran.code).toBe(0)
      expect(lastJson(ran.stdout)).toMatchObject({ ok: true, value: { state: 'finished', rotated: 200, failed: 0, unknown: 0 } })
      expect(refused.code).toBe(1)
      const refusal = lastJson(refused.stdout)
      expect(refusal).toMatchObject({ ok: false, error: { code: 'conflict', details: { owner: { client: 'cli' } } } })
      const owner = refusal.error!.details!.owner as { pid: number }
      expect([first.child.pid, second.child.pid]).toContain(owner.pid)
      expect(refusal.error!.message).toBe(
        `The run of rows.csv is being sent by the command line, pid ${owner.pid}, since ${refusal.error!.message.match(/since (\d\d:\d\d)/)![1]} — pause it there or wait.`,
      )
      expectEachRotatedOnce(folder)
    },
  )

  it(
    'a run going in browser mode is refused to `--resume` from the CLI; paused there, the CLI goes on, each group rotated once',
    { timeout: 120_000 },
    async () => {
      const folder = await folderWithGroups(80, { delayMs: 15 })
      const app = await browserMode(folder.dataDir)
      const profileId = ((await app.call('profiles.list', {})) as { profiles: Array<{ id: string; name: string }> }).profiles.find(
        (profile) => profile.name === 'Ops',
      )!.id
      const text = ['user_group_id', ...folder.ids].join('\n')
      const settings = { concurrency: 1, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false }
      const plan = (await app.call('bulk.plan', {
        kind: 'rotate',
        profileId,
        fileName: 'rows.csv',
        text,
        excludeInvalid: false,
        settings,
      })) as { runId: string }
      await app.call('bulk.start', { runId: plan.runId, settings })
      while (folder.proxy.rotated.size < 5) await new Promise((next) => setTimeout(next, 10))

      const args = ['groups', 'apply', folder.file, '--profile', 'Ops', '--rotate', '--data-dir', folder.dataDir]
      const early = await (await cliProcess([...args, '--resume'])).exited
      expect(early.code).toBe(1)
      expect(early.stderr).toMatch(
        new RegExp(`^The run of rows\\.csv is being sent by browser mode, pid ${app.pid}, since \\d\\d:\\d\\d — pause it there or wait\\.`),
      )

      await app.call('bulk.pause', { runId: plan.runId })
      for (;;) {
        const { run } = (await app.call('bulk.run', { runId: plan.runId })) as { run: { state: string; owner: unknown } }
        if (run.state === 'paused' && run.owner === null) break
        await new Promise((next) => setTimeout(next, 20))
      }
      const rotatedInApp = folder.proxy.rotated.size
      const resumed = await (await cliProcess([...args, '--resume'])).exited
      expect(resumed.stderr).toMatch(/^Resuming the run of rows\.csv: \d+ rows left to send\./)
      expect(resumed.code).toBe(0)
      expect(folder.proxy.rotated.size).toBeGreaterThan(rotatedInApp)
      expectEachRotatedOnce(folder)
      // The app sees the run finished by the other process, and cannot send it again.
      expect(await app.call('bulk.run', { runId: plan.runId })).toMatchObject({ run: { state: 'finished', tallies: { rotated: 80 } } })
      expect(await app.failure('bulk.resume', { runId: plan.runId })).toMatchObject({ code: 'refused' })
    },
  )
})

describe('the lease itself, between two services on one folder', () => {
  it(
    'refuses a second holder while the lease lives; after expiry the takeover fences the first out, and no group rotates twice',
    { timeout: 60_000 },
    async () => {
      const folder = await folderWithGroups(40, { delayMs: 20 })
      const first = await createAppServices({ dataDir: folder.dataDir, transport: 'electron', sandbox: false })
      closers.push(() => first.close())
      const second = await createAppServices({ dataDir: folder.dataDir, transport: 'browser', client: 'cli', sandbox: false })
      closers.push(() => second.close())
      const profileId = first.profiles.list().find((profile) => profile.name === 'Ops')!.id
      const settings = { concurrency: 1, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false }
      const { runId } = first.bulk.plan({
        kind: 'rotate',
        target: { profileId },
        fileName: 'rows.csv',
        text: ['user_group_id', ...folder.ids].join('\n'),
        excludeInvalid: false,
        settings,
      })
      const running = first.bulk.launch(runId!, settings)
      while (folder.proxy.rotated.size < 3) await new Promise((next) => setTimeout(next, 5))

      expect(() => second.bulk.launch(runId!, settings)).toThrow(
        new RegExp(`^The run of rows\\.csv is being sent by the app, pid ${process.pid}, since \\d\\d:\\d\\d — pause it there or wait\\.$`),
      )
      expect(() => second.bulk.cancel(runId!)).toThrow(/is being sent by the app/)

      // The first holder stalls past its lease (as if frozen for 30 s): another may take over.
      letLeasesExpire(folder.dataDir)
      const takeover = second.bulk.launch(runId!, settings)
      expect(await running.idle()).toBe('paused')
      expect(running.progress().pausedReason).toBe('Another Embed Console process took this run over: this one stopped sending.')
      expect(await takeover.done).toBe('finished')
      expectEachRotatedOnce(folder)
      expect(second.bulk.run(runId!).tallies).toMatchObject({ rotated: 40, failed: 0, unknown: 0, pending: 0 })
    },
  )
})

describe('kill -9 between journaling a rotation and its answer', () => {
  it(
    'the row is never sent again: --resume takes over from the dead process at once, and the rotation is settled with the server’s token kept',
    { timeout: 120_000 },
    async () => {
      // The server acts on the fourth rotation, and its answer never comes: the process is killed waiting.
      let held = 0
      const folder = await folderWithGroups(6, { holdAnswer: (_index, req) => req.method === 'POST' && held++ === 3 })
      const args = ['groups', 'apply', folder.file, '--profile', 'Ops', '--rotate', '--json', '--data-dir', folder.dataDir]
      const { child, exited } = await cliProcess(args)
      while (held < 4) await new Promise((next) => setTimeout(next, 10))
      child.kill('SIGKILL')
      expect((await exited).signal).toBe('SIGKILL')
      const heldId = folder.ids[3]!
      expect(folder.proxy.rotated.get(heldId)).toBe(1)

      // Once the rotation's own time is up, the next start (any process) lists it as unknown, before anything is fetched.
      const journal = new Libsql(join(folder.dataDir, 'embed-console.db'))
      journal.prepare('UPDATE rotations SET expires_at = expires_at - 600000').run()
      journal.close()
      const restarted = await createAppServices({ dataDir: folder.dataDir, transport: 'browser', sandbox: false })
      const info = (await restarted.router.dispatch('app.info', {}, { transport: 'test' })) as { value: { notices: string[] } }
      expect(info.value.notices).toContain(
        'A token rotation was being sent when Embed Console last stopped: Activity lists it as unknown, with Check now.',
      )
      expect(
        await restarted.router.dispatch('activity.list', { groupId: heldId, operation: 'rotateToken', limit: 10 }, { transport: 'test' }),
      ).toMatchObject({
        value: { entries: [{ outcome: 'unknown', errorCode: 'outcome_unknown' }] },
      })
      await restarted.close()

      // The dead process's lease of the run has most of its 30 s to go: a process of this machine
      // that no longer exists is taken over at once, and the row it was sending is never sent again.
      const resumed = await (await cliProcess([...args, '--resume'])).exited
      expect(resumed.code).toBe(0)
      expect(lastJson(resumed.stdout)).toMatchObject({ ok: true, value: { state: 'finished', rotated: 6, unknown: 0, failed: 0 } })
      // Never sent twice: the server rotated each group once, the held one included.
      expectEachRotatedOnce(folder)
      // Settled by a fetch at the end of the run: the server's token (the one the lost answer carried) is kept.
      const kept = await createAppServices({ dataDir: folder.dataDir, transport: 'browser', sandbox: false })
      closers.push(() => kept.close())
      const profileId = kept.profiles.list().find((profile) => profile.name === 'Ops')!.id
      const serverToken = readSandboxData(folder.sandboxFile).groups.find((group) => group.provided_id === heldId)!.token
      expect(await kept.groups.revealToken(profileId, heldId)).toBe(serverToken)
      const entries = (await kept.router.dispatch(
        'activity.list',
        { groupId: heldId, operation: 'rotateToken', limit: 10 },
        { transport: 'test' },
      )) as {
        value: { entries: Array<{ outcome: string; settledOutcome?: string; message?: string }> }
      }
      expect(entries.value.entries).toEqual([expect.objectContaining({ outcome: 'unknown', settledOutcome: 'rotated' })])
      expect(entries.value.entries[0]!.message).toMatch(/^Embed Console stopped while this rotation was being sent/)
    },
  )
})

describe('a takeover before the dead holder’s rotation has timed out', () => {
  it(
    'marks the row it left in flight unknown (never pending, never sent again) and leaves it for a later check',
    { timeout: 120_000 },
    async () => {
      let held = 0
      const folder = await folderWithGroups(4, { holdAnswer: (_index, req) => req.method === 'POST' && held++ === 1 })
      const args = ['groups', 'apply', folder.file, '--profile', 'Ops', '--rotate', '--json', '--data-dir', folder.dataDir]
      const { child, exited } = await cliProcess(args)
      while (held < 2) await new Promise((next) => setTimeout(next, 10))
      child.kill('SIGKILL')
      await exited
      // Only the lease has expired: the held rotation could, for all anyone knows, still be answered.
      letLeasesExpire(folder.dataDir, { rotations: false })
      const resumed = await (await cliProcess([...args, '--resume'])).exited
      expect(resumed.code).toBe(1)
      const summary = lastJson(resumed.stdout)
      expect(summary.error!.details).toMatchObject({ state: 'finished', rotated: 3, unknown: 1, failed: 0 })
      const row = resumed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { event?: string; user_group_id?: string; outcome?: string; message?: string })
        .find((line) => line.event === 'row')
      expect(row).toMatchObject({ user_group_id: folder.ids[1], outcome: 'unknown' })
      expect(row!.message).toMatch(
        /^The run stopped while this rotation was being sent: the old token may already be invalid\. It is never sent again on its own/,
      )
      expectEachRotatedOnce(folder)
    },
  )
})

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise((done) => server.close(done))
  return port
}

function io(env: NodeJS.ProcessEnv): CliIo & { out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  return { out, err, env, stdout: (text) => out.push(text), stderr: (text) => err.push(text), stdin: async () => '' }
}

describe('a run into a server that is down', () => {
  it(
    'pauses itself within a few requests, says why, exits 1 resumable, and goes on once the server is back',
    { timeout: 60_000 },
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'ec-breaker-'))
      const port = await closedPort()
      const file = join(dir, 'rows.csv')
      await writeFile(file, ['user_group_id', ...Array.from({ length: 200 }, (_, index) => `down-${index}`)].join('\n'))
      const sandboxFile = join(dir, 'sandbox.db')
      const token = 'a-customer-token-for-the-breaker-test'
      const env = { EMBED_CONSOLE_TOKEN: token, EMBED_CONSOLE_DATA_DIR: join(dir, 'data') }
      const args = ['groups', 'apply', file, '--base-url', `http://127.0.0.1:${port}`, '--json', '--rate', '100000']

      const down = io(env)
      expect(await main(args, down)).toBe(1)
      const paused = JSON.parse(down.out.at(-1)!) as {
        ok: false
        error: { code: string; message: string; details: Record<string, number | string> }
      }
      expect(paused.error.code).toBe('paused')
      expect(paused.error.details).toMatchObject({ state: 'paused', failed: 0, pending: 200 })
      expect(paused.error.details.pausedReason).toMatch(
        /^The server is not answering: 5 requests in a row failed \(the last: .+\)\. The run is paused; resume it when the server is back\.$/,
      )
      // Paused by the breaker, not 90 s of retries: no row used up its retries (failed: 0 above).

      const sandbox = await startSandbox({ port, dataFile: sandboxFile, customerToken: token })
      closers.push(() => sandbox.close())
      const back = io(env)
      expect(await main([...args, '--resume'], back)).toBe(0)
      expect(JSON.parse(back.out.at(-1)!)).toMatchObject({ ok: true, value: { state: 'finished', created: 200, failed: 0 } })
      const created = readSandboxData(sandboxFile).groups.filter((group) => group.provided_id.startsWith('down-'))
      expect(new Set(created.map((group) => group.provided_id)).size).toBe(200)
      expect(created).toHaveLength(200)
    },
  )

  it('--bail pauses at the first row that fails, naming it; without it the run goes on', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ec-bail-'))
    const sandbox = await startSandbox({ dataFile: join(dir, 'sandbox.db') })
    closers.push(() => sandbox.close())
    // The gateway refuses the fifth request with a 400: an answer, not a server that is down.
    const proxy = await startFlakyProxy(sandbox.baseUrl, (index) =>
      index === 4
        ? (res) =>
            res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ success: 0, error: 'Refused by the gateway.' }))
        : null,
    )
    closers.push(() => proxy.close())
    const file = join(dir, 'rows.csv')
    await writeFile(file, ['user_group_id', ...Array.from({ length: 20 }, (_, index) => `bail-${index}`)].join('\n'))
    const env = { EMBED_CONSOLE_TOKEN: sandbox.tokens.Customer, EMBED_CONSOLE_DATA_DIR: join(dir, 'data') }
    const run = io(env)
    expect(await main(['groups', 'apply', file, '--base-url', proxy.baseUrl, '--json', '--concurrency', '1', '--bail'], run)).toBe(1)
    const paused = JSON.parse(run.out.at(-1)!) as { error: { code: string; details: Record<string, unknown> } }
    expect(paused.error).toMatchObject({ code: 'paused', details: { state: 'paused', failed: 1, created: 4, pending: 15 } })
    expect(paused.error.details.pausedReason).toMatch(
      /^Line 6 \(bail-4\) did not succeed: .*Refused by the gateway.*\. This run stops at the first failure\.$/,
    )
  })
})

/** Browser mode's main as a process of its own on `dataDir`, with a session to call it as the page does. */
async function browserMode(dataDir: string) {
  const child = spawn(process.execPath, ['bin/embed-console.js', 'web', '--port', '0', '--no-open', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  closers.push(
    () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done()
        child.once('exit', () => done())
        child.kill('SIGINT')
      }),
  )
  const url = await new Promise<URL>((done, fail) => {
    let stdout = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
      const match = /running at (\S+)/.exec(stdout)
      if (match) done(new URL(match[1]!))
    })
    child.once('exit', (code) => fail(new Error(`browser mode exited with ${code}`)))
  })
  const session = await fetch(`${url.origin}/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ key: url.hash.replace('#key=', '') }),
  })
  const cookie = session.headers.getSetCookie()[0]!.split(';')[0]!
  const invoke = async (name: string, input: unknown) => {
    const response = await fetch(`${url.origin}/ipc/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie, Origin: url.origin },
      body: JSON.stringify(input),
    })
    return (await response.json()) as { ok: boolean; value?: unknown; error?: { code: string; message: string } }
  }
  return {
    pid: child.pid!,
    async call(name: string, input: unknown): Promise<unknown> {
      const result = await invoke(name, input)
      if (!result.ok) throw new Error(`${name}: ${result.error!.message}`)
      return result.value
    },
    async failure(name: string, input: unknown) {
      const result = await invoke(name, input)
      if (result.ok) throw new Error(`${name} succeeded`)
      return result.error!
    },
  }
}
