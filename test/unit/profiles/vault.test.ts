import { readFile, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openSecretVault, PLAINTEXT_VAULT_FILE, VAULT_FILE } from '../../../src-main/profiles/vault'
import { fakeSafeStorage, fileMode, filesUnder, tempDataDir } from './helpers'
import type { SafeStorageLike } from '../../../src-main/app-services'
import { failureOf } from '../../helpers/failure-of'

const SECRET = 'tok-7f3a9c1e5b2d4a6c8e0f'
const KEY = 'profile:p1:api-token'

const open = (dataDir: string, safeStorage?: SafeStorageLike) => openSecretVault({ dataDir, safeStorage, platform: 'linux' })

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
    const vault = await openSecretVault({ dataDir: await tempDataDir(), safeStorage: fakeSafeStorage(), platform: 'darwin' })
    expect(vault.status().backend).toBe('macos_keychain')
  })
})

describe('keychain storage', () => {
  it('keeps the secret encrypted in an owner-only vault.json, and reads it back after a restart', async () => {
    const dataDir = await tempDataDir()
    await (await open(dataDir, fakeSafeStorage())).set(KEY, SECRET, 'keychain')

    const text = await readFile(join(dataDir, VAULT_FILE), 'utf8')
    expect(text).not.toContain(SECRET)
    expect(JSON.parse(text)).toMatchObject({
      encrypted: true,
      encryptedBy: 'electron-safeStorage',
      entries: { [KEY]: { backend: 'gnome_libsecret', last4: SECRET.slice(-4) } },
    })
    expect(await fileMode(join(dataDir, VAULT_FILE))).toBe(0o600)

    const reopened = await open(dataDir, fakeSafeStorage())
    expect(await reopened.get(KEY)).toBe(SECRET)
    expect(reopened.describe(KEY)).toEqual({ set: true, storage: 'keychain', last4: SECRET.slice(-4) })
  })

  it('refuses the keychain where there is none, with the status sentence, and writes nothing', async () => {
    const dataDir = await tempDataDir()
    const vault = await open(dataDir)
    const error = await failureOf(vault.set(KEY, SECRET, 'keychain'))
    expect(error.code).toBe('refused')
    expect(error.message).toBe(vault.status().message)
    expect(vault.has(KEY)).toBe(false)
    expect(await filesUnder(dataDir)).toEqual([])
  })

  it('describes a keychain secret it cannot reach (browser mode) and explains why it cannot give it', async () => {
    const dataDir = await tempDataDir()
    await (await open(dataDir, fakeSafeStorage())).set(KEY, SECRET, 'keychain')
    const browserVault = await open(dataDir)
    expect(browserVault.describe(KEY)).toMatchObject({ set: true, storage: 'keychain' })
    const error = await failureOf(browserVault.get(KEY))
    expect(error.code).toBe('refused')
    expect(error.message).toMatch(/cannot be reached here/)
  })

  it('says so when the keychain can no longer decrypt a secret', async () => {
    const dataDir = await tempDataDir()
    await (await open(dataDir, fakeSafeStorage({ key: 1 }))).set(KEY, SECRET, 'keychain')
    const error = await failureOf((await open(dataDir, fakeSafeStorage({ key: 2 }))).get(KEY))
    expect(error.message).toMatch(/could not be decrypted/)
  })
})

describe('file storage (no keychain)', () => {
  it('writes an owner-only vault.plain.json that says it is not encrypted', async () => {
    const dataDir = await tempDataDir()
    await (await open(dataDir)).set(KEY, SECRET, 'file')
    const path = join(dataDir, PLAINTEXT_VAULT_FILE)
    expect(await fileMode(path)).toBe(0o600)
    const file = JSON.parse(await readFile(path, 'utf8'))
    expect(file).toMatchObject({ encrypted: false, entries: { [KEY]: { secret: SECRET } } })
    expect(file.note).toMatch(/NOT ENCRYPTED/)
    expect(await (await open(dataDir)).get(KEY)).toBe(SECRET)
  })
})

describe('session storage', () => {
  it('keeps the secret in memory only: no file, and gone after a restart', async () => {
    const dataDir = await tempDataDir()
    const vault = await open(dataDir, fakeSafeStorage())
    await vault.set(KEY, SECRET, 'session')
    expect(await vault.get(KEY)).toBe(SECRET)
    expect(vault.describe(KEY)).toEqual({ set: true, storage: 'session', last4: SECRET.slice(-4) })
    expect(await filesUnder(dataDir)).toEqual([])

    const restarted = await open(dataDir, fakeSafeStorage())
    expect(restarted.has(KEY)).toBe(false)
    expect(await restarted.get(KEY)).toBeNull()
  })
})

describe('secrets across places', () => {
  it('keeps one place per key: moving a secret removes it from the old file, and an empty file goes away', async () => {
    const dataDir = await tempDataDir()
    const vault = await open(dataDir, fakeSafeStorage())
    await vault.set(KEY, SECRET, 'file')
    await vault.set(KEY, SECRET, 'keychain')
    expect(existsSync(join(dataDir, PLAINTEXT_VAULT_FILE))).toBe(false)
    expect(vault.describe(KEY).storage).toBe('keychain')

    await vault.set(KEY, SECRET, 'session')
    expect(existsSync(join(dataDir, VAULT_FILE))).toBe(false)
  })

  it('shows no tail for a short secret', async () => {
    const vault = await open(await tempDataDir())
    await vault.set(KEY, 'short123', 'session')
    expect(vault.describe(KEY)).toEqual({ set: true, storage: 'session' })
    expect(vault.describe('profile:none:api-token')).toEqual({ set: false, storage: 'none' })
  })

  it('copies a secret to another key in the same place, and deletes several at once', async () => {
    const dataDir = await tempDataDir()
    const vault = await open(dataDir, fakeSafeStorage())
    await vault.set(KEY, SECRET, 'keychain')
    expect(await vault.copy(KEY, 'profile:p2:api-token')).toBe(true)
    expect(await vault.copy('profile:missing:api-token', 'profile:p3:api-token')).toBe(false)
    expect(vault.describe('profile:p2:api-token').storage).toBe('keychain')
    expect(await vault.get('profile:p2:api-token')).toBe(SECRET)

    await vault.delete(KEY, 'profile:p2:api-token')
    expect(vault.keys()).toEqual([])
    expect(await filesUnder(dataDir)).toEqual([])
  })

  it('keeps every change when several are made at once', async () => {
    const dataDir = await tempDataDir()
    const vault = await open(dataDir)
    await Promise.all(Array.from({ length: 20 }, (_, n) => vault.set(`profile:p${n}:api-token`, `${SECRET}-${n}`, 'file')))
    expect((await open(dataDir)).keys()).toHaveLength(20)
  })
})

describe('an unreadable vault file', () => {
  it('is moved aside and reported, without quoting its content', async () => {
    const dataDir = await tempDataDir()
    await writeFile(join(dataDir, PLAINTEXT_VAULT_FILE), `{"entries": {"${KEY}": "${SECRET}"`, { mode: 0o600 })
    const vault = await open(dataDir)
    expect(vault.keys()).toEqual([])
    const [notice] = vault.notices()
    expect(notice).toMatch(/vault\.plain\.json could not be read \(it is not valid JSON\)\. It was moved aside to vault\.plain\.json\.corrupt-/)
    expect(notice).not.toContain(SECRET)
    const files = await filesUnder(dataDir)
    expect(files.map((file) => file.name)).toEqual([expect.stringMatching(/^vault\.plain\.json\.corrupt-\d{4}-\d\d-\d\dT/)])
  })
})
