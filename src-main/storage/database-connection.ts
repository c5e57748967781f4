import { createRequire } from 'node:module'
import type Libsql from 'libsql'

// Required, not imported: an ES module importing a CommonJS package has Node scan the package's
// source for its exports first (cjs-module-lexer), 3 to 4 ms of every process that opens a
// database, the CLI's calls with a profile among them. The object is the same either way.
const LibsqlDatabase = createRequire(import.meta.url)('libsql') as typeof Libsql

/*
 * The native connection under a Database, and the one state its transactions and its deferred
 * batches share: both open transactions on it, and each must know where the other left it.
 */

/**
 * Where the connection stands. Only this connection's own calls change it, and all of them run
 * on the one thread: a deferred batch is written between calls, never inside one.
 */
export interface TransactionState {
  /** 0 outside a transaction; 1 inside the outermost one (BEGIN IMMEDIATE); one more per savepoint inside it. */
  depth: number
  /** What afterCommit was handed inside the open transaction: run once the outermost one commits, dropped on rollback. */
  pendingEffects: Array<() => void>
  /** See Database.epoch: bumped at the start of every write transaction and at every rollback. */
  epoch: number
  /** A deferred work is running: the transactions it opens are part of it (see Database.defer). */
  inDeferredWork: boolean
}

export interface SqliteConnection {
  readonly native: Libsql.Database
  /** Runs a call on the native connection, a failure of SQLite's turned into a sentence (storageError). */
  guarded<T>(call: () => T): T
  readonly state: TransactionState
}

export interface NativeDatabaseOptions {
  path: string
  /** How long a write waits for another process's transaction. */
  busyTimeoutMs: number
  /** Overwrite deleted content (see DatabaseOptions.secureDelete). */
  secureDelete: boolean
}

/** Opens the file with the pragmas every connection of the app runs under. */
export function openNativeDatabase(options: NativeDatabaseOptions): Libsql.Database {
  const native = new LibsqlDatabase(options.path, { timeout: options.busyTimeoutMs })
  native.pragma('journal_mode = WAL')
  // A commit reaches the write-ahead log before it returns, so it survives the process being
  // killed; only a power cut can take back the last ones, never the database's integrity.
  // fsyncing every commit (FULL) blocked the main thread 0.3–3 ms a write on these machines.
  native.pragma('synchronous = NORMAL')
  native.pragma('foreign_keys = ON')
  // A savepoint keeps the pages it changes in a journal of its own until it ends: in memory,
  // not in a temporary file (a deferred batch has a savepoint a record, each a few dozen pages).
  native.pragma('temp_store = MEMORY')
  if (options.secureDelete) native.pragma('secure_delete = ON')
  return native
}
