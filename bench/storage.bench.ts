import { execFile, spawn } from 'node:child_process'
import { mkdtemp, readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import Libsql from 'libsql'
import { afterAll, bench, describe } from 'vitest'
import { type AppServices, createAppServices } from '../src-main/app-services'
import { type Sandbox, startSandbox } from '../src-main/sandbox/sandbox-server'
import { createUserApiClient } from '../src-main/user-api/client'
import { nodeScript } from '../test/helpers/node-script'
import { BENCH_PROFILE_ID, buildAppFolder, buildSandbox } from './lib/fixtures'
import { describeSpread, interleave, median, report, spread } from './lib/stats'

// The storage's targets, measured on the database storage (npm run bench; never timed tests):
// - sandbox create p50 < 1 ms at 1M groups, flat from 1k to 1M (p50 ratio ≤ 1.5); start < 300 ms
//   at 1M groups; RSS < 150 MB;
// - app get-or-create through the router with a 100k-group catalog and 1M activity entries
//   < 2 ms over the same call on an empty folder; browser-mode start to URL < 500 ms there;
// - 10,000 sequential creates over keep-alive HTTP against the sandbox < 15 s;
// - two processes writing 1,000 profiles / groups each to one folder: 2,000 present after.

const ROUNDS = 5
const folder = await mkdtemp(join(tmpdir(), 'ec-bench-storage-'))
const ms = (start: number) => performance.now() - start
let nextId = 0
const newId = () => `bench-new-${process.pid}-${nextId++}`

// ---------------------------------------------------------------- sandbox at 1k, 100k and 1M groups
const SIZES = { '1k': 1_000, '100k': 100_000, '1M': 1_000_000 } as const
type Size = keyof typeof SIZES
const sandboxFiles = {} as Record<Size, string>
for (const size of Object.keys(SIZES) as Size[]) {
  sandboxFiles[size] = join(folder, `sandbox-${size}.db`)
  await buildSandbox(sandboxFiles[size], SIZES[size])
}

/** Starts a sandbox in this process; returns it with the time startSandbox took. */
async function timedStart(size: Size): Promise<{ sandbox: Sandbox; startMs: number }> {
  const started = performance.now()
  const sandbox = await startSandbox({ dataFile: sandboxFiles[size] })
  return { sandbox, startMs: ms(started) }
}

const createP50 = {} as Record<Size, number[]>
const startTimes = {} as Record<Size, number[]>
const CREATES_PER_ROUND = 200
const perSize = Object.fromEntries(
  (Object.keys(SIZES) as Size[]).map((size) => [
    size,
    async () => {
      const { sandbox, startMs } = await timedStart(size)
      const client = createUserApiClient({ baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer })
      await client.getOrCreate({ user_group_id: newId() })
      const samples: number[] = []
      for (let index = 0; index < CREATES_PER_ROUND; index++) {
        const started = performance.now()
        await client.getOrCreate({ user_group_id: newId(), name: 'New group', properties: { plan: 'pro' } })
        samples.push(ms(started))
      }
      await sandbox.close()
      return { startMs, p50: median(samples) }
    },
  ]),
) as Record<Size, () => Promise<{ startMs: number; p50: number }>>
const sandboxRounds = await interleave(ROUNDS, perSize)
for (const size of Object.keys(SIZES) as Size[]) {
  createP50[size] = sandboxRounds[size].map((round) => round.p50)
  startTimes[size] = sandboxRounds[size].map((round) => round.startMs)
}
const flatness = sandboxRounds['1M'].map((round, index) => round.p50 / sandboxRounds['1k'][index]!.p50)

/** The sandbox as its own process (`embed-console sandbox`), for its memory: RSS after 1,000 creates. */
async function sandboxProcessRss(size: Size): Promise<{ readyMs: number; rssMb: number }> {
  const started = performance.now()
  const child = spawn(process.execPath, ['bin/embed-console.js', 'sandbox', '--port', '0', '--data', sandboxFiles[size]], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const { baseUrl, token } = await new Promise<{ baseUrl: string; token: string }>((resolveReady, reject) => {
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      const url = /running at (\S+)/.exec(output)?.[1]
      const customer = /Customer API token: (\S+)/.exec(output)?.[1]
      if (url && customer) resolveReady({ baseUrl: url, token: customer })
    })
    child.on('exit', (code) => reject(new Error(`embed-console sandbox exited with ${code}`)))
  })
  const readyMs = ms(started)
  const client = createUserApiClient({ baseUrl, apiToken: token })
  for (let index = 0; index < 1000; index++) await client.getOrCreate({ user_group_id: newId() })
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8')
  const rssMb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024
  await new Promise((done) => {
    child.once('exit', done)
    child.kill('SIGINT')
  })
  return { readyMs, rssMb }
}
const processRounds = await interleave(3, { '1k': () => sandboxProcessRss('1k'), '1M': () => sandboxProcessRss('1M') })

