import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, bench, describe } from 'vitest'
import { type AppServices, createAppServices } from '../src-main/app-services'
import { startSandbox } from '../src-main/sandbox/sandbox-server'
import { createUserApiClient } from '../src-main/user-api/client'
import { BENCH_PROFILE_ID, buildAppFolder } from './lib/fixtures'
import { describeSpread, interleave, median, report, spread } from './lib/stats'

// Flat at any size: every window the Groups and Activity screens ask for costs the same
// at 1M groups as at 1k ("within 3× of the same window at 1k, or under 20 ms"), and the router's
// price on a call (over the same call made straight to the sandbox) too. Each window is asked
// through the router as browser mode's renderer asks it, in three folders of 1k, 100k and 1M
// catalog groups (and as many calls in the activity log), in interleaved rounds; the 1k folder is
// each window's baseline, the ratio taken per round.

const ROUNDS = 7
const CALLS_PER_ROUND = 15
const SIZES = { '1k': 1_000, '100k': 100_000, '1M': 1_000_000 } as const
type Size = keyof typeof SIZES
const folder = await mkdtemp(join(tmpdir(), 'ec-bench-catalog-'))
const loadBefore = loadavg()[0]!

// The sandbox the router's calls reach (and the direct calls, the baseline), in this process as the app's own.
const sandbox = await startSandbox({ dataFile: join(folder, 'sandbox.db') })
const services = {} as Record<Size, AppServices>
const builtSeconds = {} as Record<Size, number>
for (const size of Object.keys(SIZES) as Size[]) {
  const dataDir = join(folder, size)
  const started = performance.now()
  await buildAppFolder(dataDir, { catalog: SIZES[size], activity: SIZES[size] })
  builtSeconds[size] = (performance.now() - started) / 1000
  services[size] = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
  await services[size].profiles.update(BENCH_PROFILE_ID, {
    baseUrl: sandbox.baseUrl,
    apiToken: sandbox.tokens.Customer,
    tokenStorage: 'session',
  })
}

