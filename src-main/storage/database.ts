import { chmodSync, mkdirSync, renameSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import type Libsql from 'libsql'
import { AppErrorException } from '../../src-shared/ipc/result'
import { openNativeDatabase, type SqliteConnection } from './database-connection'
import { runTransaction } from './database-transactions'
import { createDeferredWrites } from './deferred-writes'

/*
 * The app keeps its data in SQLite (through libsql, a better-sqlite3-style binding that ships
 * prebuilt Node-API binaries): one database for the app's own data and one for the sandbox. WAL
 * lets the desktop app, browser mode and CLI calls read while one of them writes; every write
 * that must agree with another is one IMMEDIATE transaction, so two processes on one folder
 * queue behind SQLite's lock (for up to BUSY_TIMEOUT_MS) instead of losing each other's change.
 */

const BUSY_TIMEOUT_MS = 5000
const OWNER_ONLY = 0o600

export type SqlValue = string | number | bigint | null | Buffer

export interface Migration {
  version: number
  name: string
  up(db: Database): void
}

export interface DatabaseOptions {
  path: string
  /** In version order; each runs once, in its own transaction, and is recorded in schema_migrations. */
  migrations: readonly Migration[]
  /** Overwrite deleted content (the app database: a cleared token must not linger in free pages). */
  secureDelete?: boolean
  /** How long a write waits for another process's transaction (default 5 s). */
  busyTimeoutMs?: number
  /** Told (in a sentence) when a damaged file was moved aside and a new database started. */
  onNotice?: (notice: string) => void
  now?: () => Date
}

export interface Database {
  readonly path: string
  run(sql: string, ...params: SqlValue[]): { changes: number; lastInsertRowid: number | bigint }
  get<T>(sql: string, ...params: SqlValue[]): T | undefined
  all<T>(sql: string, ...params: SqlValue[]): T[]
  exec(sql: string): void
  /**
   * Runs `work` in one transaction: BEGIN IMMEDIATE at the outermost level (the write lock is
   * taken up front, so a read-then-write cannot be overtaken by another process), a savepoint
   * inside another transaction. `work` must be synchronous: nothing may interleave with it.
   * `durable`: the commit is synced to the disk before this returns (synchronous = FULL for this
   * commit), for what must survive a power cut, such as a rotation written before it is sent.
   * Only the outermost transaction decides; a durable one inside another is refused.
   */
  transaction<T>(work: () => T, options?: { durable?: boolean }): T
  /**
   * Writes `work` later, in a batch: the works waiting are written in one transaction (each in a
   * savepoint of its own) once DEFER_MAX of them wait or DEFER_MS after the first, before any
   * other write or transaction of this process, at `flush()` and at `close()`. The write lock is
   * held only while a batch is written, never between batches, so another process's write waits
   * for one batch at most. Until then the work may be lost with the process: only for what can
   * be done again (an idempotent call's record, which a resumed run asks again). Reads do not
   * wait for it: a reader that must see it calls `flush()` first. `onError` hears of a work that
   * failed (its savepoint rolled back, the others kept) or of a batch that could not be written.
   * Called inside a transaction, `work` runs at once, in it. Inside a deferred work, transactions
   * join it without a savepoint of their own: the work is atomic as a whole (a work must not
   * catch the failure of a transaction it opens and go on).
   */
  defer(work: () => void, onError?: (error: unknown) => void): void
  /** Defers, as one work (one savepoint), every work `gather` defers (see defer). */
  deferTogether(gather: () => void, onError?: (error: unknown) => void): void
  /** Writes the deferred work now (see defer). */
  flush(): void
  /** Resolves once the deferred work written so far is committed; rejects if that commit failed. */
  committed(): Promise<void>
  /**
   * A number that changes whenever this connection's view may have changed under what it read:
   * at the start of every write transaction (another process may have written before it) and at
   * every rollback. What a transaction read may be kept in memory while this number stays.
   */
  epoch(): number
  /**
   * Whether this connection is inside a write transaction (a deferred batch being written
   * included): it then holds the write lock, so no other process can commit until it ends.
   */
  inTransaction(): boolean
  /** Runs `effect` once the current transaction commits (at once outside one); dropped on rollback. */
  afterCommit(effect: () => void): void
  /**
   * Copies the write-ahead log into the database and empties it, so that content just deleted
   * (a secret) is gone from the log too. Best effort: another process reading keeps its frames.
   */
  checkpoint(): void
  /** The schema version the migrations brought the database to. */
  schemaVersion(): number
  close(): void
}

type Statement = Libsql.Statement<SqlValue[]>

/** A statement that writes, whatever it answers (libsql's `reader` is true for UPDATE … RETURNING too). */
const WRITES = /^\s*(?:INSERT|UPDATE|DELETE|REPLACE)\b/i

/** libsql adds a `_metadata` field to single rows; nothing downstream should see it. */
function plainRow<T>(row: unknown): T | undefined {
  if (row && typeof row === 'object' && '_metadata' in row) delete (row as { _metadata?: unknown })._metadata
  return row as T | undefined
}

/** SQLite's own code, also through the AppErrorException storageError wrapped it in. */
const sqliteCode = (error: unknown): string => {
  const { code, cause } = error as { code?: string; cause?: unknown }
  return code?.startsWith('SQLITE_') ? code : cause ? sqliteCode(cause) : ''
}

const isDamaged = (error: unknown) => {
  const code = sqliteCode(error)
  return code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')
}

/**
 * Opens (creating if need be) and migrates a database. A file that is not a database, or is
 * damaged, is never overwritten: it is moved aside as `<file>.corrupt-<time>` (with its log) and
 * a new database is started, and the caller is told so.
 */
export function openDatabase(options: DatabaseOptions): Database {
  try {
    return openDatabaseAsIs(options)
  } catch (error) {
    if (!isDamaged(error)) throw storageError(error, options.path)
    const stamp = (options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-')
    const aside = `${options.path}.corrupt-${stamp}`
    for (const suffix of ['', '-wal', '-shm']) {
      try {
        renameSync(`${options.path}${suffix}`, `${aside}${suffix}`)
      } catch {
        // No log file to move.
      }
    }
    options.onNotice?.(
      `${basename(options.path)} could not be read (it is damaged or not a database). It was moved aside to ${basename(aside)} and a new one was started.`,
    )
    return openDatabaseAsIs(options)
  }
}

function openDatabaseAsIs(options: DatabaseOptions): Database {
  const { path } = options
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  let native: Libsql.Database
  try {
    native = openNativeDatabase({
      path,
      busyTimeoutMs: options.busyTimeoutMs ?? BUSY_TIMEOUT_MS,
      secureDelete: options.secureDelete === true,
    })
  } catch (error) {
    throw storageError(error, path)
  }
  restrictToOwner(path)

  const connection: SqliteConnection = {
    native,
    guarded<T>(call: () => T): T {
      try {
        return call()
      } catch (error) {
        throw storageError(error, path)
      }
    },
    state: { depth: 0, pendingEffects: [], epoch: 0, inDeferredWork: false },
  }
  const db = databaseOn(connection, path)
  try {
    migrate(db, options.migrations)
  } catch (error) {
    db.close()
    throw error
  }
  // WAL and shared-memory files appear on first write; they hold the same data as the database.
  for (const suffix of ['', '-wal', '-shm']) restrictToOwner(`${path}${suffix}`)
  return db
}

/**
 * The Database over an open connection. Every call that commits on return (a write outside a
 * transaction, a transaction, a flush, a checkpoint, closing) writes the deferred batch first, so
 * this process's writes reach the file in the order they were made.
 */
function databaseOn(connection: SqliteConnection, path: string): Database {
  const { native, guarded, state } = connection
  const statements = new Map<string, Statement>()
  const prepare = (sql: string): Statement => {
    let statement = statements.get(sql)
    if (!statement) {
      statement = native.prepare<SqlValue[]>(sql)
      statements.set(sql, statement)
    }
    return statement
  }
  const deferred = createDeferredWrites(connection)
  const settleOpen = deferred.writeBatch

  const db: Database = {
    path,
    // A write outside a transaction commits on return, as it always did: the open group first.
    run: (sql, ...params) => {
      if (state.depth === 0) settleOpen()
      return guarded(() => prepare(sql).run(...params))
    },
    // A write that answers rows (UPDATE … RETURNING) commits on return like any other: the open group first.
    get: <T>(sql: string, ...params: SqlValue[]) => {
      if (state.depth === 0 && WRITES.test(sql)) settleOpen()
      return guarded(() => plainRow<T>(prepare(sql).get(...params)))
    },
    all: <T>(sql: string, ...params: SqlValue[]) => {
      if (state.depth === 0 && WRITES.test(sql)) settleOpen()
      return guarded(() => prepare(sql).all(...params) as T[])
    },
    exec: (sql) => {
      if (state.depth === 0) settleOpen()
      guarded(() => void native.exec(sql))
    },

    transaction: (work, options) => runTransaction(connection, work, { durable: options?.durable === true, beforeOutermost: settleOpen }),

    epoch: () => state.epoch,

    inTransaction: () => state.depth > 0,

    defer: deferred.defer,
    deferTogether: deferred.deferTogether,

    flush: () => {
      if (state.depth === 0) settleOpen()
    },

    committed: deferred.committed,

    afterCommit(effect) {
      if (state.depth === 0) effect()
      else state.pendingEffects.push(effect)
    },

    checkpoint() {
      if (state.depth > 0) return db.afterCommit(() => db.checkpoint())
      settleOpen()
      try {
        native.pragma('wal_checkpoint(TRUNCATE)')
      } catch {
        // Busy with another process's read: its next checkpoint will do.
      }
    },

    schemaVersion: () => db.get<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations')?.version ?? 0,

    close() {
      if (native.open && state.depth === 0) settleOpen()
      statements.clear()
      if (native.open) native.close()
    },
  }
  return db
}

/**
 * Applies the migrations the database has not seen, each in its own transaction that first
 * checks it again: two processes starting at once apply each migration exactly once.
 */
function migrate(db: Database, migrations: readonly Migration[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)')
  const newest = migrations.at(-1)?.version ?? 0
  if (db.schemaVersion() > newest) {
    throw new AppErrorException(
      'storage',
      `${basename(db.path)} was written by a newer version of Embed Console (schema ${db.schemaVersion()}, this version knows ${newest}). Update the app to open it.`,
    )
  }
  for (const migration of migrations) {
    db.transaction(() => {
      // By version, not by the highest one: a migration merged after a later one still runs.
      if (db.get('SELECT 1 AS applied FROM schema_migrations WHERE version = ?', migration.version)) return
      migration.up(db)
      db.run(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
        migration.version,
        migration.name,
        new Date().toISOString(),
      )
    })
  }
}

function restrictToOwner(path: string): void {
  try {
    chmodSync(path, OWNER_ONLY)
  } catch {
    // Not there yet (WAL files appear on first write) or a file system without modes (Windows).
  }
}

/** SQLite's failures as sentences; the database's content is never quoted. */
export function storageError(error: unknown, path: string): Error {
  if (error instanceof AppErrorException) return error
  const code = (error as { code?: string }).code ?? ''
  const file = basename(path)
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new AppErrorException('storage', `${file} is busy: another process has been writing to it for too long. Try again.`)
  }
  if (code.startsWith('SQLITE_CONSTRAINT')) return error as Error
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return Object.assign(new AppErrorException('storage', `${file} is damaged or is not a database.`), { cause: error })
  }
  if (code.startsWith('SQLITE_FULL')) return new AppErrorException('storage', `The disk holding ${file} is full.`)
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_PERM')) {
    return new AppErrorException('storage', `${file} cannot be opened for writing: check the folder's permissions.`)
  }
  return error instanceof Error ? error : new Error(String(error))
}

/** A UNIQUE or PRIMARY KEY constraint broke: the row another process (or call) made first. */
export const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: string }).code ?? ''
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}
