import { createHash } from 'node:crypto'
import type { ActivityEntry, RotationSettlement } from '../../src-shared/activity/schemas'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { ActivityLog } from '../activity/activity-log'
import type { Database } from '../storage/database'

/*
 * Rotation is the one call that cannot be sent twice: the first new token may already be in a
 * customer's servers when a second rotation invalidates it. So every rotation, from the form or
 * from a run, is written here and synced before it is sent, and stays until its answer is
 * recorded. One left behind by a process that died, or one whose answer was lost, is "unknown";
 * it is never sent again on its own, and the next fetch of its group settles it: the server
 * holding a token other than the one sent means the rotation happened.
 */

/** A rotation in flight this long past its timeout lost its process (or its answer). */
const GRACE_MS = 30_000

export const tokenFingerprint = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex')

export interface RotationIntent {
  /** The id its activity entry will have. */
  id: string
  profileId: string
  groupId: string | null
  sentToken: string
  /** The bulk run row it belongs to, if any. */
  run?: { runId: string; seq: number }
  timeoutMs: number
}

export interface SettledRotation {
  id: string
  outcome: RotationSettlement
  at: string
  run: { runId: string; seq: number } | null
}

/** What the bulk journal is told, so a run's row says the same as the activity entry. */
export interface RotationListener {
  unknown(run: { runId: string; seq: number }, message: string): void
  settled(run: { runId: string; seq: number }, outcome: RotationSettlement, message: string): void
  /** A rotation presumed unknown (its process died), with the activity entry written for it: team mode publishes it. */
  presumed?(entry: ActivityEntry): void
}

interface IntentRecord {
  id: string
  profile_id: string
  group_id: string | null
  sent_token_sha256: string
  run_id: string | null
  run_seq: number | null
  state: 'sending' | 'unknown'
  holder: string
  started_at: string
  expires_at: number
}

const clock = (iso: string) => new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })

export const STOPPED_WHILE_SENDING = (startedAt: string) =>
  `Embed Console stopped while this rotation was being sent (at ${clock(startedAt)}): the old token may already be invalid. Fetch the group (Check now) to learn whether it happened.`

export const settledMessage = (outcome: RotationSettlement, at: string) =>
  outcome === 'rotated'
    ? `The rotation happened (confirmed at ${clock(at)}): the server's new token is kept.`
    : `The rotation did not happen (checked at ${clock(at)}): the old token still works.`

const runOf = (record: IntentRecord) =>
  record.run_id !== null && record.run_seq !== null ? { runId: record.run_id, seq: record.run_seq } : null

export class RotationJournal {
  private listener: RotationListener | null = null
  /** This process's rotations whose request is out: any other of its own still 'sending' lost its answer's record. */
  private readonly inFlight = new Set<string>()

