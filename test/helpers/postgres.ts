import { execFile } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { chmod, chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'

const run = promisify(execFile)

/**
 * A throwaway Postgres cluster for one test file: initdb in a temporary folder, started on a free
 * loopback port, password (SCRAM) authentication over TCP as a real team database has, stopped
 * and deleted at the end. initdb refuses to run as root, so as root the cluster runs as the
 * `postgres` user (Debian's postgresql package creates it). Ready in about a second.
 */
export interface PostgresCluster {
  port: number
  /** The team database's name. */
  database: string
  /** The superuser (`postgres`) and its password: what `team migrate` and `add-operator` are given. */
  adminPassword: string
  /** postgres://USER:PASSWORD@127.0.0.1:PORT/DATABASE (the password only when given). */
  url(user: string, password?: string): string
  adminUrl: string
  /** Runs SQL as the superuser. */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<T>>
  /** `pg_dump` of the team database, as SQL text (schema and data). */
  dump(): Promise<string>
  /** The server goes away (fast shutdown: connections are cut) and comes back, on the same port and data. */
  pause(): Promise<void>
  resume(): Promise<void>
  stop(): Promise<void>
}

const SEARCHED_BIN_DIRS = ['/usr/lib/postgresql']

/** The folder holding initdb, pg_ctl and pg_dump: on the PATH, or Debian's /usr/lib/postgresql/N/bin (newest). */
function postgresBinDir(): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) {
      // Debian links initdb into /usr/local/bin: pg_dump of the same version sits beside the real one.
      if (existsSync(join(dir, 'pg_dump'))) return dir
    }
  }
  for (const root of SEARCHED_BIN_DIRS) {
    if (!existsSync(root)) continue
    const versions = readdirSync(root)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a))
    for (const version of versions) if (existsSync(join(root, version, 'bin', 'initdb'))) return join(root, version, 'bin')
  }
  return null
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

export interface PostgresOptions {
  /** TLS on, with this key and certificate (PEM). */
  tls?: { key: string; cert: string }
  /** pg_hba.conf takes TCP connections over TLS only (hostssl), as docs/team-mode.md has the DBA write it. */
  tlsOnly?: boolean
}

/**
 * Starts a cluster, or answers why it cannot (no Postgres binaries here): the test says so and
 * skips, except under CI=true, where a missing Postgres is a failure (CI installs it).
 */
export async function startPostgres(settings: PostgresOptions = {}): Promise<PostgresCluster | string> {
  const bin = postgresBinDir()
  if (!bin) {
    const reason = 'no Postgres binaries (initdb, pg_ctl) were found: apt-get install postgresql'
    if (process.env.CI === 'true') throw new Error(`${reason}, and CI must run the team-mode tests.`)
    return reason
  }
  const asRoot = userInfo().uid === 0
  const dir = await mkdtemp(join(tmpdir(), 'ec-pg-'))
  const data = join(dir, 'data')
  const adminPassword = `pw-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`
  const pwfile = join(dir, 'pwfile')
  await writeFile(pwfile, `${adminPassword}\n`, { mode: 0o600 })
  // initdb refuses root: the cluster belongs to `postgres`, which must reach the folder.
  const runAs = async (command: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]] : [join(bin, command), args]
    return run(file, argv, { cwd: dir, maxBuffer: 64 * 1024 * 1024 })
  }
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']).catch(() => ({ stdout: '' }))
    const uid = Number(stdout.trim())
    if (!stdout.trim()) {
      await rm(dir, { recursive: true, force: true })
      const reason = 'there is no `postgres` user to run the cluster as (initdb refuses root)'
      if (process.env.CI === 'true') throw new Error(`${reason}, and CI must run the team-mode tests.`)
      return reason
    }
    await chown(dir, uid, uid)
    await chown(pwfile, uid, uid)
    await chmod(dir, 0o700)
  }
  await runAs('initdb', [
    '--no-sync',
    '-D',
    data,
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--locale=C',
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    `--pwfile=${pwfile}`,
  ])
  let tlsOptions = ''
  if (settings.tls) {
    // The server's key must be its own user's and unreadable by others, or Postgres refuses it.
    for (const [name, text] of [
      ['server.key', settings.tls.key],
      ['server.crt', settings.tls.cert],
    ] as const) {
      await writeFile(join(data, name), text, { mode: 0o600 })
      if (asRoot) {
        const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim())
        await chown(join(data, name), uid, uid)
      }
    }
    tlsOptions = ' -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key'
  }
  if (settings.tlsOnly) {
    const hba = join(data, 'pg_hba.conf')
    const lines = (await readFile(hba, 'utf8')).split('\n').map((line) => line.replace(/^host(\s)/, 'hostssl$1'))
    await writeFile(hba, lines.join('\n'))
  }
  const port = await freePort()
  const options = `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off${tlsOptions}`
  await runAs('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '30', 'start'])

  const database = 'embed_team'
  const url = (user: string, password?: string) =>
    `postgres://${encodeURIComponent(user)}${password === undefined ? '' : `:${encodeURIComponent(password)}`}@127.0.0.1:${port}/${database}`
  // The superuser bootstraps over TLS when the server takes nothing else (its certificate is not checked: the test's own).
  const adminSsl = settings.tlsOnly ? { rejectUnauthorized: false } : undefined
  const bootstrap = new pg.Client({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    password: adminPassword,
    database: 'postgres',
    ssl: adminSsl,
  })
  await bootstrap.connect()
  await bootstrap.query(`CREATE DATABASE ${database}`)
  await bootstrap.end()

  const admin = new pg.Pool({ connectionString: url('postgres', adminPassword), max: 2, ...(adminSsl ? { ssl: adminSsl } : {}) })
  admin.on('error', () => {})
  let stopped = false
  return {
    port,
    database,
    adminPassword,
    url,
    adminUrl: url('postgres', adminPassword),
    query: (sql, params) => admin.query(sql, params),
    async dump() {
      const { stdout } = await run(join(bin, 'pg_dump'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database], {
        env: { ...process.env, PGPASSWORD: adminPassword },
        maxBuffer: 256 * 1024 * 1024,
      })
      return stdout
    },
    async pause() {
      await runAs('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'])
    },
    async resume() {
      await runAs('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '30', 'start'])
    },
    async stop() {
      if (stopped) return
      stopped = true
      await admin.end().catch(() => {})
      await runAs('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {})
      await rm(dir, { recursive: true, force: true })
    },
  }
}
