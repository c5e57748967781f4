import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { openAppDatabase } from '../../../src-main/app-database'
import type { SafeStorageLike } from '../../../src-main/ports'
import { insertImportedSecret, openSecretVault } from '../../../src-main/profiles/vault'
import { failureOf } from '../../helpers/failure-of'
import { databasePath, fakeSafeStorage, fileMode, storedSecretKeys, tempDataDir } from './helpers'

const SECRET = 'tok-7f3a9c1e5b2d4a6c8e0f'
const KEY = 'profile:p1:api-token'

/** A vault over the folder's database, as a new start (or another process) opens it. */
function open(dataDir: string, safeStorage?: SafeStorageLike) {
  const db = openAppDatabase(dataDir)
  return Object.assign(openSecretVault({ db, safeStorage, platform: 'linux' }), { db })
}

const row = (vault: ReturnType<typeof open>, key: string) =>
  vault.db.get<{ storage: string; ciphertext: string | null; backend: string | null; secret: string | null; last4: string | null }>(
    'SELECT storage, ciphertext, backend, secret, last4 FROM secrets WHERE key = ?',
    key,
  )

/** The database and its write-ahead log, as bytes: what anyone reading the folder could see. */
const bytesOnDisk = async (dataDir: string) =>
  Buffer.concat([await readFile(databasePath(dataDir)), await readFile(`${databasePath(dataDir)}-wal`).catch(() => Buffer.alloc(0))])

describe('vault status', () => {
  it('offers the keychain when safeStorage works with a real backend', async () => {
    const vault = await open(await tempDataDir(), fakeSafeStorage())
    expect(vault.status()).toEqual({
      encryptionAvailable: true,
      backend: 'gnome_libsecret',
      message: 'Tokens are encrypted with the system keychain (gnome_libsecret).',
    })
  })

  it('says plainly that there is no keychain without safeStorage (browser mode, CLI)', async () => {
    const status = (await open(await tempDataDir())).status()
    expect(status).toMatchObject({ encryptionAvailable: false, backend: 'none' })
    expect(status.message).toBe(
      'No system keychain is available here, so tokens cannot be encrypted at rest. Choose: keep the token for this session only, or store it in an owner-only file, unencrypted.',
    )
  })

  it('does not count basic_text (a key built into Chromium) as encryption', async () => {
    const status = (await open(await tempDataDir(), fakeSafeStorage({ backend: 'basic_text' }))).status()
    expect(status).toMatchObject({ encryptionAvailable: false, backend: 'basic_text' })
    expect(status.message).toMatch(/cannot be encrypted at rest/)
  })

  it('is unavailable when safeStorage says encryption is', async () => {
    const status = (await open(await tempDataDir(), fakeSafeStorage({ available: false }))).status()
    expect(status.encryptionAvailable).toBe(false)
  })

  it('names the platform keychain outside Linux, where safeStorage has no backend name', async () => {
    const vault = openSecretVault({ db: openAppDatabase(await tempDataDir()), safeStorage: fakeSafeStorage(), platform: 'darwin' })
    expect(vault.status().backend).toBe('macos_keychain')
  })
})

describe('keychain storage', () => {
  it('keeps the secret encrypted, alone in its row of an owner-only database, and reads it back after a restart', async () => {
    const dataDir = await tempDataDir()
    open(dataDir, fakeSafeStorage()).set(KEY, SECRET, 'keychain')

    const stored = row(open(dataDir, fakeSafeStorage()), KEY)
    expect(stored).toMatchObject({ storage: 'keychain', backend: 'gnome_libsecret', secret: null, last4: SECRET.slice(-4) })
    expect(fakeSafeStorage().decryptString(Buffer.from(stored!.ciphertext!, 'base64'))).toBe(SECRET)
    expect((await bytesOnDisk(dataDir)).includes(SECRET)).toBe(false)
    expect(await fileMode(databasePath(dataDir))).toBe(0o600)

    const reopened = open(dataDir, fakeSafeStorage())
    expect(reopened.get(KEY)).toBe(SECRET)
    expect(reopened.describe(KEY)).toEqual({ set: true, storage: 'keychain', last4: SECRET.slice(-4) })
  })

  it('refuses the keychain where there is none, with the status sentence, and stores nothing', async () => {
    const vault = open(await tempDataDir())
    const error = await failureOf(() => vault.set(KEY, SECRET, 'keychain'))
    expect(error.code).toBe('refused')
    expect(error.message).toBe(vault.status().message)
    expect(vault.has(KEY)).toBe(false)
    expect(storedSecretKeys(vault.db)).toEqual([])
  })

  it('describes a keychain secret it cannot reach (browser mode) and explains why it cannot give it', async () => {
    const dataDir = await tempDataDir()
    open(dataDir, fakeSafeStorage()).set(KEY, SECRET, 'keychain')
    const browserVault = open(dataDir)
    expect(browserVault.describe(KEY)).toMatchObject({ set: true, storage: 'keychain' })
    const error = await failureOf(() => browserVault.get(KEY))
    expect(error.code).toBe('refused')
    expect(error.message).toMatch(/cannot be reached here/)
  })

  it('says so when the keychain can no longer decrypt a secret', async () => {
    const dataDir = await tempDataDir()
    open(dataDir, fakeSafeStorage({ key: 1 })).set(KEY, SECRET, 'keychain')
    const error = await failureOf(() => open(dataDir, fakeSafeStorage({ key: 2 })).get(KEY))
    expect(error.message).toMatch(/could not be decrypted/)
  })
})

