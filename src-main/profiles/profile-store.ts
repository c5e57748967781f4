import { randomUUID } from 'node:crypto'
import { AppErrorException } from '../../src-shared/ipc/result'
import {
  type EnvironmentKind,
  type Profile,
  type ProfileChanges,
  ProfileSchema,
  type ProfilesExport,
} from '../../src-shared/profiles/schemas'
import type { EnvironmentTag } from '../../src-shared/user-api/schemas'
import type { Database } from '../storage/database'
import type { NetworkSettings } from '../user-api/client'
import { changedProfile, checkCaBundle, checkProxy, copyOfProfile, type NewProfile, profileFromDraft } from './profile-drafts'
import { nameTakenError, openProfileRows } from './profile-rows'
import { profileSecrets } from './profile-secrets'
import { buildProfilesExport, parseProfilesExport, uniqueName } from './profile-transfer'
import type { SecretVault } from './vault'
import { profileProxyPasswordKey, profileTokenKey } from './vault-keys'

/** A profile the app supplies at startup, such as the Local sandbox on its port of the day. */
export interface BuiltinProfile {
  id: string
  name: string
  baseUrl: string
  timeoutSeconds?: number
  environmentLabel?: string
  environmentKind?: EnvironmentKind
}

/**
 * What the API client needs to make a call: the only shape in which a token (and a proxy
 * password) leaves the vault.
 */
export interface Connection {
  baseUrl: string
  apiToken: string
  timeoutMs: number
  network: NetworkSettings
}

export interface ProfileStore {
  /** Built-in profiles first, then the saved ones in the order they were made. */
  list(): Profile[]
  get(id: string): Profile
  /** The profile's name, or null when there is no such profile (deleted since): for sentences and records. */
  nameOf(id: string): string | null
  /** The stored choice if that profile exists, else the first in the list (a built-in if any). */
  activeId(): string | null
  setActive(id: string): Promise<string>
  /** The kind may be left out (callers from before it existed): it is then `unspecified`. */
  create(draft: NewProfile): Promise<Profile>
  update(id: string, changes: ProfileChanges): Promise<Profile>
  duplicate(id: string): Promise<Profile>
  delete(id: string): Promise<void>
  registerBuiltin(profile: BuiltinProfile, apiToken: string): Promise<Profile>
  exportProfiles(): ProfilesExport
  /** Adds the file's profiles under new ids, renaming any whose name is taken. */
  importProfiles(text: string): Promise<Profile[]>
  /** `profile`: the profile as the caller has just read it, not read again. */
  resolveConnection(id: string, profile?: Profile): Promise<Connection>
  /** The same, with the API token null when none is kept: a diagnosis still checks the way there. */
  connectionForDiagnosis(id: string): Promise<Omit<Connection, 'apiToken'> & { apiToken: string | null }>
  /**
   * Remembers where the server put a group returned through this profile (its
   * api_environment_tag): the server's word, which wins over the kind. Synchronous, for the
   * transaction that records the call. Built-in profiles keep nothing.
   */
  noteServerEnvironment(id: string, tag: EnvironmentTag): void
  /** Sentences for the operator about this launch, e.g. a stored profile that could not be read. */
  notices(): string[]
}

export interface ProfileStoreOptions {
  db: Database
  vault: SecretVault
  /** Runs inside the transaction that deletes a profile: what else goes with it (its catalog). */
  onDelete?: (profileId: string) => void
  now?: () => Date
  newId?: () => string
}

export const ACTIVE_PROFILE_SETTING = 'activeProfileId'

/**
 * Connection profiles, one database row each: every change is one transaction on its own rows,
 * so the desktop app, browser mode and the CLI can change profiles at once without losing one
 * another's work. Names are unique whatever their case (a UNIQUE index on the lower-cased name),
 * because the CLI picks profiles by name.
 */
