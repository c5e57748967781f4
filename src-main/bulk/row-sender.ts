import { AppErrorException } from '../../src-shared/ipc/result'
import type { GetOrCreateRequest } from '../../src-shared/user-api/schemas'
import type { BulkJournal, ItemSettlement, JournalItem } from './bulk-journal'
import type { Pacer } from './bulk-pacer'
import { afterFailure, afterSuccess, callFor, type Retry, type SenderSettlement, type SentGroup, stopsTheRun } from './row-answers'
import type { Lease } from './run-leases'
import { pausedUntilResumed, TAKEN_OVER } from './run-stops'

/**
 * Sends the run's requests. `settle` is called with the call's outcome where its result is
 * recorded (for a profile, inside the transaction that writes the activity entry, the token and
 * the catalog row), so the journal row commits with them.
 */
export interface BulkSender {
  getOrCreate(request: GetOrCreateRequest, settle: (settlement: SenderSettlement) => void): Promise<SentGroup>
  update(request: GetOrCreateRequest, settle: (settlement: SenderSettlement) => void): Promise<SentGroup>
  /**
   * `claim` runs in the durable transaction that journals the rotation before it is sent (it
   * claims the row, fenced on the run's lease, and throws when the lease was lost).
   */
  rotate(
    groupId: string,
    settle: (settlement: SenderSettlement) => void,
    row: { claim: () => void; runId: string; seq: number },
  ): Promise<SentGroup>
  /** The mapping this app last sent for a group, when it knows it (the API never returns one). */
  knownMapping?(groupId: string): unknown
}

/** What sending a row tells the run it belongs to, and asks of it. */
export interface RowRunHooks {
  /** Why the run stopped itself, or null while it goes on (after an operator's pause, waiting rows still go). */
  stopReason(): string | null
  /** The run must stop, for this reason (a lost lease, a full disk). */
  stopFor(reason: string): void
  /** The row's end: journaled (fenced on `fence` when given) and counted. */
  record(item: JournalItem, settlement: ItemSettlement, fence?: Lease): void
  /** Every answer heard, a failure with its error (the circuit breaker counts them). */
  heardAnswer(error?: AppErrorException): void
  /** Another try is coming (counted before its wait). */
  countRetry(): void
  /** A wait before another try ended (a progress event, when one is due). */
  waited(): void
}

export interface RowSendOptions {
  journal: BulkJournal
  runId: string
  sender: BulkSender
  pacer: Pacer
  /** The lease the row was taken under: it claims and settles the row, so a run taken over sends and writes nothing more. */
  lease: Lease
  /** The run sends an update where the group exists with other fields. */
  sendUpdate: boolean
  run: RowRunHooks
  now: () => number
  random: () => number
  sleep: (ms: number) => Promise<void>
}

/** After one attempt: the row is settled (or left to the run's stop), an update follows, or another try does. */
type AttemptEnd = { kind: 'settled' } | { kind: 'followUp' } | Retry

/**
 * Sends one row to its end: paced, tried again after a 429 (every request waits) or, when the
 * call is idempotent, after a 5xx or a network failure; a get-or-create that found other fields
 * followed by an update; its journal row settled with the answer. A row the run's stop catches
 * before it is sent goes back to pending as it stood.
 */
export async function sendRow(item: JournalItem, options: RowSendOptions): Promise<void> {
  const { journal, runId, sender, pacer, lease: held, run } = options
  let attempts = item.attempts
  let tries = 0
  let rateLimited = 0
  let followUp = false
  const previouslyTried = item.attempts > 0
  for (;;) {
    await pacer.take()
    // The run stopped itself while this row waited (the server is down, the lease was lost):
    // it was not sent this time, so it waits for the resume as it stands.
    if (run.stopReason() !== null) return journal.unclaimRow(held, item.seq, tries === 0 ? item.attempts : undefined)
    attempts += 1
    tries += 1
    const call = callFor(item, followUp)
    const claim = () => {
      if (!journal.claimRow(held, item.seq, attempts)) throw new AppErrorException('lease_lost', TAKEN_OVER)
    }
    // A rotation is claimed as it is journaled; an idempotent row was claimed ahead, and is settled only while the lease holds.
    const fence = call === 'rotate' ? undefined : held

    let end: AttemptEnd = { kind: 'settled' }
    let heard = false
    const settle = (settlement: SenderSettlement) => {
      heard = true
      run.heardAnswer(settlement.ok ? undefined : settlement.error)
      const next = settlement.ok
        ? afterSuccess(settlement.sent, {
            item,
            call,
            attempts,
            previouslyTried,
            knownMapping: (groupId) => sender.knownMapping?.(groupId),
            sendUpdate: options.sendUpdate,
          })
        : afterFailure(settlement.error, { action: item.action, tries, attempts, rateLimited, now: options.now, random: options.random })
      if (next.kind === 'settle') run.record(item, next.settlement, fence)
      else end = next
    }

    try {
      // Claimed ahead (tried, should the process die); settled after its answer, with the rows around it.
      const sent =
        call === 'rotate'
          ? await sender.rotate(item.groupId, settle, { claim, runId, seq: item.seq })
          : call === 'update'
            ? await sender.update(item.request, settle)
            : await sender.getOrCreate(item.request, settle)
      if (sent.unsaved) run.stopFor(sent.unsaved)
    } catch (error) {
      if (!(error instanceof AppErrorException)) {
        run.record(item, {
          state: 'failed',
          outcome: 'failed',
          attempts,
          message: `The call failed unexpectedly: ${(error as Error).message}`,
        })
        return
      }
      if (stopsTheRun(error)) {
        // Nothing was sent (the claim or the journal refused): the row is not this run's to settle now.
        run.stopFor(error.code === 'storage' ? pausedUntilResumed(error.message) : error.message)
        if (!heard) journal.unclaimRow(held, item.seq)
        return
      }
      // Refused before anything was sent (the profile is gone, no token is kept): settle it here.
      if (!heard) settle({ ok: false, error })
    }
    const next = end as AttemptEnd
    if (next.kind === 'settled') return
    if (next.kind === 'followUp') {
      followUp = true
      continue
    }
    run.countRetry()
    // A 429 holds back every request to this server; a failure waits its own backoff.
    if (next.rateLimited) {
      rateLimited += 1
      pacer.holdFor(next.retryInMs)
    } else await options.sleep(next.retryInMs)
    run.waited()
  }
}
