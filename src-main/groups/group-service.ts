import type { ConnectionTest } from '../../src-shared/ipc/connection-calls'
import type { GroupCallResult, RotationCheck, RotationSource } from '../../src-shared/ipc/group-calls'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { Profile } from '../../src-shared/profiles/schemas'
import type { GetOrCreateRequest, UpdateRequest } from '../../src-shared/user-api/schemas'
import type { ActivityLog } from '../activity/activity-log'
import type { GroupCatalog } from '../catalog/group-catalog'
import type { Connection, ProfileStore } from '../profiles/profile-store'
import type { SecretVault } from '../profiles/vault'
import { groupIdOfTokenKey, groupTokenKey } from '../profiles/vault-keys'
import type { Database } from '../storage/database'
import { createUserApiClient, type UserApiClient } from '../user-api/client'
import { checkConnection } from '../user-api/connection-check'
import type { CallOptions } from './call-options'
import { type CallPlan, callUserApi, type GroupCallDeps } from './group-call'
import { createGroupRecording } from './group-recording'
import { fieldsNotApplied, notAppliedWarning } from './not-applied'
import { createRecordsWaiting } from './records-waiting'
import { checkRotation } from './rotation-check'
import type { RotationJournal } from './rotation-journal'
import type { TeamHooks } from './team-hooks'

// The types other features meet the service by, declared beside the parts that use them.

export interface GroupServiceDeps {
  db: Database
  profiles: ProfileStore
  vault: SecretVault
  catalog: GroupCatalog
  activity: ActivityLog
  /** Every rotation is journaled here (and synced) before it is sent. */
  rotations: RotationJournal
  /** Where a rotated token that could not be recorded is written for the operator (owner-only). */
  recoveryDir: string
  now?: () => Date
  /** Replaced in tests that need a client with a shorter timeout or a hostile server. */
  createClient?: (connection: Connection) => UserApiClient
  /** Team mode (a data folder joined to a team): the hooks while joined, null otherwise. */
  team?: () => TeamHooks | null
}

/** How a connection test that failed is told: the token refused, the server unreachable, or something else. */
const connectionOutcome = (code: string, status: number | undefined): ConnectionTest['outcome'] =>
  status === 401 || status === 403
    ? 'token_refused'
    : ['connect_failed', 'dns_failed', 'tls_failed', 'timeout'].includes(code)
      ? 'unreachable'
      : 'unexpected'

/**
 * Every /api/user call the app makes, from the UI or the CLI: picks the profile's connection out
 * of the vault, calls the client (callUserApi: secrets refused, rotations journaled first,
 * failures recorded), and records an answer (createGroupRecording) in the activity log and the
 * catalog, with the group's token kept in the vault beside the profile's own. Deferred records
 * wait in `waiting` until their batch is written.
 */
