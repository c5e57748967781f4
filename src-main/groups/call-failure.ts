import type { ActivityEntry } from '../../src-shared/activity/schemas'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { ActivityLog } from '../activity/activity-log'
import type { Database } from '../storage/database'
import type { CallOptions } from './call-options'
import type { CallScrubber } from './call-redaction'
import type { RotationJournal } from './rotation-journal'
import type { CurrentTeamHooks } from './team-hooks'

/** The activity entry as a call begins it: what was asked, of which profile, whatever it comes to. */
export type EntryBase = Pick<ActivityEntry, 'id' | 'time' | 'profileId' | 'profileName' | 'operation' | 'groupId' | 'groupName'>

/**
 * Where a call stands with the rotation journal, which decides what its failure records:
 * - 'not a rotation': the failure is logged (in the next batch, for a deferred call);
 * - 'not journaled': a rotation that failed before it was journaled, so before anything was sent
 *   (another rotation unsettled, a claim refused, a lost lease, no API token): nothing happened,
 *   so nothing is logged as if it had;
 * - 'journaled': the request may have left, so the failure is logged and closes the journal
 *   entry in one transaction: lost (outcome unknown, to be settled by a fetch) or answered.
 */
export type RotationStage = 'not a rotation' | 'not journaled' | 'journaled'

export interface CallFailureDeps {
  db: Database
  activity: ActivityLog
  rotations: RotationJournal
  team: CurrentTeamHooks
}

export interface FailedCall {
  error: unknown
  base: EntryBase
  /** `performance.now()` as the call began: the entry's duration runs from it. */
  started: number
  /** The body the call sent (or was to send), kept in the log redacted. */
  request: unknown
  scrubber: CallScrubber
  stage: RotationStage
  options: Pick<CallOptions, 'settle' | 'deferred'>
}

const asAppError = (error: unknown): AppErrorException =>
  error instanceof AppErrorException
    ? error
    : new AppErrorException('internal', `The call failed unexpectedly: ${(error as Error).message}`)

/**
 * Records a failed call as its stage says (with `settle`, in the same transaction or batch) and
 * returns the error to throw, scrubbed of every secret known to the call whatever the error
 * carried. The log keeps the body sent and the one that came back, redacted too.
 */
export function recordFailedCall(
  { db, activity, rotations, team }: CallFailureDeps,
  { error, base, started, request, scrubber, stage, options }: FailedCall,
): AppErrorException {
  const { scrub, kept } = scrubber
  const failure = asAppError(error)
  const status = (failure.details as { status?: unknown } | undefined)?.status
  const entry: ActivityEntry = scrub({
    ...base,
    outcome: failure.code === 'outcome_unknown' ? 'unknown' : 'failure',
    errorCode: failure.code,
    message: failure.message,
    durationMs: performance.now() - started,
    ...(typeof status === 'number' ? { httpStatus: status } : {}),
  })
  // A rotation whose answer was lost names its entry, for the operator to check it (Check now).
  const details =
    stage === 'journaled' && failure.code === 'outcome_unknown'
      ? { ...(failure.details as object | undefined), activityId: base.id }
      : failure.details
  const redacted = new AppErrorException(failure.code, scrub(failure.message), scrub(details))
  if (stage === 'not journaled') return redacted
  const record = () => {
    activity.append(entry, { request: kept(request), response: kept(failure.details) })
    team()?.recorded({ entry })
    if (stage === 'journaled') {
      if (failure.code === 'outcome_unknown') rotations.lost(base.id)
      else rotations.answered(base.id)
    }
  }
  if (options.deferred && stage === 'not a rotation')
    db.deferTogether(() => {
      options.settle?.({ ok: false, error: redacted })
      db.defer(record)
    })
  else
    db.transaction(() => {
      record()
      options.settle?.({ ok: false, error: redacted })
    })
  return redacted
}
