import { spawn } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Libsql from 'libsql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices } from '../../../src-main/app-services'
import { main } from '../../../src-main/cli/index'
import type { CliIo } from '../../../src-main/cli/usage'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { type FlakyProxy, startFlakyProxy } from '../../helpers/flaky-proxy'
import { nodeScript } from '../../helpers/node-script'
import { readSandboxData } from '../../helpers/sandbox-data'

function io(env: NodeJS.ProcessEnv = {}): CliIo & { out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  return { out, err, env, stdout: (text) => out.push(text), stderr: (text) => err.push(text), stdin: async () => '' }
}

const csv = (count: number, prefix: string) =>
  ['user_group_id,name', ...Array.from({ length: count }, (_, index) => `${prefix}-${index},Group ${index}`)].join('\n')

describe('embed-console groups apply', () => {
  let sandbox: Sandbox
  let dir: string
  let sandboxFile: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ec-cli-apply-'))
    sandboxFile = join(dir, 'sandbox.db')
    sandbox = await startSandbox({ dataFile: sandboxFile })
  })
  afterAll(() => sandbox.close())

  const file = async (name: string, text: string) => {
    const path = join(dir, name)
    await writeFile(path, text)
    return path
  }
  const withToken = (token = sandbox.tokens.Customer) => io({ EMBED_CONSOLE_TOKEN: token, EMBED_CONSOLE_DATA_DIR: join(dir, 'data') })
  const sandboxIds = (prefix: string) => readSandboxData(sandboxFile).groups.filter((group) => group.provided_id.startsWith(prefix))

  it('plans with --dry-run and sends nothing; the last line gives the counts', async () => {
    const path = await file('dry.csv', csv(5, 'dry'))
    const run = withToken()
    expect(await main(['groups', 'apply', path, '--base-url', sandbox.baseUrl, '--dry-run'], run)).toBe(0)
    expect(run.out).toEqual([
      'Plan for dry.csv (5 rows): create 5, update 0, unchanged 0. Nothing was sent.',
      'Dry run: created 0, updated 0, unchanged 0, failed 0.',
    ])
    expect(sandboxIds('dry-')).toEqual([])
  })

  it('refuses an invalid file with exit 2, each problem by line and column', async () => {
    const path = await file('bad.csv', 'user_group_id,name,properties\nok,OK,\nok,Again,\nbad,,{nope')
    const run = withToken()
    expect(await main(['groups', 'apply', path, '--base-url', sandbox.baseUrl], run)).toBe(2)
    expect(run.err).toEqual([
      'bad.csv:3 (user_group_id): "ok" is on line 2 too: each id may be in the file once.',
      expect.stringMatching(/^bad\.csv:4 \(properties\): This is not JSON: /),
      'bad.csv has 2 problems: fix them, or add --exclude-invalid to send the 1 valid row.',
    ])
    const json = withToken()
    expect(await main(['groups', 'apply', path, '--base-url', sandbox.baseUrl, '--json'], json)).toBe(2)
    expect(JSON.parse(json.out.at(-1)!)).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { problems: 2 } } })
    expect(sandboxIds('ok')).toEqual([])
  })

  it('sends a file with --json: progress lines, then the summary with every count', async () => {
    const path = await file('json.csv', csv(30, 'json'))
    const run = withToken()
    expect(await main(['groups', 'apply', path, '--base-url', sandbox.baseUrl, '--json', '--concurrency', '8'], run)).toBe(0)
    const lines = run.out.map((line) => JSON.parse(line) as { event?: string })
    expect(lines.filter((line) => line.event === 'progress').length).toBeGreaterThan(0)
    // The last line is the CLI's one envelope, with every count.
    expect(lines.at(-1)).toMatchObject({ ok: true, value: { state: 'finished', created: 30, updated: 0, unchanged: 0, failed: 0 } })
    expect(sandboxIds('json-')).toHaveLength(30)
  })

  it('exits 1 when rows fail, naming each with its line and the server’s sentence', async () => {
    const path = await file('refused.csv', csv(3, 'refused'))
    const run = withToken('not-the-token')
    expect(await main(['groups', 'apply', path, '--base-url', sandbox.baseUrl], run)).toBe(1)
    expect(run.err.filter((line) => line.startsWith('refused.csv:'))).toHaveLength(3)
    expect(run.err[0]).toMatch(/^refused\.csv:2 refused-0: failed: The API token was refused \(HTTP 401\)/)
    expect(run.out.at(-1)).toBe('Done: created 0, updated 0, unchanged 0, failed 3.')
  })

  it('bad usage is exit 2 with a sentence', async () => {
    const path = await file('usage.csv', csv(1, 'usage'))
    const run = withToken()
    expect(await main(['groups', 'apply', path], run)).toBe(2)
    expect(run.err[0]).toMatch(/^Give either --profile or --base-url\.\nUsage: embed-console groups apply FILE/)
    expect(await main(['groups', 'apply', path, '--base-url', sandbox.baseUrl, '--concurrency', '0'], withToken())).toBe(2)
    expect(await main(['groups', 'apply', join(dir, 'missing.csv'), '--base-url', sandbox.baseUrl], withToken())).toBe(2)
    // The environment (a proxy password with it) reads as a regular file: never an input file.
    const environ = withToken()
    expect(await main(['groups', 'apply', '/proc/self/environ', '--base-url', sandbox.baseUrl, '--dry-run'], environ)).toBe(2)
    expect(environ.err[0]).toMatch(/^\/proc\/self\/environ is under \/proc, whose files describe the running system/)
    const help = withToken()
    expect(await main(['groups', 'apply', '--help'], help)).toBe(0)
    expect(help.out[0]).toMatch(/\nUsage: embed-console groups apply FILE/)
    expect(help.out[0]).toMatch(/\nExit codes:\n {2}0 {2}every row succeeded/)
  })
})

