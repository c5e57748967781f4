import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, bench, describe } from 'vitest'
import { type AppServices, createAppServices } from '../src-main/app-services'
import { startSandbox } from '../src-main/sandbox/sandbox-server'
import { createUserApiClient } from '../src-main/user-api/client'
import { addBenchProfile } from './lib/fixtures'
import { describeSpread, interleave, median, report, spread } from './lib/stats'

// One call through the app, at its floor: each call through browser mode's router (validation,
// the profile and its token from the vault, the call recorded) against the same call made
// straight to the sandbox with the app's client, interleaved call kind by call kind, round by
// round; the ratio taken per round. The sandbox runs in this process, as the app's own does, so
// both sides pay for it alike. Also each side's CPU a call (this process's, per round): what the
// router costs when the machine is shared and wall times are not. BENCH_APP_DIR names another
// checkout (with node_modules): its router joins the rounds, against this run's floor.

const ROUNDS = 9
const CALLS_PER_ROUND = 60
const otherDir = process.env.BENCH_APP_DIR ? resolve(process.env.BENCH_APP_DIR) : undefined
const folder = await mkdtemp(join(tmpdir(), 'ec-bench-router-'))
const loadBefore = loadavg()[0]!

const sandbox = await startSandbox({ dataFile: join(folder, 'sandbox.db') })
const client = createUserApiClient({ baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer })

interface App {
  services: Pick<AppServices, 'router' | 'close'>
  profileId: string
}
async function app(dataDir: string, create: typeof createAppServices): Promise<App> {
  const services = await create({ dataDir, transport: 'browser', sandbox: false })
  const profile = await addBenchProfile(services as AppServices, { baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer })
  return { services, profileId: profile.id }
}
const apps: Record<string, App> = { this: await app(join(folder, 'this'), createAppServices) }
if (otherDir) {
  const other = (await import(pathToFileURL(join(otherDir, 'src-main/app-services.ts')).href)) as {
    createAppServices: typeof createAppServices
  }
  apps.other = await app(join(folder, 'other'), other.createAppServices)
}

async function dispatch(target: App, name: string, input: object): Promise<{ group: { token: string } }> {
  const result = await target.services.router.dispatch(name, { profileId: target.profileId, ...input }, { transport: 'test' })
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`)
  return result.value as { group: { token: string } }
}

// Each side has groups of its own: one fetched again and again, one whose token is rotated.
let seq = 0
for (const [name, target] of Object.entries(apps)) {
  await dispatch(target, 'groups.getOrCreate', { request: { user_group_id: `${name}-existing`, name: 'Existing' } })
  await dispatch(target, 'groups.getOrCreate', { request: { user_group_id: `${name}-rotated`, name: 'Rotated' } })
}
await client.getOrCreate({ user_group_id: 'direct-existing', name: 'Existing' })
let directToken = (await client.getOrCreate({ user_group_id: 'direct-rotated', name: 'Rotated' })).value.user_group.token

const CALLS = {
  'get-or-create of an existing group': {
    router: (target: App, name: string) => dispatch(target, 'groups.getOrCreate', { request: { user_group_id: `${name}-existing` } }),
    direct: () => client.getOrCreate({ user_group_id: 'direct-existing' }),
  },
  'get-or-create of a new group': {
    router: (target: App, name: string) =>
      dispatch(target, 'groups.getOrCreate', { request: { user_group_id: `${name}-new-${seq++}`, name: 'New' } }),
    direct: () => client.getOrCreate({ user_group_id: `direct-new-${seq++}`, name: 'New' }),
  },
  update: {
    router: (target: App, name: string) =>
      dispatch(target, 'groups.update', { request: { user_group_id: `${name}-existing`, name: `Renamed ${seq++}` } }),
    direct: () => client.update({ user_group_id: 'direct-existing', name: `Renamed ${seq++}` }),
  },
  'rotation, the token from the vault': {
    router: (target: App, name: string) =>
      dispatch(target, 'groups.rotateToken', { source: { kind: 'catalog', groupId: `${name}-rotated` } }),
    direct: async () => {
      directToken = (await client.rotateToken({ current_token: directToken })).value.user_group.token
    },
  },
} as const
type Call = keyof typeof CALLS
const GOALS: Record<Call, string> = {
  'get-or-create of an existing group': '≤ 2.0×',
  'get-or-create of a new group': '≤ 2.0×',
  update: '≤ 2.0×',
  'rotation, the token from the vault': '≤ 3.0×',
}

interface Sample {
  ms: number
  cpuMs: number
}
/** The median time of a call and this process's CPU a call, over CALLS_PER_ROUND calls one after another. */
async function timed(call: () => Promise<unknown>): Promise<Sample> {
  const durations: number[] = []
  const cpu = process.cpuUsage()
  for (let index = 0; index < CALLS_PER_ROUND; index++) {
    const started = performance.now()
    await call()
    durations.push(performance.now() - started)
  }
  const used = process.cpuUsage(cpu)
  return { ms: median(durations), cpuMs: (used.user + used.system) / 1000 / CALLS_PER_ROUND }
}

const callNames = Object.keys(CALLS) as Call[]
const cases: Record<string, () => Promise<Sample>> = {}
for (const call of callNames) {
  cases[`${call}|direct`] = () => timed(CALLS[call].direct)
  for (const [name, target] of Object.entries(apps)) cases[`${call}|${name}`] = () => timed(() => CALLS[call].router(target, name))
}
const rounds = await interleave(ROUNDS, cases)
const loadAfter = loadavg()[0]!

afterAll(async () => {
  const rows: Array<[string, string, string]> = []
  for (const call of callNames) {
    const direct = rounds[`${call}|direct`]!
    const ratio = (side: string, pick: (sample: Sample) => number) =>
      describeSpread(spread(rounds[`${call}|${side}`]!.map((sample, index) => pick(sample) / pick(direct[index]!))), '×')
    rows.push([`${call}: straight to the sandbox (the floor)`, describeSpread(spread(direct.map((sample) => sample.ms)), 'ms'), ''])
    rows.push([`… through the router`, describeSpread(spread(rounds[`${call}|this`]!.map((sample) => sample.ms)), 'ms'), ''])
    rows.push([`… router ÷ floor, per round`, ratio('this', (sample) => sample.ms), GOALS[call]])
    rows.push([`… CPU a call, router ÷ floor, per round`, ratio('this', (sample) => sample.cpuMs), ''])
    if (otherDir) rows.push([`… ${otherDir} (BENCH_APP_DIR): router ÷ floor, per round`, ratio('other', (sample) => sample.ms), ''])
  }
  rows.push(['load average (1 min) before / after, on 2 cores', `${loadBefore.toFixed(1)} / ${loadAfter.toFixed(1)}`, ''])
  report(`One call through the app at its floor: ${ROUNDS} interleaved rounds of ${CALLS_PER_ROUND} calls, median (min, max)`, rows)
  for (const target of Object.values(apps)) await target.services.close()
  await sandbox.close()
  await rm(folder, { recursive: true, force: true })
})

describe('one call through the app', () => {
  bench(
    'get-or-create of an existing group through the router',
    async () => void (await CALLS['get-or-create of an existing group'].router(apps.this!, 'this')),
    {
      iterations: 20,
      time: 0,
    },
  )
})