  constructor(
    private readonly db: Database,
    private readonly activity: ActivityLog,
    private readonly profileName: (profileId: string) => string,
    /** This process, as its rotations name it. */
    readonly holder: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Whether a rotation may still be answered: in flight here, or in another process and not
   * past its timeout. One of this process that is not in flight got an answer that could not be
   * recorded (a full disk): it is as unknown as a lost one.
   */
  private mayStillAnswer(record: IntentRecord): boolean {
    if (record.state !== 'sending') return false
    if (record.holder === this.holder) return this.inFlight.has(record.id)
    return record.expires_at > this.now().getTime()
  }

  /** The bulk journal listens (wired in app-services: groups never import bulk). */
  listen(listener: RotationListener): void {
    this.listener = listener
  }

  /**
   * Refuses a rotation of a token (or group) whose earlier rotation is in flight or unsettled:
   * sending it again could rotate twice. The operator settles the earlier one first.
   */
  assertNoneUnsettled(profileId: string, groupId: string | null, sentToken: string): void {
    const earlier = this.db.get<IntentRecord>(
      'SELECT * FROM rotations WHERE sent_token_sha256 = ? OR (profile_id = ? AND group_id = ?) ORDER BY started_at LIMIT 1',
      tokenFingerprint(sentToken),
      profileId,
      groupId,
    )
    if (!earlier) return
    const group = groupId ? `“${groupId}”` : 'this group'
    if (this.mayStillAnswer(earlier)) {
      throw new AppErrorException(
        'conflict',
        `The token of ${group} is being rotated right now (since ${clock(earlier.started_at)}): wait for that answer.`,
        { activityId: earlier.id },
      )
    }
    throw new AppErrorException(
      'conflict',
      `An earlier rotation of ${group} (at ${clock(earlier.started_at)}) has an unknown outcome. Check it first (Check now, or fetch the group): rotating again could replace a token already handed out.`,
      { activityId: earlier.id },
    )
  }

  /** Written (in the caller's durable transaction) before the rotation is sent. */
  begin(intent: RotationIntent): void {
    const started = this.now()
    this.db.run(
      `INSERT INTO rotations (id, profile_id, group_id, sent_token_sha256, run_id, run_seq, state, holder, started_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, 'sending', ?, ?, ?)`,
      intent.id,
      intent.profileId,
      intent.groupId,
      tokenFingerprint(intent.sentToken),
      intent.run?.runId ?? null,
      intent.run?.seq ?? null,
      this.holder,
      started.toISOString(),
      started.getTime() + intent.timeoutMs + GRACE_MS,
    )
    // Only once it is on the disk: a transaction rolled back sends nothing.
    this.db.afterCommit(() => this.inFlight.add(intent.id))
  }

  /** The answer came (a new token, or a refusal): nothing is left to settle. */
  answered(id: string): void {
    this.db.run('DELETE FROM rotations WHERE id = ?', id)
    this.inFlight.delete(id)
  }

  /** No answer came: kept until a fetch of the group settles it. */
  lost(id: string): void {
    this.inFlight.delete(id)
    this.db.run("UPDATE rotations SET state = 'unknown' WHERE id = ?", id)
  }

  /** The answer came but could not be recorded: as unknown as a lost one, even if the disk refuses to say so. */
  unrecorded(id: string): void {
    this.inFlight.delete(id)
    try {
      this.lost(id)
    } catch {
      // The disk is full: the row stays 'sending', and this process knows it is not in flight.
    }
  }

  /**
   * Rotations whose process died while sending them become unknown: an activity entry says so
   * (and their run's row), so the operator sees them and can settle them.
   */
  sweep(): number {
    const stale = this.db
      .all<IntentRecord>("SELECT * FROM rotations WHERE state = 'sending'")
      .filter((record) => !this.mayStillAnswer(record))
    for (const record of stale) this.db.transaction(() => this.presumeUnknown(record))
    return stale.length
  }

  private presumeUnknown(record: IntentRecord): void {
    const message = STOPPED_WHILE_SENDING(record.started_at)
    const entry: ActivityEntry = {
      id: record.id,
      time: record.started_at,
      profileId: record.profile_id,
      profileName: this.profileName(record.profile_id),
      operation: 'rotateToken',
      ...(record.group_id ? { groupId: record.group_id } : {}),
      outcome: 'unknown',
      errorCode: 'outcome_unknown',
      message,
      durationMs: 0,
    }
    this.activity.appendIfMissing(entry)
    this.listener?.presumed?.(entry)
    this.db.run("UPDATE rotations SET state = 'unknown' WHERE id = ? AND state = 'sending'", record.id)
    const run = runOf(record)
    if (run) this.listener?.unknown(run, message)
  }

  /** The unsettled rotations of a group, oldest first (for "Check now" and the next fetch). */
  unsettled(profileId: string, groupId: string): { id: string; startedAt: string }[] {
    return this.db
      .all<IntentRecord>('SELECT * FROM rotations WHERE profile_id = ? AND group_id = ? ORDER BY started_at', profileId, groupId)
      .filter((record) => !this.mayStillAnswer(record))
      .map((record) => ({ id: record.id, startedAt: record.started_at }))
  }

  /**
   * Settles the group's unknown rotations against the token the server holds now, inside the
   * transaction that records the fetch (and keeps that token). A rotation still in flight is
   * left alone: its own answer settles it.
   */
  settle(profileId: string, groupId: string, currentToken: string): SettledRotation[] {
    // Most fetches have none to settle: asked with one row first, cheaper than reading them all.
    if (!this.db.get('SELECT 1 AS found FROM rotations WHERE profile_id = ? AND group_id = ? LIMIT 1', profileId, groupId)) return []
    const at = this.now()
    const fingerprint = tokenFingerprint(currentToken)
    const records = this.db
      .all<IntentRecord>('SELECT * FROM rotations WHERE profile_id = ? AND group_id = ? ORDER BY started_at', profileId, groupId)
      .filter((record) => !this.mayStillAnswer(record))
    return records.map((record) => {
      if (record.state === 'sending') this.presumeUnknown(record)
      const outcome: RotationSettlement = record.sent_token_sha256 === fingerprint ? 'not_rotated' : 'rotated'
      const settledAt = at.toISOString()
      this.activity.settle(record.id, outcome, settledAt)
      this.db.run('DELETE FROM rotations WHERE id = ?', record.id)
      const run = runOf(record)
      if (run) this.listener?.settled(run, outcome, settledMessage(outcome, settledAt))
      return { id: record.id, outcome, at: settledAt, run }
    })
  }
}
