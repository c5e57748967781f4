import { createReadStream } from 'node:fs'
import { access, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { z } from 'zod'
import { type ActivityEntry, ActivityEntrySchema } from '../../src-shared/activity/schemas'
import { type CatalogEntry, CatalogEntrySchema } from '../../src-shared/catalog/schemas'
import { jsonTextTooDeep, MAX_JSON_DEPTH, valueTooDeep } from '../../src-shared/json/depth'
import { type Profile, ProfileIdSchema, ProfileSchema } from '../../src-shared/profiles/schemas'
import { plural } from '../../src-shared/text/plural'
import type { Database } from './database'
import { readJsonFile } from './json-file'
import { LEGACY_FILES } from './legacy-files'

/*
 * Release 0.1.0 kept the app's data in JSON files. On the first start of a database release each
 * file is read once, its records inserted (a record already in the database wins, so a second
 * import, or two processes importing at once, change nothing), and the file renamed to
 * `<file>.migrated` as a backup. A file that cannot be read is moved aside as before and reported;
 * a record that cannot be read is skipped and counted in a notice. Nothing is fatal.
 */

const VAULT_FORMAT = 'embed-console-vault'

const ProfilesFileSchema = z.object({ version: z.literal(1), activeId: ProfileIdSchema.nullable(), profiles: z.array(z.unknown()) })

const KeychainVaultFileSchema = z.object({
  format: z.literal(VAULT_FORMAT),
  encrypted: z.literal(true),
  entries: z.record(
    z.string(),
    z.object({ ciphertext: z.base64(), backend: z.string(), last4: z.string().max(4).optional(), updatedAt: z.iso.datetime() }),
  ),
})

const PlaintextVaultFileSchema = z.object({
  format: z.literal(VAULT_FORMAT),
  encrypted: z.literal(false),
  entries: z.record(z.string(), z.object({ secret: z.string(), last4: z.string().max(4).optional(), updatedAt: z.iso.datetime() })),
})

// Entries are checked one by one (below), so one deep or broken entry costs only itself.
const CatalogFileSchema = z.object({ format: z.literal('embed-console-catalog'), version: z.literal(1), groups: z.array(z.unknown()) })

const ACTIVITY_BATCH = 5000

/** A record of a legacy file parsed on its own, after a depth check that keeps zod's recursion safe. */
function parseRecord<T>(value: unknown, schema: z.ZodType<T>): T | null {
  if (valueTooDeep(value, MAX_JSON_DEPTH + 2)) return null
  const parsed = schema.safeParse(value)
  return parsed.success ? parsed.data : null
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  )

/** `<file>.migrated`, or with a time if a backup of that name is already there. */
async function keepAsBackup(path: string): Promise<void> {
  const backup = (await exists(`${path}.migrated`))
    ? `${path}.migrated-${new Date().toISOString().replace(/[:.]/g, '-')}`
    : `${path}.migrated`
  await rename(path, backup).catch((error: NodeJS.ErrnoException) => {
    // Another process importing the same folder renamed it first.
    if (error.code !== 'ENOENT') throw error
  })
}

const skipped = (count: number, what: string, file: string) =>
  `${plural(count, what)} in ${file} could not be read and ${count === 1 ? 'was' : 'were'} left out; the file is kept as ${file}.migrated.`

/**
 * Where the records of 0.1.0 go: each feature's own writer, handed in by the composition root, so
 * storage stays below the features it fills (it imports none of them).
 */
export interface LegacyWriters {
  profile(profile: Profile): void
  activeProfile(id: string): void
  secret(
    key: string,
    stored: { ciphertext: string; backend: string } | { secret: string },
    last4: string | undefined,
    updatedAt: string,
  ): void
  catalog(entries: readonly CatalogEntry[]): void
  activity(entries: readonly ActivityEntry[]): void
}

export async function importLegacyFiles(db: Database, dataDir: string, writers: LegacyWriters): Promise<string[]> {
  const notices: string[] = []
  const path = (name: string) => join(dataDir, name)

  const profilesFile = await readJsonFile(path(LEGACY_FILES.profiles), ProfilesFileSchema)
  if (profilesFile.state === 'moved-aside') notices.push(profilesFile.notice)
  if (profilesFile.state === 'read') {
    let bad = 0
    db.transaction(() => {
      for (const record of profilesFile.value.profiles) {
        const profile = parseRecord(record, ProfileSchema)
        if (profile) writers.profile(profile)
        else bad += 1
      }
      const { activeId } = profilesFile.value
      if (activeId) writers.activeProfile(activeId)
    })
    if (bad) notices.push(skipped(bad, 'profile', LEGACY_FILES.profiles))
    await keepAsBackup(path(LEGACY_FILES.profiles))
  }

  // The keychain file first: should a move between the two files have been cut short, the
  // encrypted copy is the one kept.
  const keychainFile = await readJsonFile(path(LEGACY_FILES.vault), KeychainVaultFileSchema)
  if (keychainFile.state === 'moved-aside') notices.push(keychainFile.notice)
  if (keychainFile.state === 'read') {
    db.transaction(() => {
      for (const [key, entry] of Object.entries(keychainFile.value.entries)) {
        writers.secret(key, { ciphertext: entry.ciphertext, backend: entry.backend }, entry.last4, entry.updatedAt)
      }
    })
    await keepAsBackup(path(LEGACY_FILES.vault))
  }
  const plaintextFile = await readJsonFile(path(LEGACY_FILES.plaintextVault), PlaintextVaultFileSchema)
  if (plaintextFile.state === 'moved-aside') notices.push(plaintextFile.notice)
  if (plaintextFile.state === 'read') {
    db.transaction(() => {
      for (const [key, entry] of Object.entries(plaintextFile.value.entries)) {
        writers.secret(key, { secret: entry.secret }, entry.last4, entry.updatedAt)
      }
    })
    await keepAsBackup(path(LEGACY_FILES.plaintextVault))
  }

  const catalogFile = await readJsonFile(path(LEGACY_FILES.catalog), CatalogFileSchema)
  if (catalogFile.state === 'moved-aside') notices.push(catalogFile.notice)
  if (catalogFile.state === 'read') {
    const entries: CatalogEntry[] = []
    for (const record of catalogFile.value.groups) {
      const entry = parseRecord(record, CatalogEntrySchema)
      if (entry) entries.push(entry)
    }
    writers.catalog(entries)
    const bad = catalogFile.value.groups.length - entries.length
    if (bad) notices.push(skipped(bad, 'group', LEGACY_FILES.catalog))
    await keepAsBackup(path(LEGACY_FILES.catalog))
  }

  const activityPath = path(LEGACY_FILES.activity)
  if (await exists(activityPath)) {
    const bad = await importActivityLines(writers.activity, activityPath)
    if (bad) notices.push(skipped(bad, 'line', LEGACY_FILES.activity))
    await keepAsBackup(activityPath)
  }
  return notices
}

function parseActivityLine(line: string): ActivityEntry | null {
  if (jsonTextTooDeep(line)) return null
  try {
    return parseRecord(JSON.parse(line), ActivityEntrySchema)
  } catch {
    return null
  }
}

/** Line by line, in batches: a log of a million calls is never held whole. Returns the unreadable lines. */
async function importActivityLines(write: LegacyWriters['activity'], file: string): Promise<number> {
  let batch: ActivityEntry[] = []
  let bad = 0
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })
  for await (const line of lines) {
    if (!line.trim()) continue
    const entry = parseActivityLine(line)
    if (!entry) {
      bad += 1
      // A crash mid-append left a torn line, and the next append went on the same line: the torn
      // part is lost, but the whole entry after it is recovered.
      const start = line.lastIndexOf('{"id":')
      const after = start > 0 ? parseActivityLine(line.slice(start)) : null
      if (!after) continue
      batch.push(after)
    } else batch.push(entry)
    if (batch.length >= ACTIVITY_BATCH) {
      write(batch)
      batch = []
    }
  }
  write(batch)
  return bad
}
