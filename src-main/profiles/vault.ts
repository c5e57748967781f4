import { join } from 'node:path'
import { z } from 'zod'
import type { TokenState, TokenStorage, VaultStatus } from '../../src-shared/profiles/schemas'
import type { SafeStorageLike } from '../app-services'
import { ensureDataDir } from '../data-dir'
import { createKeychain } from './keychain'
import { readJsonFile, removeFile, writeJsonFile } from '../storage/json-file'
import { createSerialQueue } from '../storage/serial-queue'

/**
 * Every secret the app holds (API tokens, user group tokens), by key (see vault-keys.ts), in the
 * place the operator chose for it. Secrets leave it only through `get`, for main-side callers;
 * `describe` is what may be shown.
 */
export interface SecretVault {
  status(): VaultStatus
  set(key: string, secret: string, storage: TokenStorage): Promise<void>
  get(key: string): Promise<string | null>
  has(key: string): boolean
  describe(key: string): TokenState
  /** Copies a secret to another key, in the same place, without decrypting it. */
  copy(fromKey: string, toKey: string): Promise<boolean>
  delete(...keys: string[]): Promise<void>
  keys(): string[]
  /** Sentences for the operator about this launch, e.g. a vault file moved aside. */
  notices(): string[]
}

export const VAULT_FILE = 'vault.json'
export const PLAINTEXT_VAULT_FILE = 'vault.plain.json'

const FORMAT = 'embed-console-vault'

const KeychainVaultFileSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(1),
  encrypted: z.literal(true),
  encryptedBy: z.literal('electron-safeStorage'),
  note: z.string(),
  entries: z.record(
    z.string(),
    z.object({ ciphertext: z.base64(), backend: z.string(), last4: z.string().max(4).optional(), updatedAt: z.iso.datetime() }),
  ),
})

const PlaintextVaultFileSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(1),
  encrypted: z.literal(false),
  note: z.string(),
  entries: z.record(z.string(), z.object({ secret: z.string(), last4: z.string().max(4).optional(), updatedAt: z.iso.datetime() })),
})

const KEYCHAIN_NOTE =
  'Each secret is encrypted by Electron safeStorage with the system keychain named in its "backend"; without that keychain this file cannot be read.'
const PLAINTEXT_NOTE =
  'NOT ENCRYPTED. No system keychain was available, so the operator chose to keep these tokens as plain text in this owner-only (0600) file. Anyone who can read it can use them.'

// `last4` is kept beside the ciphertext so that listing profiles never asks the keychain
// (which can prompt the user on macOS); the renderer is shown those four characters anyway.
type Entry =
  | { storage: 'keychain'; ciphertext: string; backend: string; last4?: string; updatedAt: string }
  | { storage: 'file' | 'session'; secret: string; last4?: string; updatedAt: string }

/** Short secrets show no tail: four characters would give too much of them away. */
function lastFour(secret: string): { last4?: string } {
  return secret.length >= 12 ? { last4: secret.slice(-4) } : {}
}

export interface SecretVaultOptions {
  dataDir: string
  /** Electron's safeStorage in the desktop app; absent in browser mode and the CLI. */
  safeStorage?: SafeStorageLike
  platform?: NodeJS.Platform
  now?: () => Date
}

