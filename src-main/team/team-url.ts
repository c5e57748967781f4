import { readFileSync } from 'node:fs'
import type { ConnectionOptions } from 'node:tls'
import { AppErrorException } from '../../src-shared/ipc/result'
import { isLoopbackHostname } from '../../src-shared/net/loopback'

/*
 * The team database's address, as an operator or an admin gives it:
 * postgres://ROLE[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=verify-full&sslrootcert=FILE].
 * Off this computer the connection must be TLS with the server's certificate and name checked
 * (sslmode=verify-full): the audit log's integrity and the operator's password travel on it.
 * Sentences never quote the address: it may carry a password.
 */

const SETTINGS = new Set(['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'connect_timeout'])

/** The sslmodes Embed Console honours as libpq does (it has no fallback from TLS, so no allow or prefer). */
const SSL_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const
type SslMode = (typeof SSL_MODES)[number]

export interface TeamAddress {
  /** The address without its password: what a data folder keeps. */
  url: string
  user: string
  host: string
  port: number
  database: string
  /** A password written in the address (the vault keeps it; the address is kept without it). */
  password?: string
}

const invalid = (message: string) => new AppErrorException('invalid_input', message)

export function parseTeamUrl(text: string): TeamAddress {
  const trimmed = text.trim()
  if (!URL.canParse(trimmed))
    throw invalid(
      'The team database address is not a full address: write it like postgres://ops-2@db.example.com:5432/embed_team?sslmode=verify-full.',
    )
  const url = new URL(trimmed)
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw invalid('The team database address starts with postgres:// (or postgresql://).')
  const user = decodeURIComponent(url.username)
  if (!user)
    throw invalid(
      'Put your login role in the team database address: postgres://ROLE@host/database (an admin gives it with `embed-console team add-operator`).',
    )
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''))
  if (!database || database.includes('/')) throw invalid('Name the database in the team database address: postgres://ROLE@host/DATABASE.')
  for (const key of url.searchParams.keys()) {
    if (!SETTINGS.has(key))
      throw invalid(
        `The team database address has a setting Embed Console does not use (“${key.slice(0, 40)}”): only ${[...SETTINGS].join(', ')}.`,
      )
  }
  const host = url.hostname
  if (!host) throw invalid('Name the host in the team database address: postgres://ROLE@HOST/database.')
  const mode = url.searchParams.get('sslmode')
  if (mode !== null && !(SSL_MODES as readonly string[]).includes(mode))
    throw invalid(`The team database address has sslmode=${mode.slice(0, 20)}: Embed Console takes ${SSL_MODES.join(', ')}.`)
  if (!isLoopbackHostname(host) && url.searchParams.get('sslmode') !== 'verify-full') {
    throw invalid(
      'Off this computer the team database is reached over TLS, with its certificate and name checked: add ?sslmode=verify-full to the address (and &sslrootcert=FILE for a private certificate authority).',
    )
  }
  const password = url.password ? decodeURIComponent(url.password) : undefined
  url.password = ''
  return {
    url: url.toString(),
    user,
    host,
    port: url.port ? Number(url.port) : 5432,
    database,
    ...(password !== undefined ? { password } : {}),
  }
}

/** A host as the team keys it: lower case, no trailing dot, and every name of this computer as 127.0.0.1. */
function hostKey(url: URL): string {
  const host = url.hostname.toLowerCase().replace(/\.$/, '')
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  const named = bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || bare === '0.0.0.0' ? '127.0.0.1' : host
  return url.port ? `${named}:${url.port}` : named
}

const pathKey = (url: URL) => url.pathname.replace(/\/+$/, '')

/**
 * The server a profile reaches, as the team keys groups: scheme, host (lower case, this
 * computer's names as one) and port (none when the scheme's default), and the path without a
 * trailing slash. Two profiles on two machines that reach the same server name the same groups.
 */
export function serverKey(baseUrl: string): string {
  const url = new URL(baseUrl)
  return `${url.protocol}//${hostKey(url)}${pathKey(url)}`
}

/**
 * Two server keys that may well be one server reached two ways: the same host and path, one
 * over http and one over https (each on its default port). Keyed apart (nothing says they are
 * one), their claims never meet: the team is warned instead.
 */
export function sameServerBySchemes(a: string, b: string): boolean {
  if (a === b) return false
  const [left, right] = [new URL(a), new URL(b)]
  return left.protocol !== right.protocol && `${hostKey(left)}${pathKey(left)}` === `${hostKey(right)}${pathKey(right)}`
}

/** What the Postgres driver is given to connect: built here, so a password never rides in a URL. */
export interface PgConnection {
  host: string
  port: number
  database: string
  user: string
  password?: string
  ssl: false | ConnectionOptions
  connectionTimeoutMillis?: number
}

/**
 * The driver's settings for an address kept without its password, TLS as its sslmode says:
 * verify-full checks the certificate chain and the host name, verify-ca the chain, require
 * encrypts without checking (accepted on loopback only, see parseTeamUrl), disable or none is
 * plain. Certificate files are read now, and a missing one is said plainly.
 */
export function pgConnection(url: string, password: string | undefined): PgConnection {
  const address = new URL(url)
  const params = address.searchParams
  const file = (key: string) => {
    const path = params.get(key)
    if (!path) return undefined
    try {
      return readFileSync(path, 'utf8')
    } catch {
      throw new AppErrorException('refused', `The team database address names a ${key} file that cannot be read: ${path}.`)
    }
  }
  const mode = (params.get('sslmode') ?? 'disable') as SslMode
  const files = () => ({
    ...(file('sslrootcert') ? { ca: file('sslrootcert') } : {}),
    ...(file('sslcert') ? { cert: file('sslcert') } : {}),
    ...(file('sslkey') ? { key: file('sslkey') } : {}),
  })
  const ssl: false | ConnectionOptions =
    mode === 'verify-full'
      ? { rejectUnauthorized: true, ...files() }
      : mode === 'verify-ca'
        ? { rejectUnauthorized: true, checkServerIdentity: () => undefined, ...files() }
        : mode === 'require'
          ? { rejectUnauthorized: false, ...files() }
          : false
  const timeout = Number(params.get('connect_timeout'))
  return {
    host: decodeURIComponent(address.hostname).replace(/^\[|\]$/g, ''),
    port: address.port ? Number(address.port) : 5432,
    database: decodeURIComponent(address.pathname.replace(/^\//, '')),
    user: decodeURIComponent(address.username),
    ...(password !== undefined ? { password } : {}),
    ssl,
    ...(timeout > 0 ? { connectionTimeoutMillis: timeout * 1000 } : {}),
  }
}