export function createGroupService(deps: GroupServiceDeps) {
  const { db, profiles, vault, catalog, activity, rotations } = deps
  const now = deps.now ?? (() => new Date())
  const team = () => deps.team?.() ?? null
  const waiting = createRecordsWaiting({ vault, catalog })
  const callDeps: GroupCallDeps = {
    db,
    profiles,
    vault,
    activity,
    rotations,
    team,
    now,
    createClient: deps.createClient ?? ((connection: Connection) => createUserApiClient(connection)),
  }
  const call = <T>(plan: CallPlan<T>) => callUserApi(callDeps, plan)
  const { remember } = createGroupRecording({
    db,
    profiles,
    vault,
    catalog,
    activity,
    rotations,
    team,
    waiting,
    recoveryDir: deps.recoveryDir,
    now,
  })

  /** The one rule for which profile a call means: the one it names, else the active one, else none. */
  const profileNamedOrActive = (profileId: string | undefined): string | null => profileId ?? profiles.activeId()

  /** A call that sends needs a profile that exists; the sentence says where to choose one. */
  const profileToSendThrough = (profileId: string | undefined): Profile => {
    const id = profileNamedOrActive(profileId)
    if (!id) throw new AppErrorException('refused', 'No connection profile is active. Choose one on the Profiles screen.')
    return profiles.get(id)
  }

  /** Every record waiting is written: for what reads the vault, the catalog or the log as a whole. */
  const recordsWritten = () => db.flush()

  const service = {
    /** For reading the catalog: the profile the query means, or null with none active (an empty list, no error). */
    profileNamedOrActive,

    async getOrCreate(profileId: string | undefined, request: GetOrCreateRequest, options: CallOptions = {}): Promise<GroupCallResult> {
      const profile = profileToSendThrough(profileId)
      const id = profile.id
      // Read before the call only where it is needed: to tell whether a mapping given was applied
      // (the answer never returns one), and for a deferred record's warnings.
      const before =
        request.mapping !== undefined || options.deferred ? { entry: waiting.catalogEntry(id, request.user_group_id) } : undefined
      const called = await call({
        operation: 'getOrCreate',
        profile,
        groupId: request.user_group_id,
        secrets: waiting.knownGroupToken(id, request.user_group_id),
        request,
        options,
        send: (client) => client.getOrCreate(request),
      })
      // An existing group comes back unchanged: what was typed was not applied, so neither the
      // catalog nor the operator may take it as the group's.
      const existing = called.result.value.new_user_group === false
      const notApplied = existing ? fieldsNotApplied(request, called.result.value.user_group, before?.entry?.mapping) : []
      const remembered = await remember(called, {
        sent: existing ? undefined : request,
        rotated: false,
        options,
        callWarnings: notApplied.length ? [notAppliedWarning(request.user_group_id, notApplied)] : [],
        ...(before ? { before } : {}),
      })
      return notApplied.length ? { ...remembered, notApplied } : remembered
    },

    async update(profileId: string | undefined, request: UpdateRequest, options: CallOptions = {}): Promise<GroupCallResult> {
      const profile = profileToSendThrough(profileId)
      const called = await call({
        operation: 'update',
        profile,
        groupId: request.user_group_id,
        secrets: waiting.knownGroupToken(profile.id, request.user_group_id),
        request,
        options,
        send: (client) => client.update(request),
      })
      return remember(called, { sent: request, rotated: false, options })
    },

    /** Never retried: a lost answer comes back as `outcome_unknown` and is logged as such. */
    async rotateToken(profileId: string | undefined, source: RotationSource, options: CallOptions = {}): Promise<GroupCallResult> {
      recordsWritten()
      const profile = profileToSendThrough(profileId)
      const id = profile.id
      const currentToken = source.kind === 'token' ? source.currentToken : vault.get(groupTokenKey(id, source.groupId))
      if (!currentToken) {
        throw new AppErrorException(
          'refused',
          `No token is kept for group “${source.kind === 'catalog' ? source.groupId : ''}”. Paste its current token instead.`,
        )
      }
      const groupId = source.kind === 'catalog' ? source.groupId : undefined
      const request = { current_token: currentToken }
      const called = await call({
        operation: 'rotateToken',
        profile,
        groupId,
        secrets: [currentToken],
        request,
        options,
        send: (client) => client.rotateToken(request),
        rotation: { groupId: groupId ?? null, sentToken: currentToken },
      })
      return remember(called, { rotated: true, options })
    },

    /** "Check now" on a rotation whose answer was lost: a fetch of its group settles it (see checkRotation). */
    async checkRotation(activityId: string): Promise<RotationCheck> {
      recordsWritten()
      return checkRotation(activityId, {
        activity,
        catalog,
        rotations,
        fetchGroup: (profileId, groupId) => service.getOrCreate(profileId, { user_group_id: groupId }),
      })
    },

    /** Whether the vault still holds this group's token (a rotation from the catalog needs it). */
    tokenKept(profileId: string, groupId: string): boolean {
      recordsWritten()
      return vault.has(groupTokenKey(profileId, groupId))
    },

    /** The groups of this profile whose token is kept for this session only (not in the database). */
    sessionGroupIds(profileId: string): string[] {
      recordsWritten()
      return vault.sessionKeys().flatMap((key) => groupIdOfTokenKey(profileId, key) ?? [])
    },

    async revealToken(profileId: string | undefined, groupId: string): Promise<string> {
      recordsWritten()
      const id = profileToSendThrough(profileId).id
      const token = vault.get(groupTokenKey(id, groupId))
      if (!token) throw new AppErrorException('not_found', `No token is kept for group “${groupId}” in this profile.`)
      return token
    },

    async testConnection(profileId: string): Promise<ConnectionTest> {
      const started = performance.now()
      try {
        const {
          result: check,
          entry,
          keptExchange,
        } = await call({
          operation: 'testConnection',
          profile: profiles.get(profileId),
          secrets: [],
          request: undefined,
          options: {},
          send: async (client) => {
            const { status, durationMs } = await checkConnection(client)
            return { value: null, raw: null, status, durationMs }
          },
        })
        activity.append(entry, keptExchange())
        return {
          outcome: 'ok',
          message: 'Connected: the API answered and accepted the token.',
          httpStatus: check.status,
          durationMs: check.durationMs,
        }
      } catch (error) {
        const failure = error as AppErrorException
        const status = (failure.details as { status?: number } | undefined)?.status
        return {
          outcome: connectionOutcome(failure.code, status),
          message: failure.message,
          durationMs: performance.now() - started,
          ...(status ? { httpStatus: status } : {}),
        }
      }
    },
  }
  return service
}

export type GroupService = ReturnType<typeof createGroupService>
