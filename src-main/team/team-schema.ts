import type pg from 'pg'
import { AppErrorException } from '../../src-shared/ipc/result'
import version1 from './schema/001-team.sql?raw'
import version2 from './schema/002-team-trust.sql?raw'

/*
 * The shared schema's versions: plain SQL files, applied in order by `team migrate` (an admin),
 * each once, all in one transaction under an advisory lock, so two admins migrating at once
 * apply each version once and a failure leaves the database as it was. Never edit a version
 * that has shipped: add the next file.
 */

export interface TeamMigration {
  version: number
  name: string
  sql: string
}

export const TEAM_MIGRATIONS: readonly TeamMigration[] = [
  { version: 1, name: 'audit log, catalog, run leases, rotation claims, shared profiles', sql: version1 },
  {
    version: 2,
    name: 'roles per team database; ownership of claims, leases and calls; checked values; fingerprints forward only',
    sql: version2,
  },
]

/** The schema version this Embed Console reads and writes. */
export const TEAM_SCHEMA_VERSION = TEAM_MIGRATIONS.at(-1)!.version

export const TEAM_SCHEMA = 'embed_console'

const MIGRATE_LOCK = `SELECT pg_advisory_xact_lock(hashtextextended('embed_console.migrate', 0))`

/** What the database's schema version means for this client. */
export type SchemaFit = { state: 'current'; version: number } | { state: 'older'; version: number } | { state: 'newer'; version: number }

export function schemaFit(version: number): SchemaFit {
  if (version === TEAM_SCHEMA_VERSION) return { state: 'current', version }
  return version > TEAM_SCHEMA_VERSION ? { state: 'newer', version } : { state: 'older', version }
}

/** The sentence for a database this client cannot use as it is (null when it can). */
export function schemaProblem(fit: SchemaFit): string | null {
  if (fit.state === 'newer') {
    return `The team database has schema version ${fit.version}, newer than this Embed Console knows (${TEAM_SCHEMA_VERSION}): update Embed Console. Until then team mode is read-only here: rotations are refused and calls wait in this machine’s outbox.`
  }
  if (fit.state === 'older') {
    return fit.version === 0
      ? 'The team database has no Embed Console schema yet: ask an admin to run `embed-console team migrate --url …`.'
      : `The team database has schema version ${fit.version}, older than this Embed Console needs (${TEAM_SCHEMA_VERSION}): ask an admin to run \`embed-console team migrate --url …\`.`
  }
  return null
}

/** The version the database is at: 0 when it has no Embed Console schema. */
export async function readSchemaVersion(client: pg.ClientBase): Promise<number> {
  // Two statements: a query naming a table that does not exist fails when parsed, whatever CASE says.
  const { rows: found } = await client.query<{ table: string | null }>("SELECT to_regclass('embed_console.schema_version')::text AS table")
  if (!found[0]?.table) return 0
  const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM embed_console.schema_version')
  return Number(rows[0]?.version ?? 0)
}

export interface MigrationOutcome {
  from: number
  to: number
  applied: Array<{ version: number; name: string }>
  /** What the migration says the admin should know (an operator not carried over, another team on the cluster). */
  notes: string[]
}

/**
 * Schema version 1 made cluster-wide roles; a database still at it somewhere on the cluster
 * owns objects through them. A new team migrated now would be handed those same roles (version
 * 1 grants them before version 2 replaces them), and with them the other team's database.
 */
async function legacyTeamElsewhere(client: pg.ClientBase): Promise<string | null> {
  const { rows } = await client.query<{ databases: string | null }>(
    `SELECT string_agg(DISTINCT d.datname, ', ') AS databases
       FROM pg_shdepend s JOIN pg_database d ON d.oid = s.dbid JOIN pg_roles r ON r.oid = s.refobjid
      WHERE s.refclassid = 'pg_authid'::regclass AND s.deptype = 'o' AND r.rolname = 'embed_console_owner' AND d.datname <> current_database()`,
  )
  return rows[0]?.databases ?? null
}

/**
 * On Postgres 15 and older, CREATEROLE lets a role grant itself any role but a superuser: two
 * teams' admins on one cluster can then reach each other's roles. Said to the admin who
 * migrates when another team shares the cluster.
 */
async function createRoleCaveat(client: pg.ClientBase): Promise<string | null> {
  const { rows } = await client.query<{ version: number; others: string | null }>(
    `SELECT current_setting('server_version_num')::int AS version,
            (SELECT string_agg(rolname, ', ') FROM pg_roles WHERE rolname ~ '^embed_console_.+_owner$'
                AND rolname <> (SELECT role_name FROM embed_console.team_roles WHERE kind = 'owner')) AS others`,
  )
  const row = rows[0]
  if (!row?.others || row.version >= 160000) return null
  return `Another Embed Console team shares this cluster (${row.others}). On Postgres 15 and older a role with CREATEROLE can make itself a member of any role but a superuser, so each team's admin could reach the other team: give each team its own cluster, or keep CREATEROLE to a DBA who runs add-operator for both (docs/team-mode.md, "Two teams on one cluster").`
}

/**
 * Creates or upgrades the schema. Idempotent: a database at this version is left alone. A
 * database newer than this client is refused (an older Embed Console must not touch it).
 */
export async function migrateTeamSchema(
  client: pg.ClientBase,
  migrations: readonly TeamMigration[] = TEAM_MIGRATIONS,
): Promise<MigrationOutcome> {
  const newest = migrations.at(-1)?.version ?? 0
  const notes: string[] = []
  // What a migration's own RAISE NOTICE says is for the admin (Postgres's "already exists, skipping" is not).
  let listening = false
  const noted = (notice: { message?: string; where?: string }) =>
    void (listening && notice.message && /at RAISE$/.test(notice.where ?? '') && notes.push(notice.message))
  client.on('notice', noted)
  await client.query('BEGIN')
  try {
    await client.query(MIGRATE_LOCK)
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${TEAM_SCHEMA}`)
    await client.query(`CREATE TABLE IF NOT EXISTS ${TEAM_SCHEMA}.schema_version (
      version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now(), applied_by text NOT NULL DEFAULT session_user)`)
    const from = await readSchemaVersion(client)
    if (from > newest) {
      throw new AppErrorException(
        'refused',
        `The team database is at schema version ${from}, newer than this Embed Console knows (${newest}): update Embed Console before migrating. Nothing was changed.`,
      )
    }
    if (from === 0 && newest >= 2) {
      const elsewhere = await legacyTeamElsewhere(client)
      if (elsewhere)
        throw new AppErrorException(
          'refused',
          `Another team database on this cluster (${elsewhere}) still uses the cluster-wide roles of Embed Console schema version 1: migrate it first (\`embed-console team migrate\` with its address), then this one. Until then a new team would share its roles. Nothing was changed.`,
        )
    }
    const applied: Array<{ version: number; name: string }> = []
    for (const migration of migrations) {
      const { rowCount } = await client.query(`SELECT 1 FROM ${TEAM_SCHEMA}.schema_version WHERE version = $1`, [migration.version])
      if (rowCount) continue
      listening = true
      await client.query(migration.sql)
      listening = false
      await client.query(`INSERT INTO ${TEAM_SCHEMA}.schema_version (version, name) VALUES ($1, $2)`, [migration.version, migration.name])
      applied.push({ version: migration.version, name: migration.name })
    }
    if (applied.length && newest >= 2) {
      const caveat = await createRoleCaveat(client)
      if (caveat) notes.push(caveat)
    }
    await client.query('COMMIT')
    return { from, to: Math.max(from, newest), applied, notes }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.off('notice', noted)
  }
}