// ---------------------------------------------------------------- the app with a big folder and an empty one
const bigFolder = join(folder, 'app-big')
const emptyFolder = join(folder, 'app-empty')
await buildAppFolder(bigFolder, { catalog: 100_000, activity: 1_000_000 })
await buildAppFolder(emptyFolder, { catalog: 0, activity: 0 })
const apiSandbox = await startSandbox({ dataFile: join(folder, 'api-sandbox.db') })

async function appServices(dataDir: string): Promise<AppServices> {
  const services = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
  await services.profiles.update(BENCH_PROFILE_ID, {
    baseUrl: apiSandbox.baseUrl,
    apiToken: apiSandbox.tokens.Customer,
    tokenStorage: 'session',
  })
  return services
}
const big = await appServices(bigFolder)
const empty = await appServices(emptyFolder)
const getOrCreate = (services: AppServices) => async () => {
  const started = performance.now()
  const result = await services.router.dispatch(
    'groups.getOrCreate',
    { profileId: BENCH_PROFILE_ID, request: { user_group_id: newId(), name: 'New' } },
    { transport: 'test' },
  )
  if (!result.ok) throw new Error(result.error.message)
  return ms(started)
}
const CALLS_PER_RUN = 100
const callRuns = await interleave(ROUNDS, {
  big: async () => {
    const samples: number[] = []
    for (let index = 0; index < CALLS_PER_RUN; index++) samples.push(await getOrCreate(big)())
    return median(samples)
  },
  empty: async () => {
    const samples: number[] = []
    for (let index = 0; index < CALLS_PER_RUN; index++) samples.push(await getOrCreate(empty)())
    return median(samples)
  },
})
const overhead = callRuns.big.map((value, index) => value - callRuns.empty[index]!)

/** `embed-console web` from spawn to its printed address. */
async function webStart(dataDir: string): Promise<number> {
  const started = performance.now()
  const child = spawn(process.execPath, ['bin/embed-console.js', 'web', '--port', '0', '--no-open', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((ready, reject) => {
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (/running at /.test(output)) ready()
    })
    child.on('exit', (code) => reject(new Error(`embed-console web exited with ${code}`)))
  })
  const elapsed = ms(started)
  await new Promise((done) => {
    child.once('exit', done)
    child.kill('SIGINT')
  })
  return elapsed
}
const webRuns = await interleave(ROUNDS, { big: () => webStart(bigFolder), empty: () => webStart(emptyFolder) })

// ---------------------------------------------------------------- 10,000 sequential creates over keep-alive HTTP
const bulkSandbox = await startSandbox({ dataFile: join(folder, 'bulk-sandbox.db') })
const bulkClient = createUserApiClient({ baseUrl: bulkSandbox.baseUrl, apiToken: bulkSandbox.tokens.Customer })
const bare = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    const body = JSON.stringify({
      success: 1,
      new_user_group: true,
      user_group: { team_id: 1, token: 'x'.repeat(64), name: '', provided_id: 'x', properties: null, api_environment_tag: 'Customer' },
    })
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) })
    res.end(body)
  })
})
await new Promise<void>((done) => bare.listen(0, '127.0.0.1', done))
const bareClient = createUserApiClient({ baseUrl: `http://127.0.0.1:${(bare.address() as AddressInfo).port}`, apiToken: 'bench' })
const tenThousand = (client: typeof bulkClient) => async () => {
  const started = performance.now()
  for (let index = 0; index < 10_000; index++) await client.getOrCreate({ user_group_id: newId(), name: 'Bulk' })
  return ms(started) / 1000
}
const bulkRuns = await interleave(3, { sandbox: tenThousand(bulkClient), bare: tenThousand(bareClient) })
await bulkSandbox.close()
bare.close()

