import { existsSync } from 'node:fs'
import { join } from 'node:path'

/** The JSON files release 0.1.0 kept the app's data in (legacy-import.ts imports them). */
export const LEGACY_FILES = {
  profiles: 'profiles.json',
  vault: 'vault.json',
  plaintextVault: 'vault.plain.json',
  catalog: 'catalog.json',
  activity: 'activity.jsonl',
} as const

/**
 * Whether the data folder holds any of them. Each is renamed once imported, so after its first
 * start a folder holds none, and opening it need not load the importer (its schemas, readline).
 */
export const hasLegacyFiles = (dataDir: string) => Object.values(LEGACY_FILES).some((name) => existsSync(join(dataDir, name)))
