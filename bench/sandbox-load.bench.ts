import { type ChildProcess, fork } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Pool } from 'undici'
import { afterAll, bench, describe } from 'vitest'
import { nodeScript } from '../test/helpers/node-script'
import { buildSandbox } from './lib/fixtures'
import { describeSpread, interleave, percentile, report, spread } from './lib/stats'

// The sandbox under load, at its floor: GET /api/user (get-or-create) of groups that exist, from
// 32 keep-alive connections at once, against a bare node:http server that reads the same body,
// JSON.parses it and runs one libsql INSERT (bench/scripts/bare-insert-server.mjs). Each server
// runs in a process of its own and this one only sends: on 2 cores the load and the server under
// it each get one, rather than the server sharing its thread with the load it answers. Rounds
// alternate between the two servers; the ratio of their throughputs is taken per round. Also
// each server's CPU time a request (asked of the process itself), which stays meaningful when
// another job takes a core. SANDBOX_LOAD_CPU_PROF=<folder> writes both servers' CPU profiles
// there. Target: the sandbox serves ≥ 0.8× the floor's requests a second.

const GROUPS = 10_000
const ROUNDS = 7
const ROUND_MS = 3000
const WARM_UP_MS = 1500
const CONNECTIONS = 32
const profileDir = process.env.SANDBOX_LOAD_CPU_PROF ? resolve(process.env.SANDBOX_LOAD_CPU_PROF) : undefined

const folder = await mkdtemp(join(tmpdir(), 'ec-bench-sandbox-load-'))
const loadBefore = loadavg()[0]!
await buildSandbox(join(folder, 'sandbox.db'), GROUPS)

interface Server {
  child: ChildProcess
  pool: Pool
  token: string
  /** This process's CPU time so far, in ms (user + system). */
  cpuMs(): Promise<number>
}

async function startServer(script: string, dataFile: string): Promise<Server> {
  const execArgv = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
  const child = fork(script, [dataFile], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const started = await new Promise<{ baseUrl: string; token?: string }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { baseUrl: string; token?: string }))
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)))
  })
  const cpuMs = () =>
    new Promise<number>((resolve) => {
      child.once('message', (message) => {
        const { cpu } = message as { cpu: NodeJS.CpuUsage }
        resolve((cpu.user + cpu.system) / 1000)
      })
      child.send('cpu')
    })
  const pool = new Pool(started.baseUrl, { connections: CONNECTIONS, pipelining: 1 })
  return { child, pool, token: started.token ?? '', cpuMs }
}

const servers = {
  floor: await startServer(resolve('bench/scripts/bare-insert-server.mjs'), join(folder, 'floor.db')),
  sandbox: await startServer(await nodeScript(resolve('bench/lib/sandbox-load-server.ts')), join(folder, 'sandbox.db')),
}
type Side = keyof typeof servers

// buildSandbox files even indexes under Customer, the environment of the token sent.
const bodies = Array.from({ length: GROUPS / 2 }, (_, index) => JSON.stringify({ user_group_id: `existing-${index * 2}` }))
const headers = { authorization: `Token ${servers.sandbox.token}`, 'content-type': 'application/json' }
// undici closes a connection after a GET with a body unless told not to: keep-alive needs reset: false.
const request = (server: Server, body: string) => server.pool.request({ method: 'GET', path: '/api/user', headers, body, reset: false })

// Measure answers, not refusals: each side must answer 200, and the sandbox find the group.
for (const [side, server] of Object.entries(servers)) {
  const answer = await request(server, bodies[0]!)
  const text = await answer.body.text()
  if (answer.statusCode !== 200 || (side === 'sandbox' && !text.includes('"new_user_group":false')))
    throw new Error(`${side} answered ${answer.statusCode}: ${text}`)
}

interface Round {
  perSecond: number
  p99Ms: number
  serverCpuUsPerRequest: number
  /** This process's CPU over the round, in cores: near 1, the load generator limits the figure. */
  loadCores: number
}