export function openProfileStore(options: ProfileStoreOptions): ProfileStore {
  const { db, vault } = options
  const now = options.now ?? (() => new Date())
  const newId = options.newId ?? randomUUID
  /** Supplied by the app at each launch (registerBuiltin), listed first; kept in memory only. */
  const builtins = new Map<string, Profile>()
  const rows = openProfileRows(db)
  const secrets = profileSecrets(vault)

  const list = () => [...builtins.values(), ...rows.all()]
  const names = () => list().map((profile) => profile.name)

  function get(id: string): Profile {
    const profile = builtins.get(id) ?? rows.one(id)
    if (!profile) throw new AppErrorException('not_found', 'This profile does not exist: it may have been deleted.', { id })
    return profile
  }

  function editable(id: string, action: 'edited' | 'deleted'): Profile {
    const profile = get(id)
    if (profile.builtin) {
      throw new AppErrorException(
        'refused',
        `“${profile.name}” is built into the app and cannot be ${action}. Duplicate it to get a profile you can change.`,
      )
    }
    return profile
  }

  function assertNameFree(name: string, exceptId?: string) {
    const key = name.toLowerCase()
    const builtinClash = [...builtins.values()].some((profile) => profile.id !== exceptId && profile.name.toLowerCase() === key)
    if (builtinClash || rows.nameTaken(name, exceptId)) throw nameTakenError(name)
  }

  /** `read`: the profile as the caller has just read it, used when it is the one asked for. */
  const connectionOf = (id: string, read?: Profile) => secrets.connectionOf(read?.id === id ? read : get(id))

  return {
    list,
    get,
    nameOf(id) {
      try {
        return get(id).name
      } catch {
        return null
      }
    },
    notices: () => rows.notices(),

    activeId() {
      const stored = readActiveSetting(db)
      if (stored !== null && (builtins.has(stored) || rows.one(stored))) return stored
      return builtins.keys().next().value ?? rows.firstId()
    },

    async setActive(id) {
      get(id)
      writeActiveSetting(db, id)
      return id
    },

    async create(draft) {
      return db.transaction(() => {
        assertNameFree(draft.name)
        const at = now().toISOString()
        const profile = profileFromDraft(draft, { id: newId(), at })
        checkProxy(profile)
        checkCaBundle(profile.caBundlePath)
        rows.insert(profile)
        secrets.keepNew(profile.id, draft)
        return profile
      })
    },

    async update(id, changes) {
      return db.transaction(() => {
        const current = editable(id, 'edited')
        if (changes.name !== undefined) assertNameFree(changes.name, id)
        const updated = changedProfile(current, changes, now().toISOString())
        checkProxy(updated)
        if (updated.caBundlePath !== current.caBundlePath) checkCaBundle(updated.caBundlePath)
        secrets.applyChanges(current, changes)
        rows.update(updated)
        return updated
      })
    },

    /**
     * The copy takes the API token too (copied inside the vault, in the same place, never
     * decrypted). That is safe because a duplicate keeps the base URL, so the token still goes
     * only to the server that issued it; editing the copy to another scheme, host or port then
     * drops it like any profile (see `update`). And it is what the operator wants: a duplicate
     * is most often the same account with another label or timeout, and the token may no longer
     * be at hand to type again. Group tokens stay with the original: they belong to the groups
     * fetched through it.
     */
    async duplicate(id) {
      return db.transaction(() => {
        const source = get(id)
        const at = now().toISOString()
        const copy = copyOfProfile(source, { id: newId(), name: uniqueName(`${source.name} (copy)`, names()), at })
        rows.insert(copy)
        vault.copy(profileTokenKey(source.id), profileTokenKey(copy.id))
        vault.copy(profileProxyPasswordKey(source.id), profileProxyPasswordKey(copy.id))
        return copy
      })
    },

    /** The profile, its secrets and what else belongs to it (onDelete) go in one transaction. */
    async delete(id) {
      db.transaction(() => {
        editable(id, 'deleted')
        rows.delete(id)
        vault.deleteProfileSecrets(id)
        options.onDelete?.(id)
        if (readActiveSetting(db) === id) forgetActiveSetting(db)
      })
    },

    async registerBuiltin(builtin, apiToken) {
      if (rows.one(builtin.id)) {
        throw new Error(`A saved profile already uses the id "${builtin.id}"; a built-in profile needs its own.`)
      }
      const at = now().toISOString()
      const profile = ProfileSchema.parse({ ...builtin, builtin: true, createdAt: at, updatedAt: at })
      // Memory only: the app hands the token over at every launch, and it is never written.
      vault.set(profileTokenKey(profile.id), apiToken, 'session')
      builtins.set(profile.id, profile)
      return profile
    },

    exportProfiles: () => buildProfilesExport(rows.all(), now()),

    async importProfiles(text) {
      const incoming = parseProfilesExport(text)
      return db.transaction(() => {
        const taken = names()
        const at = now().toISOString()
        return incoming.map((settings): Profile => {
          const name = uniqueName(settings.name, taken)
          taken.push(name)
          const profile: Profile = { ...settings, proxyUsername: '', id: newId(), name, createdAt: at, updatedAt: at }
          rows.insert(profile)
          return profile
        })
      })
    },

    noteServerEnvironment: (id, tag) => rows.noteServerEnvironment(id, tag),

    async resolveConnection(id, profile) {
      const { apiToken, ...connection } = connectionOf(id, profile)
      if (apiToken === null) {
        throw new AppErrorException('refused', `The profile “${get(id).name}” has no API token. Edit the profile and enter one.`)
      }
      return { ...connection, apiToken }
    },

    connectionForDiagnosis: async (id) => connectionOf(id),
  }
}

/** The operator's choice of profile, one row of the settings table; it may name a profile deleted since. */
const readActiveSetting = (db: Database) =>
  db.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', ACTIVE_PROFILE_SETTING)?.value ?? null

const forgetActiveSetting = (db: Database) => void db.run('DELETE FROM settings WHERE key = ?', ACTIVE_PROFILE_SETTING)

function writeActiveSetting(db: Database, id: string) {
  db.run(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ACTIVE_PROFILE_SETTING,
    id,
  )
}

/**
 * A profile carried over from an earlier release's file: kept under its id (so its secrets and
 * catalog still match), renamed only if a profile made since has taken its name. False when a
 * profile with this id is already here.
 */
export function insertImportedProfile(db: Database, profile: Profile): boolean {
  if (db.get('SELECT 1 AS found FROM profiles WHERE id = ?', profile.id)) return false
  const taken = db.all<{ name: string }>('SELECT name FROM profiles').map((row) => row.name)
  const name = uniqueName(profile.name, taken)
  db.run(
    `INSERT INTO profiles (id, name, name_key, base_url, timeout_seconds, environment_label, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    profile.id,
    name,
    name.toLowerCase(),
    profile.baseUrl,
    profile.timeoutSeconds,
    profile.environmentLabel,
    profile.createdAt,
    profile.updatedAt,
  )
  return true
}
