import pg from 'pg'
import { messageOf } from '../../src-shared/ipc/error-message'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { TeamActivityEntry, TeamActivityQuery } from '../../src-shared/team/schemas'
import { storableEvent, storableText } from './team-events'
import type { SharedRunHolder, SharedRunLease } from './team-run-leases'
import { readSchemaVersion, type SchemaFit, schemaFit, schemaProblem } from './team-schema'
import type { ChangeCursor } from './team-settings'
import { pgConnection, type TeamAddress } from './team-url'

/*
 * The link to the team's Postgres: a pool of at most two connections, plain SQL, every write
 * through the schema's definer functions. Everything here is asynchronous and online; the local
 * store never waits on it except where the shared database must answer first (a rotation's claim).
 */

/** A connection that fails, breaks or times out: the team database is away (not a refusal). */
const OFFLINE_ERRNO: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'the host name could not be looked up',
  ETIMEDOUT: 'timed out',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'the connection broke',
}

const sqlState = (error: unknown) => (error as { code?: unknown }).code

/** Certificate checks that failed: the server's chain is not trusted here, or names another host. */
const UNTRUSTED_CERTIFICATE = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
])

/** A refusal that says what to change (TLS, pg_hba.conf, CONNECT), or null for the other failures. */
function connectionRefusal(code: string, message: string, user: string): AppErrorException | null {
  if (UNTRUSTED_CERTIFICATE.has(code))
    return new AppErrorException(
      'refused',
      `The team database’s certificate is not signed by an authority this computer trusts (${code}): add &sslrootcert=/path/to/ca.pem to the address, the certificate of the authority that signed it (your DBA has it).`,
      { reason: code },
    )
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return new AppErrorException(
      'refused',
      `The team database’s certificate is not for the host in the address (${message.replace(/\.$/, '')}): use the name the certificate was issued for.`,
      { reason: code },
    )
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return new AppErrorException('refused', `The team database’s certificate is not valid now (${code}): ask the DBA to renew it.`, {
      reason: code,
    })
  if (/does not support SSL/i.test(message))
    return new AppErrorException(
      'refused',
      'The team database does not accept TLS connections, and the address asks for TLS: ask the DBA to turn ssl on (docs/team-mode.md, step 2).',
      { reason: 'no_tls' },
    )
  if (code === '28000' && /pg_hba\.conf/.test(message)) {
    const detail = message.slice(0, 200).replace(/\.$/, '')
    return new AppErrorException(
      'refused',
      /no encryption/.test(message)
        ? `The team database lets “${user}” in from this computer only over TLS (${detail}): add ?sslmode=verify-full to the address.`
        : `The team database has no rule letting “${user}” in from this computer (${detail}): ask the DBA to add one to pg_hba.conf (docs/team-mode.md, step 2).`,
      { reason: 'pg_hba' },
    )
  }
  if (code === '28000' && /not permitted to log in/.test(message))
    return new AppErrorException(
      'refused',
      `The team database does not let “${user}” log in any more (the role is NOLOGIN): ask an admin whether your access was taken away.`,
    )
  if (code === '42501' && /permission denied for database/.test(message))
    return new AppErrorException(
      'refused',
      `“${user}” may not connect to this team database: only its own team’s roles may. Ask its admin for \`embed-console team add-operator ${user}\`.`,
    )
  return null
}

/**
 * The link's failures as sentences: away (team_offline), or refused (a login, a permission, a
 * certificate, a schema). While connecting, anything else is the database being out of reach
 * too (a socket error): only a statement's unexpected error is `internal`. Sentences the schema
 * raises for people (SQLSTATE class EC) pass as they are; every statement's failure keeps its
 * SQLSTATE in `details.sqlState`, for the publisher to tell one bad event from a bad link.
 */