describe('kill -9 in the middle of a 2,000-row run, then --resume', () => {
  let sandbox: Sandbox
  let proxy: FlakyProxy

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ec-cli-crash-'))
    sandbox = await startSandbox({ dataFile: join(dir, 'sandbox.db') })
    proxy = await startFlakyProxy(sandbox.baseUrl, () => null)
  })
  afterAll(async () => {
    await proxy.close()
    await sandbox.close()
  })

  it('creates every id exactly once, and the resumed summary counts add up', { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ec-cli-crash-data-'))
    const services = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
    await services.profiles.create({
      name: 'Crash',
      baseUrl: proxy.baseUrl,
      timeoutSeconds: 5,
      environmentLabel: '',
      apiToken: sandbox.tokens.Customer,
      tokenStorage: 'file',
    })
    await services.close()
    const path = join(dataDir, 'rows.csv')
    await writeFile(path, csv(2000, 'crash'))
    const cli = await nodeScript(resolve('test/helpers/scripts/cli.ts'))
    const args = ['groups', 'apply', path, '--profile', 'Crash', '--json', '--concurrency', '4', '--data-dir', dataDir]

    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    const exited = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, signal) => done(signal)))
    child.stdout!.resume()
    // Killed once a few hundred rows are through, with requests in flight.
    while (proxy.forwarded < 500) await new Promise((next) => setTimeout(next, 10))
    child.kill('SIGKILL')
    expect(await exited).toBe('SIGKILL')
    const before = proxy.created.size
    expect(before).toBeGreaterThanOrEqual(500)
    expect(before).toBeLessThan(2000)

    const rerun = (extra: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((done) => {
        const child = spawn(process.execPath, [cli, ...args.filter((arg) => arg !== '--json'), ...extra], {
          stdio: ['ignore', 'ignore', 'pipe'],
        })
        let stderr = ''
        child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
        child.once('exit', (code) => done({ code, stderr }))
      })
    // Its lease had 30 s to go, but its process is gone: the same command without --resume is
    // refused (it would start over), and --resume takes over at once.
    const again = await rerun([])
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/An earlier run of rows\.csv stopped with \d+ rows not sent: add --resume/)

    const resumed = await new Promise<{ code: number | null; stdout: string }>((done) => {
      const rerun = spawn(process.execPath, [cli, ...args, '--resume'], { stdio: ['ignore', 'pipe', 'ignore'] })
      let stdout = ''
      rerun.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
      rerun.once('exit', (code) => done({ code, stdout }))
    })
    expect(resumed.code).toBe(0)
    const summary = JSON.parse(resumed.stdout.trim().split('\n').at(-1)!)
    expect(summary).toMatchObject({
      ok: true,
      value: { state: 'finished', created: 2000, updated: 0, unchanged: 0, failed: 0, unknown: 0, pending: 0 },
    })
    const { created, updated, unchanged, failed } = summary.value
    expect(created + updated + unchanged + failed).toBe(2000)

    // The sandbox created each id once: no row was created twice across the crash.
    expect(proxy.created.size).toBe(2000)
    expect([...proxy.created.values()].every((count) => count === 1)).toBe(true)
    const db = new Libsql(join(dataDir, 'embed-console.db'), { readonly: true })
    try {
      expect((db.prepare("SELECT count(*) AS n FROM catalog WHERE group_id LIKE 'crash-%'").get() as { n: number }).n).toBe(2000)
    } finally {
      db.close()
    }
  })
})

describe('a run whose output nobody reads any more (`| head -1`)', () => {
  it('pauses, resumable, with a sentence on stderr and no EPIPE stack', { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ec-cli-pipe-'))
    const sandbox = await startSandbox({ dataFile: join(dir, 'sandbox.db') })
    const slow = await startFlakyProxy(sandbox.baseUrl, () => null, { delayMs: 5 })
    try {
      const path = join(dir, 'rows.csv')
      await writeFile(path, csv(400, 'piped'))
      const cli = await nodeScript(resolve('test/helpers/scripts/cli.ts'))
      const args = ['groups', 'apply', path, '--base-url', slow.baseUrl, '--json', '--data-dir', join(dir, 'data')]
      const child = spawn(process.execPath, [cli, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, EMBED_CONSOLE_TOKEN: sandbox.tokens.Customer },
      })
      let stderr = ''
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
      // What `head -1` does: read a line, then close the pipe.
      await new Promise<void>((done) => child.stdout!.once('data', () => done()))
      child.stdout!.destroy()
      expect(await exited).toBe(1)
      expect(stderr).not.toMatch(/EPIPE|Unhandled|at .*\(/)
      expect(stderr).toContain('Standard output was closed (the command reading it ended): pausing the run. Resume it with --resume.')
      const sent = slow.forwarded
      expect(sent).toBeLessThan(400)

      const resumed = await new Promise<number | null>((done) =>
        spawn(process.execPath, [cli, ...args, '--resume'], {
          stdio: 'ignore',
          env: { ...process.env, EMBED_CONSOLE_TOKEN: sandbox.tokens.Customer },
        }).once('exit', done),
      )
      expect(resumed).toBe(0)
      expect(readSandboxData(join(dir, 'sandbox.db')).groups.filter((group) => group.provided_id.startsWith('piped-'))).toHaveLength(400)
    } finally {
      await slow.close()
      await sandbox.close()
    }
  })
})
