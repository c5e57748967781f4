import type { ActivityEntry } from '../../src-shared/activity/schemas'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { TeamActivityQuery, TeamGroupInfo, TeamStatus } from '../../src-shared/team/schemas'
import { plural } from '../../src-shared/text/plural'
import { type LeaseOwner, SqliteRunLeases } from '../bulk/run-leases'
import type { GroupCatalog } from '../catalog/group-catalog'
import type { TeamHooks } from '../groups/team-hooks'
import type { ProfileStore } from '../profiles/profile-store'
import type { SecretVault } from '../profiles/vault'
import { TEAM_PASSWORD_KEY } from '../profiles/vault-keys'
import type { Database } from '../storage/database'
import type { AddOperatorRequest } from './team-admin'
import { readTeamGroupInfo } from './team-group-info'
import { checkRoleMayJoin } from './team-join'
import { TeamOutbox } from './team-outbox'
import { TeamRunLeases } from './team-run-leases'
import type { TeamRuntime } from './team-runtime'
import { forgetTeam, readTeamSettings, type TeamSettings, writeTeamSettings } from './team-settings'
import { readTeamStatus } from './team-status'
import { parseTeamUrl } from './team-url'

/*
 * Team mode as the rest of the app sees it. One person's mode (no team joined) reads one setting
 * at start and loads nothing else: no Postgres driver, no timer. A joined folder starts the team
 * runtime (team-runtime.ts); joining and leaving start and stop it in a running process.
 */

export interface TeamServiceDeps {
  db: Database
  vault: SecretVault
  profiles: ProfileStore
  catalog: GroupCatalog
  owner: LeaseOwner
  /** The app and browser mode publish and pull in the background; a CLI call does not. */
  background: boolean
  log: (line: string) => void
  now?: () => Date
}

const LEAVE_FLUSH_MS = 5_000

