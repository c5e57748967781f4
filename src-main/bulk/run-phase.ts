import type { BulkRunState } from '../../src-shared/bulk/schemas'

/*
 * Where a run stands, as one value. The runner's workers take rows only while it is `running`;
 * `pausing` and `cancelling` let the rows in flight finish; once none is, the run rests
 * (`paused`) or ends (`finished`, `cancelled`). Each transition is a function of the phase
 * alone, so the table of what pause, cancel, resume and a stop do in each phase is read here.
 *
 *   running ──pause/stop──▶ pausing ──drained──▶ paused (rows left) | finished (none left)
 *   running, pausing ──cancel──▶ cancelling ──drained──▶ cancelled
 *   running ──drained──▶ paused (rows left) | finished
 *   paused ──resume──▶ running          paused ──cancel──▶ cancelling (shown as paused) ──▶ cancelled
 */

/**
 * Why the run stopped itself (the breaker, bail, a lost lease, a full disk), shown with the paused
 * run; null when the operator paused it. The first reason stands.
 */
type StopReason = string | null

export type RunPhase =
  | { kind: 'running' }
  | { kind: 'pausing'; reason: StopReason }
  /**
   * `shown`: what the run reads as until it ends. A paused run being cancelled has nothing in
   * flight and still reads paused (it cannot be resumed) until its rows are skipped.
   */
  | { kind: 'cancelling'; shown: 'running' | 'paused'; reason: StopReason }
  | { kind: 'paused'; reason: StopReason }
  | { kind: 'finished' }
  | { kind: 'cancelled' }

/** Where a run comes to rest once nothing is in flight. */
export type RestingPhase = Extract<RunPhase, { kind: 'paused' | 'finished' | 'cancelled' }>

export const RUNNING: RunPhase = Object.freeze({ kind: 'running' })

/** What the run reads as to the operator (progress, `idle()`, the journal). */
export function shownState(phase: RunPhase): BulkRunState {
  if (phase.kind === 'pausing') return 'running'
  if (phase.kind === 'cancelling') return phase.shown
  return phase.kind
}

/**
 * Why the run stopped itself, while it is stopping or paused; null while it goes on, or when only
 * the operator paused it. A row waiting for its turn is sent after an operator's pause, not after
 * a stop.
 */
export const stopReasonOf = (phase: RunPhase): StopReason => ('reason' in phase ? phase.reason : null)

/** The reason a paused run shows (none while it goes on, or once it ended). */
export const pausedReasonOf = (phase: RunPhase): StopReason => (shownState(phase) === 'paused' ? stopReasonOf(phase) : null)

/** The operator's pause: a run going on takes no new row; any other phase stays as it is. */
export const whenPaused = (phase: RunPhase): RunPhase => (phase.kind === 'running' ? { kind: 'pausing', reason: null } : phase)

/**
 * The run stops itself: it takes no new row, and the first reason stands. A cancel under way
 * stays a cancel (the reason keeps the rows still waiting from being sent); a run at rest has
 * nothing to stop.
 */
export function whenStopped(phase: RunPhase, reason: string): RunPhase {
  switch (phase.kind) {
    case 'running':
      return { kind: 'pausing', reason }
    case 'pausing':
    case 'cancelling':
      return phase.reason === null ? { ...phase, reason } : phase
    default:
      return phase
  }
}

/** The operator's cancel: a run that has not ended takes no new row and ends cancelled. */
export function whenCancelled(phase: RunPhase): RunPhase {
  switch (phase.kind) {
    case 'running':
      return { kind: 'cancelling', shown: 'running', reason: null }
    case 'pausing':
      return { kind: 'cancelling', shown: 'running', reason: phase.reason }
    case 'paused':
      return { kind: 'cancelling', shown: 'paused', reason: phase.reason }
    default:
      return phase
  }
}

/** Nothing is in flight any more: where the run comes to rest, given the rows it has not sent. */
export function whenDrained(phase: RunPhase, pendingLeft: number): RestingPhase {
  switch (phase.kind) {
    case 'paused':
    case 'finished':
    case 'cancelled':
      return phase
    case 'cancelling':
      return { kind: 'cancelled' }
    default:
      return pendingLeft > 0 ? { kind: 'paused', reason: stopReasonOf(phase) } : { kind: 'finished' }
  }
}
