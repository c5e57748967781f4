import type * as Crypto from 'node:crypto'
import type * as Fs from 'node:fs'
import { createRequire } from 'node:module'
import type * as Tls from 'node:tls'
import type { SecureContext } from 'node:tls'
import { AppErrorException } from '../../src-shared/ipc/result'
import { plural } from '../../src-shared/text/plural'

/**
 * Which certificate authorities verify the servers a call reaches. Node already trusts its
 * bundled list plus NODE_EXTRA_CA_CERTS (read once, at start). On top of them: the system's
 * store, where the runtime can read it (`tls.getCACertificates('system')`, Node 22.15 and later,
 * which the desktop app's Electron has), and a profile's CA bundle. There is no switch that
 * turns verification off.
 */
export interface Trust {
  /** Undefined: the runtime's own context is enough (no bundle, no system store to add). */
  secureContext?: SecureContext
  /** Where the authorities come from, a sentence each (for doctor; made on demand, as it reads files). */
  sources(): string[]
  /** The profile's bundle, when it has one: named in the advice of a TLS failure. */
  caBundlePath?: string
}

type CaReader = (type: 'default' | 'system' | 'bundled' | 'extra') => string[]

// TLS, X.509 and the file a bundle is read from are loaded when a trust is resolved, not with
// the client: a call over plain http to a server with no proxy (the sandbox, a script's
// --base-url) has no use for them. (Imported, node:fs would also load its streams, for Node
// evaluates every export of a built-in an ES module imports.)
const load = createRequire(import.meta.url)
const tlsModule = () => load('node:tls') as typeof Tls
const x509 = (pem: string) => new (load('node:crypto') as typeof Crypto).X509Certificate(pem)
/** Present from Node 22.15 (and so in Electron 45's main); absent in Node 20. */
const systemStoreReader = () => (tlsModule() as unknown as { getCACertificates?: CaReader }).getCACertificates

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g

/** A few certificates by name; a whole store (hundreds) by its count alone. */
const certificatesPhrase = (subjects: string[]) =>
  subjects.length <= 3 ? `${plural(subjects.length, 'certificate')} (${subjects.join('; ')})` : plural(subjects.length, 'certificate')

/** The certificates of a PEM file, each checked to be one; throws a sentence naming the file. */
export function readPemCertificates(path: string, what: string): { pems: string[]; subjects: string[] } {
  let text: string
  try {
    text = (load('node:fs') as typeof Fs).readFileSync(path, 'utf8')
  } catch (error) {
    throw new AppErrorException(
      'invalid_input',
      `${what} ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): correct the path, or clear it.`,
      { path },
    )
  }
  const pems = text.match(PEM_CERTIFICATE) ?? []
  if (pems.length === 0)
    throw new AppErrorException('invalid_input', `${what} ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`, { path })
  const subjects = pems.map((pem, index) => {
    try {
      return x509(pem).subject.replaceAll('\n', ', ')
    } catch {
      throw new AppErrorException('invalid_input', `Certificate ${index + 1} of ${what} ${path} cannot be read as an X.509 certificate.`, {
        path,
      })
    }
  })
  return { pems, subjects }
}

/** NODE_EXTRA_CA_CERTS as Node read it at start: a sentence, never a failure (Node ignores a bad file with a warning). */
function extraCertificatesSentence(): string | undefined {
  const path = process.env.NODE_EXTRA_CA_CERTS
  if (!path) return undefined
  try {
    const { subjects } = readPemCertificates(path, 'NODE_EXTRA_CA_CERTS')
    return `NODE_EXTRA_CA_CERTS=${path}: ${certificatesPhrase(subjects)}.`
  } catch (error) {
    return `NODE_EXTRA_CA_CERTS=${path} adds nothing: ${(error as Error).message}`
  }
}

/*
 * One TLS context per CA bundle (none included), made once: a context parses its hundreds of
 * certificates, milliseconds that no call should pay again. The runtime's list and the system's
 * store are read once too: they do not change while the app runs (NODE_EXTRA_CA_CERTS is read at
 * start anyway).
 */
const contexts = new Map<string, SecureContext>()
let runtimeCertificates: string[] | undefined

function contextFor(bundle: string[]): SecureContext {
  const key = bundle.join('\n')
  let context = contexts.get(key)
  if (!context) {
    const tls = tlsModule()
    const getCACertificates = systemStoreReader()
    runtimeCertificates ??= getCACertificates
      ? [...getCACertificates('default'), ...getCACertificates('system')]
      : // Node 20: `ca` replaces Node's list, so it goes with the bundled and NODE_EXTRA_CA_CERTS ones.
        [...tls.rootCertificates, ...extraCertificates()]
    context = tls.createSecureContext({ ca: [...new Set([...runtimeCertificates, ...bundle])] })
    contexts.set(key, context)
  }
  return context
}

export function resolveTrust(caBundlePath: string | undefined): Trust {
  const getCACertificates = systemStoreReader()
  const bundle = caBundlePath ? readPemCertificates(caBundlePath, 'The CA bundle') : undefined
  // Without a bundle, Node's own context already holds its list and NODE_EXTRA_CA_CERTS; one is
  // made only to add the system's store, where the runtime reads it.
  const secureContext = bundle || getCACertificates ? contextFor(bundle?.pems ?? []) : undefined
  const sources = () => {
    const said: string[] = []
    if (getCACertificates) {
      said.push(
        `The runtime's certificate authorities (${plural(getCACertificates('default').length, 'certificate')}, NODE_EXTRA_CA_CERTS included).`,
      )
      said.push(`The system's trust store: ${plural(getCACertificates('system').length, 'certificate')}.`)
    } else {
      said.push(`Node's bundled certificate authorities (${plural(tlsModule().rootCertificates.length, 'certificate')}).`)
      const extra = extraCertificatesSentence()
      if (extra) said.push(extra)
      said.push(
        `The system's trust store is not read by Node ${process.version} (Node 22.15 and later, and the desktop app, read it): give a private CA through NODE_EXTRA_CA_CERTS or the profile's CA bundle.`,
      )
    }
    if (bundle) said.push(`The profile's CA bundle ${caBundlePath}: ${certificatesPhrase(bundle.subjects)}.`)
    return said
  }
  return { sources, ...(secureContext ? { secureContext } : {}), ...(caBundlePath ? { caBundlePath } : {}) }
}

function extraCertificates(): string[] {
  const path = process.env.NODE_EXTRA_CA_CERTS
  if (!path) return []
  try {
    return readPemCertificates(path, 'NODE_EXTRA_CA_CERTS').pems
  } catch {
    return []
  }
}

/**
 * The trust of a call with no TLS on its way (plain http, straight or through a plain http
 * proxy, and no CA bundle to check): nothing to verify, so nothing of TLS is loaded for it.
 */
export const NO_TLS_TRUST: Trust = { sources: () => resolveTrust(undefined).sources() }
