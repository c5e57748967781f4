import { messageOf } from '../../src-shared/ipc/error-message'
import type { TeamStatus } from '../../src-shared/team/schemas'
import type { ProfileStore } from '../profiles/profile-store'
import type { SecretVault } from '../profiles/vault'
import { TEAM_PASSWORD_KEY } from '../profiles/vault-keys'
import type { Database } from '../storage/database'
import { TeamOutbox } from './team-outbox'
import type { TeamRuntime } from './team-runtime'
import { readSyncState, readTeamSettings } from './team-settings'
import { sameServerBySchemes, serverKey } from './team-url'

/*
 * Team mode's status as the Team screen and `team status` show it: what this folder keeps (the
 * link's settings, the outbox, the sync marks) and, while joined and running, what the team
 * database answers. Loads the schema module (no driver) only when asked.
 */

export interface TeamStatusSources {
  db: Database
  vault: SecretVault
  profiles: ProfileStore
  /** The runtime now, or null: joining, leaving and closing change it while the status is read. */
  runtime: () => TeamRuntime | null
}

/** How many parked calls the status lists (the count says how many there are in all). */
const PARKED_LISTED = 20

export async function readTeamStatus({ db, vault, profiles, runtime: currentRuntime }: TeamStatusSources): Promise<TeamStatus> {
  const { TEAM_SCHEMA_VERSION, schemaProblem } = await import('./team-schema')
  const settings = readTeamSettings(db)
  const sync = readSyncState(db)
  const outbox = new TeamOutbox(db, '')
  const base: TeamStatus = {
    joined: settings !== null,
    url: settings?.url ?? null,
    user: settings?.user ?? null,
    joinedAt: settings?.joinedAt ?? null,
    connected: false,
    schemaVersion: null,
    supportedVersion: TEAM_SCHEMA_VERSION,
    readOnly: false,
    problem: null,
    admin: false,
    outboxBacklog: settings ? outbox.backlog() : 0,
    publishError: settings ? outbox.lastError() : null,
    parkedCount: settings ? outbox.parkedCount() : 0,
    parked: settings ? parkedCalls(outbox) : [],
    warnings: settings ? serverWarnings(db, profiles) : [],
    lastPublishAt: settings ? sync.lastPublishAt : null,
    lastPullAt: settings ? sync.lastPullAt : null,
    passwordStorage: settings ? vault.describe(TEAM_PASSWORD_KEY).storage : 'none',
    runs: [],
  }
  if (!settings || !currentRuntime()) return base
  // Each step asks the runtime as it stands then: one left or closed meanwhile ends in the catch
  // below (its failure said as the problem); one joined meanwhile answers the steps still to come.
  const link = () => currentRuntime()!.link
  try {
    const fit = await link().schema(true)
    const who = await link().whoami()
    const runs = fit.state === 'current' ? await link().liveRuns() : []
    return {
      ...base,
      connected: true,
      schemaVersion: fit.version,
      readOnly: fit.state === 'newer',
      problem: schemaProblem(fit),
      admin: who.admin,
      runs,
    }
  } catch (error) {
    return { ...base, problem: messageOf(error) }
  }
}

/** What may keep claims from meeting: two spellings of one server, here or among the team's. */
function serverWarnings(db: Database, profiles: ProfileStore): string[] {
  const here = [...new Set(profiles.list().flatMap((profile) => (profile.builtin ? [] : [serverKey(profile.baseUrl)])))]
  const known = db.all<{ server: string }>('SELECT DISTINCT server FROM team_groups').map((row) => row.server)
  const warnings: string[] = []
  for (const [index, server] of here.entries()) {
    for (const other of [...here.slice(index + 1), ...known.filter((candidate) => !here.includes(candidate))]) {
      if (!sameServerBySchemes(server, other)) continue
      warnings.push(
        `${server} and ${other} may be one server reached two ways${known.includes(other) && !here.includes(other) ? ' (the team knows the second)' : ''}: the team keys them apart, so a rotation claimed through one never meets a claim through the other. Use one address for it on every machine.`,
      )
    }
  }
  return warnings
}

/** The calls the team database refused to store for good, as far as their events say what they were. */
function parkedCalls(outbox: TeamOutbox): TeamStatus['parked'] {
  return outbox.parked(PARKED_LISTED).map((row) => {
    const event = row.event as { operation?: unknown; groupId?: unknown; calledAt?: unknown }
    const text = (value: unknown) => (typeof value === 'string' ? value : null)
    return {
      id: row.id,
      operation: text(event.operation),
      groupId: text(event.groupId),
      calledAt: text(event.calledAt),
      parkedAt: row.parkedAt,
      reason: row.reason,
    }
  })
}
