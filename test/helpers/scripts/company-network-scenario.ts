// A company network's seven calls, in a network namespace that holds only loopback (started by
// test/unit/user-api/company-network-namespace.test.ts through `unshare -n`): a proxy that alone
// knows where api.embed.test is, a TLS gateway with a private CA's certificate that compresses on
// request, the sandbox behind it, and the built `embed-console` (CLI and browser mode) as a
// user runs it. Prints one JSON report on stdout; the test judges it.
import { spawn } from 'node:child_process'
import { lookup } from 'node:dns/promises'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { API_HOST, makeCertificates, startGateway, startProxy } from '../company-network'

const API_TOKEN = 'namespace-api-token-0001'
const CLI = resolve('bin/embed-console.js')

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** A child with only the variables given (and PATH): no proxy or CA setting leaks in from outside. */
function run(args: string[], env: Record<string, string>, stdin = ''): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('close', (code) => done({ code, stdout, stderr }))
    child.stdin.end(stdin)
  })
}

/** What the resolver says about a name here: the namespace has no route to any DNS server. */
async function resolves(name: string): Promise<string> {
  try {
    return `resolved to ${(await lookup(name)).address}`
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'failed'
  }
}

/** Browser mode's main, started as a user would, driven through its own /ipc calls. */
async function app(env: Record<string, string>) {
  const dataDir = await mkdtemp(join(tmpdir(), 'ec-namespace-app-'))
  const child = spawn(process.execPath, [CLI, 'web', '--port', '0', '--no-open', '--data-dir', dataDir], {
    env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const url = await new Promise<URL>((found, failed) => {
    let printed = ''
    child.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString('utf8')
      const match = /running at (\S+)/.exec(printed)
      if (match) found(new URL(match[1]!))
    })
    child.on('exit', (code) => failed(new Error(`embed-console web exited with ${code}`)))
  })
  const session = await fetch(`${url.origin}/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ key: url.hash.replace('#key=', '') }),
  })
  const cookie = session.headers.getSetCookie()[0]!.split(';')[0]!
  const call = async (name: string, input: unknown) => {
    const answer = await fetch(`${url.origin}/ipc/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify(input),
    })
    return (await answer.json()) as { ok: boolean; value?: Record<string, unknown>; error?: { code: string; message: string } }
  }
  return {
    call,
    stop: () =>
      new Promise<void>((stopped) => {
        child.once('exit', () => stopped())
        child.kill('SIGINT')
      }),
  }
}

const certificates = makeCertificates()
const dataDir = await mkdtemp(join(tmpdir(), 'ec-namespace-'))
const sandbox = await startSandbox({ dataFile: join(dataDir, 'sandbox.db'), customerToken: API_TOKEN })
const tlsGateway = await startGateway(sandbox.baseUrl, certificates.server)
const plainGateway = await startGateway(sandbox.baseUrl)
const proxy = await startProxy({
  [`${API_HOST}:443`]: `127.0.0.1:${tlsGateway.port}`,
  [`${API_HOST}:80`]: `127.0.0.1:${plainGateway.port}`,
})

const https = { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certificates.caFile, EMBED_CONSOLE_TOKEN: API_TOKEN }
const getOrCreate = (base: string, id: string, env: Record<string, string>) =>
  run(
    [
      'groups',
      'get-or-create',
      '--base-url',
      base,
      '--user-group-id',
      id,
      '--name',
      'Café Zürich',
      '--properties',
      '{"seats": 5}',
      '--json',
    ],
    env,
  )

const report: Record<string, unknown> = {
  dns: { [API_HOST]: await resolves(API_HOST), 'registry.npmjs.org': await resolves('registry.npmjs.org') },
  withoutProxy: await getOrCreate(`https://${API_HOST}`, 'no-proxy', {
    NODE_EXTRA_CA_CERTS: certificates.caFile,
    EMBED_CONSOLE_TOKEN: API_TOKEN,
  }),
  httpsProxy: await getOrCreate(`https://${API_HOST}`, 'https-proxy', https),
  httpProxy: await getOrCreate(`http://${API_HOST}`, 'http-proxy', { HTTP_PROXY: proxy.url, EMBED_CONSOLE_TOKEN: API_TOKEN }),
  lowerCaseProxy: await getOrCreate(`https://${API_HOST}`, 'lower-case', {
    https_proxy: proxy.url,
    NODE_EXTRA_CA_CERTS: certificates.caFile,
    EMBED_CONSOLE_TOKEN: API_TOKEN,
  }),
  withoutCa: await getOrCreate(`https://${API_HOST}`, 'no-ca', { HTTPS_PROXY: proxy.url, EMBED_CONSOLE_TOKEN: API_TOKEN }),
  gzip: await getOrCreate(`https://${API_HOST}/gzip`, 'gzip', https),
  br: await getOrCreate(`https://${API_HOST}/br`, 'br', https),
  bom: await getOrCreate(`https://${API_HOST}/bom`, 'bom', https),
  doctor: await run(['doctor', '--base-url', `https://${API_HOST}`, '--json'], https),
}

// A rotation answered with gzip (of a group made for it; a failure to make one shows as a failed rotation).
const created = JSON.parse((await getOrCreate(`https://${API_HOST}`, 'to-rotate', https)).stdout) as {
  value?: { response: { user_group: { token: string } } }
}
const oldToken = created.value?.response.user_group.token ?? 'no-group-was-created'
report.rotation = {
  oldToken,
  ...(await run(['groups', 'rotate-token', '--base-url', `https://${API_HOST}/gzip`, '--current-token', '-', '--json'], https, oldToken)),
}
report.oldTokenAfter = await run(
  ['groups', 'rotate-token', '--base-url', `https://${API_HOST}`, '--current-token', '-', '--json'],
  https,
  oldToken,
)

// The app itself: browser mode's main, with the same variables, through a saved profile.
const browserMode = await app({ HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certificates.caFile })
try {
  const profile = await browserMode.call('profiles.create', {
    name: 'Corp',
    baseUrl: `https://${API_HOST}/br`,
    apiToken: API_TOKEN,
    tokenStorage: 'session',
  })
  const profileId = profile.value?.id as string
  const group = await browserMode.call('groups.getOrCreate', {
    profileId,
    request: { user_group_id: 'from-the-app', name: 'From the app' },
  })
  const rotated = await browserMode.call('groups.rotateToken', { profileId, source: { kind: 'catalog', groupId: 'from-the-app' } })
  const test = await browserMode.call('profiles.testConnection', { id: profileId })
  const diagnosis = await browserMode.call('profiles.diagnose', { id: profileId })
  const sandboxProfile = await browserMode.call('profiles.testConnection', { id: 'local-sandbox' })
  report.app = { profile, group, rotated, test, diagnosis, sandboxProfile }
} finally {
  await browserMode.stop()
}

report.proxy = { connects: proxy.connects, forwarded: proxy.forwarded }
report.gatewayAcceptEncoding = [...new Set(tlsGateway.requests.map((request) => request.acceptEncoding))]
process.stdout.write(`${JSON.stringify(report)}\n`)
for (const part of [proxy, tlsGateway, plainGateway]) await part.close()
await sandbox.close()
