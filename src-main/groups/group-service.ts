import { randomUUID } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ActivityEntry, ApiOperation } from '../../src-shared/activity/schemas'
import type { CatalogEntry } from '../../src-shared/catalog/schemas'
import { messageOf } from '../../src-shared/ipc/error-message'
import type { ConnectionTest, GroupCallResult, RotationCheck, RotationSource } from '../../src-shared/ipc/group-calls'
import { AppErrorException } from '../../src-shared/ipc/result'
import { environmentMismatch, environmentMismatchWarning } from '../../src-shared/profiles/environment'
import { type Profile, type TokenStorage, visibleTail } from '../../src-shared/profiles/schemas'
import type { GetOrCreateRequest, Mapping, Properties, UpdateRequest, UserGroup } from '../../src-shared/user-api/schemas'
import type { ActivityLog } from '../activity/activity-log'
import type { GroupCatalog } from '../catalog/group-catalog'
import type { Connection, ProfileStore } from '../profiles/profile-store'
import type { SecretVault } from '../profiles/vault'
import { groupIdOfTokenKey, groupTokenKey, MIN_SEARCHED_GROUP_TOKEN_LENGTH, profileTokenKey } from '../profiles/vault-keys'
import { writeFileAtomically } from '../storage/atomic-write'
import type { Database } from '../storage/database'
import { createUserApiClient, type UserApiCallResult, type UserApiClient } from '../user-api/client'
import { checkConnection } from '../user-api/connection-check'
import { createRedactor, type Redactor, redactReturnedTokens, redactSuccess } from '../user-api/redact'
import { fieldsNotApplied, notAppliedWarning } from './not-applied'
import type { RotationJournal, SettledRotation } from './rotation-journal'
import { secretInRequest, secretInRequestSentence } from './secrets-in-request'

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

/** A rotation about to be journaled, as the team's claim sees it. */
export interface TeamRotation {
  /** Its activity entry's id: the claim's id, settled when that entry reaches the team. */
  id: string
  profileId: string
  groupId: string | null
  sentToken: string
  timeoutMs: number
  run?: { runId: string; seq: number }
}

/** A call as recorded here (in the transaction that records it), for the team's audit log and catalog. */
export interface TeamRecordedCall {
  entry: ActivityEntry
  /** The group as answered (its token is only fingerprinted, never passed on). */
  group?: UserGroup
  newUserGroup?: boolean
  /** What the call sent that the answer does not echo (mapping), already scrubbed of secrets. */
  sent?: { mapping?: Mapping; properties?: Properties }
  settled?: readonly SettledRotation[]
}

/**
 * Team mode, as the group service meets it: a rotation claims its group across machines before
 * it is journaled (online: refused with a sentence naming who holds or rotated it, or while the
 * team database is away), and every recorded call is queued for the team in the transaction that
 * records it.
 */
export interface TeamHooks {
  /** The claim, with its release for when nothing was sent after all. */
  claimRotation(rotation: TeamRotation): Promise<{ release(): Promise<void> }>
  /** Synchronous: runs inside the recording transaction. */
  recorded(call: TeamRecordedCall): void
}

/** What a call came to, as handed to `CallOptions.settle`. */
export type CallSettlement = { ok: true; result: GroupCallResult } | { ok: false; error: AppErrorException }

/** Per-call overrides of the profile's settings (the CLI's --timeout), and a hook for bulk runs. */
export interface CallOptions {
  timeoutMs?: number
  /**
   * Runs inside the transaction that records the call (activity entry, token, catalog row), so
   * whatever it writes (a bulk run's journal) commits with them or not at all. Synchronous.
   */
  settle?: (settlement: CallSettlement) => void
  /**
   * A rotation of a bulk run's row: runs inside the durable transaction that journals the
   * rotation before it is sent (the run claims its row there, fenced on its lease, and throws if
   * it lost it: then nothing is sent).
   */
  claim?: () => void
  run?: { runId: string; seq: number }
  /**
   * The call's record (activity entry, token, catalog row) follows its answer, written in a batch
   * with the records of the calls around it (Database.defer): for get-or-create and update, which
   * are idempotent, so a record lost with the process is one the operator or a resumed run asks
   * again harmlessly. Never a rotation's, which is journaled before it is sent. `settle` is then
   * called as the answer comes, outside any transaction; what it defers joins the batch.
   */
  deferred?: boolean
}