export function createTeamService(deps: TeamServiceDeps) {
  const { db, vault, profiles } = deps
  const now = deps.now ?? (() => new Date())
  let runtime: TeamRuntime | null = null
  let leftBehind: { waiting: number; error: string | null } = { waiting: 0, error: null }
  const leases = new TeamRunLeases(new SqliteRunLeases(db), db, () => runtime?.shared ?? null)

  async function start(settings: TeamSettings): Promise<TeamRuntime> {
    const { startTeamRuntime } = await import('./team-runtime')
    runtime = startTeamRuntime({ ...deps, settings, password: vault.get(TEAM_PASSWORD_KEY) ?? undefined, leases })
    return runtime
  }

  const notJoined = () =>
    new AppErrorException(
      'refused',
      'This data folder has not joined a team: join one first (the Team screen, or `embed-console team join --url …`).',
    )

  const requireRuntime = (): TeamRuntime => {
    if (!runtime) throw notJoined()
    return runtime
  }

  const status = () => readTeamStatus({ db, vault, profiles, runtime: () => runtime })

  return {
    /** Every run's lease: the local one, and the team's too while joined. */
    leases,
    /** What the group service calls while joined. */
    hooks: (): TeamHooks | null => runtime?.hooks ?? null,
    presumed: (entry: ActivityEntry) => runtime?.presumed(entry),
    joined: () => runtime !== null,

    /** At start: a joined folder starts its runtime (and loads the Postgres driver). */
    async open(): Promise<void> {
      const settings = readTeamSettings(db)
      if (settings) await start(settings)
    },

    status,

    /**
     * Joins the team database at `url` as its role: checks the schema and that the role is an
     * operator, keeps the password in the vault (never with the address), starts the link and
     * pulls the team's catalog and profiles once.
     */
    async join(url: string, password?: string): Promise<TeamStatus> {
      const address = parseTeamUrl(url)
      const secret = password ?? address.password
      const current = readTeamSettings(db)
      if (current && current.url !== address.url) {
        throw new AppErrorException(
          'conflict',
          `This data folder has joined another team database (${current.url}) already: leave it first (team leave).`,
        )
      }
      await checkRoleMayJoin(address, secret)
      await runtime?.close()
      runtime = null
      const settings: TeamSettings = { url: address.url, user: address.user, joinedAt: current?.joinedAt ?? now().toISOString() }
      db.transaction(() => {
        // Encrypted with the keychain where there is one; else in the owner-only database, as API tokens are.
        if (secret !== undefined) vault.set(TEAM_PASSWORD_KEY, secret, vault.status().encryptionAvailable ? 'keychain' : 'file')
        else vault.delete(TEAM_PASSWORD_KEY)
        writeTeamSettings(db, settings)
      })
      const started = await start(settings)
      await started.puller.pull().catch((error: unknown) => deps.log(`Team: the first pull failed: ${(error as Error).message}`))
      return status()
    },

    /**
     * Leaves the team: what the outbox holds is published first; calls that cannot be are kept
     * (and leaving refused) unless `discardUnpublished`. The link, its password and the team
     * cache go; profiles, the catalog and the local activity log stay.
     */
    async leave(discardUnpublished: boolean): Promise<TeamStatus> {
      if (!readTeamSettings(db)) return status()
      if (runtime) await runtime.publisher.flush(LEAVE_FLUSH_MS)
      // Parked calls do not hold the folder back: the team database will never store them.
      const left = new TeamOutbox(db, '').backlog()
      if (left > 0 && !discardUnpublished) {
        const why = runtime?.publisher.lastError ? ` (${runtime.publisher.lastError.replace(/\.$/, '')})` : ''
        throw new AppErrorException(
          'refused',
          `${plural(left, 'call')} recorded here ${left === 1 ? 'has' : 'have'} not reached the team’s audit log yet${why}: leave once the team database answers, or discard ${left === 1 ? 'it' : 'them'} (--discard-unpublished).`,
          { outboxBacklog: left },
        )
      }
      await runtime?.close()
      runtime = null
      vault.delete(TEAM_PASSWORD_KEY)
      forgetTeam(db)
      return status()
    },

    async activity(query: TeamActivityQuery) {
      const { link } = requireRuntime()
      const [page, actors] = await Promise.all([link.activity(query), link.actors()])
      return { ...page, actors }
    },

    /** What the team knows of a group reached through this profile (from the last pull), and whether the token kept here is current. */
    group(profileId: string, groupId: string): TeamGroupInfo | null {
      if (!runtime) return null
      const profile = profiles.get(profileId)
      if (profile.builtin) return null
      return readTeamGroupInfo({ db, vault, profile, groupId })
    },

    /** The team's changes since the last pull, now. */
    pull: () => requireRuntime().puller.pull(),

    /**
     * A profile was saved: one that reaches a server the team knows gets the team's catalog of it
     * with the next pull, which starts now (in the background; a failure waits for the next one).
     */
    profilesChanged(): void {
      if (runtime && deps.background) void runtime.puller.pull().catch(() => {})
    },

    /** Calls recorded here still waiting for the team's audit log (parked ones apart), and why. */
    backlog(): { waiting: number; parked: number; error: string | null } {
      if (!readTeamSettings(db)) return { waiting: 0, parked: 0, error: null }
      const outbox = new TeamOutbox(db, '')
      return { waiting: outbox.backlog(), parked: outbox.parkedCount(), error: outbox.lastError() }
    },

    /** Publishes the outbox now (for at most `timeoutMs`): true when nothing is left. */
    flush: (timeoutMs: number) => (runtime ? runtime.publisher.flush(timeoutMs) : Promise.resolve(true)),

    async migrate(url: string, password?: string) {
      const { migrateTeam } = await import('./team-admin')
      return migrateTeam(url, password)
    },

    async addOperator(request: AddOperatorRequest) {
      const { addOperator } = await import('./team-admin')
      return addOperator(request)
    },

    /** Closes the link (publishing what it can first), and notes what stays behind (see leftBehind). */
    async close(): Promise<void> {
      if (!runtime) return
      await runtime.close()
      runtime = null
      const outbox = new TeamOutbox(db, '')
      leftBehind = { waiting: outbox.backlog(), error: outbox.lastError() }
    },

    /** What the outbox still held when the link closed: a command says so before it exits. */
    leftBehind: () => leftBehind,
  }
}

export type TeamService = ReturnType<typeof createTeamService>
