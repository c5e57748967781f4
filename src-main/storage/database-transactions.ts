import type { SqliteConnection } from './database-connection'

export interface TransactionOptions {
  /** The commit is synced to the disk before this returns (see Database.transaction). */
  durable: boolean
  /**
   * Runs before an outermost transaction begins: it writes this process's deferred batch, so
   * that this process's writes reach the file in the order they were made.
   */
  beforeOutermost: () => void
}

/**
 * Runs `work` in one transaction (see Database.transaction): BEGIN IMMEDIATE at the outermost
 * level, a savepoint inside another transaction, nothing of its own inside a deferred work.
 */
export function runTransaction<T>(connection: SqliteConnection, work: () => T, options: TransactionOptions): T {
  const { native, guarded, state } = connection
  const { durable } = options
  if (durable && state.depth > 0) throw new Error('A durable transaction must be the outermost one: its commit is what is synced.')
  // Inside a deferred work: part of it, atomic with it (see defer).
  if (state.inDeferredWork) return work()
  // A transaction commits on return: the deferred batch is written before it begins.
  if (state.depth === 0) options.beforeOutermost()
  const savepoint = `sp${state.depth}`
  const effectsBefore = state.pendingEffects.length
  // exec, not pragma(): pragma() prepares a statement anew and reads its rows at each call.
  if (durable) guarded(() => native.exec('PRAGMA synchronous = FULL'))
  const restore = () => {
    if (durable) native.exec('PRAGMA synchronous = NORMAL')
  }
  if (state.depth === 0) state.epoch += 1
  try {
    guarded(() => native.exec(state.depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`))
  } catch (error) {
    restore()
    throw error
  }
  state.depth += 1
  let result: T
  try {
    result = work()
  } catch (error) {
    state.depth -= 1
    state.pendingEffects.length = effectsBefore
    state.epoch += 1
    native.exec(state.depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`)
    restore()
    throw error
  }
  state.depth -= 1
  if (state.depth > 0) {
    guarded(() => native.exec(`RELEASE ${savepoint}`))
    return result
  }
  try {
    guarded(() => native.exec('COMMIT'))
  } catch (error) {
    abandonFailedCommit(connection)
    throw error
  } finally {
    restore()
  }
  const effects = state.pendingEffects
  state.pendingEffects = []
  for (const effect of effects) effect()
  return result
}

/**
 * A commit that failed (a full disk) leaves the transaction open: end it, so the connection is
 * usable for the next call and nothing half-done is kept.
 */
export function abandonFailedCommit({ native, state }: SqliteConnection): void {
  state.epoch += 1
  if (native.inTransaction) {
    try {
      native.exec('ROLLBACK')
    } catch {
      // Rolled back by SQLite itself meanwhile.
    }
  }
}