export function teamError(error: unknown, user: string, phase: 'connect' | 'query' = 'query'): AppErrorException {
  if (error instanceof AppErrorException) return error
  const code = String(sqlState(error) ?? '')
  const message = messageOf(error)
  const refusal = connectionRefusal(code, message, user)
  if (refusal) return refusal
  if (
    Object.hasOwn(OFFLINE_ERRNO, code) ||
    code.startsWith('08') ||
    ['57P01', '57P02', '57P03', '53300'].includes(code) ||
    /timeout|terminated|Connection ended/i.test(message)
  ) {
    const reason =
      OFFLINE_ERRNO[code] ??
      (code === '57P03'
        ? 'it is starting up or shutting down'
        : code === '53300'
          ? 'too many connections'
          : /timeout/i.test(message)
            ? 'no answer in time'
            : 'the connection broke')
    return new AppErrorException('team_offline', `The team database cannot be reached (${reason}).`, { reason: code || 'connection' })
  }
  if (code.startsWith('EC')) return new AppErrorException('refused', message, { sqlState: code })
  if (code === '28P01') {
    return new AppErrorException(
      'refused',
      `The team database refused the login of “${user}”: the password is wrong or the role was removed. Ask an admin for a new one (team add-operator --reset-password) and join again.`,
    )
  }
  if (code === '42501')
    return new AppErrorException('refused', `The team database refused this to “${user}” (permission denied): only an admin may do it.`, {
      sqlState: code,
    })
  if (code === '42P01' || code === '42883' || code === '3F000') {
    return new AppErrorException(
      'refused',
      'The team database lacks part of the Embed Console schema: ask an admin to run `embed-console team migrate --url …`.',
      { sqlState: code },
    )
  }
  if (code === '3D000') return new AppErrorException('refused', 'The database named in the team address does not exist.')
  if (phase === 'connect')
    return new AppErrorException('team_offline', `The team database cannot be reached (${message.slice(0, 200).replace(/\.$/, '')}).`, {
      reason: code || 'connection',
    })
  return new AppErrorException('internal', `The team database answered with an error: ${message.slice(0, 300)}`, { sqlState: code })
}

export type ClaimOutcome = 'claimed' | 'held' | 'unknown' | 'stale' | 'changed' | 'lease_lost'

export interface ClaimAnswer {
  outcome: ClaimOutcome
  actor: string | null
  at: Date | null
  groupKey: string
  /** The caller's own claim in the way, with the run and lease epoch it was made under (null outside a run). */
  ownClaim: { id: string; runId: string | null; runEpoch: number | null } | null
}

export interface SharedGroupRow {
  server: string
  group_id: string
  name: string | null
  environment_tag: string | null
  team_id: string | null
  /** JSON text, as another operator's call stored it. */
  properties: string | null
  mapping: string | null
  token_last4: string | null
  token_sha256: string | null
  changed_by: string
  changed_at: Date
  rotated_by: string | null
  rotated_at: Date | null
  change_xid: string
  change_seq: string
}

export interface SharedProfileRow {
  id: string
  name: string
  base_url: string
  timeout_seconds: number
  environment_label: string
  environment_kind: 'customer' | 'testing' | 'unspecified'
  deleted: boolean
  updated_by: string
  updated_at: Date
  change_xid: string
  change_seq: string
}

export interface Whoami {
  user: string
  operator: boolean
  admin: boolean
}

interface ActivityRow {
  seq: string
  id: string
  actor: string
  recorded_at: Date
  called_at: Date
  server: string
  profile_name: string
  operation: TeamActivityEntry['operation']
  group_id: string | null
  outcome: TeamActivityEntry['outcome']
  http_status: number | null
  error_code: string | null
  message: string | null
  duration_ms: number
  token_last4: string | null
  settled_outcome: 'rotated' | 'not_rotated' | null
  settled_at: Date | null
}

const activityEntry = (row: ActivityRow): TeamActivityEntry => ({
  id: row.id,
  actor: row.actor,
  time: row.recorded_at.toISOString(),
  calledAt: row.called_at.toISOString(),
  server: row.server,
  profileName: row.profile_name,
  operation: row.operation,
  groupId: row.group_id,
  outcome: row.outcome,
  httpStatus: row.http_status,
  errorCode: row.error_code,
  message: row.message,
  durationMs: row.duration_ms,
  tokenLast4: row.token_last4,
  settledOutcome: row.settled_outcome,
  settledAt: row.settled_at?.toISOString() ?? null,
})

