import { AppErrorException } from '../../src-shared/ipc/result'
import { BaseUrlSchema } from '../../src-shared/profiles/schemas'
import { type Diagnosis, DIAGNOSIS_STEP_LABELS, type DiagnosisStep } from '../../src-shared/user-api/diagnosis'
import { userApiUrl } from '../../src-shared/user-api/schemas'
import { createUserApiClient, type NetworkSettings } from './client'
import { checkConnection } from './connection-check'
import { type ProxyRoute, resolveProxyRoute } from './proxy-route'
import { createRedactor } from './redact'
import { certificateSummary, probeConnection, STEP_ORDER } from './tls-probe'
import { resolveTrust, type Trust } from './trust'

export interface DiagnosisTarget {
  baseUrl: string
  /** Without one the way to the server is still checked; the API itself is not asked. */
  apiToken: string | null
  timeoutMs: number
  network: NetworkSettings
  /** Where the proxy variables are read (default: this process's environment). */
  env?: Record<string, string | undefined>
}

const notTried = (step: DiagnosisStep['step']): DiagnosisStep => ({
  step,
  outcome: 'skipped',
  message: 'Not tried: an earlier step failed.',
})

/**
 * How a call to the target travels and where it fails: the proxy and the certificate
 * authorities the call uses, then DNS, TCP, the proxy's tunnel and TLS taken one at a time
 * along the same route, then the API itself, asked with "Test connection"'s request (a PUT
 * that changes nothing). `embed-console doctor` and "Diagnose connection" print it.
 */
export async function diagnoseConnection(target: DiagnosisTarget): Promise<Diagnosis> {
  const baseUrl = BaseUrlSchema.safeParse(target.baseUrl)
  if (!baseUrl.success)
    throw new AppErrorException('invalid_input', baseUrl.error.issues[0]?.message ?? 'The base URL is not an http(s) address.')
  const endpoint = new URL(userApiUrl(baseUrl.data))
  const redact = createRedactor([
    target.apiToken ?? '',
    target.network.proxy.mode === 'custom' ? (target.network.proxy.password ?? '') : '',
  ])
  const failed = (step: DiagnosisStep['step'], message: string, partial: Partial<Diagnosis> = {}): Diagnosis =>
    redact({
      endpoint: endpoint.href,
      proxy: { url: null, source: null, reason: '' },
      trust: [],
      ...partial,
      steps: STEP_ORDER.map((name) => (name === step ? { step, outcome: 'failed' as const, message } : notTried(name))),
      ok: false,
      failedAt: step,
      summary: `It fails at the ${DIAGNOSIS_STEP_LABELS[step]} step: ${message}`,
    })

  let route: ProxyRoute
  try {
    route = resolveProxyRoute(endpoint, target.network.proxy, target.env ?? process.env)
  } catch (error) {
    return failed('proxy', (error as Error).message, { proxy: { url: null, source: null, reason: (error as Error).message } })
  }
  const proxy = {
    url: route.proxy ? route.proxy.url.href.replace(/\/$/, '') : null,
    source: route.proxy?.source ?? null,
    reason: route.reason,
  }
  let trust: Trust
  try {
    trust = resolveTrust(target.network.caBundlePath)
  } catch (error) {
    return failed('tls', (error as Error).message, { proxy })
  }

  const probe = await probeConnection(endpoint, route, trust, target.timeoutMs)
  const asked = await askTheApi(target, probe.failedAt !== undefined)
  const steps = [...probe.steps, asked]
  const failedAt = steps.find((step) => step.outcome === 'failed')
  const works =
    asked.outcome === 'ok'
      ? 'The connection works: every step passed, and the API accepted the token.'
      : `The way to the server works. ${asked.message}`
  return redact({
    endpoint: endpoint.href,
    proxy,
    trust: trust.sources(),
    ...(probe.tls?.certificate
      ? { tls: { version: probe.tls.version, cipher: probe.tls.cipher, certificate: certificateSummary(probe.tls.certificate) } }
      : {}),
    steps,
    ok: failedAt === undefined,
    ...(failedAt ? { failedAt: failedAt.step } : {}),
    summary: failedAt ? `It fails at the ${DIAGNOSIS_STEP_LABELS[failedAt.step]} step: ${failedAt.message}` : works,
  })
}

async function askTheApi(target: DiagnosisTarget, earlierFailed: boolean): Promise<DiagnosisStep> {
  if (earlierFailed) return notTried('http')
  if (target.apiToken === null)
    return { step: 'http', outcome: 'skipped', message: 'No API token is kept for this profile: the API was not asked.' }
  const started = performance.now()
  try {
    const client = createUserApiClient({
      baseUrl: target.baseUrl,
      apiToken: target.apiToken,
      timeoutMs: target.timeoutMs,
      network: target.network,
      ...(target.env ? { env: target.env } : {}),
    })
    const { status } = await checkConnection(client)
    return {
      step: 'http',
      outcome: 'ok',
      message: `PUT /api/user answered HTTP ${status} from the API: it is reached, and it accepts the token (nothing was changed).`,
      durationMs: performance.now() - started,
    }
  } catch (error) {
    const message = error instanceof AppErrorException ? error.message : (error as Error).message
    return { step: 'http', outcome: 'failed', message, durationMs: performance.now() - started }
  }
}
