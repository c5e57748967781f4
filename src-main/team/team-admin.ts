import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { AppErrorException } from '../../src-shared/ipc/result'
import { OperatorNameSchema } from '../../src-shared/team/schemas'
import { generatePassword, scramVerifier } from './scram'
import { teamError } from './team-link'
import { migrateTeamSchema, type MigrationOutcome, readSchemaVersion, TEAM_SCHEMA_VERSION } from './team-schema'
import { parseTeamUrl, pgConnection, type TeamAddress } from './team-url'

/*
 * What an admin does to the team database: create or upgrade its schema, and give an operator a
 * login role. Both connect with the address (and password) given, once, and keep nothing.
 */

async function withClient<T>(address: TeamAddress, password: string | undefined, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionTimeoutMillis: 10_000,
    ...pgConnection(address.url, password),
    application_name: 'embed-console',
  })
  client.on('error', () => {})
  try {
    await client.connect()
  } catch (error) {
    throw teamError(error, address.user, 'connect')
  }
  try {
    return await work(client)
  } catch (error) {
    throw teamError(error, address.user)
  } finally {
    await client.end().catch(() => {})
  }
}

const target = (url: string, password: string | undefined) => {
  const address = parseTeamUrl(url)
  return { address, password: password ?? address.password }
}

export async function migrateTeam(url: string, password?: string): Promise<MigrationOutcome> {
  const { address, password: secret } = target(url, password)
  return withClient(address, secret, (client) => migrateTeamSchema(client))
}

/** Who to add and where: the admin's address (and password, when the address carries none). */
export interface AddOperatorRequest {
  url: string
  password?: string | undefined
  /** The operator's login role, checked against OperatorNameSchema here. */
  name: string
  /** Give an existing operator a new password instead of refusing the name. */
  resetPassword: boolean
}

/**
 * Creates an operator's login role (a member of the team database's operator role) with a generated
 * password, or gives an existing operator a new one (`resetPassword`). The server is sent the
 * password's SCRAM verifier, never the password; the answer is the only place it appears.
 */
export async function addOperator({
  url,
  password,
  name: nameText,
  resetPassword,
}: AddOperatorRequest): Promise<{ name: string; password: string }> {
  const parsed = OperatorNameSchema.safeParse(nameText)
  if (!parsed.success) throw new AppErrorException('invalid_input', parsed.error.issues[0]?.message ?? 'Not an operator name.')
  const name = parsed.data
  const { address, password: secret } = target(url, password)
  return withClient(address, secret, async (client) => {
    const version = await readSchemaVersion(client)
    if (version !== TEAM_SCHEMA_VERSION) {
      throw new AppErrorException(
        'refused',
        version < TEAM_SCHEMA_VERSION
          ? 'The team database’s Embed Console schema is missing or older than this version: run `embed-console team migrate` first.'
          : 'The team database is newer than this Embed Console: update it before adding operators.',
      )
    }
    // The team's operator role is this database's own (embed_console.team_roles names it).
    const team = (await client.query<{ role_name: string }>("SELECT role_name FROM embed_console.team_roles WHERE kind = 'operator'"))
      .rows[0]!.role_name
    const { rows } = await client.query<{ operator: boolean }>(
      'SELECT pg_has_role(oid, (SELECT oid FROM pg_roles WHERE rolname = $2), $3) AS operator FROM pg_roles WHERE rolname = $1',
      [name, team, 'MEMBER'],
    )
    const generated = generatePassword()
    const verifier = pg.escapeLiteral(scramVerifier(generated))
    const role = pg.escapeIdentifier(name)
    if (rows.length > 0) {
      if (!resetPassword)
        throw new AppErrorException(
          'conflict',
          `A role named “${name}” exists already: pass --reset-password (Reset password in the app) to give it a new password.`,
        )
      if (!rows[0]!.operator)
        throw new AppErrorException(
          'refused',
          `The role “${name}” is not an operator of this team (role names are shared by every database on the cluster): choose another name.`,
        )
      await client.query(`ALTER ROLE ${role} WITH LOGIN PASSWORD ${verifier}`)
    } else {
      await client.query(`CREATE ROLE ${role} LOGIN PASSWORD ${verifier} IN ROLE ${pg.escapeIdentifier(team)}`)
    }
    return { name, password: generated }
  })
}

export interface SharedProfileSettings {
  name: string
  baseUrl: string
  timeoutSeconds: number
  environmentLabel: string
  environmentKind: 'customer' | 'testing' | 'unspecified'
}

/**
 * Admin: shares connection settings (never a token) as a team profile, found by name: every
 * joined machine pulls it as a profile of its own, where each operator enters their own API
 * token. `remove` withdraws it (machines keep their copy: it may hold their tokens).
 */
export async function shareProfile(
  url: string,
  password: string | undefined,
  profile: SharedProfileSettings,
  remove: boolean,
): Promise<{ id: string; name: string; removed: boolean }> {
  const { address, password: secret } = target(url, password)
  return withClient(address, secret, async (client) => {
    const version = await readSchemaVersion(client)
    if (version !== TEAM_SCHEMA_VERSION)
      throw new AppErrorException(
        'refused',
        'The team database’s schema is not the one this Embed Console writes: run `embed-console team migrate` (or update Embed Console) first.',
      )
    const { rows } = await client.query<{ id: string }>(
      'SELECT id FROM embed_console.profiles WHERE lower(name) = lower($1) AND NOT deleted',
      [profile.name],
    )
    if (remove && rows.length === 0) throw new AppErrorException('not_found', `There is no shared profile named “${profile.name}”.`)
    const id = rows[0]?.id ?? randomUUID()
    await client.query('SELECT embed_console.upsert_profile($1, $2, $3, $4, $5, $6, $7)', [
      id,
      profile.name,
      profile.baseUrl,
      profile.timeoutSeconds,
      profile.environmentLabel,
      profile.environmentKind,
      remove,
    ])
    return { id, name: profile.name, removed: remove }
  })
}