/**
 * The statement behind a page of the Team view: each of its filters has an index that leads
 * with the filtered column and ends with seq (checked by EXPLAIN in a test), so a rare outcome
 * or one group among hundreds of thousands of rows is read from the index, never by a scan.
 */
export function activityQuery(query: TeamActivityQuery): { sql: string; params: unknown[] } {
  const where: string[] = ['seq < $1']
  const params: unknown[] = [query.cursor ?? Number.MAX_SAFE_INTEGER]
  const add = (clause: string, value: unknown) => {
    params.push(value)
    where.push(clause.replace('?', `$${params.length}`))
  }
  if (query.actor) add('actor = ?', query.actor)
  if (query.groupId) add('group_id = ?', query.groupId)
  if (query.operation) add('operation = ?', query.operation)
  if (query.outcome) add('outcome = ?', query.outcome)
  params.push(query.limit + 1)
  return {
    sql: `SELECT * FROM embed_console.activity WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT $${params.length}`,
    params,
  }
}

/** The columns a pull reads of each table (JSON as text: the puller checks its depth before anything parses it). */
const CHANGED_COLUMNS = {
  groups: `server, group_id, name, environment_tag, team_id, properties::text AS properties, mapping::text AS mapping, token_last4, token_sha256,
           changed_by, changed_at, rotated_by, rotated_at`,
  profiles: 'id, name, base_url, timeout_seconds, environment_label, environment_kind, deleted, updated_by, updated_at',
}

/**
 * A table's changes after a cursor ($1 the transaction id, $2 the change number, $3 how many),
 * in the order of the transactions that made them, up to the oldest transaction still running:
 * one that commits later has a later place in this order than anything read now, so a pull
 * never skips a change, and publishers take no lock. Read through (change_xid, change_seq).
 */
export const changesQuery = (table: 'groups' | 'profiles') =>
  `SELECT ${CHANGED_COLUMNS[table]}, change_xid, change_seq FROM embed_console.${table}
    WHERE (change_xid, change_seq) > ($1::bigint, $2::bigint) AND change_xid < txid_snapshot_xmin(txid_current_snapshot())
    ORDER BY change_xid, change_seq LIMIT $3`

/** How long a schema check is trusted before the next statement asks again. */
const SCHEMA_CHECK_EVERY_MS = 30_000

export class TeamLink {
  private readonly pool: pg.Pool
  private fit: { checkedAt: number; fit: SchemaFit } | null = null
  private closed = false

  constructor(
    readonly address: Pick<TeamAddress, 'url' | 'user'>,
    password: string | undefined,
  ) {
    this.pool = new pg.Pool({
      connectionTimeoutMillis: 5_000,
      ...pgConnection(address.url, password),
      max: 2,
      query_timeout: 15_000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      application_name: 'embed-console',
    })
    // A pooled connection that the server drops while idle must not crash the process: the next
    // query opens another (or says the database is away).
    this.pool.on('error', () => {})
  }

  private async run<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<T>> {
    if (this.closed) throw new AppErrorException('team_offline', 'The team link is closed.')
    try {
      return await this.pool.query<T>(sql, params)
    } catch (error) {
      throw teamError(error, this.address.user)
    }
  }

  /** The schema version and what it means here (checked again every 30 s). */
  async schema(force = false): Promise<SchemaFit> {
    if (!force && this.fit && Date.now() - this.fit.checkedAt < SCHEMA_CHECK_EVERY_MS) return this.fit.fit
    let version: number
    const client = await this.pool.connect().catch((error: unknown) => {
      throw teamError(error, this.address.user, 'connect')
    })
    try {
      version = await readSchemaVersion(client)
    } catch (error) {
      throw teamError(error, this.address.user)
    } finally {
      client.release()
    }
    const fit = schemaFit(version)
    this.fit = { checkedAt: Date.now(), fit }
    return fit
  }

  /** Refuses (with the sentence) unless the schema is the one this client writes. */
  async assertWritable(): Promise<void> {
    const fit = await this.schema()
    const problem = schemaProblem(fit)
    if (problem) throw new AppErrorException('refused', problem, { schemaVersion: fit.version })
  }

