import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { z } from 'zod'
import { AppErrorException } from '../../src-shared/ipc/result'
import {
  ProfileIdSchema,
  ProfileSchema,
  type Profile,
  type ProfileChanges,
  type ProfileDraft,
  type ProfilesExport,
  type TokenState,
  type TokenStorage,
} from '../../src-shared/profiles/schemas'
import { ensureDataDir } from '../data-dir'
import { readJsonFile, writeJsonFile } from '../storage/json-file'
import { buildProfilesExport, parseProfilesExport, uniqueName } from './profile-transfer'
import { createSerialQueue } from '../storage/serial-queue'
import type { SecretVault } from './vault'
import { isSecretOfProfile, profileTokenKey } from './vault-keys'

export const PROFILES_FILE = 'profiles.json'

const ProfilesFileSchema = z.object({
  version: z.literal(1),
  activeId: ProfileIdSchema.nullable(),
  profiles: z.array(ProfileSchema),
})
type ProfilesFile = z.infer<typeof ProfilesFileSchema>

/** A profile the app supplies at startup, such as the Local sandbox on its port of the day. */
export interface BuiltinProfile {
  id: string
  name: string
  baseUrl: string
  timeoutSeconds?: number
  environmentLabel?: string
}

/** What the API client needs to make a call: the only shape in which a token leaves the vault. */
export interface Connection {
  baseUrl: string
  apiToken: string
  timeoutMs: number
}

export interface ProfileStore {
  /** Built-in profiles first, then the saved ones in the order they were made. */
  list(): Profile[]
  get(id: string): Profile
  /** The stored choice if that profile exists, else the first in the list (a built-in if any). */
  activeId(): string | null
  setActive(id: string): Promise<string>
  create(draft: ProfileDraft): Promise<Profile>
  update(id: string, changes: ProfileChanges): Promise<Profile>
  duplicate(id: string): Promise<Profile>
  delete(id: string): Promise<void>
  registerBuiltin(profile: BuiltinProfile, apiToken: string): Promise<Profile>
  exportProfiles(): ProfilesExport
  /** Adds the file's profiles under new ids, renaming any whose name is taken. */
  importProfiles(text: string): Promise<Profile[]>
  resolveConnection(id: string): Promise<Connection>
  /** Sentences for the operator about this launch, e.g. a profiles file moved aside. */
  notices(): string[]
}

export interface ProfileStoreOptions {
  dataDir: string
  vault: SecretVault
  now?: () => Date
  newId?: () => string
}

