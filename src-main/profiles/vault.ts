import { AppErrorException } from '../../src-shared/ipc/result'
import { type TokenState, type TokenStorage, type VaultStatus, visibleTail } from '../../src-shared/profiles/schemas'
import type { SafeStorageLike } from '../ports'
import type { Database } from '../storage/database'
import { SecretMatcher } from '../user-api/secret-matcher'
import { createKeychain } from './keychain'
import { keptSecretOf, MIN_SEARCHED_GROUP_TOKEN_LENGTH, secretKeyRange } from './vault-keys'

/**
 * Every secret the app holds (API tokens, user group tokens), by key (see vault-keys.ts), in the
 * place the operator chose for it: a row of the app database per secret, encrypted on its own
 * with the system keychain, or (where there is none, and the operator chose it) in clear in that
 * owner-only database; or only in this process's memory for the session. Secrets leave it only
 * through `get`, for main-side callers; `describe` is what may be shown.
 *
 * Calls are synchronous so that a secret and the rows that go with it (a rotated group token and
 * its catalog entry) can be written in one database transaction.
 */
export interface SecretVault {
  status(): VaultStatus
  set(key: string, secret: string, storage: TokenStorage): void
  get(key: string): string | null
  has(key: string): boolean
  describe(key: string): TokenState
  /** Where each of these secrets is kept ('none' for one that is not), read in one statement. */
  storagesOf(...keys: string[]): Array<TokenStorage | 'none'>
  /**
   * Makes `toKey` hold what `fromKey` holds, in the same place, without decrypting it: whatever
   * `toKey` held before is gone (an older session copy too), and it holds nothing when `fromKey`
   * holds nothing (then the answer is false).
   */
  copy(fromKey: string, toKey: string): boolean
  delete(...keys: string[]): void
  /** Every secret of one profile: its API token and its groups' tokens. */
  deleteProfileSecrets(profileId: string): void
  /** Keys of the secrets kept for this session only (in memory): never in the database. */
  sessionKeys(): string[]
  /** Sentences for the operator about this launch. */
  notices(): string[]
  /**
   * Every secret kept, by any process on this folder (session ones of this process included),
   * each tagged with its key: what every stored field is redacted of, and what a request may not
   * carry. Read whole the first time, then only what was kept since (looked for at every ask
   * outside a write transaction, once a transaction inside one); a secret deleted stays known
   * (redacting it costs nothing, and it was a secret).
   */
  knownSecrets(): SecretMatcher
}

/** What a secret's row says of it that a read needs: its place and what decrypts to it. */
interface SecretRow {
  storage: 'keychain' | 'file'
  ciphertext: string | null
  secret: string | null
}

interface SessionSecret {
  secret: string
  last4?: string
}

export interface SecretVaultOptions {
  db: Database
  /** Electron's safeStorage in the desktop app; absent in browser mode and the CLI. */
  safeStorage?: SafeStorageLike
  platform?: NodeJS.Platform
  now?: () => Date
}

