import type { SqliteConnection } from './database-connection'
import { abandonFailedCommit } from './database-transactions'

/** A batch of deferred work holds at most this many works, and waits at most this long for them. */
const DEFER_MAX = 256
const DEFER_MS = 100

interface DeferredWork {
  work: () => void
  onError?: (error: unknown) => void
}

/** Deferred work waiting for its batch (see Database.defer), and who waits on its commit. */
interface DeferredBatch {
  works: DeferredWork[]
  waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }>
  timer: ReturnType<typeof setTimeout>
}

/** The deferred writes of one connection: Database.defer, deferTogether and committed, and the batch they fill. */
export interface DeferredWrites {
  defer(work: () => void, onError?: (error: unknown) => void): void
  deferTogether(gather: () => void, onError?: (error: unknown) => void): void
  /**
   * Writes the batch waiting, if any: one transaction, a savepoint a work. Called before any write
   * that commits on return, so this process's writes reach the file in order.
   */
  writeBatch(): void
  committed(): Promise<void>
}

export function createDeferredWrites(connection: SqliteConnection): DeferredWrites {
  const { native, guarded, state } = connection
  let waiting: DeferredBatch | null = null
  /** The works a deferTogether is gathering (null when none is). */
  let gathering: Array<() => void> | null = null

  /** A work in a savepoint of its own: one that throws is rolled back alone, its effects dropped. */
  function writeWork({ work, onError }: DeferredWork, effects: Array<() => void>) {
    try {
      guarded(() => native.exec('SAVEPOINT deferred'))
      state.inDeferredWork = true
      work()
      state.inDeferredWork = false
      guarded(() => native.exec('RELEASE deferred'))
      effects.push(...state.pendingEffects)
    } catch (error) {
      state.inDeferredWork = false
      state.epoch += 1
      if (native.inTransaction) native.exec('ROLLBACK TO deferred; RELEASE deferred')
      onError?.(error)
    }
    state.pendingEffects = []
  }

  function writeBatch() {
    const batch = waiting
    if (!batch) return
    waiting = null
    clearTimeout(batch.timer)
    const failed = (error: unknown) => {
      for (const { onError } of batch.works) onError?.(error)
      for (const waiter of batch.waiters) waiter.reject(error)
    }
    state.epoch += 1
    try {
      guarded(() => native.exec('BEGIN IMMEDIATE'))
    } catch (error) {
      return failed(error)
    }
    state.depth += 1
    const effects: Array<() => void> = []
    for (const work of batch.works) writeWork(work, effects)
    state.depth -= 1
    try {
      guarded(() => native.exec('COMMIT'))
    } catch (error) {
      abandonFailedCommit(connection)
      return failed(error)
    }
    for (const effect of effects) effect()
    for (const waiter of batch.waiters) waiter.resolve()
  }

  function defer(work: () => void, onError?: (error: unknown) => void) {
    if (gathering) return void gathering.push(work)
    // Inside a transaction, the work joins it.
    if (state.depth > 0) return work()
    if (!waiting) waiting = { works: [], waiters: [], timer: setTimeout(() => state.depth === 0 && writeBatch(), DEFER_MS) }
    waiting.works.push(onError ? { work, onError } : { work })
    if (waiting.works.length >= DEFER_MAX && state.depth === 0) writeBatch()
  }

  return {
    defer,

    deferTogether(gather, onError) {
      const works: Array<() => void> = []
      const outer = gathering
      gathering = works
      try {
        gather()
      } finally {
        gathering = outer
      }
      if (works.length) defer(() => works.forEach((work) => work()), onError)
    },

    writeBatch,

    committed() {
      const open = waiting
      return open ? new Promise<void>((resolve, reject) => open.waiters.push({ resolve, reject })) : Promise.resolve()
    },
  }
}
