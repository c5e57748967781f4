import { chmodSync, mkdirSync, renameSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import Libsql from 'libsql'
import { AppErrorException } from '../../src-shared/ipc/result'

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
   * `grouped` (a group commit): `work` is atomic on its own (a savepoint) but shares one commit
   * with the other grouped work of the same turn of the event loop: the commit comes when the
   * turn ends, or before any other transaction or write of this process, or after GROUP_MAX of
   * them. Until then it may be lost with the process, never half-written: only for what can be
   * done again (an idempotent call's record, with its journal row as the truth), with `committed()`
   * awaited before anything that depends on it leaves the process.
   */
  transaction<T>(work: () => T, options?: { durable?: boolean; grouped?: boolean }): T
  /** Resolves once the grouped work written so far is committed; rejects if that commit failed. */
  committed(): Promise<void>
  /**
   * A number that changes whenever this connection's view may have changed under what it read:
   * at the start of every write transaction (another process may have written before it) and at
   * every rollback. What a transaction read may be kept in memory while this number stays.
   */
  epoch(): number
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

/** A group commit holds at most this many transactions: its write lock and what a crash takes back stay small. */
const GROUP_MAX = 256

/** The grouped transactions not yet committed, what waits on their commit, and what runs after it. */
interface OpenGroup {
  size: number
  effects: Array<() => void>
  waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }>
  turn: ReturnType<typeof setImmediate>
}

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
    native = new Libsql(path, { timeout: options.busyTimeoutMs ?? BUSY_TIMEOUT_MS })
    native.pragma('journal_mode = WAL')
    // A commit reaches the write-ahead log before it returns, so it survives the process being
    // killed; only a power cut can take back the last ones, never the database's integrity.
    // fsyncing every commit (FULL) blocked the main thread 0.3–3 ms a write on these machines.
    native.pragma('synchronous = NORMAL')
    native.pragma('foreign_keys = ON')
    if (options.secureDelete) native.pragma('secure_delete = ON')
  } catch (error) {
    throw storageError(error, path)
  }
  restrictToOwner(path)

  const statements = new Map<string, Statement>()
  const prepare = (sql: string): Statement => {
    let statement = statements.get(sql)
    if (!statement) {
      statement = native.prepare<SqlValue[]>(sql)
      statements.set(sql, statement)
    }
    return statement
  }
  let depth = 0
  let pendingEffects: Array<() => void> = []
  let group: OpenGroup | null = null
  let epoch = 0

  const guarded = <T>(work: () => T): T => {
    try {
      return work()
    } catch (error) {
      throw storageError(error, path)
    }
  }

  /** Commits the open group, if any: its effects run and its waiters are told, or rejected with why it failed. */
  const commitGroup = () => {
    const open = group
    if (!open) return
    group = null
    clearImmediate(open.turn)
    try {
      guarded(() => native.exec('COMMIT'))
    } catch (error) {
      if (native.inTransaction) {
        try {
          native.exec('ROLLBACK')
        } catch {
          // Rolled back by SQLite itself meanwhile.
        }
      }
      epoch += 1
      for (const waiter of open.waiters) waiter.reject(error)
      return
    }
    for (const effect of open.effects) effect()
    for (const waiter of open.waiters) waiter.resolve()
  }

  /** Grouped work joins the open group, or opens one that commits when this turn of the event loop ends. */
  const groupedTransaction = <T>(work: () => T): T => {
    if (!group) {
      epoch += 1
      guarded(() => native.exec('BEGIN IMMEDIATE'))
      group = { size: 0, effects: [], waiters: [], turn: setImmediate(commitGroup) }
    }
    const open = group
    depth += 1
    guarded(() => native.exec('SAVEPOINT grouped'))
    let result: T
    try {
      result = work()
    } catch (error) {
      depth -= 1
      pendingEffects = []
      epoch += 1
      native.exec('ROLLBACK TO grouped; RELEASE grouped')
      throw error
    }
    depth -= 1
    guarded(() => native.exec('RELEASE grouped'))
    open.effects.push(...pendingEffects)
    pendingEffects = []
    open.size += 1
    if (open.size >= GROUP_MAX) commitGroup()
    return result
  }

  const db: Database = {
    path,
    // A write outside a transaction commits on return, as it always did: the open group first.
    run: (sql, ...params) => {
      if (depth === 0) commitGroup()
      return guarded(() => prepare(sql).run(...params))
    },
    // A write that answers rows (UPDATE … RETURNING) commits on return like any other: the open group first.
    get: <T>(sql: string, ...params: SqlValue[]) => {
      if (depth === 0 && WRITES.test(sql)) commitGroup()
      return guarded(() => plainRow<T>(prepare(sql).get(...params)))
    },
    all: <T>(sql: string, ...params: SqlValue[]) => {
      if (depth === 0 && WRITES.test(sql)) commitGroup()
      return guarded(() => prepare(sql).all(...params) as T[])
    },
    exec: (sql) => {
      if (depth === 0) commitGroup()
      guarded(() => void native.exec(sql))
    },

    transaction<T>(work: () => T, options?: { durable?: boolean; grouped?: boolean }): T {
      const durable = options?.durable === true
      if (durable && depth > 0) throw new Error('A durable transaction must be the outermost one: its commit is what is synced.')
      if (options?.grouped && !durable && depth === 0) return groupedTransaction(work)
      // Any other transaction commits on return: the open group is committed before it begins.
      if (depth === 0) commitGroup()
      const savepoint = `sp${depth}`
      const effectsBefore = pendingEffects.length
      if (durable) guarded(() => native.pragma('synchronous = FULL'))
      const restore = () => {
        if (durable) native.pragma('synchronous = NORMAL')
      }
      if (depth === 0) epoch += 1
      try {
        guarded(() => native.exec(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`))
      } catch (error) {
        restore()
        throw error
      }
      depth += 1
      let result: T
      try {
        result = work()
      } catch (error) {
        depth -= 1
        pendingEffects.length = effectsBefore
        epoch += 1
        native.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`)
        restore()
        throw error
      }
      depth -= 1
      if (depth > 0) {
        guarded(() => native.exec(`RELEASE ${savepoint}`))
        return result
      }
      try {
        guarded(() => native.exec('COMMIT'))
      } catch (error) {
        // A commit that failed (a full disk) leaves the transaction open: end it, so the
        // connection is usable for the next call and nothing half-done is kept.
        epoch += 1
        if (native.inTransaction) {
          try {
            native.exec('ROLLBACK')
          } catch {
            // Rolled back by SQLite itself meanwhile.
          }
        }
        throw error
      } finally {
        restore()
      }
      const effects = pendingEffects
      pendingEffects = []
      for (const effect of effects) effect()
      return result
    },

    epoch: () => epoch,

    committed() {
      const open = group
      return open ? new Promise<void>((resolve, reject) => open.waiters.push({ resolve, reject })) : Promise.resolve()
    },

    afterCommit(effect) {
      if (depth === 0) effect()
      else pendingEffects.push(effect)
    },

    checkpoint() {
      if (depth > 0) return db.afterCommit(() => db.checkpoint())
      commitGroup()
      try {
        native.pragma('wal_checkpoint(TRUNCATE)')
      } catch {
        // Busy with another process's read: its next checkpoint will do.
      }
    },

    schemaVersion: () => db.get<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations')?.version ?? 0,

    close() {
      if (native.open) commitGroup()
      statements.clear()
      if (native.open) native.close()
    },
  }

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