export async function openProfileStore(options: ProfileStoreOptions): Promise<ProfileStore> {
  const { vault } = options
  const now = options.now ?? (() => new Date())
  const newId = options.newId ?? randomUUID
  const path = join(ensureDataDir(options.dataDir), PROFILES_FILE)
  const runInTurn = createSerialQueue()
  const notices: string[] = []
  const builtins = new Map<string, Profile>()

  const file = await readJsonFile(path, ProfilesFileSchema, now)
  if (file.state === 'moved-aside') notices.push(file.notice)
  let saved: ProfilesFile = file.state === 'read' ? file.value : { version: 1, activeId: null, profiles: [] }

  async function save(next: ProfilesFile) {
    await writeJsonFile(path, next)
    saved = next
  }

  const list = () => [...builtins.values(), ...saved.profiles]

  function get(id: string): Profile {
    const profile = list().find((candidate) => candidate.id === id)
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
    const taken = list().some((profile) => profile.id !== exceptId && profile.name.toLowerCase() === name.toLowerCase())
    if (taken) throw new AppErrorException('conflict', `A profile named “${name}” already exists. Choose another name.`)
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

  async function moveToken(profile: Profile, storage: TokenStorage) {
    const key = profileTokenKey(profile.id)
    if (vault.describe(key).storage === storage) return
    const secret = await vault.get(key)
    if (secret === null) {
      throw new AppErrorException('refused', `“${profile.name}” has no API token to move. Enter one first.`)
    }
    await vault.set(key, secret, storage)
  }

  /** Saves a new profile; its token, already in the vault, is taken out again if that fails. */
  async function saveNewProfiles(added: Profile[]) {
    try {
      await save({ ...saved, profiles: [...saved.profiles, ...added] })
    } catch (error) {
      await vault.delete(...added.map((profile) => profileTokenKey(profile.id)))
      throw error
    }
  }

  return {
    list,
    get,
    notices: () => [...notices],

    activeId() {
      const all = list()
      if (saved.activeId !== null && all.some((profile) => profile.id === saved.activeId)) return saved.activeId
      return all[0]?.id ?? null
    },

    setActive(id) {
      return runInTurn(async () => {
        get(id)
        await save({ ...saved, activeId: id })
        return id
      })
    },

    create(draft) {
      return runInTurn(async () => {
        assertNameFree(draft.name)
        const at = now().toISOString()
        const { name, baseUrl, timeoutSeconds, environmentLabel } = draft
        const profile: Profile = { id: newId(), name, baseUrl, timeoutSeconds, environmentLabel, createdAt: at, updatedAt: at }
        if (draft.apiToken !== undefined) {
          await vault.set(profileTokenKey(profile.id), draft.apiToken, placeForToken(draft.tokenStorage, { set: false, storage: 'none' }))
        }
        await saveNewProfiles([profile])
        return profile
      })
    },

    update(id, changes) {
      return runInTurn(async () => {
        const current = editable(id, 'edited')
        if (changes.name !== undefined) assertNameFree(changes.name, id)
        const key = profileTokenKey(id)
        if (changes.clearToken) await vault.delete(key)
        else if (changes.apiToken !== undefined) await vault.set(key, changes.apiToken, placeForToken(changes.tokenStorage, vault.describe(key)))
        else if (changes.tokenStorage !== undefined) await moveToken(current, changes.tokenStorage)

        const updated: Profile = {
          ...current,
          name: changes.name ?? current.name,
          baseUrl: changes.baseUrl ?? current.baseUrl,
          timeoutSeconds: changes.timeoutSeconds ?? current.timeoutSeconds,
          environmentLabel: changes.environmentLabel ?? current.environmentLabel,
          updatedAt: now().toISOString(),
        }
        await save({ ...saved, profiles: saved.profiles.map((profile) => (profile.id === id ? updated : profile)) })
        return updated
      })
    },

    /**
     * The copy takes the API token too (copied inside the vault, in the same place, never
     * decrypted): a duplicate is most often the same account with another label or timeout, and
     * the operator may no longer have the token at hand to type it again. Group tokens stay
     * with the original: they belong to the groups fetched through it.
     */
    duplicate(id) {
      return runInTurn(async () => {
        const source = get(id)
        const at = now().toISOString()
        const copy: Profile = {
          id: newId(),
          name: uniqueName(`${source.name} (copy)`, names()),
          baseUrl: source.baseUrl,
          timeoutSeconds: source.timeoutSeconds,
          environmentLabel: source.environmentLabel,
          createdAt: at,
          updatedAt: at,
        }
        await vault.copy(profileTokenKey(source.id), profileTokenKey(copy.id))
        await saveNewProfiles([copy])
        return copy
      })
    },

    delete(id) {
      return runInTurn(async () => {
        editable(id, 'deleted')
        // Secrets first: should saving the list then fail, a profile without its token is
        // visible and can be deleted again, whereas an orphaned secret would linger unseen.
        await vault.delete(...vault.keys().filter((key) => isSecretOfProfile(key, id)))
        await save({
          ...saved,
          activeId: saved.activeId === id ? null : saved.activeId,
          profiles: saved.profiles.filter((profile) => profile.id !== id),
        })
      })
    },

    registerBuiltin(builtin, apiToken) {
      return runInTurn(async () => {
        if (saved.profiles.some((profile) => profile.id === builtin.id)) {
          throw new Error(`A saved profile already uses the id "${builtin.id}"; a built-in profile needs its own.`)
        }
        const at = now().toISOString()
        const profile = ProfileSchema.parse({ ...builtin, builtin: true, createdAt: at, updatedAt: at })
        // Memory only: the app hands the token over at every launch, and it is never written.
        await vault.set(profileTokenKey(profile.id), apiToken, 'session')
        builtins.set(profile.id, profile)
        return profile
      })
    },

    exportProfiles: () => buildProfilesExport(saved.profiles, now()),

    importProfiles(text) {
      return runInTurn(async () => {
        const incoming = parseProfilesExport(text)
        const taken = names()
        const at = now().toISOString()
        const imported = incoming.map((settings): Profile => {
          const name = uniqueName(settings.name, taken)
          taken.push(name)
          return { ...settings, id: newId(), name, createdAt: at, updatedAt: at }
        })
        await saveNewProfiles(imported)
        return imported
      })
    },

    async resolveConnection(id) {
      const profile = get(id)
      const apiToken = await vault.get(profileTokenKey(id))
      if (apiToken === null) {
        throw new AppErrorException('refused', `The profile “${profile.name}” has no API token. Edit the profile and enter one.`)
      }
      return { baseUrl: profile.baseUrl, apiToken, timeoutMs: profile.timeoutSeconds * 1000 }
    },
  }
}
