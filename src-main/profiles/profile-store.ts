import { randomUUID } from 'node:crypto'
import { AppErrorException } from '../../src-shared/ipc/result'
import {
  type EnvironmentKind,
  type Profile,
  type ProfileChanges,
  type ProfileDraft,
  ProfileSchema,
  type ProfilesExport,
  proxySettingsProblem,
  sameOrigin,
  type TokenState,
  type TokenStorage,
} from '../../src-shared/profiles/schemas'
import type { EnvironmentTag } from '../../src-shared/user-api/schemas'
import { type Database, isUniqueViolation } from '../storage/database'
import type { NetworkSettings } from '../user-api/client'
import { readPemCertificates } from '../user-api/trust'
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

/** Fields added after the first callers were written may be left out: they take their defaults. */
type Defaulted = 'environmentKind' | 'proxyMode' | 'proxyUrl' | 'proxyUsername' | 'caBundlePath'
export type NewProfile = Omit<ProfileDraft, Defaulted> & Partial<Pick<ProfileDraft, Defaulted>> & { environmentKind?: EnvironmentKind }

export interface ProfileStoreOptions {
  db: Database
  vault: SecretVault
  /** Runs inside the transaction that deletes a profile: what else goes with it (its catalog). */
  onDelete?: (profileId: string) => void
  now?: () => Date
  newId?: () => string
}

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
  const builtins = new Map<string, Profile>()
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

  const saved = (): Profile[] => db.all<ProfileRow>('SELECT * FROM profiles ORDER BY rowid').flatMap((row) => fromRow(row) ?? [])

  /**
   * The profile each row was last read as: a bulk run reads its profile for every call, and
   * checking the row against the schema again cost more than reading it. Kept by the row's whole
   * content, so a change from anywhere (another process too) is read afresh.
   */
  const lastRead = new Map<string, { row: ProfileRow; profile: Profile | null }>()
  const sameRow = (a: ProfileRow, b: ProfileRow) =>
    Object.keys(a).length === Object.keys(b).length && (Object.keys(a) as Array<keyof ProfileRow>).every((key) => a[key] === b[key])

  const savedOne = (id: string): Profile | null => {
    const row = db.get<ProfileRow>('SELECT * FROM profiles WHERE id = ?', id)
    if (!row) return null
    let last = lastRead.get(id)
    if (!last || !sameRow(last.row, row)) {
      last = { row, profile: fromRow(row) }
      lastRead.set(id, last)
    }
    // A copy: whoever reads it may change it without changing what the next caller reads.
    return last.profile && { ...last.profile }
  }

  const list = () => [...builtins.values(), ...saved()]

  function get(id: string): Profile {
    const profile = builtins.get(id) ?? savedOne(id)
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

  const nameTaken = (name: string) => new AppErrorException('conflict', `A profile named “${name}” already exists. Choose another name.`)

  function assertNameFree(name: string, exceptId?: string) {
    const key = name.toLowerCase()
    const builtinClash = [...builtins.values()].some((profile) => profile.id !== exceptId && profile.name.toLowerCase() === key)
    const savedClash = db.get('SELECT 1 AS taken FROM profiles WHERE name_key = ? AND id != ?', key, exceptId ?? '')
    if (builtinClash || savedClash) throw nameTaken(name)
  }

  /** Writes a profile's row; the UNIQUE name index settles a race with another process. */
  function writeProfile(profile: Profile, mode: 'insert' | 'update') {
    const values = [
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
    try {
      if (mode === 'insert') {
        db.run(
          `INSERT INTO profiles (name, name_key, base_url, timeout_seconds, environment_label, environment_kind, proxy_mode, proxy_url, proxy_username, ca_bundle_path, updated_at, id, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          ...values,
          profile.id,
          profile.createdAt,
        )
      } else {
        db.run(
          `UPDATE profiles SET name = ?, name_key = ?, base_url = ?, timeout_seconds = ?, environment_label = ?, environment_kind = ?,
             proxy_mode = ?, proxy_url = ?, proxy_username = ?, ca_bundle_path = ?, updated_at = ? WHERE id = ?`,
          ...values,
          profile.id,
        )
      }
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(profile.name)
      throw error
    }
  }

  const names = () => list().map((profile) => profile.name)

  /** A new token goes where the operator says, else where the old one was, else the keychain. */
  function placeForToken(requested: TokenStorage | undefined, current: TokenState): TokenStorage {
    if (requested) return requested
    if (current.storage !== 'none') return current.storage
    const status = vault.status()
    if (status.encryptionAvailable) return 'keychain'
    throw new AppErrorException('refused', status.message)
  }

  function moveToken(profile: Profile, storage: TokenStorage) {
    const key = profileTokenKey(profile.id)
    if (vault.describe(key).storage === storage) return
    const secret = vault.get(key)
    if (secret === null) {
      throw new AppErrorException('refused', `“${profile.name}” has no API token to move. Enter one first.`)
    }
    vault.set(key, secret, storage)
  }

  /** A CA bundle is read when it is saved, so a wrong path is said in the form, not at the first call. */
  function checkCaBundle(path: string) {
    if (path) readPemCertificates(path, 'The CA bundle')
  }

  function checkProxy(profile: Profile) {
    const problem = proxySettingsProblem(profile)
    if (problem) throw new AppErrorException('invalid_input', problem, { issues: [{ path: 'proxyUrl', message: problem }] })
  }

  /** What the client needs to reach the profile's server, the proxy password out of the vault. */
  function networkOf(profile: Profile): NetworkSettings {
    const caBundle = profile.caBundlePath ? { caBundlePath: profile.caBundlePath } : {}
    if (profile.proxyMode !== 'custom') return { proxy: { mode: profile.proxyMode }, ...caBundle }
    const password = vault.get(profileProxyPasswordKey(profile.id))
    return {
      proxy: {
        mode: 'custom',
        url: profile.proxyUrl,
        ...(profile.proxyUsername ? { username: profile.proxyUsername } : {}),
        ...(password !== null ? { password } : {}),
      },
      ...caBundle,
    }
  }

  function connectionOf(id: string, read?: Profile) {
    const profile = read?.id === id ? read : get(id)
    return {
      baseUrl: profile.baseUrl,
      apiToken: vault.get(profileTokenKey(id)),
      timeoutMs: profile.timeoutSeconds * 1000,
      network: networkOf(profile),
    }
  }

  const activeSetting = () => db.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', ACTIVE_PROFILE_SETTING)?.value ?? null

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
    notices: () => [...unreadable],

    activeId() {
      const stored = activeSetting()
      if (stored !== null && (builtins.has(stored) || savedOne(stored))) return stored
      return builtins.keys().next().value ?? db.get<{ id: string }>('SELECT id FROM profiles ORDER BY rowid LIMIT 1')?.id ?? null
    },

    async setActive(id) {
      get(id)
      db.run(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        ACTIVE_PROFILE_SETTING,
        id,
      )
      return id
    },

    async create(draft) {
      return db.transaction(() => {
        assertNameFree(draft.name)
        const at = now().toISOString()
        const {
          name,
          baseUrl,
          timeoutSeconds,
          environmentLabel,
          environmentKind = 'unspecified',
          proxyMode = 'environment',
          proxyUrl = '',
          proxyUsername = '',
          caBundlePath = '',
        } = draft
        const profile: Profile = {
          id: newId(),
          name,
          baseUrl,
          timeoutSeconds,
          environmentLabel,
          environmentKind,
          proxyMode,
          proxyUrl,
          proxyUsername,
          caBundlePath,
          createdAt: at,
          updatedAt: at,
        }
        checkProxy(profile)
        checkCaBundle(caBundlePath)
        writeProfile(profile, 'insert')
        const none: TokenState = { set: false, storage: 'none' }
        if (draft.apiToken !== undefined) {
          vault.set(profileTokenKey(profile.id), draft.apiToken, placeForToken(draft.tokenStorage, none))
        }
        // The proxy password is kept where the API token is.
        if (draft.proxyPassword !== undefined) {
          vault.set(
            profileProxyPasswordKey(profile.id),
            draft.proxyPassword,
            placeForToken(draft.tokenStorage, vault.describe(profileTokenKey(profile.id))),
          )
        }
        return profile
      })
    },

    async update(id, changes) {
      return db.transaction(() => {
        const current = editable(id, 'edited')
        if (changes.name !== undefined) assertNameFree(changes.name, id)
        const key = profileTokenKey(id)
        const tokenBefore = vault.describe(key)
        const updated: Profile = {
          ...current,
          name: changes.name ?? current.name,
          baseUrl: changes.baseUrl ?? current.baseUrl,
          timeoutSeconds: changes.timeoutSeconds ?? current.timeoutSeconds,
          environmentLabel: changes.environmentLabel ?? current.environmentLabel,
          environmentKind: changes.environmentKind ?? current.environmentKind,
          proxyMode: changes.proxyMode ?? current.proxyMode,
          proxyUrl: changes.proxyUrl ?? current.proxyUrl,
          proxyUsername: changes.proxyUsername ?? current.proxyUsername,
          caBundlePath: changes.caBundlePath ?? current.caBundlePath,
          updatedAt: now().toISOString(),
        }
        checkProxy(updated)
        if (updated.caBundlePath !== current.caBundlePath) checkCaBundle(updated.caBundlePath)
        // The secrets were issued by the old server: none may reach another (ProfileChangesSchema).
        // The proxy password belongs to the network, not the server: it stays.
        const passwordKey = profileProxyPasswordKey(id)
        const movesServer = changes.baseUrl !== undefined && !sameOrigin(changes.baseUrl, current.baseUrl)
        if (movesServer) {
          const password = vault.get(passwordKey)
          const passwordStorage = vault.describe(passwordKey).storage
          vault.deleteProfileSecrets(id)
          if (password !== null && passwordStorage !== 'none') vault.set(passwordKey, password, passwordStorage)
        }
        if (changes.clearToken) vault.delete(key)
        else if (changes.apiToken !== undefined) vault.set(key, changes.apiToken, placeForToken(changes.tokenStorage, tokenBefore))
        else if (changes.tokenStorage !== undefined && !movesServer && (tokenBefore.set || changes.proxyPassword === undefined))
          moveToken(current, changes.tokenStorage)
        if (changes.clearProxyPassword) vault.delete(passwordKey)
        else if (changes.proxyPassword !== undefined)
          vault.set(passwordKey, changes.proxyPassword, placeForToken(changes.tokenStorage, vault.describe(key)))

        writeProfile(updated, 'update')
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
        const copy: Profile = {
          id: newId(),
          name: uniqueName(`${source.name} (copy)`, names()),
          baseUrl: source.baseUrl,
          timeoutSeconds: source.timeoutSeconds,
          environmentLabel: source.environmentLabel,
          environmentKind: source.environmentKind,
          proxyMode: source.proxyMode,
          proxyUrl: source.proxyUrl,
          proxyUsername: source.proxyUsername,
          caBundlePath: source.caBundlePath,
          createdAt: at,
          updatedAt: at,
        }
        writeProfile(copy, 'insert')
        vault.copy(profileTokenKey(source.id), profileTokenKey(copy.id))
        vault.copy(profileProxyPasswordKey(source.id), profileProxyPasswordKey(copy.id))
        return copy
      })
    },

    /** The profile, its secrets and what else belongs to it (onDelete) go in one transaction. */
    async delete(id) {
      db.transaction(() => {
        editable(id, 'deleted')
        db.run('DELETE FROM profiles WHERE id = ?', id)
        vault.deleteProfileSecrets(id)
        options.onDelete?.(id)
        if (activeSetting() === id) db.run('DELETE FROM settings WHERE key = ?', ACTIVE_PROFILE_SETTING)
      })
    },

    async registerBuiltin(builtin, apiToken) {
      if (savedOne(builtin.id)) {
        throw new Error(`A saved profile already uses the id "${builtin.id}"; a built-in profile needs its own.`)
      }
      const at = now().toISOString()
      const profile = ProfileSchema.parse({ ...builtin, builtin: true, createdAt: at, updatedAt: at })
      // Memory only: the app hands the token over at every launch, and it is never written.
      vault.set(profileTokenKey(profile.id), apiToken, 'session')
      builtins.set(profile.id, profile)
      return profile
    },

    exportProfiles: () => buildProfilesExport(saved(), now()),

    async importProfiles(text) {
      const incoming = parseProfilesExport(text)
      return db.transaction(() => {
        const taken = names()
        const at = now().toISOString()
        return incoming.map((settings): Profile => {
          const name = uniqueName(settings.name, taken)
          taken.push(name)
          const profile: Profile = { ...settings, proxyUsername: '', id: newId(), name, createdAt: at, updatedAt: at }
          writeProfile(profile, 'insert')
          return profile
        })
      })
    },

    noteServerEnvironment(id, tag) {
      db.run('UPDATE profiles SET server_environment = ? WHERE id = ? AND server_environment IS NOT ?', tag, id, tag)
    },

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
