import { lookup } from 'node:dns/promises'
import { request as httpRequest } from 'node:http'
import { connect as netConnect, isIP, type Socket } from 'node:net'
import { connect as tlsConnect, type DetailedPeerCertificate, type TLSSocket } from 'node:tls'
import type { CertificateSummary, DiagnosisStep, DiagnosisStepName } from '../../src-shared/user-api/diagnosis'
import { CERTIFICATE_CODES, proxyRefusalSentence } from './exchange'
import { proxyPhrase, type ProxyRoute } from './proxy-route'
import type { Trust } from './trust'

/*
 * The way a call connects, taken one step at a time: DNS, TCP, the proxy's tunnel, TLS. For
 * `embed-console doctor` and "Diagnose connection", and to name the certificate a TLS failure
 * refused. It only looks: the TLS handshake is made without refusing the certificate so that
 * the certificate can be read and judged, and nothing is ever sent over it.
 */

export interface TlsSession {
  version: string
  cipher: string
  authorized: boolean
  /** OpenSSL's verdict when not authorized (UNABLE_TO_GET_ISSUER_CERT_LOCALLY, …). */
  authorizationError?: string
  certificate?: DetailedPeerCertificate
}

export interface ProbeResult {
  steps: DiagnosisStep[]
  failedAt?: DiagnosisStepName
  tls?: TlsSession
}

const defaultPort = (url: URL) => Number(url.port) || (url.protocol === 'https:' ? 443 : 80)
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '')

/** A step with a time limit: its own failure, or "no answer within N s". */
function within<T>(ms: number, what: string, work: (onCleanup: (cleanup: () => void) => void) => Promise<T>): Promise<T> {
  let cleanup = () => {}
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup()
      reject(new Error(`no answer from ${what} within ${Number((ms / 1000).toFixed(3))} s`))
    }, ms)
    work((fn) => (cleanup = fn)).then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        cleanup()
        reject(error)
      },
    )
  })
}

const reason = (error: unknown) => {
  const { code, message } = error as NodeJS.ErrnoException
  if (code === 'ECONNREFUSED') return 'the connection was refused'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'the name is not known to DNS'
  return message
}

/** `CN=api.example.com, O=Example` from a certificate's subject or issuer. */
const distinguishedName = (name: Record<string, string | string[]> | undefined) =>
  Object.entries(name ?? {})
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : value}`)
    .join(', ') || '(no name)'

export function certificateSummary(certificate: DetailedPeerCertificate): CertificateSummary {
  return {
    subject: distinguishedName(certificate.subject as unknown as Record<string, string>),
    issuer: distinguishedName(certificate.issuer as unknown as Record<string, string>),
    validTo: new Date(certificate.valid_to).toISOString(),
    ...(certificate.subjectaltname ? { altNames: certificate.subjectaltname } : {}),
  }
}

/** What to do about a certificate OpenSSL refused, naming it and the option that would trust it. */
function certificateProblemSentence(code: string, certificate: DetailedPeerCertificate | undefined, host: string, trust: Trust): string {
  if (!certificate?.subject) return `its certificate was refused (${code}).`
  const { subject, issuer, validTo, altNames } = certificateSummary(certificate)
  const trustIt = trust.caBundlePath
    ? `: the profile's CA bundle (${trust.caBundlePath}) does not hold it. If that is your company's private or TLS-inspection CA, add its certificate to that bundle, or start Embed Console with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.`
    : `. If that is your company's private or TLS-inspection CA, give its PEM file as the profile's CA bundle (Profiles › Edit › Network), or start Embed Console with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.`
  switch (code) {
    case 'CERT_HAS_EXPIRED':
      return `its certificate “${subject}” expired on ${validTo.slice(0, 10)}: the server must renew it (Embed Console does not connect past an expired certificate).`
    case 'CERT_NOT_YET_VALID':
      return `its certificate “${subject}” is not valid yet: check this computer's clock.`
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
    case 'HOSTNAME_MISMATCH':
      return `its certificate is for ${altNames ?? `“${subject}”`}, not ${host}: check the base URL (a proxy that answers for every host shows its own certificate).`
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return `its certificate “${subject}” is self-signed (${code}), so no certificate authority vouches for it. If you know it is this server's, trust it: give its PEM file as the profile's CA bundle, or NODE_EXTRA_CA_CERTS.`
    default:
      return `its certificate “${subject}” is issued by “${issuer}”, which is not among the certificate authorities Embed Console trusts (${code})${trustIt}`
  }
}

