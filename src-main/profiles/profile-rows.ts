import { AppErrorException } from '../../src-shared/ipc/result'
import { type Profile, ProfileSchema } from '../../src-shared/profiles/schemas'
import type { EnvironmentTag } from '../../src-shared/user-api/schemas'
import { type Database, isUniqueViolation } from '../storage/database'

/*
 * The saved profiles' rows in the app database: the only part of the profile store that speaks
 * SQL to the profiles table. Built-in profiles are never here (they live in the store's memory).
 */

interface ProfileRow {
  id: string
  name: string
  base_url: string
  timeout_seconds: number
  environment_label: string
  environment_kind: string
  proxy_mode: string
  proxy_url: string
  proxy_username: string
  ca_bundle_path: string
  server_environment: string | null
  created_at: string
  updated_at: string
}

export interface ProfileRows {
  /** Every saved profile that can be read, in the order they were made. */
  all(): Profile[]
  /** The saved profile, a copy of its own for the caller; null when there is none (or it cannot be read). */
  one(id: string): Profile | null
  /** The id of the first saved profile made, readable or not. */
  firstId(): string | null
  /** Whether a saved profile other than `exceptId` has this name, whatever its case. */
  nameTaken(name: string, exceptId?: string): boolean
  /** Throws the name-taken conflict when another process took the name first (the UNIQUE index). */
  insert(profile: Profile): void
  /** The same, for a profile's fields as changed (its server environment and creation time stay). */
  update(profile: Profile): void
  delete(id: string): void
  noteServerEnvironment(id: string, tag: EnvironmentTag): void
  /** A sentence for each row that could not be read, once each. */
  notices(): string[]
}

export const nameTakenError = (name: string) =>
  new AppErrorException('conflict', `A profile named “${name}” already exists. Choose another name.`)

const sameRow = (a: ProfileRow, b: ProfileRow) =>
  Object.keys(a).length === Object.keys(b).length && (Object.keys(a) as Array<keyof ProfileRow>).every((key) => a[key] === b[key])

/** The row's fields, but for the id and creation time, in the order both statements bind them. */
const changeableValues = (profile: Profile) =>
  [
    profile.name,
    profile.name.toLowerCase(),
    profile.baseUrl,
    profile.timeoutSeconds,
    profile.environmentLabel,
    profile.environmentKind,
    profile.proxyMode,
    profile.proxyUrl,
    profile.proxyUsername,
    profile.caBundlePath,
    profile.updatedAt,
  ] as const

export function openProfileRows(db: Database): ProfileRows {
  const unreadable = new Set<string>()

  /** A row that no longer satisfies the schema is reported once and left out, never fatal. */
  function fromRow(row: ProfileRow): Profile | null {
    const parsed = ProfileSchema.safeParse({
      id: row.id,
      name: row.name,
      baseUrl: row.base_url,
      timeoutSeconds: row.timeout_seconds,
      environmentLabel: row.environment_label,
      environmentKind: row.environment_kind,
      proxyMode: row.proxy_mode,
      proxyUrl: row.proxy_url,
      proxyUsername: row.proxy_username,
      caBundlePath: row.ca_bundle_path,
      ...(row.server_environment ? { serverEnvironment: row.server_environment } : {}),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    })
    if (parsed.success) return parsed.data
    unreadable.add(
      `A saved profile (id ${row.id.slice(0, 64)}) could not be read and is left out: ${parsed.error.issues[0]?.message ?? 'unexpected content'}.`,
    )
    return null
  }

  /**
   * The profile each row was last read as: a bulk run reads its profile for every call, and
   * checking the row against the schema again cost more than reading it. Kept by the row's whole
   * content, so a change from anywhere (another process too) is read afresh.
   */
  const lastRead = new Map<string, { row: ProfileRow; profile: Profile | null }>()

  /** The UNIQUE name index settles a race with another process. */
  function write(profile: Profile, statement: () => void) {
    try {
      statement()
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTakenError(profile.name)
      throw error
    }
  }

  return {
    all: () => db.all<ProfileRow>('SELECT * FROM profiles ORDER BY rowid').flatMap((row) => fromRow(row) ?? []),

    one(id) {
      const row = db.get<ProfileRow>('SELECT * FROM profiles WHERE id = ?', id)
      if (!row) return null
      let last = lastRead.get(id)
      if (!last || !sameRow(last.row, row)) {
        last = { row, profile: fromRow(row) }
        lastRead.set(id, last)
      }
      // A copy: whoever reads it may change it without changing what the next caller reads.
      return last.profile && { ...last.profile }
    },

    firstId: () => db.get<{ id: string }>('SELECT id FROM profiles ORDER BY rowid LIMIT 1')?.id ?? null,

    nameTaken: (name, exceptId) =>
      Boolean(db.get('SELECT 1 AS taken FROM profiles WHERE name_key = ? AND id != ?', name.toLowerCase(), exceptId ?? '')),

    insert(profile) {
      write(profile, () =>
        db.run(
          `INSERT INTO profiles (name, name_key, base_url, timeout_seconds, environment_label, environment_kind, proxy_mode, proxy_url, proxy_username, ca_bundle_path, updated_at, id, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          ...changeableValues(profile),
          profile.id,
          profile.createdAt,
        ),
      )
    },

    update(profile) {
      write(profile, () =>
        db.run(
          `UPDATE profiles SET name = ?, name_key = ?, base_url = ?, timeout_seconds = ?, environment_label = ?, environment_kind = ?,
             proxy_mode = ?, proxy_url = ?, proxy_username = ?, ca_bundle_path = ?, updated_at = ? WHERE id = ?`,
          ...changeableValues(profile),
          profile.id,
        ),
      )
    },

    delete: (id) => void db.run('DELETE FROM profiles WHERE id = ?', id),

    noteServerEnvironment(id, tag) {
      db.run('UPDATE profiles SET server_environment = ? WHERE id = ? AND server_environment IS NOT ?', tag, id, tag)
    },

    notices: () => [...unreadable],
  }
}
