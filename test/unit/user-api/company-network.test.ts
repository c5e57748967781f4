import { mkdtemp } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../../src-main/cli/index'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { createUserApiClient, type NetworkSettings, type UserApiClient } from '../../../src-main/user-api/client'
import { diagnoseConnection, type DiagnosisTarget } from '../../../src-main/user-api/diagnose-connection'
import { closeDispatchers } from '../../../src-main/user-api/dispatchers'
import type { Diagnosis } from '../../../src-shared/user-api/diagnosis'
import {
  API_HOST,
  type Certificates,
  type Gateway,
  type GatewayMode,
  makeCertificates,
  type Proxy,
  startGateway,
  startProxy,
} from '../../helpers/company-network'
import { failureOf } from '../../helpers/failure-of'
import { closedPort } from '../../helpers/hostile-server'

/*
 * The client in a company network, on loopback: a proxy that alone knows where api.embed.test is,
 * a TLS gateway with a certificate from a private CA (made by openssl for this run) that may
 * compress or re-encode answers, and the real sandbox behind them. `api.embed.test` never
 * resolves (.test is reserved): an answer proves the proxy carried the call.
 */

const API_TOKEN = 'company-network-api-token-0001'
const PROXY_PASSWORD = 'pr0xy-pa55word-canary'

let certificates: Certificates
let sandbox: Sandbox
let tlsGateway: Gateway
let plainGateway: Gateway
let wrongNameGateway: Gateway
let proxy: Proxy
let guardedProxy: Proxy

beforeAll(async () => {
  certificates = makeCertificates()
  sandbox = await startSandbox({ dataFile: join(await mkdtemp(join(tmpdir(), 'ec-company-')), 'sandbox.db'), customerToken: API_TOKEN })
  tlsGateway = await startGateway(sandbox.baseUrl, certificates.server)
  plainGateway = await startGateway(sandbox.baseUrl)
  wrongNameGateway = await startGateway(sandbox.baseUrl, certificates.wrongName)
  const routes = {
    [`${API_HOST}:443`]: `127.0.0.1:${tlsGateway.port}`,
    [`${API_HOST}:80`]: `127.0.0.1:${plainGateway.port}`,
    [`wrong.${API_HOST}:443`]: `127.0.0.1:${wrongNameGateway.port}`,
  }
  proxy = await startProxy(routes)
  guardedProxy = await startProxy(routes, `alice:${PROXY_PASSWORD}`)
})

afterAll(async () => {
  await closeDispatchers()
  for (const part of [proxy, guardedProxy, tlsGateway, plainGateway, wrongNameGateway]) await part?.close()
  await sandbox?.close()
})

const trusted = (): NetworkSettings => ({ proxy: { mode: 'environment' }, caBundlePath: certificates.caFile })

function client(
  options: { base?: string; mode?: GatewayMode; env?: Record<string, string | undefined>; network?: NetworkSettings } = {},
): UserApiClient {
  const base = options.base ?? `https://${API_HOST}`
  return createUserApiClient({
    baseUrl: options.mode ? `${base}/${options.mode}` : base,
    apiToken: API_TOKEN,
    timeoutMs: 5000,
    env: options.env ?? { HTTPS_PROXY: proxy.url },
    network: options.network ?? trusted(),
  })
}

let ids = 0
const nextId = () => `company-${++ids}`