export function openSecretVault(options: SecretVaultOptions): SecretVault {
  const { db } = options
  const keychain = createKeychain(options.safeStorage, options.platform)
  const now = options.now ?? (() => new Date())
  const notices: string[] = []
  // Session secrets live in this process only; the database never sees them.
  const session = new Map<string, SessionSecret>()

  // Each question reads the columns it needs alone: libsql makes every column read a property of the row.
  const row = (key: string) => db.get<SecretRow>('SELECT storage, ciphertext, secret FROM secrets WHERE key = ?', key)
  const place = (key: string) =>
    db.get<Pick<SecretRow, 'storage'> & { last4: string | null }>('SELECT storage, last4 FROM secrets WHERE key = ?', key)

  function writeRow(key: string, secret: string, storage: 'keychain' | 'file') {
    const updatedAt = now().toISOString()
    const last4 = visibleTail(secret) ?? null
    if (storage === 'keychain') {
      const { ciphertext, backend } = keychain.encrypt(secret)
      db.run(
        `INSERT INTO secrets (key, storage, ciphertext, backend, secret, last4, updated_at) VALUES (?, 'keychain', ?, ?, NULL, ?, ?)
         ON CONFLICT (key) DO UPDATE SET storage = excluded.storage, ciphertext = excluded.ciphertext, backend = excluded.backend,
           secret = NULL, last4 = excluded.last4, updated_at = excluded.updated_at`,
        key,
        ciphertext,
        backend,
        last4,
        updatedAt,
      )
      return
    }
    if (keychain.status().encryptionAvailable) {
      throw new AppErrorException(
        'refused',
        'The system keychain is available here, so tokens are encrypted with it: keeping one unencrypted is only offered where no keychain exists.',
      )
    }
    db.run(
      `INSERT INTO secrets (key, storage, ciphertext, backend, secret, last4, updated_at) VALUES (?, 'file', NULL, NULL, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET storage = 'file', ciphertext = NULL, backend = NULL, secret = excluded.secret,
         last4 = excluded.last4, updated_at = excluded.updated_at`,
      key,
      secret,
      last4,
      updatedAt,
    )
  }

  function decrypt(found: SecretRow): string {
    return found.storage === 'keychain' ? keychain.decrypt(found.ciphertext ?? '') : (found.secret ?? '')
  }

  // Where a keychain is available, nothing stays in clear: tokens kept unencrypted on a machine
  // that had none (or imported from such a file) are encrypted now, and their clear text is
  // overwritten (secure_delete) and checkpointed out of the write-ahead log.
  if (keychain.status().encryptionAvailable) {
    const clear = db.all<{ key: string; secret: string }>("SELECT key, secret FROM secrets WHERE storage = 'file'")
    if (clear.length > 0) {
      db.transaction(() => {
        for (const { key, secret } of clear) writeRow(key, secret, 'keychain')
      })
      db.checkpoint()
      notices.push(
        `${clear.length === 1 ? 'A token' : `${clear.length} tokens`} kept unencrypted on this machine ${clear.length === 1 ? 'is' : 'are'} now encrypted with the system keychain (${keychain.status().backend}).`,
      )
    }
  }

  const known = new SecretMatcher()
  /** The change number of secret_changes read up to; null until the secrets are first read. */
  let knownUpTo: number | null = null
  /** The write transaction (its epoch) in which secret_changes was last read; null when read outside one. */
  let lookedInEpoch: number | null = null
  const learn = (key: string, secret: string) => {
    if (keptSecretOf(key).kind === 'group-token' && secret.length < MIN_SEARCHED_GROUP_TOKEN_LENGTH) return
    known.add(secret, key)
  }

  /**
   * Inside a write transaction this process holds the write lock: no other process can keep a
   * secret until it ends, and this one learns its own as it keeps them (`set`). So one look a
   * transaction is enough; each transaction has an epoch of its own. Outside one, another
   * process may commit between any two reads, and the epoch does not say so: every ask looks.
   */
  function knownSecrets(): SecretMatcher {
    const inTransaction = db.inTransaction()
    if (inTransaction && lookedInEpoch === db.epoch()) return known
    learnSecretsKeptSince()
    lookedInEpoch = inTransaction ? db.epoch() : null
    return known
  }

  /** Reads the secrets kept (by any process) since the last look: all of them the first time. */
  function learnSecretsKeptSince(): void {
    const latest = db.get<{ n: number }>('SELECT n FROM secret_changes WHERE id = 1')?.n ?? 0
    if (knownUpTo !== null && latest <= knownUpTo) return
    const rows = db.all<SecretRow & { key: string }>(
      'SELECT key, storage, ciphertext, secret FROM secrets WHERE change > ?',
      knownUpTo ?? -1,
    )
    for (const found of rows) {
      try {
        learn(found.key, decrypt(found))
      } catch {
        // A secret this keychain cannot read (another user's, a changed keychain): nothing to search for.
      }
    }
    if (knownUpTo === null) for (const [key, { secret }] of session) learn(key, secret)
    knownUpTo = latest
  }

  /**
   * Called in a write transaction, after a look in it, once this process has written a secret it
   * learned as it kept it (set): the change numbers added since that look are this process's own
   * (it holds the write lock), so the next look need not read the secret back and decrypt it.
   * Counted as read once the transaction commits, not before: a rollback takes them back, and
   * another process's next secret would then get one of them.
   */
  function ownWriteKnown(): void {
    const upTo = db.get<{ n: number }>('SELECT n FROM secret_changes WHERE id = 1')?.n
    if (upTo === undefined) return
    db.afterCommit(() => {
      if (knownUpTo !== null && upTo > knownUpTo) knownUpTo = upTo
    })
  }

  const vault: SecretVault = {
    knownSecrets,
    status: () => keychain.status(),
    notices: () => [...notices],
    sessionKeys: () => [...session.keys()],
    has: (key) => session.has(key) || place(key) !== undefined,

    describe(key) {
      const inMemory = session.get(key)
      if (inMemory) return inMemory.last4 ? { set: true, storage: 'session', last4: inMemory.last4 } : { set: true, storage: 'session' }
      const found = place(key)
      if (!found) return { set: false, storage: 'none' }
      return found.last4 ? { set: true, storage: found.storage, last4: found.last4 } : { set: true, storage: found.storage }
    },

    storagesOf(...keys) {
      const stored = keys.every((key) => session.has(key))
        ? undefined
        : db.get<Record<string, 'keychain' | 'file' | null>>(
            `SELECT ${keys.map((_, index) => `(SELECT storage FROM secrets WHERE key = ?) AS s${index}`).join(', ')}`,
            ...keys,
          )
      return keys.map((key, index) => (session.has(key) ? 'session' : (stored?.[`s${index}`] ?? 'none')))
    },

    get(key) {
      const inMemory = session.get(key)
      if (inMemory) return inMemory.secret
      const found = row(key)
      return found ? decrypt(found) : null
    },

    set(key, secret, storage) {
      // Known at once, before the commit: what the same transaction records is redacted of it.
      learn(key, secret)
      db.transaction(() => {
        if (storage === 'session') {
          db.run('DELETE FROM secrets WHERE key = ?', key)
          const last4 = visibleTail(secret)
          db.afterCommit(() => session.set(key, last4 ? { secret, last4 } : { secret }))
          return
        }
        // What others kept is read first: then the change numbers this write adds are its own alone.
        knownSecrets()
        writeRow(key, secret, storage)
        ownWriteKnown()
        db.afterCommit(() => session.delete(key))
      })
    },

    copy(fromKey, toKey) {
      const inMemory = session.get(fromKey)
      if (inMemory) {
        vault.set(toKey, inMemory.secret, 'session')
        return true
      }
      return db.transaction(() => {
        const copied = db.run(
          `INSERT INTO secrets (key, storage, ciphertext, backend, secret, last4, updated_at)
             SELECT ?, storage, ciphertext, backend, secret, last4, ? FROM secrets WHERE key = ?
           ON CONFLICT (key) DO UPDATE SET storage = excluded.storage, ciphertext = excluded.ciphertext, backend = excluded.backend,
             secret = excluded.secret, last4 = excluded.last4, updated_at = excluded.updated_at`,
          toKey,
          now().toISOString(),
          fromKey,
        )
        // Nothing to copy: the destination is emptied rather than left holding an older secret.
        if (copied.changes === 0) db.run('DELETE FROM secrets WHERE key = ?', toKey)
        // A session secret would win over the row in `get`: the copy must not be shadowed by one.
        db.afterCommit(() => session.delete(toKey))
        return copied.changes > 0
      })
    },

    delete(...keys) {
      db.transaction(() => {
        for (const key of keys) db.run('DELETE FROM secrets WHERE key = ?', key)
        db.afterCommit(() => keys.forEach((key) => session.delete(key)))
        db.checkpoint()
      })
    },

    deleteProfileSecrets(profileId) {
      const ranges = secretKeyRange(profileId)
      db.transaction(() => {
        for (const [from, to] of ranges) db.run('DELETE FROM secrets WHERE key >= ? AND key < ?', from, to)
        db.afterCommit(() => {
          for (const key of session.keys()) if (ranges.some(([from, to]) => key >= from && key < to)) session.delete(key)
        })
        db.checkpoint()
      })
    },
  }
  return vault
}

/** A secret carried over from an earlier release's vault file, as it was stored; a key already here wins. */
export function insertImportedSecret(
  db: Database,
  key: string,
  stored: { ciphertext: string; backend: string } | { secret: string },
  last4: string | undefined,
  updatedAt: string,
): boolean {
  const keychain = 'ciphertext' in stored
  return (
    db.run(
      'INSERT OR IGNORE INTO secrets (key, storage, ciphertext, backend, secret, last4, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      key,
      keychain ? 'keychain' : 'file',
      keychain ? stored.ciphertext : null,
      keychain ? stored.backend : null,
      keychain ? null : stored.secret,
      last4 ?? null,
      updatedAt,
    ).changes > 0
  )
}
