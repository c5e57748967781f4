import { execFile } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, bench, describe } from 'vitest'
import { startSandbox } from '../src-main/sandbox/sandbox-server'
import { createUserApiClient, type UserApiClient } from '../src-main/user-api/client'
import { closeDispatchers } from '../src-main/user-api/dispatchers'
import { API_HOST, makeCertificates, startGateway, startProxy } from '../test/helpers/company-network'
import { describeSpread, interleave, report, spread } from './lib/stats'

/*
 * What serving company networks costs (proxies, private CAs): the client goes through undici
 * (loaded at the first call) and decodes compressed answers. Interleaved rounds, medians with min and max, each against a baseline
 * measured in the same run. BENCH_APP_DIR names a checkout of the landed code (built, with
 * node_modules): its CLI and its node:http client are then the baselines.
 */

const ROUNDS = 15
const CALLS = 200
const baselineDir = process.env.BENCH_APP_DIR ? resolve(process.env.BENCH_APP_DIR) : undefined
const run = promisify(execFile)
const folder = await mkdtemp(join(tmpdir(), 'ec-bench-networks-'))
const sandbox = await startSandbox({ port: 0, dataFile: join(folder, 'sandbox.db') })
const certificates = makeCertificates()
const gateway = await startGateway(sandbox.baseUrl, certificates.server)
const proxy = await startProxy({ [`${API_HOST}:443`]: `127.0.0.1:${gateway.port}` })

let seq = 0
const env = { ...process.env, EMBED_CONSOLE_TOKEN: sandbox.tokens.Customer }
const timed =
  (args: string[], cwd = '.') =>
  async () => {
    const started = performance.now()
    await run(process.execPath, args, { env, cwd })
    return performance.now() - started
  }
const getOrCreateCli = (dir: string) => async () =>
  timed(['bin/embed-console.js', 'groups', 'get-or-create', '--base-url', sandbox.baseUrl, '--user-group-id', `cli-${seq++}`], dir)()

type CreateClient = typeof createUserApiClient
const landedClient: CreateClient | undefined = baselineDir
  ? ((await import(/* @vite-ignore */ join(baselineDir, 'src-main/user-api/client.ts'))) as { createUserApiClient: CreateClient })
      .createUserApiClient
  : undefined

/** CALLS sequential get-or-create calls; ms per call. */
const perCall = (client: UserApiClient, prefix: string) => async () => {
  const started = performance.now()
  for (let index = 0; index < CALLS; index++) await client.getOrCreate({ user_group_id: `${prefix}-${seq++}` })
  return (performance.now() - started) / CALLS
}

const direct = createUserApiClient({ baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer })
const viaGateway = (mode: string) =>
  createUserApiClient({
    baseUrl: `https://${API_HOST}/${mode}`,
    apiToken: sandbox.tokens.Customer,
    env: { HTTPS_PROXY: proxy.url },
    network: { proxy: { mode: 'environment' }, caBundlePath: certificates.caFile },
  })

type Cases = Record<string, () => Promise<number>>
const cliCases: Cases = { node: timed(['-e', '0']), cli: getOrCreateCli('.') }
if (baselineDir) cliCases.landedCli = getOrCreateCli(baselineDir)
const clientCases: Cases = { client: perCall(direct, 'direct') }
if (landedClient)
  clientCases.landedClient = perCall(landedClient({ baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer }), 'landed')
Object.assign(clientCases, {
  plain: perCall(viaGateway('plain'), 'plain'),
  gzip: perCall(viaGateway('gzip'), 'gzip'),
  br: perCall(viaGateway('br'), 'br'),
})
const cliRounds = await interleave(ROUNDS, cliCases)
const clientRounds = await interleave(ROUNDS, clientCases)

const minus = (a: number[], b: number[]) => a.map((value, index) => value - b[index]!)
const ms = (values: number[]) => describeSpread(spread(values), 'ms')

afterAll(async () => {
  const cli = cliRounds
  const client = clientRounds
  report(`Company networks: ${ROUNDS} interleaved rounds, median (min, max)`, [
    [
      '`groups get-or-create --base-url` to the sandbox, over `node -e 0`',
      ms(minus(cli.cli!, cli.node!)),
      '< 150 ms (the CLI start target)',
    ],
    ...(cli.landedCli
      ? ([['… the landed build (node:http client), over `node -e 0`', ms(minus(cli.landedCli, cli.node!)), '']] as Array<
          [string, string, string]
        >)
      : []),
    [`get-or-create through the client to the sandbox, per call (${CALLS} a round)`, ms(client.client!), ''],
    ...(client.landedClient
      ? ([['… the landed client (node:http), per call', ms(client.landedClient), '']] as Array<[string, string, string]>)
      : []),
    ['through a proxy (CONNECT) to a TLS gateway, answer plain, per call', ms(client.plain!), ''],
    ['… answer in gzip, over plain, per round', ms(minus(client.gzip!, client.plain!)), ''],
    ['… answer in br, over plain, per round', ms(minus(client.br!, client.plain!)), ''],
  ])
  await closeDispatchers()
  await proxy.close()
  await gateway.close()
  await sandbox.close()
})

describe('company networks', () => {
  bench(
    'get-or-create answered in gzip, through a proxy and TLS',
    async () => void (await viaGateway('gzip').getOrCreate({ user_group_id: `bench-${seq++}` })),
    { iterations: 20, time: 0 },
  )
})
