import { randomUUID } from 'node:crypto'
import type { ActivityEntry, ApiOperation } from '../../src-shared/activity/schemas'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { Profile } from '../../src-shared/profiles/schemas'
import type { Connection, ProfileStore } from '../profiles/profile-store'
import type { SecretVault } from '../profiles/vault'
import type { UserApiCallResult, UserApiClient } from '../user-api/client'
import { type CallFailureDeps, type EntryBase, recordFailedCall, type RotationStage } from './call-failure'
import type { CallOptions } from './call-options'
import { createCallScrubber } from './call-redaction'
import { journalBeforeSending, type RotationToSend } from './journal-before-send'
import { secretInRequest, secretInRequestSentence } from './secrets-in-request'

/** One call to /api/user, as a method of the group service describes it. */
export interface CallPlan<T> {
  operation: ApiOperation
  /** The profile as the method read it: the connection is resolved from it. */
  profile: Profile
  /** The group the call names (its activity entry's `groupId`), when it names one. */
  groupId?: string
  /** Group tokens known to this call (the one it sends, the one kept for its group): scrubbed from all that is kept. */
  secrets: string[]
  /** The body sent: searched for kept secrets before anything else, kept in the log redacted. */
  request: unknown
  options: CallOptions
  send: (client: UserApiClient) => Promise<UserApiCallResult<T>>
  /** A rotation: claimed and journaled before it is sent (see journalBeforeSending). */
  rotation?: RotationToSend
}

/** A call that answered: its result, its activity entry, and the bodies the log keeps (redacted). */
export interface Called<T> {
  result: UserApiCallResult<T>
  entry: ActivityEntry
  /**
   * The bodies as the log keeps them, redacted when asked: asked in the transaction that records
   * them, the vault's look for what it knows is the one that transaction makes already.
   */
  keptExchange(): { request: unknown; response: unknown }
  /** The profile as the call read it, with its API token: recording the answer needs no second look. */
  profile: Profile
  apiToken: string
  /** The group's token as the vault kept it before the call (for `groupId`), to scrub from the answer. */
  known: { groupId: string | undefined; tokens: string[] }
}

export interface GroupCallDeps extends CallFailureDeps {
  profiles: ProfileStore
  vault: SecretVault
  now: () => Date
  createClient: (connection: Connection) => UserApiClient
}

/** What the activity entry says of the call from its start: the name is the one requested, until an answer names the group. */
function entryBase({ operation, profile, groupId, request }: CallPlan<unknown>, startedAt: Date): EntryBase {
  const requestedName = (request as { name?: unknown } | undefined)?.name
  return {
    id: randomUUID(),
    time: startedAt.toISOString(),
    profileId: profile.id,
    profileName: profile.name,
    operation,
    ...(groupId ? { groupId } : {}),
    ...(typeof requestedName === 'string' && requestedName ? { groupName: requestedName } : {}),
  }
}

/**
 * Runs one call: refuses a request that carries a kept secret, resolves the profile's
 * connection, journals a rotation before it is sent, and sends. A failure is recorded here
 * (recordFailedCall) and thrown redacted; a success is handed back with its activity entry and
 * the exchange to keep, for the caller to record with the group's token and catalog row. Secrets
 * known to the call (the API token and any group token sent) are scrubbed from what the log
 * keeps, and so is every token the answer issued.
 */
export async function callUserApi<T>(deps: GroupCallDeps, plan: CallPlan<T>): Promise<Called<T>> {
  const { profiles, vault, now, createClient } = deps
  const { profile, groupId, secrets, request, options, send, rotation } = plan
  // Before anything is journaled, sent or logged: a kept secret in a group's fields never leaves.
  const secret = secretInRequest(request, vault.knownSecrets(), (id) => profiles.nameOf(id))
  if (secret) throw new AppErrorException('refused', secretInRequestSentence(secret), { field: secret.field })
  const startedAt = now()
  const started = performance.now()
  const base = entryBase(plan, startedAt)
  const scrubber = createCallScrubber(secrets, vault.knownSecrets)
  let stage: RotationStage = rotation ? 'not journaled' : 'not a rotation'
  try {
    const connection = await profiles.resolveConnection(profile.id, profile)
    scrubber.knowApiToken(connection.apiToken)
    const timeoutMs = options.timeoutMs ?? connection.timeoutMs
    if (rotation) {
      const intent = { id: base.id, profileId: profile.id, ...rotation, timeoutMs, ...(options.run ? { run: options.run } : {}) }
      await journalBeforeSending({ db: deps.db, rotations: deps.rotations, team: deps.team(), intent, claimRow: options.claim })
      stage = 'journaled'
    }
    const result = await send(createClient({ ...connection, timeoutMs }))
    return {
      result,
      entry: { ...base, outcome: 'success', httpStatus: result.status, durationMs: result.durationMs },
      keptExchange() {
        // Both bodies in one pass: the vault is asked what it knows once.
        const [keptRequest, keptResponse] = scrubber.kept([request, result.raw ?? undefined]) as [unknown, unknown]
        return { request: keptRequest, response: keptResponse }
      },
      profile,
      apiToken: connection.apiToken,
      known: { groupId, tokens: rotation ? [] : secrets },
    }
  } catch (error) {
    throw recordFailedCall(deps, { error, base, started, request, scrubber, stage, options })
  }
}
