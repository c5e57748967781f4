import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Libsql from 'libsql'
import pg from 'pg'
import { afterAll, afterEach } from 'vitest'
import { type AppServices, createAppServices } from '../../src-main/app-services'
import { addOperator, migrateTeam } from '../../src-main/team/team-admin'
import { nodeScript } from './node-script'
import { type PostgresCluster, startPostgres } from './postgres'

/*
 * Team mode in tests: a real Postgres cluster migrated by its admin, operators with their own
 * login roles, and data folders joined to it as they would be on operators' machines.
 */

export interface TeamCluster extends PostgresCluster {
  /** Creates the login role and answers the address an operator joins with (password inside). */
  operator(name: string): Promise<{ name: string; password: string; url: string }>
}

/**
 * A migrated team database, or the reason there can be none here (the caller skips, and says
 * why; under CI=true startPostgres throws instead).
 */
export async function startTeamCluster(): Promise<TeamCluster | string> {
  const cluster = await startPostgres()
  if (typeof cluster === 'string') return cluster
  await migrateTeam(cluster.adminUrl)
  return Object.assign(cluster, {
    async operator(name: string) {
      const { password } = await addOperator({ url: cluster.adminUrl, name, resetPassword: false })
      return { name, password, url: cluster.url(name, password) }
    },
  })
}

/**
 * The team database of one test file, stopped after it; null (with the reason on stderr) where
 * Postgres cannot run here, for `describe.skipIf(!team)`.
 */
export async function teamForThisFile(): Promise<TeamCluster | null> {
  const cluster = await startTeamCluster()
  if (typeof cluster === 'string') {
    console.warn(`Team-mode tests skipped: ${cluster}.`)
    return null
  }
  afterAll(() => cluster.stop())
  return cluster
}

/** What a test opened (services, processes, servers), closed after it in reverse order. */
export function closedAfterEach(): Array<() => unknown> {
  const closers: Array<() => unknown> = []
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close()
  })
  return closers
}

/**
 * A data folder with a profile (tokens kept in the database, so every process reads them) on
 * `baseUrl`, joined to the team as `operatorUrl`'s role. The services are closed: the folder is
 * for other processes, or to be opened again.
 */
export async function joinedFolder(options: {
  operatorUrl: string
  baseUrl: string
  apiToken: string
  profileName: string
}): Promise<string> {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'ec-team-')), 'data')
  const services = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
  try {
    await services.profiles.create({
      name: options.profileName,
      baseUrl: options.baseUrl,
      timeoutSeconds: 5,
      environmentLabel: '',
      apiToken: options.apiToken,
      tokenStorage: 'file',
    })
    await services.team.join(options.operatorUrl)
  } finally {
    await services.close()
  }
  return dataDir
}

export async function openFolder(dataDir: string): Promise<AppServices> {
  return createAppServices({ dataDir, transport: 'browser', sandbox: false })
}

export const profileIdOf = (services: AppServices, name: string) => services.profiles.list().find((profile) => profile.name === name)!.id

export interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** `embed-console …` as a process of its own, built from source (and killable). */
export async function cliProcess(
  args: string[],
  closers: Array<() => unknown>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; exited: Promise<Exit> }> {
  const cli = await nodeScript(resolve('test/helpers/scripts/cli.ts'))
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const exited = new Promise<Exit>((done) => child.once('exit', (code, signal) => done({ code, signal, stdout, stderr })))
  closers.push(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'))
  return { child, exited }
}

export const lastJson = (stdout: string) =>
  JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    ok: boolean
    value?: Record<string, unknown>
    error?: { code: string; message: string; details?: Record<string, unknown> }
  }

/** Time passing for a data folder without waiting: its run leases (and, with `rotations`, rotations in flight) expire. */
export function letLocalLeasesExpire(dataDir: string, { rotations = true } = {}) {
  const db = new Libsql(join(dataDir, 'embed-console.db'))
  try {
    db.prepare('UPDATE bulk_runs SET lease_expires_at = lease_expires_at - 600000 WHERE lease_expires_at IS NOT NULL').run()
    if (rotations) db.prepare('UPDATE rotations SET expires_at = expires_at - 600000').run()
  } finally {
    db.close()
  }
}

/** The same in the team database: run leases and rotation claims expire. */
export async function letTeamLeasesExpire(cluster: PostgresCluster, { claims = true } = {}) {
  await cluster.query(
    "UPDATE embed_console.runs SET lease_expires_at = lease_expires_at - interval '10 minutes' WHERE lease_expires_at IS NOT NULL",
  )
  if (claims) await cluster.query("UPDATE embed_console.claims SET expires_at = expires_at - interval '10 minutes'")
}

/**
 * Logins as an operator (or anyone) makes them with psql: a pg client each, ended after each
 * test of the file that calls this.
 */
export function loginsEndedAfterEach(): (url: string) => Promise<pg.Client> {
  const clients: pg.Client[] = []
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.end().catch(() => {})
  })
  return async (url: string) => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    clients.push(client)
    return client
  }
}

/** The SQLSTATE a statement (or a connection) failed with, or 'no error'. */
export const sqlState = (work: Promise<unknown>): Promise<string> =>
  work.then(
    () => 'no error',
    (error: unknown) => String((error as { code?: string }).code),
  )

/** A SHA-256 fingerprint made of one character: a token's, for events a test writes by hand. */
export const fingerprintOf = (char: string) => char.repeat(64)

/**
 * A call event as the app publishes it: by default a successful fetch of the group `acme` on
 * https://api.example.com, its token fingerprinted `aaaa…`; `overrides` change any field.
 */
export function publishedCall(overrides: Record<string, unknown> = {}): Record<string, unknown> & { id: string } {
  return {
    kind: 'call',
    id: randomUUID(),
    calledAt: new Date().toISOString(),
    server: 'https://api.example.com',
    profileName: 'Production',
    operation: 'getOrCreate',
    groupId: 'acme',
    outcome: 'success',
    httpStatus: 200,
    errorCode: null,
    message: null,
    durationMs: 12,
    tokenLast4: 'aaaa',
    newUserGroup: false,
    group: { name: 'Acme', tokenLast4: 'aaaa', tokenSha256: fingerprintOf('a') },
    ...overrides,
  }
}

/** Publishes events through a login's own connection, as record_calls is called: how many rows it wrote. */
export const recordCalls = (client: pg.ClientBase, events: unknown[]): Promise<number> =>
  client
    .query<{ n: number }>('SELECT embed_console.record_calls($1::jsonb) AS n', [JSON.stringify(events)])
    .then((result) => result.rows[0]!.n)