// ---------------------------------------------------------------- two processes, one folder
const twoFolder = join(folder, 'two-processes')
const writer = await nodeScript(resolve('test/helpers/scripts/concurrent-writer.ts'))
const twoStarted = performance.now()
await Promise.all(
  ['a', 'b'].map((label) => promisify(execFile)(process.execPath, [writer, twoFolder, label, '1000'], { maxBuffer: 1 << 24 })),
)
const twoSeconds = ms(twoStarted) / 1000
const countRows = (sql: string) => {
  const db = new Libsql(join(twoFolder, 'embed-console.db'), { readonly: true })
  try {
    return (db.prepare(sql).get() as { n: number }).n
  } finally {
    db.close()
  }
}
const profilesAfter = countRows('SELECT count(*) AS n FROM profiles')
const callsAfter = countRows('SELECT count(*) AS n FROM activity')

afterAll(async () => {
  const createRow = (size: Size): [string, string, string] => [
    `sandbox create (HTTP, keep-alive) at ${size} groups, p50 of ${CREATES_PER_ROUND}`,
    describeSpread(spread(createP50[size]), 'ms'),
    '< 1 ms',
  ]
  report(`Storage: ${ROUNDS} interleaved rounds unless said, median (min, max)`, [
    createRow('1k'),
    createRow('100k'),
    createRow('1M'),
    ['sandbox create p50 ratio, 1M / 1k groups', describeSpread(spread(flatness), '×'), '≤ 1.5'],
    ['sandbox start (startSandbox) at 1k groups', describeSpread(spread(startTimes['1k']), 'ms'), ''],
    ['sandbox start (startSandbox) at 1M groups', describeSpread(spread(startTimes['1M']), 'ms'), '< 300 ms'],
    [
      '`embed-console sandbox` process, spawn → ready, 1k groups (3 rounds)',
      describeSpread(spread(processRounds['1k'].map((run) => run.readyMs)), 'ms'),
      '',
    ],
    [
      '`embed-console sandbox` process, spawn → ready, 1M groups (3 rounds)',
      describeSpread(spread(processRounds['1M'].map((run) => run.readyMs)), 'ms'),
      '',
    ],
    [
      'sandbox process RSS after 1,000 creates, 1k groups (3 rounds)',
      describeSpread(spread(processRounds['1k'].map((run) => run.rssMb)), 'MB'),
      '',
    ],
    [
      'sandbox process RSS after 1,000 creates, 1M groups (3 rounds)',
      describeSpread(spread(processRounds['1M'].map((run) => run.rssMb)), 'MB'),
      '< 150 MB',
    ],
    [
      `app get-or-create through the router, empty folder (median of ${CALLS_PER_RUN} a round)`,
      describeSpread(spread(callRuns.empty), 'ms'),
      '',
    ],
    [`app get-or-create, 100k-group catalog + 1M activity entries`, describeSpread(spread(callRuns.big), 'ms'), ''],
    ['… difference, per round', describeSpread(spread(overhead), 'ms'), '< 2 ms'],
    ['browser mode, spawn → address printed, empty folder', describeSpread(spread(webRuns.empty), 'ms'), ''],
    ['browser mode, spawn → address printed, 100k catalog + 1M activity', describeSpread(spread(webRuns.big), 'ms'), '< 500 ms'],
    ['10,000 sequential creates over keep-alive HTTP, sandbox (3 rounds)', describeSpread(spread(bulkRuns.sandbox), 's'), '< 15 s'],
    ['… the same 10,000 against a bare loopback server answering a fixed body', describeSpread(spread(bulkRuns.bare), 's'), ''],
    [
      'two processes × (1,000 profiles + 1,000 group calls), one folder: profiles / calls present after',
      `${profilesAfter} / ${callsAfter} in ${twoSeconds.toFixed(1)} s`,
      '2,000 / 2,000',
    ],
  ])
  await big.close()
  await empty.close()
  await apiSandbox.close()
})

describe('storage at scale', () => {
  bench('app get-or-create through the router, 100k-group catalog and 1M activity entries', async () => void (await getOrCreate(big)()), {
    iterations: 50,
    time: 0,
  })
})