describe('the proxy', () => {
  // Calls keep their connections (a tunnel too): each test counts the CONNECTs of its own.
  beforeEach(() => closeDispatchers())

  it('carries https through HTTPS_PROXY with CONNECT, and the GET’s JSON body arrives', async () => {
    const before = proxy.connects.length
    const id = nextId()
    const result = await client().getOrCreate({ user_group_id: id, name: 'Through the proxy' })
    expect(result.value).toMatchObject({ success: 1, new_user_group: true, user_group: { provided_id: id, name: 'Through the proxy' } })
    expect(proxy.connects.slice(before)).toContain(`${API_HOST}:443`)
    expect(tlsGateway.requests.at(-1)).toMatchObject({ method: 'GET', path: '/api/user', authorization: `Token ${API_TOKEN}` })
  })

  it.each([['https_proxy'], ['HTTPS_PROXY']])('reads %s (lower case first, as curl does)', async (name) => {
    const before = proxy.connects.length
    const env =
      name === 'https_proxy'
        ? { https_proxy: proxy.url, HTTPS_PROXY: `http://127.0.0.1:${await closedPort()}` }
        : { HTTPS_PROXY: proxy.url }
    await client({ env }).getOrCreate({ user_group_id: nextId() })
    expect(proxy.connects.length).toBe(before + 1)
  })

  it('forwards plain http through HTTP_PROXY as an absolute-form request, not a tunnel', async () => {
    const connectsBefore = proxy.connects.length
    const id = nextId()
    await client({ base: `http://${API_HOST}`, env: { HTTP_PROXY: proxy.url } }).getOrCreate({ user_group_id: id })
    expect(proxy.forwarded.at(-1)).toBe(`http://${API_HOST}/api/user`)
    expect(proxy.connects.length).toBe(connectsBefore)
    expect(plainGateway.requests.at(-1)).toMatchObject({ method: 'GET', path: '/api/user' })
  })

  it.each([[API_HOST], ['.embed.test'], ['*.embed.test'], ['embed.test:443'], ['localhost, embed.test']])(
    'leaves the proxy out when NO_PROXY=%s matches (the name then has to resolve, and does not)',
    async (noProxy) => {
      const before = proxy.connects.length
      const error = await failureOf(client({ env: { HTTPS_PROXY: proxy.url, NO_PROXY: noProxy } }).getOrCreate({ user_group_id: nextId() }))
      expect(error.code).toBe('dns_failed')
      expect(error.message).toBe(`The host name "${API_HOST}" could not be resolved: check the base URL and the network.`)
      expect(proxy.connects.length).toBe(before)
    },
  )

  it.each([['embed.test:8443'], ['other.test'], ['10.0.0.0/8']])('keeps the proxy when NO_PROXY=%s does not match', async (noProxy) => {
    const before = proxy.connects.length
    await client({ env: { HTTPS_PROXY: proxy.url, no_proxy: noProxy } }).getOrCreate({ user_group_id: nextId() })
    expect(proxy.connects.length).toBe(before + 1)
  })

  it('never proxies loopback: the local sandbox keeps working whatever the variables say', async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`
    const local = createUserApiClient({
      baseUrl: sandbox.baseUrl,
      apiToken: API_TOKEN,
      env: { HTTP_PROXY: dead, HTTPS_PROXY: dead, ALL_PROXY: dead },
    })
    expect((await local.getOrCreate({ user_group_id: nextId() })).status).toBe(200)
    const viaProfile = createUserApiClient({
      baseUrl: sandbox.baseUrl,
      apiToken: API_TOKEN,
      network: { proxy: { mode: 'custom', url: dead } },
    })
    expect((await viaProfile.getOrCreate({ user_group_id: nextId() })).status).toBe(200)
  })

  it('takes the profile’s own proxy over the variables, and its credentials', async () => {
    const before = guardedProxy.connects.length
    const network: NetworkSettings = {
      proxy: { mode: 'custom', url: guardedProxy.url, username: 'alice', password: PROXY_PASSWORD },
      caBundlePath: certificates.caFile,
    }
    const result = await client({ env: { HTTPS_PROXY: proxy.url }, network }).getOrCreate({ user_group_id: nextId() })
    expect(result.status).toBe(200)
    expect(guardedProxy.connects.length).toBe(before + 1)
  })

  it('says when the proxy refused the credentials sent (407), never quoting the password; a rotation it refused is not outcome unknown', async () => {
    const wrong: NetworkSettings = {
      proxy: { mode: 'custom', url: guardedProxy.url, username: 'alice', password: `${PROXY_PASSWORD}-wrong` },
      caBundlePath: certificates.caFile,
    }
    const refused = client({ network: wrong })
    for (const error of [
      await failureOf(refused.getOrCreate({ user_group_id: nextId() })),
      await failureOf(refused.rotateToken({ current_token: 'some-group-token' })),
    ]) {
      expect(error.code).toBe('connect_failed')
      expect(error.message).toBe(
        `The proxy 127.0.0.1:${guardedProxy.port} (from the profile) refused the user name and password it was sent (HTTP 407): check them in the profile, or in the proxy variable (http://user:password@proxy:port).`,
      )
      expect(JSON.stringify([error.message, error.details])).not.toContain(PROXY_PASSWORD)
    }
    // Credentials in the variable, as curl takes them.
    const fromVariable = await client({
      env: { HTTPS_PROXY: `http://alice:${encodeURIComponent(PROXY_PASSWORD)}@127.0.0.1:${guardedProxy.port}` },
    }).getOrCreate({ user_group_id: nextId() })
    expect(fromVariable.status).toBe(200)
  })

  it('takes a forwarded (plain http) rotation the proxy refused for credentials as never sent: not outcome unknown', async () => {
    const error = await failureOf(
      client({ base: `http://${API_HOST}`, env: { HTTP_PROXY: guardedProxy.url } }).rotateToken({ current_token: 'some-group-token' }),
    )
    expect(error.code).toBe('connect_failed')
    expect(error.message).toContain('asks for credentials (HTTP 407)')
  })

  it('redacts the proxy password from what a proxy sends back, in any form', async () => {
    // A broken proxy that answers a forwarded request with the credentials it was given.
    const echoing = createServer((req, res) => {
      const given = Buffer.from((req.headers['proxy-authorization'] ?? '').replace(/^Basic /, ''), 'base64').toString('utf8')
      res
        .writeHead(502, { 'Content-Type': 'text/plain', 'X-Request-Id': given })
        .end(`bad gateway for ${given} (${req.headers['proxy-authorization']})`)
    })
    await new Promise<void>((resolve) => echoing.listen(0, '127.0.0.1', resolve))
    try {
      const port = (echoing.address() as AddressInfo).port
      const network: NetworkSettings = {
        proxy: { mode: 'custom', url: `http://127.0.0.1:${port}`, username: 'alice', password: PROXY_PASSWORD },
      }
      const error = await failureOf(client({ base: `http://${API_HOST}`, network }).getOrCreate({ user_group_id: nextId() }))
      expect(error.code).toBe('http_status')
      const exposed = JSON.stringify([error.message, error.details, error.stack])
      expect(exposed).toContain('bad gateway for alice:[redacted]')
      expect(exposed).not.toContain(PROXY_PASSWORD)
      expect(exposed).not.toContain(Buffer.from(`alice:${PROXY_PASSWORD}`).toString('base64'))
    } finally {
      await new Promise<void>((resolve) => echoing.close(() => resolve()))
    }
  })

  it('names the proxy when it cannot be reached, and a rotation that never left is not outcome unknown', async () => {
    const port = await closedPort()
    const unreachable = client({ env: { HTTPS_PROXY: `http://127.0.0.1:${port}` } })
    for (const error of [
      await failureOf(unreachable.getOrCreate({ user_group_id: nextId() })),
      await failureOf(unreachable.rotateToken({ current_token: 'some-group-token' })),
    ]) {
      expect(error.code).toBe('connect_failed')
      expect(error.message).toBe(
        `Could not connect to the proxy 127.0.0.1:${port} (from HTTPS_PROXY): the connection was refused. Is the proxy setting right?`,
      )
    }
  })

  it('says the proxy could not reach a host it has no way to (CONNECT → 502)', async () => {
    const error = await failureOf(client({ base: 'https://nowhere.embed.test' }).getOrCreate({ user_group_id: nextId() }))
    expect(error.code).toBe('connect_failed')
    expect(error.message).toContain(`The proxy 127.0.0.1:${proxy.port} (from HTTPS_PROXY) could not reach nowhere.embed.test (HTTP 502)`)
  })

  it('refuses a proxy variable that is not an http(s) proxy, before anything is sent', () => {
    expect(() => client({ env: { HTTPS_PROXY: 'socks5://127.0.0.1:1080' } })).toThrow(/HTTPS_PROXY names a "socks5:" proxy/)
  })
})

