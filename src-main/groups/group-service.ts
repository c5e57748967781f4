import { randomUUID } from 'node:crypto'
import type { ActivityEntry, ApiOperation } from '../../src-shared/activity/schemas'
import type { ConnectionTest, GroupCallResult, RotationSource } from '../../src-shared/ipc/group-calls'
import { AppErrorException } from '../../src-shared/ipc/result'
import { visibleTail, type TokenStorage } from '../../src-shared/profiles/schemas'
import type { GetOrCreateRequest, Mapping, Properties, UpdateRequest, UserGroup } from '../../src-shared/user-api/schemas'
import type { ActivityLog } from '../activity/activity-log'
import type { GroupCatalog } from '../catalog/group-catalog'
import type { Connection, ProfileStore } from '../profiles/profile-store'
import { fieldsNotApplied, notAppliedWarning } from './not-applied'
import type { SecretVault } from '../profiles/vault'
import type { Database } from '../storage/database'
import { groupIdOfTokenKey, groupTokenKey, profileTokenKey } from '../profiles/vault-keys'
import { createUserApiClient, type UserApiCallResult, type UserApiClient } from '../user-api/client'
import { checkConnection } from '../user-api/connection-check'
import { createRedactor, redactReturnedTokens } from '../user-api/redact'

export interface GroupServiceDeps {
  db: Database
  profiles: ProfileStore
  vault: SecretVault
  catalog: GroupCatalog
  activity: ActivityLog
  now?: () => Date
  /** Replaced in tests that need a client with a shorter timeout or a hostile server. */
  createClient?: (connection: Connection) => UserApiClient
}

/** Per-call overrides of the profile's settings (the CLI's --timeout). */
export interface CallOptions {
  timeoutMs?: number
}

type GroupResponse = { user_group: UserGroup; new_user_group?: boolean }

/**
 * Every /api/user call the app makes, from the UI or the CLI: picks the profile's connection out
 * of the vault, calls the client, and records what happened in the activity log and the catalog,
 * with the group's token kept in the vault beside the profile's own.
 */