/** Connects the way a call would, step by step, and reports each step; stops at the first failure. */
export async function probeConnection(endpoint: URL, route: ProxyRoute, trust: Trust, timeoutMs: number): Promise<ProbeResult> {
  const steps: DiagnosisStep[] = []
  const proxy = route.proxy
  const https = endpoint.protocol === 'https:'
  const hop = proxy ? proxy.url : endpoint
  const hopName = proxy ? proxyPhrase(proxy) : endpoint.host
  const sockets: Socket[] = []

  const timed = async <T>(
    step: DiagnosisStepName,
    work: () => Promise<T>,
    describe: (value: T) => string,
    describeError: (error: unknown) => string,
  ): Promise<T | undefined> => {
    const started = performance.now()
    try {
      const value = await work()
      steps.push({ step, outcome: 'ok', message: describe(value), durationMs: performance.now() - started })
      return value
    } catch (error) {
      steps.push({ step, outcome: 'failed', message: describeError(error), durationMs: performance.now() - started })
      return undefined
    }
  }
  const finish = (failedAt?: DiagnosisStepName, tls?: TlsSession): ProbeResult => {
    // Outermost first: destroying the socket under a live TLS socket crashed Node 20 here (a segfault).
    for (const socket of [...new Set(sockets)].reverse()) socket.destroy()
    const taken = new Set(steps.map((step) => step.step))
    for (const step of ['dns', 'tcp', 'proxy', 'tls'] as const) {
      if (!taken.has(step))
        steps.push({ step, outcome: 'skipped', message: failedAt ? 'Not tried: an earlier step failed.' : skippedBecause(step, route) })
    }
    steps.sort((a, b) => STEP_ORDER.indexOf(a.step) - STEP_ORDER.indexOf(b.step))
    return { steps, ...(failedAt ? { failedAt } : {}), ...(tls ? { tls } : {}) }
  }
  const keep = <T extends Socket>(socket: T): T => {
    sockets.push(socket)
    return socket
  }

  // DNS: behind a proxy the call resolves only the proxy's name; the proxy resolves the server's.
  const host = hostOf(hop)
  const resolvedBy = proxy ? `; the proxy resolves ${endpoint.hostname} itself` : ''
  let address = host
  if (isIP(host)) steps.push({ step: 'dns', outcome: 'skipped', message: `${host} is an address: nothing to resolve${resolvedBy}.` })
  else {
    const found = await timed(
      'dns',
      async () => (await within(timeoutMs, 'DNS', () => lookup(host, { all: true }))).map((entry) => entry.address),
      (addresses) => `${host} is ${addresses.join(', ')}${resolvedBy}.`,
      (error) => `${proxy ? `The host name of ${hopName}` : `The host name "${host}"`} could not be resolved: ${reason(error)}.`,
    )
    if (!found) return finish('dns')
    address = found[0]!
  }

  let socket: Socket | undefined = await timed(
    'tcp',
    () =>
      within(timeoutMs, hopName, (onCleanup) => {
        const connection = keep(netConnect({ host: address, port: defaultPort(hop) }))
        onCleanup(() => connection.destroy())
        return new Promise<Socket>((resolve, reject) => {
          connection.once('connect', () => resolve(connection))
          connection.once('error', reject)
        })
      }),
    () => `Connected to ${hopName}${address === host ? '' : ` at ${address}`}.`,
    (error) => `Could not connect to ${hopName}${address === host ? '' : ` at ${address}`}: ${reason(error)}.`,
  )
  if (!socket) return finish('tcp')

  if (proxy && (https || proxy.url.protocol === 'https:')) {
    socket = await timed(
      'proxy',
      () => within(timeoutMs, hopName, (onCleanup) => openTunnel(socket!, endpoint, route, trust, keep, onCleanup)),
      () =>
        https ? `CONNECT ${tunnelTarget(endpoint)} → 200: the proxy opened a tunnel to the server.` : 'The proxy’s certificate is trusted.',
      (error) =>
        error instanceof ProxyRefusal ? proxyRefusalSentence(error.status, endpoint, route) : `${capitalised(hopName)}: ${reason(error)}.`,
    )
    if (!socket) return finish('proxy')
  }

  if (!https) return finish()
  const tls = await timed(
    'tls',
    () => within(timeoutMs, `${endpoint.host} (TLS)`, (onCleanup) => handshake(socket!, endpoint, trust, keep, onCleanup)),
    ({ session }) => {
      if (!session.authorized)
        return `The secure connection to ${endpoint.host} is refused: ${certificateProblemSentence(session.authorizationError ?? 'UNKNOWN', session.certificate, endpoint.hostname, trust)}`
      const certificate = session.certificate ? certificateSummary(session.certificate) : undefined
      return `${session.version}, ${session.cipher}; the certificate${certificate ? ` “${certificate.subject}”, issued by “${certificate.issuer}”,` : ''} is trusted.`
    },
    (error) => `The TLS handshake with ${endpoint.host} failed: ${reason(error)}.`,
  )
  if (!tls) return finish('tls')
  if (!tls.session.authorized) {
    steps.at(-1)!.outcome = 'failed'
    return finish('tls', tls.session)
  }
  return finish(undefined, tls.session)
}