describe('answers as gateways send them', () => {
  it('asks for gzip, deflate and br', async () => {
    await client({ mode: 'gzip' }).getOrCreate({ user_group_id: nextId() })
    expect(tlsGateway.requests.at(-1)?.acceptEncoding).toBe('gzip, deflate, br')
  })

  it.each<GatewayMode>(['gzip', 'br', 'deflate', 'deflate-raw', 'gzip-br', 'bom', 'latin1', 'utf16'])(
    'reads an answer that is %s',
    async (mode) => {
      const id = nextId()
      const result = await client({ mode }).getOrCreate({ user_group_id: id, name: 'Café Zürich', properties: { city: 'Zürich' } })
      expect(result.value).toMatchObject({
        success: 1,
        user_group: { provided_id: id, name: 'Café Zürich', properties: { city: 'Zürich' } },
      })
      expect(result.raw).toMatchObject({ user_group: { name: 'Café Zürich' } })
    },
  )

  it('takes a rotation answered with gzip as done: the new token is kept, not "outcome unknown"', async () => {
    const created = await client().getOrCreate({ user_group_id: nextId() })
    const rotated = await client({ mode: 'gzip' }).rotateToken({ current_token: created.value.user_group.token })
    expect(rotated.value.user_group.token).not.toBe(created.value.user_group.token)
    // The sandbox agrees: the old token is gone, the new one works.
    expect((await failureOf(client().rotateToken({ current_token: created.value.user_group.token }))).code).toBe('api_failure')
    expect((await client().rotateToken({ current_token: rotated.value.user_group.token })).status).toBe(200)
  })

  it('stops decompressing a gzip bomb at the size limit; a rotation answered so is outcome unknown', async () => {
    const error = await failureOf(client({ mode: 'bomb' }).getOrCreate({ user_group_id: nextId() }))
    expect(error.code).toBe('response_too_large')
    expect(error.message).toBe(
      `The answer from ${API_HOST} decompresses (gzip) to more than ${5 * 1024 * 1024} bytes; it was not read further.`,
    )
    const created = await client().getOrCreate({ user_group_id: nextId() })
    const rotation = await failureOf(client({ mode: 'bomb' }).rotateToken({ current_token: created.value.user_group.token }))
    expect(rotation.code).toBe('outcome_unknown')
  })

  it('explains a redirect with the base URL to change to, and does not follow it', async () => {
    const before = tlsGateway.requests.length
    const error = await failureOf(client({ mode: 'moved' }).getOrCreate({ user_group_id: nextId() }))
    expect(error.code).toBe('http_status')
    expect(error.message).toBe(
      `The server moved to https://new.${API_HOST} (HTTP 301): change the base URL to it. Redirects are not followed, so the API token was not sent there.`,
    )
    expect(tlsGateway.requests.length).toBe(before + 1)
  })
})

