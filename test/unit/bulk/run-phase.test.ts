import { describe, expect, it } from 'vitest'
import {
  pausedReasonOf,
  RUNNING,
  type RunPhase,
  shownState,
  stopReasonOf,
  whenCancelled,
  whenDrained,
  whenPaused,
  whenStopped,
} from '../../../src-main/bulk/run-phase'

/*
 * The runner's one state and what each request does to it: the operator's pause, cancel and
 * resume, a stop the run decides itself, and the end of the rows in flight.
 */

const DOWN = 'The server is not answering.'
const BAIL = 'Line 4 (g-2) did not succeed. This run stops at the first failure.'

describe('a run’s phase', () => {
  it('pauses for the operator without a reason; a stop of its own gives one, and the first stands', () => {
    const pausing = whenPaused(RUNNING)
    expect(pausing).toEqual({ kind: 'pausing', reason: null })
    expect(shownState(pausing)).toBe('running')
    // The operator paused, then the server went down: the run rests with the reason.
    const stopped = whenStopped(pausing, DOWN)
    expect(whenStopped(stopped, BAIL)).toEqual({ kind: 'pausing', reason: DOWN })
    expect(whenDrained(stopped, 3)).toEqual({ kind: 'paused', reason: DOWN })
    expect(pausedReasonOf(whenDrained(stopped, 3))).toBe(DOWN)
    // Every row ended anyway: the run finished.
    expect(whenDrained(stopped, 0)).toEqual({ kind: 'finished' })
    expect(whenDrained(RUNNING, 0)).toEqual({ kind: 'finished' })
  })

  it('cancels a run going on or stopping, keeping why it stopped; a paused one still reads paused until it ends', () => {
    expect(whenCancelled(RUNNING)).toEqual({ kind: 'cancelling', shown: 'running', reason: null })
    const cancelling = whenCancelled(whenStopped(RUNNING, DOWN))
    expect(cancelling).toEqual({ kind: 'cancelling', shown: 'running', reason: DOWN })
    // Waiting rows are not sent after a stop, cancel or not.
    expect(stopReasonOf(cancelling)).toBe(DOWN)
    expect(whenPaused(cancelling)).toBe(cancelling)
    const fromPaused = whenCancelled({ kind: 'paused', reason: DOWN })
    expect(shownState(fromPaused)).toBe('paused')
    expect(pausedReasonOf(fromPaused)).toBe(DOWN)
    expect(whenDrained(fromPaused, 5)).toEqual({ kind: 'cancelled' })
  })

  it('leaves a run at rest as it is: nothing to pause, stop or cancel once it ended', () => {
    const ended: RunPhase[] = [{ kind: 'finished' }, { kind: 'cancelled' }]
    for (const phase of ended) {
      expect(whenPaused(phase)).toBe(phase)
      expect(whenStopped(phase, DOWN)).toBe(phase)
      expect(whenCancelled(phase)).toBe(phase)
      expect(shownState(phase)).toBe(phase.kind)
      expect(pausedReasonOf(phase)).toBeNull()
    }
    const paused: RunPhase = { kind: 'paused', reason: null }
    expect(whenPaused(paused)).toBe(paused)
    expect(whenStopped(paused, DOWN)).toBe(paused)
  })
})