/** A rotation about to be sent: journaled first (see RotationJournal). */
interface RotationToSend {
  groupId: string | null
  sentToken: string
}

/** A call that answered: its result, its activity entry, and the bodies the log keeps (redacted). */
interface Called<T> {
  result: UserApiCallResult<T>
  entry: ActivityEntry
  exchange: { request: unknown; response: unknown }
  /** The profile as the call read it, with its API token: `remember` needs no second look. */
  profile: Profile
  apiToken: string
  /** The group's token as the vault kept it before the call (for `groupId`), to scrub from the answer. */
  known: { groupId: string | undefined; tokens: string[] }
}

type GroupResponse = { user_group: UserGroup; new_user_group?: boolean }

/**
 * Every /api/user call the app makes, from the UI or the CLI: picks the profile's connection out
 * of the vault, calls the client, and records what happened in the activity log and the catalog,
 * with the group's token kept in the vault beside the profile's own.
 */
export function createGroupService(deps: GroupServiceDeps) {
  const { db, profiles, vault, catalog, activity, rotations } = deps
  const now = deps.now ?? (() => new Date())
  const createClient = deps.createClient ?? ((connection: Connection) => createUserApiClient(connection))

  /** The one rule for which profile a call means: the one it names, else the active one, else none. */
  const profileNamedOrActive = (profileId: string | undefined): string | null => profileId ?? profiles.activeId()

  /** A call that sends needs a profile that exists; the sentence says where to choose one. */
  const profileOrActive = (profileId: string | undefined): Profile => {
    const id = profileNamedOrActive(profileId)
    if (!id) throw new AppErrorException('refused', 'No connection profile is active. Choose one on the Profiles screen.')
    return profiles.get(id)
  }

  /** Group tokens are kept where the operator keeps this profile's API token (session if none). */
  const groupTokenStorage = (profileId: string): TokenStorage => {
    const storage = vault.describe(profileTokenKey(profileId)).storage
    return storage === 'none' ? 'session' : storage
  }

  /**
   * Runs one call. A failure is logged here, with the body sent and the one that came back (with
   * `settle`, in one transaction); a success is handed back with its activity entry, which
   * `remember` writes with the token and catalog row. Secrets known to this call (the API token
   * and any group token sent) are scrubbed from what the log keeps, whatever the error carried,
   * and so is every token the answer issued.
   */
  async function call<T>(
    operation: ApiOperation,
    profile: Profile,
    groupId: string | undefined,
    secrets: string[],
    options: CallOptions,
    request: unknown,
    run: (client: UserApiClient) => Promise<UserApiCallResult<T>>,
    rotation?: RotationToSend,
  ): Promise<Called<T>> {
    const profileId = profile.id
    // Before anything is journaled, sent or logged: a kept secret in a group's fields never leaves.
    const secret = secretInRequest(request, vault.knownSecrets(), (id) => profiles.nameOf(id))
    if (secret) throw new AppErrorException('refused', secretInRequestSentence(secret), { field: secret.field })
    const startedAt = now()
    const started = performance.now()
    const requestedName = (request as { name?: unknown } | undefined)?.name
    const base = {
      id: randomUUID(),
      time: startedAt.toISOString(),
      profileId,
      profileName: profile.name,
      operation,
      ...(groupId ? { groupId } : {}),
      ...(typeof requestedName === 'string' && requestedName ? { groupName: requestedName } : {}),
    }
    // Built once the API token is known; until then (a profile with no token) only the call's own secrets.
    let redact: Redactor | undefined
    const scrub: Redactor = (value) => (redact ??= createRedactor(secrets, vault.knownSecrets))(value)
    const kept = (body: unknown) => redactReturnedTokens(scrub(body))
    let journaled = false
    try {
      const connection = await profiles.resolveConnection(profileId, profile)
      redact = createRedactor([connection.apiToken, ...secrets], vault.knownSecrets)
      const timeoutMs = options.timeoutMs ?? connection.timeoutMs
      if (rotation) {
        // Team mode: no other machine rotates the group from here on (refused otherwise, before anything is journaled).
        const team = deps.team?.()
        let teamClaim: { release(): Promise<void> } | undefined
        if (team) {
          rotations.assertNoneUnsettled(profileId, rotation.groupId, rotation.sentToken)
          teamClaim = await team.claimRotation({
            id: base.id,
            profileId,
            ...rotation,
            timeoutMs,
            ...(options.run ? { run: options.run } : {}),
          })
        }
        // On the disk before the request leaves: a crash from here on can never send it again.
        try {
          db.transaction(
            () => {
              rotations.assertNoneUnsettled(profileId, rotation.groupId, rotation.sentToken)
              options.claim?.()
              rotations.begin({ id: base.id, profileId, ...rotation, ...(options.run ? { run: options.run } : {}), timeoutMs })
            },
            { durable: true },
          )
        } catch (error) {
          await teamClaim?.release()
          throw error
        }
        journaled = true
      }
      const result = await run(createClient({ ...connection, timeoutMs }))
      return {
        result,
        entry: { ...base, outcome: 'success', httpStatus: result.status, durationMs: result.durationMs },
        exchange: { request: kept(request), response: kept(result.raw ?? undefined) },
        profile,
        apiToken: connection.apiToken,
        known: { groupId, tokens: rotation ? [] : secrets },
      }
    } catch (error) {
      const failure =
        error instanceof AppErrorException
          ? error
          : new AppErrorException('internal', `The call failed unexpectedly: ${(error as Error).message}`)
      const status = (failure.details as { status?: unknown } | undefined)?.status
      const entry: ActivityEntry = scrub({
        ...base,
        outcome: failure.code === 'outcome_unknown' ? 'unknown' : 'failure',
        errorCode: failure.code,
        message: failure.message,
        durationMs: performance.now() - started,
        ...(typeof status === 'number' ? { httpStatus: status } : {}),
      })
      const details =
        journaled && failure.code === 'outcome_unknown'
          ? { ...(failure.details as object | undefined), activityId: base.id }
          : failure.details
      const redacted = new AppErrorException(failure.code, scrub(failure.message), scrub(details))
      // Refused before anything was journaled or sent (another rotation unsettled, a lost lease):
      // nothing happened, so nothing is logged as if it had.
      if (rotation && !journaled) throw redacted
      const record = () => {
        activity.append(entry, { request: kept(request), response: kept(failure.details) })
        deps.team?.()?.recorded({ entry })
        if (journaled) {
          if (failure.code === 'outcome_unknown') rotations.lost(base.id)
          else rotations.answered(base.id)
        }
      }
      if (options.deferred && !rotation)
        db.deferTogether(() => {
          options.settle?.({ ok: false, error: redacted })
          db.defer(record)
        })
      else
        db.transaction(() => {
          record()
          options.settle?.({ ok: false, error: redacted })
        })
      throw redacted
    }
  }

  /**
   * What the records waiting for their batch will write of a group (its token, the mapping last
   * sent), by its token key: what a call on the same group reads before the batch is written.
   */
  const waiting = new Map<string, { token: string; mapping?: Mapping }>()

  /** The group's token as the vault keeps it (or a record waiting will), if any: a secret to scrub from what the server says. */
  const knownGroupToken = (profileId: string, groupId: string): string[] => {
    const key = groupTokenKey(profileId, groupId)
    const token = waiting.get(key)?.token ?? vault.get(key)
    return token ? [token] : []
  }

  /** The group as the catalog has it, with what a record waiting for its batch will write over it. */
  const catalogEntry = (profileId: string, groupId: string) => {
    const entry = catalog.get(profileId, groupId)
    const mapping = waiting.get(groupTokenKey(profileId, groupId))?.mapping
    return mapping !== undefined && entry ? { ...entry, mapping } : entry
  }

  /** Every record waiting is written: for what reads the vault, the catalog or the log as a whole. */
  const recordsWritten = () => db.flush()

  /**
   * The call's activity entry, the group's token and its catalog row, in one transaction, with
   * what the operator should know: the catalog's warnings, `callWarnings` from the caller, and
   * where the server put the group when the profile's kind says otherwise (the server's word,
   * remembered on the profile). A fetch that found the group settles its unknown rotations there
   * too (its token is the server's word); a rotation's journal entry is closed there. A rotation
   * whose recording fails (a full disk) still hands its new token back, once, with a recovery
   * file where one could be written: the server has the token, and this answer may be the only
   * other copy.
   */
  async function remember(
    { result: answered, entry, exchange, profile, apiToken, known }: Called<GroupResponse>,
    sent: { mapping?: Mapping; properties?: Properties } | undefined,
    rotated: boolean,
    options: CallOptions,
    callWarnings: string[] = [],
    /** The group's catalog entry as the caller read it before the call, when it did. */
    before?: { entry: CatalogEntry | undefined },
  ): Promise<GroupCallResult> {
    // The client has redacted the API token and the token it rotated; the group tokens this
    // service knows go too, wherever the server echoed them: the group's token as kept before
    // the call and as received. Only `user_group.token` keeps the received one (redactSuccess).
    const profileId = profile.id
    const answeredId = answered.value.user_group.provided_id
    const knownBefore = known.groupId === answeredId ? known.tokens : knownGroupToken(profileId, answeredId)
    const groupSecrets = [...knownBefore, answered.value.user_group.token].filter(
      (secret) => secret.length >= MIN_SEARCHED_GROUP_TOKEN_LENGTH,
    )
    // One redactor for what is kept of the call: the answer, the exchange and what the operator
    // sent (mapping, properties), which may hold the API token too.
    const scrub = createRedactor([apiToken, ...groupSecrets], vault.knownSecrets)
    const result = { ...answered, ...redactSuccess(answered, scrub) }
    const group = result.value.user_group
    const mismatch = environmentMismatch(profile.environmentKind, group.api_environment_tag)
    const answer: GroupCallResult = {
      profileId,
      group,
      ...(result.value.new_user_group !== undefined ? { newUserGroup: result.value.new_user_group } : {}),
      raw: result.raw,
      httpStatus: result.status,
      durationMs: result.durationMs,
      warnings: [],
      ...(mismatch ? { environmentMismatch: mismatch } : {}),
    }
    const mismatchWarnings = mismatch ? [environmentMismatchWarning(profile.name, mismatch)] : []
    const tokenKey = groupTokenKey(profileId, group.provided_id)
    const existing = result.value.new_user_group === false

    /** The record: token, catalog row, the rotations a fetch settles, the activity entry and the team's copy. */
    const write = (known?: { warnings: string[] }) => {
      // A group fetched again answers the token kept already: kept where it should be, it is not written again.
      const storage = groupTokenStorage(profileId)
      if (!knownBefore.includes(group.token) || vault.describe(tokenKey).storage !== storage) vault.set(tokenKey, group.token, storage)
      const recorded = catalog.record({ profileId, group, sent: scrub(sent), tokenLast4: visibleTail(group.token), rotated, at: now() })
      // The profile as the call read it already says so: nothing to note.
      if (group.api_environment_tag && profile.serverEnvironment !== group.api_environment_tag)
        profiles.noteServerEnvironment(profileId, group.api_environment_tag)
      const settled = existing ? rotations.settle(profileId, group.provided_id, group.token) : []
      const warnings = known?.warnings ?? [...mismatchWarnings, ...settled.map(settledWarning), ...callWarnings, ...recorded.warnings]
      const name = group.name ?? entry.groupName
      const logged = scrub({ ...entry, ...(name ? { groupName: name } : {}), ...(warnings.length ? { warnings } : {}) })
      activity.append(logged, scrub(exchange))
      deps.team?.()?.recorded({ entry: logged, group, newUserGroup: result.value.new_user_group, sent: scrub(sent), settled })
      if (rotated) rotations.answered(entry.id)
      return { warnings, settled }
    }

    // The answer first, the record in the next batch: unless a fetch has rotations of the group to settle, whose outcome it answers.
    if (options.deferred && !rotated && !(existing && rotations.unsettled(profileId, group.provided_id).length)) {
      const previous = before && known.groupId === group.provided_id ? before.entry : catalogEntry(profileId, group.provided_id)
      const warnings = [...mismatchWarnings, ...callWarnings, ...catalog.changeWarnings(previous, group)]
      const done: GroupCallResult = { ...answer, warnings }
      const waits = { token: group.token, ...(sent?.mapping !== undefined ? { mapping: sent.mapping } : {}) }
      waiting.set(tokenKey, waits)
      // One work for the batch: the record and what `settle` defers (a bulk run's journal row), atomic together.
      db.deferTogether(() => {
        options.settle?.({ ok: true, result: done })
        db.defer(() => {
          if (waiting.get(tokenKey) === waits) waiting.delete(tokenKey)
          write({ warnings })
        })
      })
      return done
    }
    try {
      // A rotated token is never stored without its catalog row, nor the reverse.
      return db.transaction(() => {
        const { warnings, settled } = write()
        const done: GroupCallResult = {
          ...answer,
          warnings,
          ...(settled.length ? { settledRotations: settled.map(({ id, outcome, at }) => ({ activityId: id, outcome, at })) } : {}),
        }
        options.settle?.({ ok: true, result: done })
        return done
      })
    } catch (error) {
      if (!rotated) throw error
      rotations.unrecorded(entry.id)
      const recoveryFile = await writeRecoveryFile(profileId, group.provided_id, group.token)
      const reason = messageOf(error)
      const warning =
        `The token was rotated, but it could not be saved (${reason}). Copy it now: the app has no other copy.` +
        (recoveryFile ? ` It was also written to ${recoveryFile} (owner-only): delete that file once the token is stored.` : '')
      return { ...answer, warnings: [warning, ...mismatchWarnings], unsaved: { recoveryFile } }
    }
  }

  const settledWarning = ({ outcome, at }: { outcome: 'rotated' | 'not_rotated'; at: string }) =>
    outcome === 'rotated'
      ? `An earlier rotation of this group whose answer was lost did happen: the server's new token is kept now (checked ${new Date(at).toLocaleTimeString('en-GB')}).`
      : `An earlier rotation of this group whose answer was lost did not happen: the old token still works (checked ${new Date(at).toLocaleTimeString('en-GB')}).`

  /** The only other copy of a rotated token the database could not take: the data folder, else the temp folder. */
  async function writeRecoveryFile(profileId: string, groupId: string, token: string): Promise<string | null> {
    const stamp = now().toISOString().replace(/[:.]/g, '-')
    const name = `${stamp}-${groupId.replace(/[^\w.-]+/g, '_').slice(0, 80)}.txt`
    const text = `Embed Console could not save this rotated token. Store it, then delete this file.\nprofile: ${profileId}\nuser_group_id: ${groupId}\ntoken: ${token}\n`
    for (const folder of [deps.recoveryDir, join(tmpdir(), `embed-console-recovered-${process.getuid?.() ?? 'user'}`)]) {
      try {
        await mkdir(folder, { recursive: true, mode: 0o700 })
        const file = join(folder, name)
        await writeFileAtomically(file, text, { mode: 0o600, forceMode: true })
        return file
      } catch {
        // That disk is full too: try the next place.
      }
    }
    return null
  }

  const service = {
    /** For reading the catalog: the profile the query means, or null with none active (an empty list, no error). */
    profileNamedOrActive,

    async getOrCreate(profileId: string | undefined, request: GetOrCreateRequest, options: CallOptions = {}): Promise<GroupCallResult> {
      const profile = profileOrActive(profileId)
      const id = profile.id
      const previous = catalogEntry(id, request.user_group_id)
      const called = await call(
        'getOrCreate',
        profile,
        request.user_group_id,
        knownGroupToken(id, request.user_group_id),
        options,
        request,
        (client) => client.getOrCreate(request),
      )
      // An existing group comes back unchanged: what was typed was not applied, so neither the
      // catalog nor the operator may take it as the group's.
      const existing = called.result.value.new_user_group === false
      const notApplied = existing ? fieldsNotApplied(request, called.result.value.user_group, previous?.mapping) : []
      const warnings = notApplied.length ? [notAppliedWarning(request.user_group_id, notApplied)] : []
      const remembered = await remember(called, existing ? undefined : request, false, options, warnings, { entry: previous })
      return notApplied.length ? { ...remembered, notApplied } : remembered
    },

    async update(profileId: string | undefined, request: UpdateRequest, options: CallOptions = {}): Promise<GroupCallResult> {
      const profile = profileOrActive(profileId)
      const called = await call(
        'update',
        profile,
        request.user_group_id,
        knownGroupToken(profile.id, request.user_group_id),
        options,
        request,
        (client) => client.update(request),
      )
      return remember(called, request, false, options)
    },

    /** Never retried: a lost answer comes back as `outcome_unknown` and is logged as such. */
    async rotateToken(profileId: string | undefined, source: RotationSource, options: CallOptions = {}): Promise<GroupCallResult> {
      recordsWritten()
      const profile = profileOrActive(profileId)
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
      const called = await call(
        'rotateToken',
        profile,
        groupId,
        [currentToken],
        options,
        request,
        (client) => client.rotateToken(request),
        {
          groupId: groupId ?? null,
          sentToken: currentToken,
        },
      )
      return remember(called, undefined, true, options)
    },

    /**
     * "Check now" on a rotation whose answer was lost: a get-or-create of its group, which
     * settles it (see remember). Only a group that existed can answer: one that get-or-create had
     * to create says nothing of the rotation, which stays unknown.
     */
    async checkRotation(activityId: string): Promise<RotationCheck> {
      recordsWritten()
      const entry = activity.get(activityId)
      if (!entry || entry.operation !== 'rotateToken')
        throw new AppErrorException('not_found', 'There is no rotation with this id in the activity log.')
      if (entry.settledOutcome && entry.settledAt)
        return {
          outcome: entry.settledOutcome,
          checkedAt: entry.settledAt,
          tokenLast4: catalog.get(entry.profileId, entry.groupId ?? '')?.tokenLast4 ?? null,
        }
      if (entry.outcome !== 'unknown')
        throw new AppErrorException('refused', 'The outcome of this rotation is known already: nothing to check.')
      if (!entry.groupId) {
        throw new AppErrorException(
          'refused',
          'This rotation was sent with a pasted token and named no group, so it cannot be checked here: fetch the group by its id (Get or create) and compare its token with the one you pasted.',
        )
      }
      if (!rotations.unsettled(entry.profileId, entry.groupId).some((earlier) => earlier.id === activityId)) {
        throw new AppErrorException(
          'refused',
          'This rotation was recorded before Embed Console kept what each rotation sent, so it cannot be checked: fetch the group to see its current token.',
        )
      }
      const fetched = await service.getOrCreate(entry.profileId, { user_group_id: entry.groupId })
      const settled = fetched.settledRotations?.find((item) => item.activityId === activityId)
      if (!settled)
        throw new AppErrorException(
          'refused',
          `The group “${entry.groupId}” did not exist any more: get-or-create made a new one, which says nothing of the rotation.`,
        )
      return { outcome: settled.outcome, checkedAt: settled.at, tokenLast4: visibleTail(fetched.group.token) ?? null }
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
      const id = profileOrActive(profileId).id
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
          exchange,
        } = await call('testConnection', profiles.get(profileId), undefined, [], {}, undefined, async (client) => {
          const { status, durationMs } = await checkConnection(client)
          return { value: null, raw: null, status, durationMs }
        })
        activity.append(entry, exchange)
        return {
          outcome: 'ok',
          message: 'Connected: the API answered and accepted the token.',
          httpStatus: check.status,
          durationMs: check.durationMs,
        }
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
  return service
}

export type GroupService = ReturnType<typeof createGroupService>
