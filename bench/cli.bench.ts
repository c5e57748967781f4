import { execFile } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, bench, describe } from 'vitest'
import { createAppServices } from '../src-main/app-services'
import { startSandbox } from '../src-main/sandbox/sandbox-server'
import { describeSpread, interleave, report, spread } from './lib/stats'

// The CLI's start targets: `embed-console --version` and one `groups get-or-create` call each
// < 150 ms over `node -e 0`, medians of interleaved runs (a slow moment of the machine falls on
// every case alike). Each round runs every command once, as a script would, in a new process.
// And at the HTTP floor: one `--base-url` call within 1.3× of a bare Node script making the
// same call, with node:http (bench/scripts/bare-http-call.mjs) and with undici whole (bare-undici-call.mjs).

// BENCH_APP_DIR names another checkout (built, with node_modules): its `--profile` and
// `--base-url` calls join the rounds, against this run's bare script.

const ROUNDS = 21
const otherDir = process.env.BENCH_APP_DIR ? resolve(process.env.BENCH_APP_DIR) : undefined
const run = promisify(execFile)
const folder = await mkdtemp(join(tmpdir(), 'ec-bench-cli-'))
const sandbox = await startSandbox({ port: 0, dataFile: join(folder, 'sandbox.db') })

// A saved profile, for the call that goes through the app's database like the desktop app's.
const dataDir = join(folder, 'data')
const setup = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
await setup.router.dispatch(
  'profiles.create',
  { name: 'Bench', baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer, tokenStorage: 'file' },
  { transport: 'test' },
)
await setup.close()

let seq = 0
const env = { ...process.env, EMBED_CONSOLE_TOKEN: sandbox.tokens.Customer }
const timed = (args: string[]) => async () => {
  const started = performance.now()
  await run(process.execPath, args, { env })
  return performance.now() - started
}
const cli = (...args: string[]) => timed(['bin/embed-console.js', ...args])

const otherCli = (...args: string[]) => timed([join(otherDir ?? '.', 'bin/embed-console.js'), ...args])
const otherCases: Record<string, () => Promise<number>> = otherDir
  ? {
      otherBaseUrl: async () =>
        otherCli('groups', 'get-or-create', '--base-url', sandbox.baseUrl, '--user-group-id', `bench-${seq++}`, '--name', 'Bench')(),
      otherProfile: async () =>
        otherCli('groups', 'get-or-create', '--profile', 'Bench', '--data-dir', dataDir, '--user-group-id', `bench-${seq++}`)(),
    }
  : {}
type Case = 'node' | 'version' | 'bareHttp' | 'bareUndici' | 'baseUrl' | 'profile' | 'otherBaseUrl' | 'otherProfile'
const rounds = (await interleave<string, number>(ROUNDS, {
  ...otherCases,
  node: timed(['-e', '0']),
  version: cli('--version'),
  bareHttp: async () => timed(['bench/scripts/bare-http-call.mjs', sandbox.baseUrl, `bench-${seq++}`])(),
  bareUndici: async () => timed(['--liftoff-only', 'bench/scripts/bare-undici-call.mjs', sandbox.baseUrl, `bench-${seq++}`])(),
  baseUrl: async () =>
    cli('groups', 'get-or-create', '--base-url', sandbox.baseUrl, '--user-group-id', `bench-${seq++}`, '--name', 'Bench')(),
  profile: async () => cli('groups', 'get-or-create', '--profile', 'Bench', '--data-dir', dataDir, '--user-group-id', `bench-${seq++}`)(),
})) as Record<Case, number[]>
// Per round, so each difference is taken at one moment of the machine.
const over = (name: 'version' | 'baseUrl' | 'profile') => rounds[name].map((ms, index) => ms - rounds.node[index]!)
const against = (baseline: 'bareHttp' | 'bareUndici', call: Case = 'baseUrl') =>
  rounds[call].map((ms, index) => ms / rounds[baseline][index]!)

afterAll(async () => {
  report(`CLI start: ${ROUNDS} interleaved rounds, median (min, max)`, [
    ['`node -e 0` (the baseline)', describeSpread(spread(rounds.node), 'ms'), ''],
    ['`embed-console --version`', describeSpread(spread(rounds.version), 'ms'), ''],
    ['… over `node -e 0`, per round', describeSpread(spread(over('version')), 'ms'), '< 150 ms'],
    ['`groups get-or-create --base-url` (to the sandbox)', describeSpread(spread(rounds.baseUrl), 'ms'), ''],
    ['… over `node -e 0`, per round', describeSpread(spread(over('baseUrl')), 'ms'), '< 150 ms'],
    ['a bare Node script making the same call with node:http', describeSpread(spread(rounds.bareHttp), 'ms'), ''],
    ['… `groups get-or-create --base-url` ÷ it, per round', describeSpread(spread(against('bareHttp')), '×'), '≤ 1.3×'],
    ['a bare Node script making the same call with undici (`--liftoff-only`)', describeSpread(spread(rounds.bareUndici), 'ms'), ''],
    ['… `groups get-or-create --base-url` ÷ it, per round', describeSpread(spread(against('bareUndici')), '×'), '≤ 1.3×'],
    ['`groups get-or-create --profile` (database, activity log, catalog)', describeSpread(spread(rounds.profile), 'ms'), ''],
    ['… over `node -e 0`, per round', describeSpread(spread(over('profile')), 'ms'), ''],
    [
      '… `groups get-or-create --profile` ÷ the bare node:http script, per round',
      describeSpread(spread(against('bareHttp', 'profile')), '×'),
      '≤ 1.6×',
    ],
    ...(otherDir
      ? ([
          [
            `${otherDir} (BENCH_APP_DIR): \`--base-url\` ÷ the bare node:http script, per round`,
            describeSpread(spread(against('bareHttp', 'otherBaseUrl')), '×'),
            '',
          ],
          [
            `${otherDir} (BENCH_APP_DIR): \`--profile\` ÷ the bare node:http script, per round`,
            describeSpread(spread(against('bareHttp', 'otherProfile')), '×'),
            '',
          ],
        ] as Array<[string, string, string]>)
      : []),
  ])
  await sandbox.close()
})

describe('CLI', () => {
  bench('`embed-console --version`', async () => void (await cli('--version')()), { iterations: 5, time: 0 })
})