export async function openSecretVault(options: SecretVaultOptions): Promise<SecretVault> {
  const dataDir = ensureDataDir(options.dataDir)
  const keychain = createKeychain(options.safeStorage, options.platform)
  const now = options.now ?? (() => new Date())
  const keychainPath = join(dataDir, VAULT_FILE)
  const plaintextPath = join(dataDir, PLAINTEXT_VAULT_FILE)
  const runInTurn = createSerialQueue()
  const notices: string[] = []
  let entries = new Map<string, Entry>()

  const plaintextFile = await readJsonFile(plaintextPath, PlaintextVaultFileSchema, now)
  if (plaintextFile.state === 'read') {
    for (const [key, entry] of Object.entries(plaintextFile.value.entries)) entries.set(key, { storage: 'file', ...entry })
  }
  // Read second so that, should a move between the two files have been cut short, the
  // encrypted copy wins.
  const keychainFile = await readJsonFile(keychainPath, KeychainVaultFileSchema, now)
  if (keychainFile.state === 'read') {
    for (const [key, entry] of Object.entries(keychainFile.value.entries)) entries.set(key, { storage: 'keychain', ...entry })
  }
  for (const file of [plaintextFile, keychainFile]) if (file.state === 'moved-aside') notices.push(file.notice)

  async function saveKeychainFile(next: Map<string, Entry>) {
    const stored = [...next].flatMap(([key, entry]) =>
      entry.storage === 'keychain'
        ? [[key, { ciphertext: entry.ciphertext, backend: entry.backend, last4: entry.last4, updatedAt: entry.updatedAt }] as const]
        : [],
    )
    if (stored.length === 0) return removeFile(keychainPath)
    await writeJsonFile(keychainPath, {
      format: FORMAT,
      version: 1,
      encrypted: true,
      encryptedBy: 'electron-safeStorage',
      note: KEYCHAIN_NOTE,
      entries: Object.fromEntries(stored),
    } satisfies z.input<typeof KeychainVaultFileSchema>)
  }

  async function savePlaintextFile(next: Map<string, Entry>) {
    const stored = [...next].flatMap(([key, entry]) =>
      entry.storage === 'file' ? [[key, { secret: entry.secret, last4: entry.last4, updatedAt: entry.updatedAt }] as const] : [],
    )
    // Nothing left to keep unencrypted: leave no such file lying around.
    if (stored.length === 0) return removeFile(plaintextPath)
    await writeJsonFile(plaintextPath, {
      format: FORMAT,
      version: 1,
      encrypted: false,
      note: PLAINTEXT_NOTE,
      entries: Object.fromEntries(stored),
    } satisfies z.input<typeof PlaintextVaultFileSchema>)
  }

  /**
   * Writes the files of the given places, in order (the new place before the old one, so a
   * secret being moved is never on disk nowhere), then makes `next` the vault's state.
   */
  async function commit(next: Map<string, Entry>, places: ReadonlyArray<TokenStorage | undefined>) {
    for (const place of new Set(places)) {
      if (place === 'keychain') await saveKeychainFile(next)
      if (place === 'file') await savePlaintextFile(next)
    }
    entries = next
  }

  function newEntry(secret: string, storage: TokenStorage): Entry {
    const updatedAt = now().toISOString()
    if (storage === 'keychain') return { storage, ...keychain.encrypt(secret), ...lastFour(secret), updatedAt }
    return { storage, secret, ...lastFour(secret), updatedAt }
  }

  return {
    status: () => keychain.status(),
    notices: () => [...notices],
    keys: () => [...entries.keys()],
    has: (key) => entries.has(key),

    describe(key) {
      const entry = entries.get(key)
      if (!entry) return { set: false, storage: 'none' }
      return entry.last4 ? { set: true, storage: entry.storage, last4: entry.last4 } : { set: true, storage: entry.storage }
    },

    async get(key) {
      const entry = entries.get(key)
      if (!entry) return null
      return entry.storage === 'keychain' ? keychain.decrypt(entry.ciphertext) : entry.secret
    },

    set(key, secret, storage) {
      return runInTurn(async () => {
        const previous = entries.get(key)
        await commit(new Map(entries).set(key, newEntry(secret, storage)), [storage, previous?.storage])
      })
    },

    copy(fromKey, toKey) {
      return runInTurn(async () => {
        const source = entries.get(fromKey)
        if (!source) return false
        const previous = entries.get(toKey)
        await commit(new Map(entries).set(toKey, { ...source, updatedAt: now().toISOString() }), [source.storage, previous?.storage])
        return true
      })
    },

    delete(...keys) {
      return runInTurn(async () => {
        const next = new Map(entries)
        const places = keys.map((key) => entries.get(key)?.storage)
        for (const key of keys) next.delete(key)
        await commit(next, places)
      })
    },
  }
}
