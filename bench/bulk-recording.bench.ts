import { execFile, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { afterAll, bench, describe } from 'vitest'
import { createAppServices } from '../src-main/app-services'
import { createUserApiClient } from '../src-main/user-api/client'
import { startFlakyProxy } from '../test/helpers/flaky-proxy'
import { addBenchProfile } from './lib/fixtures'
import { describeSpread, interleave, report, spread } from './lib/stats'

// Target: a bulk run that records each row (activity entry, catalog row, token, journal: the
// CLI's --profile) within 1.4× of the same run recording nothing (--base-url, at the HTTP floor),
// rows of one moment sharing a commit. 10,000 new groups through the CLI, end to end, at
// concurrency 4 (the default) and 8, interleaved; the sandbox in a process of its own, as an API
// is. Then the same runs in this process, for where the time goes: this process's CPU per row and
// how busy its event loop was (why 8 at once is no faster than 4), and the sandbox's CPU per row.
// Then 2,000 rows to the same sandbox behind a proxy that holds each request 5 ms, as an API on a
// network is, recorded and not. BENCH_APP_DIR names a checkout of other code (built, with node_modules): its recorded run at
// concurrency 4 joins the interleaved rounds, against the same rounds' baseline.

// BENCH_ROWS sets a smaller run where a machine is too busy for 10,000 rows a case.
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000)
const ROUNDS = 3
const otherDir = process.env.BENCH_APP_DIR ? resolve(process.env.BENCH_APP_DIR) : undefined
const run = promisify(execFile)
const folder = await mkdtemp(join(tmpdir(), 'ec-bench-recording-'))
const loadBefore = loadavg()[0]!

const sandboxProcess = spawn(process.execPath, ['bin/embed-console.js', 'sandbox', '--port', '0', '--data', join(folder, 'sandbox.db')], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
const sandbox = await new Promise<{ baseUrl: string; token: string }>((resolve, reject) => {
  let output = ''
  sandboxProcess.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
    const baseUrl = /running at (\S+)/.exec(output)?.[1]
    const token = /Customer API token: (\S+)/.exec(output)?.[1]
    if (baseUrl && token) resolve({ baseUrl, token })
  })
  sandboxProcess.on('exit', (code) => reject(new Error(`embed-console sandbox exited with ${code}`)))
})