export function createGroupService(deps: GroupServiceDeps) {
  const { db, profiles, vault, catalog, activity } = deps
  const now = deps.now ?? (() => new Date())
  const createClient =
    deps.createClient ??
    ((connection: Connection) => createUserApiClient({ baseUrl: connection.baseUrl, apiToken: connection.apiToken, timeoutMs: connection.timeoutMs }))

  const profileIdOrActive = (profileId: string | undefined): string => {
    const id = profileId ?? profiles.activeId()
    if (!id) throw new AppErrorException('refused', 'No connection profile is active. Choose one on the Profiles screen.')
    profiles.get(id)
    return id
  }

  /** Group tokens are kept where the operator keeps this profile's API token (session if none). */
  const groupTokenStorage = (profileId: string): TokenStorage => {
    const storage = vault.describe(profileTokenKey(profileId)).storage
    return storage === 'none' ? 'session' : storage
  }

  /**
   * Runs one call and logs it, success or not, with the body it sent and the one it got back.
   * Secrets known to this call (the API token and any group token sent) are scrubbed from what
   * the log keeps, whatever the error carried, and so is every token the answer issued.
   */
  async function logged<T>(
    operation: ApiOperation,
    profileId: string,
    groupId: string | undefined,
    secrets: string[],
    options: CallOptions,
    request: unknown,
    run: (client: UserApiClient) => Promise<UserApiCallResult<T>>,
  ): Promise<UserApiCallResult<T>> {
    const profile = profiles.get(profileId)
    const startedAt = now()
    const started = performance.now()
    const base = { id: randomUUID(), time: startedAt.toISOString(), profileId, profileName: profile.name, operation, ...(groupId ? { groupId } : {}) }
    let redact = createRedactor(secrets)
    const kept = (body: unknown) => redactReturnedTokens(redact(body))
    try {
      const connection = await profiles.resolveConnection(profileId)
      redact = createRedactor([connection.apiToken, ...secrets])
      const result = await run(createClient({ ...connection, ...options }))
      activity.append({ ...base, outcome: 'success', httpStatus: result.status, durationMs: result.durationMs }, { request: kept(request), response: kept(result.raw ?? undefined) })
      return result
    } catch (error) {
      const failure =
        error instanceof AppErrorException ? error : new AppErrorException('internal', `The call failed unexpectedly: ${(error as Error).message}`)
      const status = (failure.details as { status?: unknown } | undefined)?.status
      const entry: ActivityEntry = {
        ...base,
        outcome: failure.code === 'outcome_unknown' ? 'unknown' : 'failure',
        errorCode: failure.code,
        message: redact(failure.message),
        durationMs: performance.now() - started,
        ...(typeof status === 'number' ? { httpStatus: status } : {}),
      }
      activity.append(entry, { request: kept(request), response: kept(failure.details) })
      throw new AppErrorException(failure.code, redact(failure.message), redact(failure.details))
    }
  }

  async function remember(
    profileId: string,
    result: UserApiCallResult<GroupResponse>,
    sent: { mapping?: Mapping; properties?: Properties } | undefined,
    rotated: boolean,
  ): Promise<GroupCallResult> {
    const group = result.value.user_group
    // One transaction: a rotated token is never stored without its catalog row, nor the reverse.
    const { warnings } = db.transaction(() => {
      vault.set(groupTokenKey(profileId, group.provided_id), group.token, groupTokenStorage(profileId))
      return catalog.record({ profileId, group, sent, tokenLast4: visibleTail(group.token), rotated, at: now() })
    })
    return {
      profileId,
      group,
      ...(result.value.new_user_group !== undefined ? { newUserGroup: result.value.new_user_group } : {}),
      raw: result.raw,
      httpStatus: result.status,
      durationMs: result.durationMs,
      warnings,
    }
  }

  return {
    async getOrCreate(profileId: string | undefined, request: GetOrCreateRequest, options: CallOptions = {}): Promise<GroupCallResult> {
      const id = profileIdOrActive(profileId)
      const previous = catalog.get(id, request.user_group_id)
      const result = await logged('getOrCreate', id, request.user_group_id, [], options, request, (client) => client.getOrCreate(request))
      // An existing group comes back unchanged: what was typed was not applied, so neither the
      // catalog nor the operator may take it as the group's.
      const existing = result.value.new_user_group === false
      const remembered = await remember(id, result, existing ? undefined : request, false)
      if (!existing) return remembered
      const notApplied = fieldsNotApplied(request, result.value.user_group, previous?.mapping)
      if (notApplied.length === 0) return remembered
      return { ...remembered, notApplied, warnings: [notAppliedWarning(request.user_group_id, notApplied), ...remembered.warnings] }
    },

    async update(profileId: string | undefined, request: UpdateRequest, options: CallOptions = {}): Promise<GroupCallResult> {
      const id = profileIdOrActive(profileId)
      const result = await logged('update', id, request.user_group_id, [], options, request, (client) => client.update(request))
      return remember(id, result, request, false)
    },

    /** Never retried: a lost answer comes back as `outcome_unknown` and is logged as such. */
    async rotateToken(profileId: string | undefined, source: RotationSource, options: CallOptions = {}): Promise<GroupCallResult> {
      const id = profileIdOrActive(profileId)
      const currentToken = source.kind === 'token' ? source.currentToken : vault.get(groupTokenKey(id, source.groupId))
      if (!currentToken) {
        throw new AppErrorException('refused', `No token is kept for group “${source.kind === 'catalog' ? source.groupId : ''}”. Paste its current token instead.`)
      }
      const groupId = source.kind === 'catalog' ? source.groupId : undefined
      const request = { current_token: currentToken }
      const result = await logged('rotateToken', id, groupId, [currentToken], options, request, (client) => client.rotateToken(request))
      return remember(id, result, undefined, true)
    },

    /** Whether the vault still holds this group's token (a rotation from the catalog needs it). */
    tokenKept(profileId: string, groupId: string): boolean {
      return vault.has(groupTokenKey(profileId, groupId))
    },

    /** The groups of this profile whose token is kept for this session only (not in the database). */
    sessionGroupIds(profileId: string): string[] {
      return vault.sessionKeys().flatMap((key) => groupIdOfTokenKey(profileId, key) ?? [])
    },

    async revealToken(profileId: string | undefined, groupId: string): Promise<string> {
      const id = profileIdOrActive(profileId)
      const token = vault.get(groupTokenKey(id, groupId))
      if (!token) throw new AppErrorException('not_found', `No token is kept for group “${groupId}” in this profile.`)
      return token
    },

    async testConnection(profileId: string): Promise<ConnectionTest> {
      const started = performance.now()
      try {
        const check = await logged('testConnection', profileId, undefined, [], {}, undefined, async (client) => {
          const { status, durationMs } = await checkConnection(client)
          return { value: null, raw: null, status, durationMs }
        })
        return { outcome: 'ok', message: 'Connected: the API answered and accepted the token.', httpStatus: check.status, durationMs: check.durationMs }
      } catch (error) {
        const failure = error as AppErrorException
        const status = (failure.details as { status?: number } | undefined)?.status
        const outcome =
          status === 401 || status === 403
            ? 'token_refused'
            : ['connect_failed', 'dns_failed', 'tls_failed', 'timeout'].includes(failure.code)
              ? 'unreachable'
              : 'unexpected'
        return { outcome, message: failure.message, durationMs: performance.now() - started, ...(status ? { httpStatus: status } : {}) }
      }
    },
  }
}

export type GroupService = ReturnType<typeof createGroupService>