async function dispatch(size: Size, name: string, input: unknown): Promise<{ rows?: Array<{ key: string }>; entries?: unknown[] }> {
  const result = await services[size].router.dispatch(name, input, { transport: 'test' })
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`)
  return result.value as { rows?: Array<{ key: string }> }
}

const list = { profileId: BENCH_PROFILE_ID, limit: 100 }
/** Each window as the screens ask for it, for a folder of `n` groups; it must answer rows. */
const WINDOWS = {
  'first window (newest first)': () => ['catalog.list', { ...list, sortBy: 'updatedAt', sortDirection: 'desc' }],
  'search with few matches': (n: number) => ['catalog.list', { ...list, search: `existing-${Math.floor(n * 0.77)}` }],
  'a window at 90% of the id order': (n: number) => [
    'catalog.list',
    { ...list, sortBy: 'groupId', sortDirection: 'asc', at: { position: Math.floor(n * 0.9) } },
  ],
  'Customer only, sorted by team_id': () => ['catalog.list', { ...list, environment: 'Customer', sortBy: 'teamId', sortDirection: 'asc' }],
  'Testing only, by name, 90% down': (n: number) => [
    'catalog.list',
    { ...list, environment: 'Testing', sortBy: 'name', sortDirection: 'asc', at: { position: Math.floor(n * 0.45) } },
  ],
  'activity of one group': (n: number) => ['activity.list', { groupId: `existing-${Math.floor(n / 2)}`, limit: 200 }],
} as const satisfies Record<string, (n: number) => [string, object]>
type Window = keyof typeof WINDOWS

/** The next window after a key, as the list asks when scrolled: the window after the last row of the one halfway down the id order. */
async function nextWindowInput(size: Size) {
  const at = await dispatch(size, 'catalog.list', { ...list, sortBy: 'groupId', sortDirection: 'asc', at: { position: SIZES[size] / 2 } })
  return { ...list, sortBy: 'groupId', sortDirection: 'asc', at: { after: at.rows!.at(-1)!.key } }
}
const afterInputs = {} as Record<Size, object>
for (const size of Object.keys(SIZES) as Size[]) afterInputs[size] = await nextWindowInput(size)

async function timeWindow(size: Size, window: Window | 'the next window, after a row (scrolling)'): Promise<number> {
  const [name, input] =
    window === 'the next window, after a row (scrolling)' ? ['catalog.list', afterInputs[size]] : WINDOWS[window](SIZES[size])
  const samples: number[] = []
  for (let call = 0; call < CALLS_PER_ROUND; call++) {
    const started = performance.now()
    const answer = await dispatch(size, name, input)
    samples.push(performance.now() - started)
    if ((answer.rows ?? answer.entries)!.length === 0) throw new Error(`${window} at ${size} answered no rows`)
  }
  return median(samples)
}

// ---------------------------------------------------------------- the router's price on a call
const client = createUserApiClient({ baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer })
let nextId = 0
/** A group of the folder's catalog (the sandbox learns it at the first call): get-or-create finds it. */
const existingId = (size: Size) => `existing-${Math.floor(SIZES[size] / 3)}`
const CALLS = {
  'get-or-create of a new group': {
    router: (size: Size) =>
      dispatch(size, 'groups.getOrCreate', {
        profileId: BENCH_PROFILE_ID,
        request: { user_group_id: `new-${size}-${nextId++}`, name: 'New' },
      }),
    direct: (size: Size) => client.getOrCreate({ user_group_id: `direct-${size}-${nextId++}`, name: 'New' }),
  },
  'get-or-create of an existing group': {
    router: (size: Size) =>
      dispatch(size, 'groups.getOrCreate', { profileId: BENCH_PROFILE_ID, request: { user_group_id: existingId(size) } }),
    direct: (size: Size) => client.getOrCreate({ user_group_id: existingId(size) }),
  },
} as const
type Call = keyof typeof CALLS
for (const size of Object.keys(SIZES) as Size[]) await CALLS['get-or-create of an existing group'].router(size)
async function timeCall(size: Size, call: Call, how: 'router' | 'direct'): Promise<number> {
  const samples: number[] = []
  for (let index = 0; index < CALLS_PER_ROUND * 2; index++) {
    const started = performance.now()
    await CALLS[call][how](size)
    samples.push(performance.now() - started)
  }
  return median(samples)
}

const windowNames = [...(Object.keys(WINDOWS) as Window[]), 'the next window, after a row (scrolling)' as const]
const callNames = Object.keys(CALLS) as Call[]
const cases = Object.fromEntries([
  ...windowNames.flatMap((window) => (Object.keys(SIZES) as Size[]).map((size) => [`${window}|${size}`, () => timeWindow(size, window)])),
  ...callNames.flatMap((call) =>
    (Object.keys(SIZES) as Size[]).flatMap((size) =>
      (['router', 'direct'] as const).map((how) => [`${call}|${size}|${how}`, () => timeCall(size, call, how)]),
    ),
  ),
]) as Record<string, () => Promise<number>>
const rounds = await interleave(ROUNDS, cases)
const loadAfter = loadavg()[0]!

afterAll(async () => {
  const rows: Array<[string, string, string]> = []
  for (const window of windowNames) {
    const at = (size: Size) => rounds[`${window}|${size}`]!
    const ratio = at('1M').map((value, index) => value / at('1k')[index]!)
    rows.push([
      `${window}: 1k (baseline) / 100k / 1M`,
      (Object.keys(SIZES) as Size[]).map((size) => describeSpread(spread(at(size)), 'ms')).join(' / '),
      '',
    ])
    rows.push([`… 1M ÷ 1k, per round`, describeSpread(spread(ratio), '×'), '≤ 3× or < 20 ms at 1M'])
  }
  for (const call of callNames) {
    const at = (size: Size, how: 'router' | 'direct') => rounds[`${call}|${size}|${how}`]!
    rows.push([
      `${call}, straight to the sandbox (baseline): 1k / 100k / 1M`,
      (Object.keys(SIZES) as Size[]).map((size) => describeSpread(spread(at(size, 'direct')), 'ms')).join(' / '),
      '',
    ])
    rows.push([
      `… through the router (validation, the call recorded): 1k / 100k / 1M`,
      (Object.keys(SIZES) as Size[]).map((size) => describeSpread(spread(at(size, 'router')), 'ms')).join(' / '),
      '',
    ])
    rows.push([
      `… the router's price, per round: 1k / 100k / 1M`,
      (Object.keys(SIZES) as Size[])
        .map((size) => describeSpread(spread(at(size, 'router').map((value, index) => value - at(size, 'direct')[index]!)), 'ms'))
        .join(' / '),
      'half of 0.7–1.8 ms',
    ])
  }
  rows.push([
    'folders built (catalog.importEntries and the activity log, as the app writes them): 1k / 100k / 1M',
    (Object.keys(SIZES) as Size[]).map((size) => `${builtSeconds[size].toFixed(1)} s`).join(' / '),
    '',
  ])
  rows.push(['load average (1 min) before / after the rounds, on 2 cores', `${loadBefore.toFixed(1)} / ${loadAfter.toFixed(1)}`, ''])
  report(
    `Windows at 1k, 100k and 1M groups: ${ROUNDS} interleaved rounds, median of ${CALLS_PER_ROUND} calls a round, median (min, max)`,
    rows,
  )
  for (const size of Object.keys(SIZES) as Size[]) await services[size].close()
  await sandbox.close()
  // 2.5 GB of folders on a shared machine: not left behind.
  await rm(folder, { recursive: true, force: true })
})

describe('flat at any size', () => {
  bench('a window at 90% of the id order, 1M groups', async () => void (await timeWindow('1M', 'a window at 90% of the id order')), {
    iterations: 5,
    time: 0,
  })
})