/** The sandbox process's CPU time so far, in ms (utime + stime from /proc, in clock ticks of 10 ms). */
async function sandboxCpuMs(): Promise<number> {
  const fields = (await readFile(`/proc/${sandboxProcess.pid}/stat`, 'utf8')).split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

// The same sandbox a few milliseconds away, as an API on a network is: each request waits this
// long before it is passed on.
const REMOTE_DELAY_MS = 5
const REMOTE_ROWS = 2_000
const remote = await startFlakyProxy(sandbox.baseUrl, () => null, { delayMs: REMOTE_DELAY_MS })

const dataDir = join(folder, 'data')
const setup = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
for (const [name, baseUrl] of [
  ['Bench', sandbox.baseUrl],
  ['Bench remote', remote.baseUrl],
] as const)
  await addBenchProfile(setup, { name, baseUrl, apiToken: sandbox.token })
await setup.close()

let file = 0
async function rowsFile(rows = ROWS): Promise<string> {
  const prefix = `r${file++}`
  const path = join(folder, `${prefix}.csv`)
  await writeFile(
    path,
    [
      'user_group_id,name,properties',
      ...Array.from({ length: rows }, (_, index) => `${prefix}-${index},Customer ${index},"{""seats"": ${index % 50}}"`),
    ].join('\n'),
  )
  return path
}

/** `groups apply` in a process of its own, spawn to exit, in seconds; every row must be created. */
async function apply(target: 'profile' | 'base', concurrency: number, { cwd = '.', away = false } = {}): Promise<number> {
  const rows = away ? REMOTE_ROWS : ROWS
  const path = await rowsFile(rows)
  const args = [
    'bin/embed-console.js',
    'groups',
    'apply',
    path,
    ...(target === 'profile' ? ['--profile', away ? 'Bench remote' : 'Bench'] : ['--base-url', away ? remote.baseUrl : sandbox.baseUrl]),
    '--data-dir',
    dataDir,
    '--concurrency',
    String(concurrency),
    '--json',
  ]
  const started = performance.now()
  const { stdout } = await run(process.execPath, args, {
    cwd,
    env: { ...process.env, EMBED_CONSOLE_TOKEN: sandbox.token },
    maxBuffer: 1 << 26,
  })
  const seconds = (performance.now() - started) / 1000
  const summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as { ok: boolean; value?: { created: number } }
  if (!summary.ok || summary.value?.created !== rows) throw new Error(`groups apply --${target} ended with ${stdout.slice(-300)}`)
  return seconds
}

const cases: Record<string, () => Promise<number>> = {
  'base-4': () => apply('base', 4),
  'profile-4': () => apply('profile', 4),
  'base-8': () => apply('base', 8),
  'profile-8': () => apply('profile', 8),
}
if (otherDir) cases['other-profile-4'] = () => apply('profile', 4, { cwd: otherDir })
const cli = (await interleave(ROUNDS, cases)) as Record<'base-4' | 'profile-4' | 'base-8' | 'profile-8', number[]> &
  Partial<Record<'other-profile-4', number[]>>
const away = await interleave(ROUNDS, {
  base: () => apply('base', 4, { away: true }),
  profile: () => apply('profile', 4, { away: true }),
})
const ratio = (concurrency: number) =>
  cli[`profile-${concurrency}` as 'profile-4'].map((value, index) => value / cli[`base-${concurrency}` as 'base-4'][index]!)

// ---------------------------------------------------------------- where the time goes, in this process
interface Inside {
  msPerRow: number
  cpuMsPerRow: number
  busy: number
  sandboxCpuMsPerRow: number
}
async function inside(target: 'profile' | 'base', concurrency: number): Promise<Inside> {
  const services = await createAppServices({ dataDir: join(folder, `inside-${file}`), transport: 'browser', sandbox: false, client: 'cli' })
  const created = await addBenchProfile(services, { baseUrl: sandbox.baseUrl, apiToken: sandbox.token })
  const settings = { concurrency, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false }
  const text = await readFile(await rowsFile(), 'utf8')
  const plan = services.bulk.plan({
    kind: 'apply',
    target: target === 'profile' ? { profileId: created.id } : { baseUrl: sandbox.baseUrl },
    fileName: 'rows.csv',
    text,
    excludeInvalid: false,
    settings,
  })
  const cpu = process.cpuUsage()
  const loop = performance.eventLoopUtilization()
  const sandboxBefore = await sandboxCpuMs()
  const started = performance.now()
  const runner = services.bulk.launch(
    plan.runId!,
    settings,
    target === 'base' ? { client: createUserApiClient({ baseUrl: sandbox.baseUrl, apiToken: sandbox.token }) } : {},
  )
  if ((await runner.done) !== 'finished') throw new Error('The run did not finish.')
  const elapsed = performance.now() - started
  const used = process.cpuUsage(cpu)
  const result = {
    msPerRow: elapsed / ROWS,
    cpuMsPerRow: (used.user + used.system) / 1000 / ROWS,
    busy: performance.eventLoopUtilization(loop).utilization,
    sandboxCpuMsPerRow: ((await sandboxCpuMs()) - sandboxBefore) / ROWS,
  }
  await services.close()
  return result
}
const within = await interleave(ROUNDS, {
  'base-4': () => inside('base', 4),
  'profile-4': () => inside('profile', 4),
  'profile-8': () => inside('profile', 8),
})
const loadAfter = loadavg()[0]!

afterAll(async () => {
  const figure = (name: keyof typeof within, pick: (value: Inside) => number, unit: string) =>
    describeSpread(spread(within[name].map(pick)), unit)
  report(`Bulk recording: ${ROWS.toLocaleString('en')} new groups, ${ROUNDS} interleaved rounds, median (min, max)`, [
    [
      '`groups apply --base-url` (records nothing: the baseline), concurrency 4, spawn → exit',
      describeSpread(spread(cli['base-4']), 's'),
      '',
    ],
    ['`groups apply --profile` (activity, catalog, token, journal), concurrency 4', describeSpread(spread(cli['profile-4']), 's'), ''],
    ['… recorded ÷ not recorded, per round, concurrency 4', describeSpread(spread(ratio(4)), '×'), '≤ 1.4×'],
    ...(otherDir
      ? [
          [
            `\`groups apply --profile\` of ${otherDir} (BENCH_APP_DIR), concurrency 4 ÷ this code's not recorded, per round`,
            `${describeSpread(spread(cli['other-profile-4']!), 's')}: ${describeSpread(spread(cli['other-profile-4']!.map((value, index) => value / cli['base-4'][index]!)), '×')}`,
            '',
          ] as [string, string, string],
        ]
      : []),
    [
      `${REMOTE_ROWS.toLocaleString('en')} rows to the sandbox ${REMOTE_DELAY_MS} ms away, concurrency 4: \`--base-url\` / \`--profile\` / recorded ÷ not recorded, per round`,
      `${describeSpread(spread(away.base), 's')} / ${describeSpread(spread(away.profile), 's')} / ${describeSpread(
        spread(away.profile.map((value, index) => value / away.base[index]!)),
        '×',
      )}`,
      '≤ 1.4×',
    ],
    ['`groups apply --base-url`, concurrency 8', describeSpread(spread(cli['base-8']), 's'), ''],
    ['`groups apply --profile`, concurrency 8', describeSpread(spread(cli['profile-8']), 's'), ''],
    ['… recorded ÷ not recorded, per round, concurrency 8', describeSpread(spread(ratio(8)), '×'), '≤ 1.4×'],
    [
      'in process, not recorded, concurrency 4: ms a row / CPU ms a row / event loop busy',
      `${figure('base-4', (value) => value.msPerRow, 'ms')} / ${figure('base-4', (value) => value.cpuMsPerRow, 'ms')} / ${figure('base-4', (value) => value.busy, '')}`,
      '',
    ],
    [
      'in process, recorded, concurrency 4: the same',
      `${figure('profile-4', (value) => value.msPerRow, 'ms')} / ${figure('profile-4', (value) => value.cpuMsPerRow, 'ms')} / ${figure('profile-4', (value) => value.busy, '')}`,
      '',
    ],
    [
      'in process, recorded, concurrency 8: the same',
      `${figure('profile-8', (value) => value.msPerRow, 'ms')} / ${figure('profile-8', (value) => value.cpuMsPerRow, 'ms')} / ${figure('profile-8', (value) => value.busy, '')}`,
      '',
    ],
    [
      "the sandbox process's CPU a row (the HTTP floor's other side), recorded run at 4",
      figure('profile-4', (value) => value.sandboxCpuMsPerRow, 'ms'),
      '',
    ],
    ['load average (1 min) before / after, on 2 cores', `${loadBefore.toFixed(1)} / ${loadAfter.toFixed(1)}`, ''],
  ])
  await remote.close()
  sandboxProcess.kill('SIGINT')
  await rm(folder, { recursive: true, force: true })
})

describe('bulk recording', () => {
  bench('10,000 recorded rows in process, concurrency 4', async () => void (await inside('profile', 4)), { iterations: 1, time: 0 })
})