describe('unencrypted storage (no keychain)', () => {
  it('keeps the secret in its row, marked unencrypted, where no keychain exists', async () => {
    const dataDir = await tempDataDir()
    open(dataDir).set(KEY, SECRET, 'file')
    const vault = open(dataDir)
    expect(row(vault, KEY)).toMatchObject({ storage: 'file', secret: SECRET, ciphertext: null })
    expect(vault.get(KEY)).toBe(SECRET)
    expect(await fileMode(databasePath(dataDir))).toBe(0o600)
  })

  it('is refused where a keychain is available: nothing is kept in clear then', async () => {
    const vault = open(await tempDataDir(), fakeSafeStorage())
    const error = await failureOf(() => vault.set(KEY, SECRET, 'file'))
    expect(error.code).toBe('refused')
    expect(storedSecretKeys(vault.db)).toEqual([])
  })

  it('is encrypted on the first start that has a keychain, and its clear text is gone from the files', async () => {
    const dataDir = await tempDataDir()
    open(dataDir).set(KEY, SECRET, 'file')
    open(dataDir).set('profile:p2:api-token', `${SECRET}-2`, 'file')
    expect((await bytesOnDisk(dataDir)).includes(SECRET)).toBe(true)

    const desktop = open(dataDir, fakeSafeStorage())
    expect(desktop.notices()).toEqual([
      '2 tokens kept unencrypted on this machine are now encrypted with the system keychain (gnome_libsecret).',
    ])
    expect(row(desktop, KEY)).toMatchObject({ storage: 'keychain', secret: null })
    expect(desktop.get(KEY)).toBe(SECRET)
    expect((await bytesOnDisk(dataDir)).includes(SECRET)).toBe(false)
  })
})

describe('session storage', () => {
  it('keeps the secret in memory only: nothing in the database, and gone after a restart', async () => {
    const dataDir = await tempDataDir()
    const vault = open(dataDir, fakeSafeStorage())
    vault.set(KEY, SECRET, 'session')
    expect(vault.get(KEY)).toBe(SECRET)
    expect(vault.describe(KEY)).toEqual({ set: true, storage: 'session', last4: SECRET.slice(-4) })
    expect(storedSecretKeys(vault.db)).toEqual([])
    expect((await bytesOnDisk(dataDir)).includes(SECRET)).toBe(false)

    const restarted = open(dataDir, fakeSafeStorage())
    expect(restarted.has(KEY)).toBe(false)
    expect(restarted.get(KEY)).toBeNull()
  })
})

