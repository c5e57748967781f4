import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { z } from 'zod'
import { APP_DATABASE_FILE, openAppDatabase } from '../../../src-main/app-database'
import type { SafeStorageLike } from '../../../src-main/ports'
import { openProfileStore } from '../../../src-main/profiles/profile-store'
import { openSecretVault } from '../../../src-main/profiles/vault'
import type { Database } from '../../../src-main/storage/database'
import { ProfileDraftSchema } from '../../../src-shared/profiles/schemas'

export const tempDataDir = () => mkdtemp(join(tmpdir(), 'ec-profiles-'))

/**
 * A stand-in for Electron's safeStorage: a reversible XOR behind a prefix. Weak, but the
 * plaintext never appears in its output, which is all these tests need. `key` models the
 * keychain's secret: another key cannot decrypt.
 */
export function fakeSafeStorage(options: { available?: boolean; backend?: string; key?: number } = {}): SafeStorageLike {
  const { available = true, backend = 'gnome_libsecret', key = 0x5a } = options
  const prefix = Buffer.from(`fake-safe-storage-${key}:`)
  const xor = (bytes: Buffer) => Buffer.from(bytes.map((byte) => byte ^ key))
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString: (plainText) => Buffer.concat([prefix, xor(Buffer.from(plainText, 'utf8'))]),
    decryptString(encrypted) {
      if (!encrypted.subarray(0, prefix.length).equals(prefix)) {
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
      }
      return xor(encrypted.subarray(prefix.length)).toString('utf8')
    },
  }
}

/** The app database of a data folder, as a fresh start (or another process) would open it. */
export async function openProfiles(dataDir: string, safeStorage?: SafeStorageLike, now?: () => Date) {
  const db = openAppDatabase(dataDir)
  const vault = openSecretVault({ db, safeStorage, platform: 'linux', now })
  const store = openProfileStore({ db, vault, now })
  return { db, vault, store }
}

export const databasePath = (dataDir: string) => join(dataDir, APP_DATABASE_FILE)

/** The keys of the secrets stored in the database (session secrets are never there). */
export const storedSecretKeys = (db: Database) => db.all<{ key: string }>('SELECT key FROM secrets ORDER BY key').map((row) => row.key)

export const draft = (fields: z.input<typeof ProfileDraftSchema>) => ProfileDraftSchema.parse(fields)

/** Every file under `dir`, with its text: the canary hunt reads them all. */
export async function filesUnder(dir: string): Promise<Array<{ name: string; text: string }>> {
  const names = await readdir(dir, { recursive: true })
  const files = []
  for (const name of names) {
    const path = join(dir, name)
    if ((await stat(path)).isFile()) files.push({ name, text: await readFile(path, 'utf8') })
  }
  return files
}

export const fileMode = async (path: string) => (await stat(path)).mode & 0o777