  /**
   * Who this login is here: an operator may run the function that records calls, an admin the
   * one that shares profiles (whatever the team's roles are named: they are per database).
   */
  async whoami(): Promise<Whoami> {
    const { rows } = await this.run<{ user: string; operator: boolean; admin: boolean }>(
      `SELECT session_user AS user,
              EXISTS (SELECT FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                       WHERE n.nspname = 'embed_console' AND p.proname = 'record_calls'
                         AND has_schema_privilege(session_user, n.oid, 'USAGE') AND has_function_privilege(session_user, p.oid, 'EXECUTE')) AS operator,
              EXISTS (SELECT FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                       WHERE n.nspname = 'embed_console' AND p.proname = 'upsert_profile'
                         AND has_schema_privilege(session_user, n.oid, 'USAGE') AND has_function_privilege(session_user, p.oid, 'EXECUTE')) AS admin`,
    )
    return rows[0]!
  }

  async acquireRun(
    runId: string,
    label: string,
    owner: { id: string; pid: number; host: string; client: string },
    ttlMs: number,
  ): Promise<{ lease: SharedRunLease } | { holder: SharedRunHolder }> {
    await this.assertWritable()
    const { rows } = await this.run<{
      epoch: string | null
      holder: string
      actor: string
      pid: number
      host: string
      client: string
      since: Date
      expires_at: Date
    }>('SELECT * FROM embed_console.acquire_run($1, $2, $3, $4, $5, $6, $7)', [
      runId,
      label,
      owner.id,
      owner.pid,
      owner.host,
      owner.client,
      ttlMs,
    ])
    const row = rows[0]!
    if (row.epoch !== null) return { lease: { runId, holder: owner.id, epoch: Number(row.epoch) } }
    return { holder: { actor: row.actor, pid: row.pid, host: row.host, client: row.client, expiresAt: row.expires_at } }
  }

  async renewRun(lease: SharedRunLease, ttlMs: number): Promise<boolean> {
    const { rows } = await this.run<{ renewed: boolean }>('SELECT embed_console.renew_run($1, $2, $3, $4) AS renewed', [
      lease.runId,
      lease.holder,
      lease.epoch,
      ttlMs,
    ])
    return rows[0]?.renewed === true
  }

  async releaseRun(lease: SharedRunLease): Promise<void> {
    await this.run('SELECT embed_console.release_run($1, $2, $3)', [lease.runId, lease.holder, lease.epoch])
  }

  async claimGroup(claim: {
    server: string
    groupId: string | null
    claimId: string
    sentSha256: string
    holder: string
    host: string
    run: SharedRunLease | null
    ttlMs: number
  }): Promise<ClaimAnswer> {
    await this.assertWritable()
    const { rows } = await this.run<{
      outcome: ClaimOutcome
      actor: string | null
      at: Date | null
      group_key: string
      own_claim: string | null
      own_run: string | null
      own_epoch: string | null
    }>('SELECT * FROM embed_console.claim_group($1, $2, $3, $4, $5, $6, $7, $8, $9)', [
      claim.server,
      claim.groupId === null ? null : storableText(claim.groupId),
      claim.claimId,
      claim.sentSha256,
      claim.holder,
      claim.host,
      claim.run?.runId ?? null,
      claim.run?.epoch ?? null,
      claim.ttlMs,
    ])
    const row = rows[0]!
    return {
      outcome: row.outcome,
      actor: row.actor,
      at: row.at,
      groupKey: row.group_key,
      ownClaim: row.own_claim
        ? { id: row.own_claim, runId: row.own_run, runEpoch: row.own_epoch === null ? null : Number(row.own_epoch) }
        : null,
    }
  }

  /** Gives back a claim of this operator's that was never sent: true when it was there to give back. */
  async releaseClaim(claimId: string): Promise<boolean> {
    const { rows } = await this.run<{ released: boolean }>('SELECT embed_console.release_claim($1) AS released', [claimId])
    return rows[0]?.released === true
  }

