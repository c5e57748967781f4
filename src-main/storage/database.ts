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

/** A batch of deferred work holds at most this many works, and waits at most this long for them. */
const DEFER_MAX = 256
const DEFER_MS = 100

/** Deferred work waiting for its batch (see Database.defer), and who waits on its commit. */
interface DeferredBatch {
  works: Array<{ work: () => void; onError?: (error: unknown) => void }>
  waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }>
  timer: ReturnType<typeof setTimeout>
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
    // A savepoint keeps the pages it changes in a journal of its own until it ends: in memory,
    // not in a temporary file (a deferred batch has a savepoint a record, each a few dozen pages).
    native.pragma('temp_store = MEMORY')
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
  let deferred: DeferredBatch | null = null
  /** The works a deferTogether is gathering, and whether a deferred work is running (its transactions join it). */
  let gathering: Array<() => void> | null = null
  let inDeferredWork = false
  let epoch = 0

  const guarded = <T>(work: () => T): T => {
    try {
      return work()
    } catch (error) {
      throw storageError(error, path)
    }
  }

  /** Writes the deferred batch before a write that commits on return, so this process's writes reach the file in order. */
  const settleOpen = () => writeDeferred()

  /** Writes the deferred batch: one transaction, a savepoint a work; a work that throws is rolled back alone. */
  const writeDeferred = () => {
    const batch = deferred
    if (!batch) return
    deferred = null
    clearTimeout(batch.timer)
    const failed = (error: unknown) => {
      for (const { onError } of batch.works) onError?.(error)
      for (const waiter of batch.waiters) waiter.reject(error)
    }
    epoch += 1
    try {
      guarded(() => native.exec('BEGIN IMMEDIATE'))
    } catch (error) {
      return failed(error)
    }
    depth += 1
    const effects: Array<() => void> = []
    for (const { work, onError } of batch.works) {
      try {
        guarded(() => native.exec('SAVEPOINT deferred'))
        inDeferredWork = true
        work()
        inDeferredWork = false
        guarded(() => native.exec('RELEASE deferred'))
        effects.push(...pendingEffects)
      } catch (error) {
        inDeferredWork = false
        epoch += 1
        if (native.inTransaction) native.exec('ROLLBACK TO deferred; RELEASE deferred')
        onError?.(error)
      }
      pendingEffects = []
    }
    depth -= 1
    try {
      guarded(() => native.exec('COMMIT'))
    } catch (error) {
      epoch += 1
      if (native.inTransaction) {
        try {
          native.exec('ROLLBACK')
        } catch {
          // Rolled back by SQLite itself meanwhile.
        }
      }
      return failed(error)
    }
    for (const effect of effects) effect()
    for (const waiter of batch.waiters) waiter.resolve()
  }

  const db: Database = {
    path,
    // A write outside a transaction commits on return, as it always did: the open group first.
    run: (sql, ...params) => {
      if (depth === 0) settleOpen()
      return guarded(() => prepare(sql).run(...params))
    },
    // A write that answers rows (UPDATE … RETURNING) commits on return like any other: the open group first.
    get: <T>(sql: string, ...params: SqlValue[]) => {
      if (depth === 0 && WRITES.test(sql)) settleOpen()
      return guarded(() => plainRow<T>(prepare(sql).get(...params)))
    },
    all: <T>(sql: string, ...params: SqlValue[]) => {
      if (depth === 0 && WRITES.test(sql)) settleOpen()
      return guarded(() => prepare(sql).all(...params) as T[])
    },
    exec: (sql) => {
      if (depth === 0) settleOpen()
      guarded(() => void native.exec(sql))
    },

    transaction<T>(work: () => T, options?: { durable?: boolean }): T {
      const durable = options?.durable === true
      if (durable && depth > 0) throw new Error('A durable transaction must be the outermost one: its commit is what is synced.')
      // Inside a deferred work: part of it, atomic with it (see defer).
      if (inDeferredWork) return work()
      // A transaction commits on return: the deferred batch is written before it begins.
      if (depth === 0) settleOpen()
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

    defer(work, onError) {
      if (gathering) return void gathering.push(work)
      // Inside a transaction, the work joins it.
      if (depth > 0) return work()
      if (!deferred) deferred = { works: [], waiters: [], timer: setTimeout(() => depth === 0 && settleOpen(), DEFER_MS) }
      deferred.works.push(onError ? { work, onError } : { work })
      if (deferred.works.length >= DEFER_MAX && depth === 0) settleOpen()
    },

    deferTogether(gather, onError) {
      const works: Array<() => void> = []
      const outer = gathering
      gathering = works
      try {
        gather()
      } finally {
        gathering = outer
      }
      if (works.length) db.defer(() => works.forEach((work) => work()), onError)
    },

    flush: () => {
      if (depth === 0) settleOpen()
    },

    committed() {
      const open = deferred
      return open ? new Promise<void>((resolve, reject) => open.waiters.push({ resolve, reject })) : Promise.resolve()
    },

    afterCommit(effect) {
      if (depth === 0) effect()
      else pendingEffects.push(effect)
    },

    checkpoint() {
      if (depth > 0) return db.afterCommit(() => db.checkpoint())
      settleOpen()
      try {
        native.pragma('wal_checkpoint(TRUNCATE)')
      } catch {
        // Busy with another process's read: its next checkpoint will do.
      }
    },

    schemaVersion: () => db.get<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations')?.version ?? 0,

    close() {
      if (native.open && depth === 0) settleOpen()
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