export const STEP_ORDER: readonly DiagnosisStepName[] = ['dns', 'tcp', 'proxy', 'tls', 'http']

const capitalised = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`

function skippedBecause(step: DiagnosisStepName, route: ProxyRoute): string {
  if (step === 'proxy')
    return route.proxy ? 'Plain http: the proxy forwards the request itself, without a tunnel.' : `No proxy. ${route.reason}`
  if (step === 'tls') return 'Plain http: no TLS.'
  return 'Not needed.'
}

class ProxyRefusal extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`)
  }
}

const tunnelTarget = (endpoint: URL) => {
  const host = hostOf(endpoint)
  return `${host.includes(':') ? `[${host}]` : host}:${defaultPort(endpoint)}`
}

/** TLS to an https proxy, then (for an https server) CONNECT host:port through it: the socket to go on with. */
async function openTunnel(
  raw: Socket,
  endpoint: URL,
  route: ProxyRoute,
  trust: Trust,
  keep: <T extends Socket>(socket: T) => T,
  onCleanup: (cleanup: () => void) => void,
): Promise<Socket> {
  const proxy = route.proxy!
  let toProxy: Socket = raw
  if (proxy.url.protocol === 'https:') {
    const { session, secure } = await handshake(raw, proxy.url, trust, keep, onCleanup)
    if (!session.authorized) throw new Error(`its certificate is refused (${session.authorizationError ?? 'unknown reason'})`)
    toProxy = secure
  }
  if (endpoint.protocol !== 'https:') return toProxy
  const target = tunnelTarget(endpoint)
  return new Promise<Socket>((resolve, reject) => {
    const connect = httpRequest({
      method: 'CONNECT',
      path: target,
      headers: { host: target, ...(proxy.authorization ? { 'proxy-authorization': proxy.authorization } : {}) },
      createConnection: () => toProxy,
    })
    onCleanup(() => connect.destroy())
    connect.once('connect', (response, tunnel) => {
      keep(tunnel)
      if (response.statusCode === 200) resolve(tunnel)
      else reject(new ProxyRefusal(response.statusCode ?? 0))
    })
    // A proxy that answers CONNECT with an ordinary response lands here.
    connect.once('response', (response) => reject(new ProxyRefusal(response.statusCode ?? 0)))
    connect.once('error', reject)
    connect.end()
  })
}

/** A TLS handshake that reads the certificate and OpenSSL's verdict on it, without refusing it. */
function handshake(
  socket: Socket,
  server: URL,
  trust: Trust,
  keep: <T extends Socket>(socket: T) => T,
  onCleanup: (cleanup: () => void) => void,
): Promise<{ session: TlsSession; secure: TLSSocket }> {
  const host = hostOf(server)
  return new Promise((resolve, reject) => {
    const secure = keep(
      tlsConnect({
        socket,
        ...(isIP(host) ? {} : { servername: host }),
        ...(trust.secureContext ? { secureContext: trust.secureContext } : {}),
        ALPNProtocols: ['http/1.1'],
        // Judged by the caller from `authorized`, and reported; nothing is sent over it.
        rejectUnauthorized: false,
      }),
    )
    onCleanup(() => secure.destroy())
    secure.once('secureConnect', () => {
      const certificate = secure.getPeerCertificate(true)
      // Node types it as an Error; it is OpenSSL's code as a string.
      const verdict = secure.authorizationError as unknown
      const session: TlsSession = {
        version: secure.getProtocol() ?? 'unknown',
        cipher: secure.getCipher()?.name ?? 'unknown',
        authorized: secure.authorized,
        ...(verdict
          ? { authorizationError: typeof verdict === 'string' ? verdict : ((verdict as { code?: string }).code ?? String(verdict)) }
          : {}),
        ...(certificate && Object.keys(certificate).length > 0 ? { certificate } : {}),
      }
      resolve({ session, secure })
    })
    secure.once('error', reject)
  })
}

/**
 * A TLS failure of a call, told again with the certificate it refused: the same route is taken
 * once more to read it. The failure as it was when that cannot be done.
 */
export async function explainCertificateFailure(
  code: string,
  endpoint: URL,
  route: ProxyRoute,
  trust: Trust,
  timeoutMs: number,
): Promise<{ message: string; certificate: CertificateSummary } | undefined> {
  if (!CERTIFICATE_CODES.has(code)) return undefined
  const { tls } = await probeConnection(endpoint, route, trust, timeoutMs)
  if (!tls?.certificate) return undefined
  return {
    message: `The secure (TLS) connection to ${endpoint.host} failed: ${certificateProblemSentence(code, tls.certificate, endpoint.hostname, trust)}`,
    certificate: certificateSummary(tls.certificate),
  }
}
