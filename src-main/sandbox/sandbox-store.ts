import { open, rename } from 'node:fs/promises'
import { z } from 'zod'
import { MAX_JSON_DEPTH, valueTooDeep } from '../../src-shared/json/depth'
import { plural } from '../../src-shared/text/plural'
import { type EnvironmentTag, EnvironmentTagSchema, MappingSchema, PropertiesSchema } from '../../src-shared/user-api/schemas'
import { type Database, type Migration, openDatabase } from '../storage/database'
import { readJsonFile } from '../storage/json-file'

/*
 * The sandbox's data: one SQLite database (WAL), so a create is one indexed insert whatever the
 * number of groups, and the app and a browser-mode process sharing a folder can both serve it.
 */

const sandboxMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'groups and API tokens',
    up(db) {
      db.exec(`
        -- API tokens are kept only when the sandbox made them up (fixed ones are never written).
        CREATE TABLE api_tokens (environment TEXT PRIMARY KEY, token TEXT NOT NULL);
        -- AUTOINCREMENT: a team id is never given out twice.
        CREATE TABLE groups (
          team_id INTEGER PRIMARY KEY AUTOINCREMENT,
          environment TEXT NOT NULL,
          provided_id TEXT NOT NULL,
          name TEXT NOT NULL,
          token TEXT NOT NULL,
          mapping TEXT NOT NULL,
          properties TEXT,
          UNIQUE (environment, provided_id),
          UNIQUE (environment, token)
        );
      `)
    },
  },
]

/** Release 0.1.0's JSON file, read once on the first start of a database release. */
const LegacySandboxFileSchema = z.object({
  format: z.literal('embed-console-sandbox'),
  version: z.literal(1),
  apiTokens: z.object({ Customer: z.string().optional(), Testing: z.string().optional() }),
  nextTeamId: z.number().int().positive(),
  groups: z.array(z.unknown()),
})

const LegacyGroupSchema = z.object({
  team_id: z.number().int().positive(),
  token: z.string(),
  name: z.string(),
  provided_id: z.string(),
  mapping: MappingSchema,
  properties: PropertiesSchema.nullable(),
  api_environment_tag: EnvironmentTagSchema,
})

const SQLITE_HEADER = 'SQLite format 3\0'

/** The first bytes of a file, or null when there is none. */
async function headOf(path: string, length: number): Promise<string | null> {
  try {
    const handle = await open(path, 'r')
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, 0)
      return buffer.subarray(0, bytesRead).toString('latin1')
    } finally {
      await handle.close()
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

export interface SandboxStore {
  db: Database
  /** The API token of an environment, made up (and kept) on first use. */
  apiToken(environment: EnvironmentTag, make: () => string): string
  close(): void
}

export interface SandboxStoreOptions {
  /** The database file. A JSON file from release 0.1.0 at this path is imported and kept as `.migrated`. */
  path: string
  /** A 0.1.0 JSON file elsewhere (the app's data folder had sandbox.json) to import once. */
  legacyFile?: string
  /** How long a write waits for another process's transaction before answering 500 (default 5 s). */
  busyTimeoutMs?: number
  log: (line: string) => void
}

export async function openSandboxStore(options: SandboxStoreOptions): Promise<SandboxStore> {
  const { path, log } = options
  let legacyFile = options.legacyFile
  const head = await headOf(path, SQLITE_HEADER.length)
  if (head !== null && head !== SQLITE_HEADER && head.trimStart().startsWith('{')) {
    // `--data sandbox.json` from a script written for 0.1.0: the same path becomes the database.
    await rename(path, `${path}.migrated`)
    legacyFile = `${path}.migrated`
  }
  const db = openDatabase({
    path,
    migrations: sandboxMigrations,
    busyTimeoutMs: options.busyTimeoutMs,
    onNotice: (notice) => log(`${notice} The sandbox starts empty.`),
  })
  if (legacyFile) await importLegacySandbox(db, legacyFile, legacyFile.endsWith('.migrated') ? null : `${legacyFile}.migrated`, log)

  return {
    db,
    apiToken(environment, make) {
      // Two processes starting at once agree on one token: the first insert wins.
      db.run('INSERT OR IGNORE INTO api_tokens (environment, token) VALUES (?, ?)', environment, make())
      return db.get<{ token: string }>('SELECT token FROM api_tokens WHERE environment = ?', environment)!.token
    },
    close: () => db.close(),
  }
}

async function importLegacySandbox(db: Database, file: string, backup: string | null, log: (line: string) => void): Promise<void> {
  const loaded = await readJsonFile(file, LegacySandboxFileSchema)
  if (loaded.state === 'moved-aside') log(`${loaded.notice} The sandbox starts without it.`)
  if (loaded.state !== 'read') return
  const { apiTokens, groups, nextTeamId } = loaded.value
  let bad = 0
  db.transaction(() => {
    for (const environment of ['Customer', 'Testing'] as const) {
      const token = apiTokens[environment]
      if (token) db.run('INSERT OR IGNORE INTO api_tokens (environment, token) VALUES (?, ?)', environment, token)
    }
    for (const record of groups) {
      const parsed = valueTooDeep(record, MAX_JSON_DEPTH + 2) ? null : LegacyGroupSchema.safeParse(record)
      if (!parsed?.success) {
        bad += 1
        continue
      }
      const group = parsed.data
      db.run(
        'INSERT OR IGNORE INTO groups (team_id, environment, provided_id, name, token, mapping, properties) VALUES (?, ?, ?, ?, ?, ?, ?)',
        group.team_id,
        group.api_environment_tag,
        group.provided_id,
        group.name,
        group.token,
        JSON.stringify(group.mapping),
        group.properties === null ? null : JSON.stringify(group.properties),
      )
    }
    // Team ids carry on from where 0.1.0 stopped.
    const highest = db.get<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'groups'")?.seq ?? 0
    if (nextTeamId - 1 > highest) {
      // sqlite_sequence has no key on name: update the row, or add it when there is none yet.
      const updated = db.run("UPDATE sqlite_sequence SET seq = ? WHERE name = 'groups'", nextTeamId - 1)
      if (updated.changes === 0) db.run("INSERT INTO sqlite_sequence (name, seq) VALUES ('groups', ?)", nextTeamId - 1)
    }
  })
  if (bad) log(`${plural(bad, 'group')} of the sandbox's old data file could not be read and ${bad === 1 ? 'was' : 'were'} left out.`)
  if (backup) {
    await rename(file, backup).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
  }
}