describe('secrets across places', () => {
  it('keeps one place per key: moving a secret to the session removes its row', async () => {
    const vault = open(await tempDataDir(), fakeSafeStorage())
    vault.set(KEY, SECRET, 'keychain')
    expect(vault.describe(KEY).storage).toBe('keychain')
    vault.set(KEY, SECRET, 'session')
    expect(storedSecretKeys(vault.db)).toEqual([])
    vault.set(KEY, SECRET, 'keychain')
    expect(vault.describe(KEY).storage).toBe('keychain')
  })

  it('says where several secrets are kept at once, as describe says it of each', async () => {
    const vault = open(await tempDataDir(), fakeSafeStorage())
    vault.set(KEY, SECRET, 'keychain')
    vault.set('group:p1:acme:token', 'group-token-0123456789', 'session')
    const keys = [KEY, 'group:p1:acme:token', 'group:p1:none:token']
    expect(vault.storagesOf(...keys)).toEqual(['keychain', 'session', 'none'])
    expect(vault.storagesOf(...keys)).toEqual(keys.map((key) => vault.describe(key).storage))
    expect(vault.storagesOf('group:p1:acme:token')).toEqual(['session'])
  })

  it('shows no tail for a short secret', async () => {
    const vault = open(await tempDataDir())
    vault.set(KEY, 'short123', 'session')
    expect(vault.describe(KEY)).toEqual({ set: true, storage: 'session' })
    expect(vault.describe('profile:none:api-token')).toEqual({ set: false, storage: 'none' })
  })

  it('copies a secret to another key in the same place, and deletes several at once', async () => {
    const dataDir = await tempDataDir()
    const vault = open(dataDir, fakeSafeStorage())
    vault.set(KEY, SECRET, 'keychain')
    expect(vault.copy(KEY, 'profile:p2:api-token')).toBe(true)
    expect(vault.copy('profile:missing:api-token', 'profile:p3:api-token')).toBe(false)
    expect(vault.describe('profile:p2:api-token').storage).toBe('keychain')
    expect(vault.get('profile:p2:api-token')).toBe(SECRET)

    vault.delete(KEY, 'profile:p2:api-token')
    expect(storedSecretKeys(vault.db)).toEqual([])
    const ciphertext = row(open(dataDir, fakeSafeStorage()), KEY)?.ciphertext
    expect(ciphertext).toBeUndefined()
  })

  it('a copy replaces whatever the destination held, an older session secret or row included', async () => {
    const vault = open(await tempDataDir(), fakeSafeStorage())
    const DEST = 'profile:p2:api-token'
    vault.set(KEY, SECRET, 'keychain')
    vault.set(DEST, 'old-session-copy-0000', 'session')
    expect(vault.copy(KEY, DEST)).toBe(true)
    expect(vault.get(DEST)).toBe(SECRET)
    expect(vault.describe(DEST)).toEqual({ set: true, storage: 'keychain', last4: SECRET.slice(-4) })

    // From a session secret over a stored row: the row goes, the session copy is the one read.
    vault.set('profile:p3:api-token', 'session-source-secret-3333', 'session')
    expect(vault.copy('profile:p3:api-token', DEST)).toBe(true)
    expect(vault.get(DEST)).toBe('session-source-secret-3333')
    expect(storedSecretKeys(vault.db)).toEqual([KEY])

    // From nothing: the destination ends empty, whatever it held.
    vault.set(DEST, 'old-row-secret-4444', 'keychain')
    expect(vault.copy('profile:missing:api-token', DEST)).toBe(false)
    expect(vault.has(DEST)).toBe(false)
    vault.set(DEST, 'old-session-secret-5555', 'session')
    expect(vault.copy('profile:missing:api-token', DEST)).toBe(false)
    expect(vault.get(DEST)).toBeNull()
  })

  it('a write that fails inside a transaction leaves neither the row nor the session copy', async () => {
    const vault = open(await tempDataDir(), fakeSafeStorage())
    vault.set(KEY, 'old-session-secret-1234', 'session')
    expect(() =>
      vault.db.transaction(() => {
        vault.set(KEY, SECRET, 'keychain')
        throw new Error('the catalog write failed')
      }),
    ).toThrow('the catalog write failed')
    expect(vault.get(KEY)).toBe('old-session-secret-1234')
    expect(storedSecretKeys(vault.db)).toEqual([])
  })

  it('a move to the session that fails inside a transaction keeps the stored secret, and no session copy', async () => {
    const vault = open(await tempDataDir(), fakeSafeStorage())
    vault.set(KEY, SECRET, 'keychain')
    expect(() =>
      vault.db.transaction(() => {
        vault.set(KEY, 'new-session-secret-6789', 'session')
        throw new Error('the catalog write failed')
      }),
    ).toThrow('the catalog write failed')
    expect(vault.get(KEY)).toBe(SECRET)
    expect(vault.describe(KEY).storage).toBe('keychain')
  })
})

