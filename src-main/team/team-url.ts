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

/**
 * The server a profile reaches, as the team keys groups: scheme, host (lower case) and port
 * (none when the scheme's default), and the path without a trailing slash. Two profiles on two
 * machines that reach the same server name the same groups.
 */
export function serverKey(baseUrl: string): string {
  const url = new URL(baseUrl)
  const path = url.pathname.replace(/\/+$/, '')
  return `${url.protocol}//${url.host.toLowerCase()}${path}`
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
 * The driver's settings for an address kept without its password. TLS (verify-full: the
 * certificate chain and the host name checked) whenever the address asks for it; certificate
 * files are read now, and a missing one is said plainly.
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
  const mode = params.get('sslmode')
  const ssl: false | ConnectionOptions =
    mode === 'verify-full'
      ? {
          rejectUnauthorized: true,
          ...(file('sslrootcert') ? { ca: file('sslrootcert') } : {}),
          ...(file('sslcert') ? { cert: file('sslcert') } : {}),
          ...(file('sslkey') ? { key: file('sslkey') } : {}),
        }
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