describe('trust', () => {
  it('names the certificate, its issuer and the options that would trust it when the private CA is not trusted', async () => {
    const untrusted = client({ network: { proxy: { mode: 'environment' } } })
    for (const error of [
      await failureOf(untrusted.getOrCreate({ user_group_id: nextId() })),
      await failureOf(untrusted.rotateToken({ current_token: 'some-group-token' })),
    ]) {
      expect(error.code).toBe('tls_failed')
      expect(error.message).toBe(
        `The secure (TLS) connection to ${API_HOST} failed: its certificate “CN=${API_HOST}” is issued by “O=Embed Test Corp, CN=Embed Test Private CA”, which is not among the certificate authorities Embed Console trusts (UNABLE_TO_VERIFY_LEAF_SIGNATURE). If that is your company's private or TLS-inspection CA, give its PEM file as the profile's CA bundle (Profiles › Edit › Network), or start Embed Console with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.`,
      )
      expect(error.details).toMatchObject({
        certificate: { subject: `CN=${API_HOST}`, issuer: 'O=Embed Test Corp, CN=Embed Test Private CA' },
      })
    }
  })

  it('says the profile’s CA bundle does not hold the issuer when it holds another CA', async () => {
    const error = await failureOf(
      client({ network: { proxy: { mode: 'environment' }, caBundlePath: certificates.otherCaFile } }).getOrCreate({
        user_group_id: nextId(),
      }),
    )
    expect(error.message).toContain(
      `(UNABLE_TO_VERIFY_LEAF_SIGNATURE): the profile's CA bundle (${certificates.otherCaFile}) does not hold it.`,
    )
  })

  it('says which names a certificate is for when it does not fit the host', async () => {
    const error = await failureOf(client({ base: `https://wrong.${API_HOST}` }).getOrCreate({ user_group_id: nextId() }))
    expect(error.code).toBe('tls_failed')
    expect(error.message).toBe(
      `The secure (TLS) connection to wrong.${API_HOST} failed: its certificate is for DNS:other.embed.test, not wrong.${API_HOST}: check the base URL (a proxy that answers for every host shows its own certificate).`,
    )
  })

  it('refuses a CA bundle that cannot be read or holds no certificate, before anything is sent', async () => {
    expect(() => client({ network: { proxy: { mode: 'environment' }, caBundlePath: join(certificates.dir, 'missing.pem') } })).toThrow(
      /The CA bundle .*missing\.pem cannot be read \(ENOENT\)/,
    )
    expect(() => client({ network: { proxy: { mode: 'environment' }, caBundlePath: join(certificates.dir, 'server.ext') } })).toThrow(
      /holds no PEM certificate/,
    )
  })
})