  /**
   * Publishes events (JSON objects, no token in any): written once each, whatever the retries,
   * each made storable first (see storableEvent).
   */
  async recordCalls(events: readonly unknown[]): Promise<number> {
    await this.assertWritable()
    const { rows } = await this.run<{ written: number }>('SELECT embed_console.record_calls($1::jsonb) AS written', [
      JSON.stringify(events.map(storableEvent)),
    ])
    return rows[0]?.written ?? 0
  }

  /** The catalog's changes after `cursor` (see changesQuery). */
  async groupsChangedAfter(cursor: ChangeCursor, limit: number): Promise<SharedGroupRow[]> {
    const { rows } = await this.run<SharedGroupRow>(changesQuery('groups'), [cursor.xid, cursor.seq, limit])
    return rows
  }

  /** A server's groups, by id, after `after` (a profile that joined the catalog late is filled from these). */
  async groupsOfServer(server: string, after: string | null, limit: number): Promise<SharedGroupRow[]> {
    const { rows } = await this.run<SharedGroupRow>(
      `SELECT server, group_id, name, environment_tag, team_id, properties::text AS properties, mapping::text AS mapping, token_last4, token_sha256,
              changed_by, changed_at, rotated_by, rotated_at, change_xid, change_seq
         FROM embed_console.groups WHERE server = $1 AND ($2::text IS NULL OR group_id > $2) ORDER BY group_id LIMIT $3`,
      [server, after, limit],
    )
    return rows
  }

  async profilesChangedAfter(cursor: ChangeCursor, limit: number): Promise<SharedProfileRow[]> {
    const { rows } = await this.run<SharedProfileRow>(changesQuery('profiles'), [cursor.xid, cursor.seq, limit])
    return rows
  }

  async upsertProfile(profile: {
    id: string
    name: string
    baseUrl: string
    timeoutSeconds: number
    environmentLabel: string
    environmentKind: string
    deleted: boolean
  }): Promise<void> {
    await this.assertWritable()
    await this.run('SELECT embed_console.upsert_profile($1, $2, $3, $4, $5, $6, $7)', [
      profile.id,
      profile.name,
      profile.baseUrl,
      profile.timeoutSeconds,
      profile.environmentLabel,
      profile.environmentKind,
      profile.deleted,
    ])
  }

  /** The shared audit log, newest first, `limit` entries before `cursor` (an entry's position). */
  async activity(query: TeamActivityQuery): Promise<{ entries: TeamActivityEntry[]; nextCursor: number | null }> {
    const { sql, params } = activityQuery(query)
    const { rows } = await this.run<ActivityRow>(sql, params)
    const more = rows.length > query.limit
    const shown = more ? rows.slice(0, query.limit) : rows
    return { entries: shown.map(activityEntry), nextCursor: more ? Number(shown.at(-1)!.seq) : null }
  }

  /** Everyone who has written to the audit log, for the actor filter (a small table, never a scan of the log). */
  async actors(): Promise<string[]> {
    const { rows } = await this.run<{ actor: string }>('SELECT actor FROM embed_console.actors ORDER BY actor')
    return rows.map((row) => row.actor)
  }

  /**
   * Runs being sent anywhere in the team now: held, and renewed within the last 15 s (a holder
   * renews every 5 s; one that stopped, or lost the database, drops off at once rather than when
   * its lease expires).
   */
  async liveRuns(): Promise<Array<{ label: string; actor: string; host: string; client: string; since: string }>> {
    const { rows } = await this.run<{ label: string; lease_actor: string; lease_host: string; lease_client: string; lease_since: Date }>(
      `SELECT label, lease_actor, lease_host, lease_client, lease_since FROM embed_console.runs
        WHERE lease_holder IS NOT NULL AND lease_expires_at > now() AND lease_renewed_at > now() - interval '15 seconds' ORDER BY lease_since`,
    )
    return rows.map((row) => ({
      label: row.label,
      actor: row.lease_actor,
      host: row.lease_host,
      client: row.lease_client,
      since: row.lease_since.toISOString(),
    }))
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.pool.end().catch(() => {})
  }
}