describe('the vault, case by case', () => {
  it('says one token in the singular when it encrypts it, and nothing when there was none to encrypt', async () => {
    const dataDir = await tempDataDir()
    expect(open(dataDir, fakeSafeStorage()).notices()).toEqual([])
    open(dataDir).set(KEY, SECRET, 'file')
    expect(open(dataDir, fakeSafeStorage()).notices()).toEqual([
      'A token kept unencrypted on this machine is now encrypted with the system keychain (gnome_libsecret).',
    ])
  })

  it('keeps a short secret (no tail to show) in a file or for the session, and forgets a deleted session secret', async () => {
    const vault = open(await tempDataDir())
    vault.set('short-file', 'abc', 'file')
    vault.set('short-session', 'xyz', 'session')
    expect(vault.describe('short-file')).toEqual({ set: true, storage: 'file' })
    expect(vault.describe('short-session')).toEqual({ set: true, storage: 'session' })
    expect(vault.get('short-file')).toBe('abc')
    expect(vault.get('short-session')).toBe('xyz')
    vault.delete('short-session', 'short-file')
    expect(vault.get('short-session')).toBeNull()
    expect(vault.get('short-file')).toBeNull()
    expect(vault.describe('short-session')).toEqual({ set: false, storage: 'none' })
  })

  it('imports a secret of an earlier release once, with its tail; a key already here wins', async () => {
    const vault = open(await tempDataDir())
    expect(insertImportedSecret(vault.db, KEY, { secret: SECRET }, '4a6c', '2026-01-01T00:00:00.000Z')).toBe(true)
    expect(insertImportedSecret(vault.db, KEY, { secret: 'other' }, undefined, '2026-01-02T00:00:00.000Z')).toBe(false)
    expect(vault.get(KEY)).toBe(SECRET)
    expect(vault.describe(KEY)).toEqual({ set: true, storage: 'file', last4: '4a6c' })
  })
})

describe('the secrets the vault knows (what stored fields are redacted of)', () => {
  const found = (vault: ReturnType<typeof open>, text: string) => vault.knownSecrets().findIn(text, [], true)

  it('knows every kept secret, encrypted or in clear or for the session, tagged with its key', async () => {
    const dataDir = await tempDataDir()
    const vault = open(dataDir, fakeSafeStorage())
    vault.set(KEY, SECRET, 'keychain')
    vault.set('group:p1:acme:token', 'group-token-0123456789', 'session')
    expect(found(vault, `x ${SECRET.toUpperCase()} y`)).toBe(SECRET)
    expect(vault.knownSecrets().tagOf(SECRET)).toBe(KEY)
    expect(found(vault, 'group-token-0123456789')).toBe('group-token-0123456789')
    // A fresh start reads the encrypted one back through the keychain.
    expect(found(open(dataDir, fakeSafeStorage()), SECRET)).toBe(SECRET)
  })

  it('learns what another process kept since it last looked, and only that', async () => {
    const dataDir = await tempDataDir()
    const here = open(dataDir)
    const there = open(dataDir)
    expect(here.knownSecrets().size).toBe(0)
    there.set('group:p1:first:token', 'first-group-token-kept-there', 'file')
    there.set('group:p1:first:token', 'first-group-token-rotated-there', 'file')
    expect(found(here, 'first-group-token-kept-there')).toBeUndefined()
    expect(found(here, 'first-group-token-rotated-there')).toBe('first-group-token-rotated-there')
    const read: string[] = []
    const spy = here.db.all.bind(here.db)
    here.db.all = <T>(sql: string, ...params: Parameters<typeof spy>[1][]) => {
      read.push(sql)
      return spy<T>(sql, ...params)
    }
    here.knownSecrets()
    expect(read).toEqual([])
  })

  it('does not search for a group token too short to protect anything', async () => {
    const vault = open(await tempDataDir())
    vault.set('group:p1:short:token', 'abc1234', 'session')
    vault.set('profile:p1:api-token', 'abc1', 'session')
    expect(vault.knownSecrets().size).toBe(1)
    // The API token is searched however short; a group token from 8 characters on.
    expect(vault.knownSecrets().tagOf('abc1')).toBe('profile:p1:api-token')
    expect(vault.knownSecrets().tagOf('abc1234')).toBeUndefined()
    vault.set('group:p1:eight:token', 'abcd5678', 'session')
    expect(found(vault, 'x abcd5678 y')).toBe('abcd5678')
  })

  it('learns each secret another process keeps, however many times it looked before', async () => {
    const dataDir = await tempDataDir()
    const here = open(dataDir)
    const there = open(dataDir)
    for (const name of ['first', 'second', 'third']) {
      there.set(`group:p1:${name}:token`, `${name}-group-token-kept-there`, 'file')
      expect(found(here, `${name}-group-token-kept-there`)).toBe(`${name}-group-token-kept-there`)
    }
  })
})

