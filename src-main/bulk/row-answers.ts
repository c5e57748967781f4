import type { BulkOutcome } from '../../src-shared/bulk/schemas'
import type { AppErrorException } from '../../src-shared/ipc/result'
import { visibleTail } from '../../src-shared/profiles/schemas'
import type { UserGroup } from '../../src-shared/user-api/schemas'
import type { ItemSettlement, JournalItem } from './bulk-journal'
import { rowDiffers } from './bulk-plan'

/*
 * What one answer means for its row: a final outcome to journal, another try after a wait (with
 * back-off), or an update to follow a get-or-create. Pure decisions: the row sender acts on them.
 */

/** What one request came back with. */
export interface SentGroup {
  group: UserGroup
  newUserGroup?: boolean
  httpStatus: number
  /** Set when the answer could not be recorded (a full disk): the run must stop. */
  unsaved?: string
}

export type SenderSettlement = { ok: true; sent: SentGroup } | { ok: false; error: AppErrorException }

/** Idempotent calls are tried this many times on a 5xx or a network failure. */
const MAX_ATTEMPTS = 4
/** A 429 is never a failure, but a server that refuses this often is not coming back. */
const MAX_RATE_LIMITED = 50
const MAX_BACKOFF_MS = 60_000

/** The call a row's attempt makes: an update follows a get-or-create that found other fields. */
export type RowCall = 'getOrCreate' | 'update' | 'rotate'

export const callFor = (item: JournalItem, followUp: boolean): RowCall =>
  followUp || item.action === 'update' ? 'update' : item.action === 'rotate' ? 'rotate' : 'getOrCreate'

/** The row's end, to journal. */
type Settle = { kind: 'settle'; settlement: ItemSettlement }
/** Another try after a wait: a 429 (every request waits) or a failure worth sending again. */
export type Retry = { kind: 'retry'; retryInMs: number; rateLimited: boolean }
/** The group was there with other fields: an update is sent next. */
type FollowUp = { kind: 'followUp' }

export const statusOf = (error: AppErrorException): number | undefined => {
  const status = (error.details as { status?: unknown } | undefined)?.status
  return typeof status === 'number' ? status : undefined
}

/** Retry-After in ms: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterMs(error: AppErrorException, now: number): number | undefined {
  const headers = (error.details as { headers?: Record<string, string> } | undefined)?.headers
  const value = headers?.['retry-after']?.trim()
  if (!value) return undefined
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** Worth sending again if the call is idempotent: the server failed, or the request may not have arrived. */
const isTransient = (error: AppErrorException) => {
  const status = statusOf(error)
  if (status !== undefined && status >= 500) return true
  return ['connect_failed', 'timeout', 'outcome_unknown'].includes(error.code) || (error.code === 'bad_response' && status === undefined)
}

/** The server is not there, or not well: what the circuit breaker counts (a 4xx is an answer). */
export const isServerDown = (error: AppErrorException) => isTransient(error) || error.code === 'dns_failed' || error.code === 'tls_failed'

/**
 * Failures that say nothing of the row: the run cannot go on here (it lost its lease, the disk is
 * full, the team database that must claim each rotation is away).
 */
export const stopsTheRun = (error: AppErrorException) =>
  error.code === 'lease_lost' || error.code === 'storage' || error.code === 'team_offline'

/** Team mode: another machine rotates (or rotated) this group; the refusal names who. Nothing was sent. */
const claimedElsewhere = (error: AppErrorException) =>
  error.code === 'conflict' && typeof (error.details as { claim?: unknown } | undefined)?.claim === 'object'

export interface FailureContext {
  action: JournalItem['action']
  /** This row's tries in this run, this one included. */
  tries: number
  /** Its attempts over every run, as the journal counts them. */
  attempts: number
  /** The 429s it met so far. */
  rateLimited: number
  now: () => number
  random: () => number
}

/** What a failure leads to: a wait and another try, or a final outcome. */
export function afterFailure(error: AppErrorException, context: FailureContext): Retry | Settle {
  const { action, tries, attempts, rateLimited, now, random } = context
  const status = statusOf(error)
  const base = { attempts, httpStatus: status ?? null, errorCode: error.code, message: error.message }
  const settle = (settlement: ItemSettlement): Settle => ({ kind: 'settle', settlement })
  if (status === 429 && rateLimited < MAX_RATE_LIMITED) {
    const asked = retryAfterMs(error, now()) ?? Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(rateLimited, 6))
    return { kind: 'retry', retryInMs: asked * (1 + 0.2 * random()), rateLimited: true }
  }
  if (action === 'rotate') {
    if (claimedElsewhere(error)) return settle({ ...base, state: 'skipped', outcome: 'skipped' })
    // Never sent twice: a lost answer is listed for the operator, never retried.
    return settle({
      ...base,
      state: error.code === 'outcome_unknown' ? 'unknown' : 'failed',
      outcome: error.code === 'outcome_unknown' ? 'unknown' : 'failed',
    })
  }
  if (isTransient(error) && tries < MAX_ATTEMPTS) {
    const backoff = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (tries - 1))
    return { kind: 'retry', retryInMs: backoff * (0.5 + random()), rateLimited: false }
  }
  return settle({ ...base, state: 'failed', outcome: 'failed' })
}

export interface SuccessContext {
  item: JournalItem
  call: RowCall
  /** Its attempts over every run, this one included. */
  attempts: number
  /** The row was claimed by an earlier run (a crash, a pause): a group found may be its own. */
  previouslyTried: boolean
  /** The mapping this app last sent for a group, when it knows it (asked only when needed). */
  knownMapping?: (groupId: string) => unknown
  /** The run sends an update where the group exists with other fields. */
  sendUpdate: boolean
}

/** What a success leads to: the row's outcome, or an update where the group was there with other fields. */
export function afterSuccess(sent: SentGroup, context: SuccessContext): Settle | FollowUp {
  const { item, call, attempts, previouslyTried } = context
  const tokenLast4 = visibleTail(sent.group.token) ?? null
  const finish = (outcome: BulkOutcome, message: string | null = null): Settle => ({
    kind: 'settle',
    settlement: { state: 'done', outcome, attempts, httpStatus: sent.httpStatus, tokenLast4, message },
  })
  if (call === 'rotate') return finish('rotated')
  if (call === 'update') return finish('updated')
  if (sent.newUserGroup !== false) return finish('created')
  // The group was there already. Sent before (after a crash, or a try whose answer was lost), it
  // may be this run's own: then it is counted created if it looks like the row.
  const mayBeOwn = previouslyTried || attempts > 1
  // The API shows no mapping: the one the group holds is known only from what this app last sent
  // (the catalog). Unknown, it may be the row's (the earlier try created the group) or another
  // (the group was there before this run): where updates are chosen the row's is sent, an update
  // being idempotent; where not, a group that may be the run's own is taken for the row's.
  const knownMapping = context.knownMapping?.(item.groupId)
  const takenForOwn = knownMapping === undefined && mayBeOwn && !context.sendUpdate
  const known = {
    name: sent.group.name,
    properties: sent.group.properties,
    mapping: takenForOwn ? item.request.mapping : knownMapping,
  }
  if (!rowDiffers(item.request, known)) return finish(mayBeOwn ? 'created' : 'unchanged')
  if (!context.sendUpdate) return finish('skipped', 'The group exists with other fields; updates were not chosen for this run.')
  return { kind: 'followUp' }
}
