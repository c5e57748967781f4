import { BREAKER_FAILURES } from '../../src-shared/bulk/schemas'
import type { AppErrorException } from '../../src-shared/ipc/result'
import type { ItemSettlement, JournalItem } from './bulk-journal'
import { isServerDown } from './row-answers'

/*
 * When a run stops itself rather than go on, and the sentence the operator is told: the run
 * pauses, resumable, with that sentence as its reason.
 */

/** The run's lease went to another process (its renewal or a claim was refused). */
export const TAKEN_OVER = 'Another Embed Console process took this run over: this one stopped sending.'

/** The journal could not be written (a full disk, a database busy for too long). */
export const pausedUntilResumed = (message: string) => `${message} The run is paused; nothing more is sent until it is resumed.`

/**
 * The circuit breaker: counts requests in a row that found the server down; an answer of any
 * other kind starts the count again. From BREAKER_FAILURES on, each such request says why the run
 * must stop (the run keeps the first reason).
 */
export class ServerDownBreaker {
  private consecutiveDown = 0

  /** An answer came back (`error` when it was a failure): the reason to stop, if it trips the breaker. */
  heard(error?: AppErrorException): string | null {
    if (!error || !isServerDown(error)) {
      this.consecutiveDown = 0
      return null
    }
    this.consecutiveDown += 1
    if (this.consecutiveDown < BREAKER_FAILURES) return null
    return `The server is not answering: ${this.consecutiveDown} requests in a row failed (the last: ${error.message.replace(/\.$/, '')}). The run is paused; resume it when the server is back.`
  }

  /** The operator resumed the run: the server gets its chances again. */
  reset(): void {
    this.consecutiveDown = 0
  }
}

/** `bail`: a row that did not succeed stops the run, naming it. */
export function bailReason(item: JournalItem, settlement: ItemSettlement): string | null {
  if (settlement.outcome !== 'failed' && settlement.outcome !== 'unknown') return null
  return `Line ${item.line} (${item.groupId}) did not succeed${settlement.message ? `: ${settlement.message.replace(/\.$/, '')}` : ''}. This run stops at the first failure.`
}