describe('how often the vault looks for secrets another process kept', () => {
  const found = (vault: ReturnType<typeof open>, text: string) => vault.knownSecrets().findIn(text, [], true)

  /** The reads of secret_changes `vault` makes while `work` runs. */
  function looks(vault: ReturnType<typeof open>, work: () => void): number {
    let count = 0
    const get = vault.db.get.bind(vault.db)
    vault.db.get = <T>(sql: string, ...params: Parameters<typeof get>[1][]) => {
      if (sql.includes('secret_changes')) count += 1
      return get<T>(sql, ...params)
    }
    try {
      work()
    } finally {
      vault.db.get = get
    }
    return count
  }

  it('looks once a write transaction, however often it is asked there', async () => {
    const vault = open(await tempDataDir())
    vault.knownSecrets()
    expect(looks(vault, () => vault.db.transaction(() => [1, 2, 3].forEach(() => vault.knownSecrets())))).toBe(1)
    expect(looks(vault, () => [1, 2].forEach(() => vault.knownSecrets()))).toBe(2)
  })

  it('looks again in the next transaction: what another process kept between the two is known there', async () => {
    const dataDir = await tempDataDir()
    const here = open(dataDir)
    const there = open(dataDir)
    here.db.transaction(() => here.knownSecrets())
    there.set('group:p1:between:token', 'group-token-kept-between-two-transactions', 'file')
    here.db.transaction(() => {
      expect(found(here, 'group-token-kept-between-two-transactions')).toBe('group-token-kept-between-two-transactions')
    })
  })

  it('does not read back a secret it kept itself, in a transaction of its own or in a larger one', async () => {
    const vault = open(await tempDataDir())
    vault.knownSecrets()
    vault.set('group:p1:own:token', 'group-token-kept-here-0123456789', 'file')
    vault.db.transaction(() => vault.set('group:p1:other:token', 'group-token-kept-here-9876543210', 'file'))
    const read: string[] = []
    const all = vault.db.all.bind(vault.db)
    vault.db.all = <T>(sql: string, ...params: Parameters<typeof all>[1][]) => {
      read.push(sql)
      return all<T>(sql, ...params)
    }
    expect(found(vault, 'group-token-kept-here-0123456789')).toBe('group-token-kept-here-0123456789')
    expect(found(vault, 'group-token-kept-here-9876543210')).toBe('group-token-kept-here-9876543210')
    expect(read).toEqual([])
  })

  it('learns what another process kept before this one keeps a secret of its own', async () => {
    const dataDir = await tempDataDir()
    const here = open(dataDir)
    const there = open(dataDir)
    here.knownSecrets()
    there.set('group:p1:there:token', 'group-token-kept-there-first', 'file')
    here.set('group:p1:here:token', 'group-token-kept-here-after', 'file')
    expect(found(here, 'group-token-kept-there-first')).toBe('group-token-kept-there-first')
  })

  it('counts its own write as read only once it commits: a rolled-back one leaves its number to the next secret', async () => {
    const dataDir = await tempDataDir()
    const here = open(dataDir)
    const there = open(dataDir)
    here.knownSecrets()
    expect(() =>
      here.db.transaction(() => {
        here.set('group:p1:undone:token', 'group-token-rolled-back-here', 'file')
        throw new Error('undone')
      }),
    ).toThrow('undone')
    there.set('group:p1:there:token', 'group-token-kept-there-after-the-rollback', 'file')
    expect(found(here, 'group-token-kept-there-after-the-rollback')).toBe('group-token-kept-there-after-the-rollback')
  })

  it('looks again outside a transaction after one: the epoch does not change when another process commits', async () => {
    const dataDir = await tempDataDir()
    const here = open(dataDir)
    const there = open(dataDir)
    here.db.transaction(() => here.knownSecrets())
    there.set('group:p1:after:token', 'group-token-kept-after-the-transaction', 'file')
    expect(found(here, 'group-token-kept-after-the-transaction')).toBe('group-token-kept-after-the-transaction')
  })
})