describe('the diagnosis (embed-console doctor, "Diagnose connection")', () => {
  const target = (overrides: Partial<DiagnosisTarget> = {}): DiagnosisTarget => ({
    baseUrl: `https://${API_HOST}`,
    apiToken: API_TOKEN,
    timeoutMs: 5000,
    network: trusted(),
    env: { HTTPS_PROXY: proxy.url },
    ...overrides,
  })
  const outcomes = (diagnosis: Diagnosis) => Object.fromEntries(diagnosis.steps.map((step) => [step.step, step.outcome]))

  it('says which proxy, CA and TLS version a call uses, and that every step passes', async () => {
    const diagnosis = await diagnoseConnection(target())
    expect(diagnosis).toMatchObject({
      ok: true,
      endpoint: `https://${API_HOST}/api/user`,
      proxy: { url: proxy.url, source: 'HTTPS_PROXY', reason: 'HTTPS_PROXY is set.' },
      tls: {
        version: expect.stringMatching(/^TLSv1\.[23]$/),
        certificate: { subject: `CN=${API_HOST}`, issuer: 'O=Embed Test Corp, CN=Embed Test Private CA' },
      },
      summary: 'The connection works: every step passed, and the API accepted the token.',
    })
    expect(outcomes(diagnosis)).toEqual({ dns: 'skipped', tcp: 'ok', proxy: 'ok', tls: 'ok', http: 'ok' })
    expect(diagnosis.steps.find((step) => step.step === 'proxy')?.message).toBe(
      `CONNECT ${API_HOST}:443 → 200: the proxy opened a tunnel to the server.`,
    )
    expect(diagnosis.trust.join('\n')).toContain(
      `The profile's CA bundle ${certificates.caFile}: 1 certificate (O=Embed Test Corp, CN=Embed Test Private CA).`,
    )
  })

  it.each([
    [
      'DNS',
      'dns',
      () => target({ env: { HTTPS_PROXY: 'http://proxy.embed-console-test.invalid:3128' } }),
      /^The host name of the proxy proxy\.embed-console-test\.invalid:3128 \(from HTTPS_PROXY\) could not be resolved/,
    ],
    [
      'TCP',
      'tcp',
      async () => target({ env: { HTTPS_PROXY: `http://127.0.0.1:${await closedPort()}` } }),
      /^Could not connect to the proxy 127\.0\.0\.1:\d+ \(from HTTPS_PROXY\): the connection was refused\.$/,
    ],
    [
      'proxy CONNECT',
      'proxy',
      () => target({ network: { proxy: { mode: 'custom', url: guardedProxy.url } } }),
      /asks for credentials \(HTTP 407\)/,
    ],
    [
      'TLS',
      'tls',
      () => target({ network: { proxy: { mode: 'environment' } } }),
      /issued by “O=Embed Test Corp, CN=Embed Test Private CA”, which is not among the certificate authorities Embed Console trusts \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/,
    ],
    ['HTTP', 'http', () => target({ apiToken: 'not-the-api-token' }), /^The API token was refused \(HTTP 401\)/],
  ] as const)('says where it fails: at %s', async (_label, step, make, message) => {
    const diagnosis = await diagnoseConnection(await make())
    expect(diagnosis.ok).toBe(false)
    expect(diagnosis.failedAt).toBe(step)
    const failed = diagnosis.steps.find((entry) => entry.step === step)!
    expect(failed.outcome).toBe('failed')
    expect(failed.message).toMatch(message)
    expect(diagnosis.summary).toMatch(/^It fails at the .+ step: /)
    // The steps after the failure are not tried.
    const after = diagnosis.steps.slice(diagnosis.steps.indexOf(failed) + 1)
    expect(after.every((entry) => entry.outcome === 'skipped')).toBe(true)
  })

  it('checks the way without an API token, and says the API was not asked', async () => {
    const diagnosis = await diagnoseConnection(target({ apiToken: null }))
    expect(diagnosis.ok).toBe(true)
    expect(outcomes(diagnosis).http).toBe('skipped')
    expect(diagnosis.summary).toBe('The way to the server works. No API token is kept for this profile: the API was not asked.')
  })

  it('says a plain http call through a proxy is forwarded, without a tunnel or TLS', async () => {
    const diagnosis = await diagnoseConnection(target({ baseUrl: `http://${API_HOST}`, env: { HTTP_PROXY: proxy.url } }))
    expect(outcomes(diagnosis)).toEqual({ dns: 'skipped', tcp: 'ok', proxy: 'skipped', tls: 'skipped', http: 'ok' })
  })

  it('never quotes the proxy password', async () => {
    const diagnosis = await diagnoseConnection(
      target({
        network: {
          proxy: { mode: 'custom', url: guardedProxy.url, username: 'alice', password: PROXY_PASSWORD },
          caBundlePath: certificates.caFile,
        },
      }),
    )
    expect(diagnosis.ok).toBe(true)
    expect(JSON.stringify(diagnosis)).not.toContain(PROXY_PASSWORD)
  })

  it('prints the diagnosis from `embed-console doctor --base-url`, exit 0 when it works and 1 where it fails', async () => {
    const out: string[] = []
    const io = (env: Record<string, string>) => ({
      stdout: (text: string) => out.push(text),
      stderr: (text: string) => out.push(text),
      stdin: async () => '',
      env,
    })
    expect(await main(['doctor', '--base-url', `http://${API_HOST}`], io({ HTTP_PROXY: proxy.url, EMBED_CONSOLE_TOKEN: API_TOKEN }))).toBe(
      0,
    )
    const text = out.join('\n')
    expect(text).toContain(`Diagnosis of http://${API_HOST}/api/user (--base-url, with the API token in EMBED_CONSOLE_TOKEN)`)
    expect(text).toContain(`Proxy:  ${proxy.url} (from HTTP_PROXY). HTTP_PROXY is set.`)
    expect(text).toMatch(/ {2}ok {6}HTTP {11}PUT \/api\/user answered HTTP 404 from the API/)
    out.length = 0
    expect(await main(['doctor', '--base-url', `https://${API_HOST}`, '--json'], io({ HTTPS_PROXY: proxy.url }))).toBe(1)
    expect(JSON.parse(out.join('\n'))).toMatchObject({ ok: true, value: { ok: false, failedAt: 'tls' } })
  })
})