let next = 0
/** CONNECTIONS requests at a time, each connection sending its next one when the last is answered, for `ms`. */
async function underLoad(server: Server, ms: number): Promise<Round> {
  const latencies: number[] = []
  const serverCpuBefore = await server.cpuMs()
  const ownCpuBefore = process.cpuUsage()
  const started = performance.now()
  const until = started + ms
  const connection = async () => {
    while (performance.now() < until) {
      const sent = performance.now()
      const answer = await request(server, bodies[next++ % bodies.length]!)
      await answer.body.dump()
      if (answer.statusCode !== 200) throw new Error(`HTTP ${answer.statusCode}`)
      latencies.push(performance.now() - sent)
    }
  }
  await Promise.all(Array.from({ length: CONNECTIONS }, connection))
  const seconds = (performance.now() - started) / 1000
  const ownCpu = process.cpuUsage(ownCpuBefore)
  const serverCpuMs = (await server.cpuMs()) - serverCpuBefore
  return {
    perSecond: latencies.length / seconds,
    p99Ms: percentile(latencies, 99),
    serverCpuUsPerRequest: (serverCpuMs * 1000) / latencies.length,
    loadCores: (ownCpu.user + ownCpu.system) / 1e6 / seconds,
  }
}

for (const server of Object.values(servers)) await underLoad(server, WARM_UP_MS)
const rounds = await interleave(ROUNDS, {
  floor: () => underLoad(servers.floor, ROUND_MS),
  sandbox: () => underLoad(servers.sandbox, ROUND_MS),
})
const loadAfter = loadavg()[0]!

afterAll(async () => {
  const of = (side: Side, pick: (round: Round) => number, unit: string) => describeSpread(spread(rounds[side].map(pick)), unit)
  const ratios = rounds.sandbox.map((round, index) => round.perSecond / rounds.floor[index]!.perSecond)
  const cpuRatios = rounds.sandbox.map((round, index) => round.serverCpuUsPerRequest / rounds.floor[index]!.serverCpuUsPerRequest)
  report(
    `The sandbox under load at its floor: GET of an existing group, ${CONNECTIONS} keep-alive connections, ${ROUNDS} interleaved rounds of ${ROUND_MS / 1000} s, median (min, max)`,
    [
      ['floor (node:http + JSON.parse + one libsql INSERT): requests/s', of('floor', (round) => round.perSecond, '/s'), ''],
      ['sandbox: requests/s', of('sandbox', (round) => round.perSecond, '/s'), ''],
      ['sandbox ÷ floor, requests/s per round', describeSpread(spread(ratios), '×'), '≥ 0.8×'],
      ['floor: p99 latency', of('floor', (round) => round.p99Ms, 'ms'), ''],
      ['sandbox: p99 latency', of('sandbox', (round) => round.p99Ms, 'ms'), ''],
      ['floor: server CPU a request', of('floor', (round) => round.serverCpuUsPerRequest, 'µs'), ''],
      ['sandbox: server CPU a request', of('sandbox', (round) => round.serverCpuUsPerRequest, 'µs'), ''],
      ['sandbox ÷ floor, server CPU a request per round', describeSpread(spread(cpuRatios), '×'), ''],
      [
        'load generator CPU in floor rounds (1 = a whole core: it would limit the figure)',
        of('floor', (round) => round.loadCores, 'cores'),
        '< 1',
      ],
      ['load generator CPU in sandbox rounds', of('sandbox', (round) => round.loadCores, 'cores'), '< 1'],
      ['load average (1 min) before / after, on 2 cores', `${loadBefore.toFixed(1)} / ${loadAfter.toFixed(1)}`, ''],
    ],
  )
  for (const server of Object.values(servers)) {
    await server.pool.close()
    const exited = new Promise((resolve) => server.child.once('exit', resolve))
    server.child.disconnect()
    await exited
  }
  await rm(folder, { recursive: true, force: true })
})

describe('the sandbox under load', () => {
  bench('32 connections for 200 ms, the sandbox', () => underLoad(servers.sandbox, 200).then(() => undefined), { iterations: 3, time: 0 })
})
