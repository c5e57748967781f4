import { describe, expect, it } from 'vitest'
import { ACTIVE_PROFILE_SETTING } from '../../../src-main/profiles/profile-store'
import { groupTokenKey, profileTokenKey } from '../../../src-main/profiles/vault-keys'
import { failureOf } from '../../helpers/failure-of'
import { databasePath, draft, fakeSafeStorage, fileMode, filesUnder, openProfiles, storedSecretKeys, tempDataDir } from './helpers'

const TOKEN = 'api-token-0123456789abcdef'
const SANDBOX = { id: 'local-sandbox', name: 'Local sandbox', baseUrl: 'http://127.0.0.1:43210', environmentLabel: 'Sandbox' }

const prod = draft({ name: 'Production', baseUrl: 'https://api.example.com', environmentLabel: 'Production', timeoutSeconds: 30 })

describe('profiles: create, read, persist', () => {
  it('creates a profile with an id and dates, and finds it again after a restart', async () => {
    const dataDir = await tempDataDir()
    const { store } = await openProfiles(dataDir)
    const created = await store.create(prod)
    expect(created).toMatchObject({
      name: 'Production',
      baseUrl: 'https://api.example.com',
      timeoutSeconds: 30,
      environmentLabel: 'Production',
    })
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(created.createdAt).toBe(created.updatedAt)

    const { store: restarted } = await openProfiles(dataDir)
    expect(restarted.list()).toEqual([created])
    expect(restarted.get(created.id)).toEqual(created)
    expect(await fileMode(databasePath(dataDir))).toBe(0o600)
  })

  it('refuses a second profile with the same name, whatever its case', async () => {
    const { store } = await openProfiles(await tempDataDir())
    await store.create(prod)
    const error = await failureOf(store.create(draft({ name: 'PRODUCTION', baseUrl: 'https://other.example.com' })))
    expect(error.code).toBe('conflict')
    expect(error.message).toBe('A profile named “PRODUCTION” already exists. Choose another name.')
  })

  it('answers not_found for an unknown id', async () => {
    const { store } = await openProfiles(await tempDataDir())
    expect(() => store.get('nope')).toThrow(expect.objectContaining({ code: 'not_found' }))
    expect((await failureOf(store.setActive('nope'))).code).toBe('not_found')
  })
})

describe('profiles: the API token', () => {
  it('goes to the keychain by default when there is one', async () => {
    const { store, vault } = await openProfiles(await tempDataDir(), fakeSafeStorage())
    const created = await store.create({ ...prod, apiToken: TOKEN })
    expect(vault.describe(profileTokenKey(created.id))).toEqual({ set: true, storage: 'keychain', last4: 'cdef' })
  })

  it('is refused without a stated place when there is no keychain, and the profile is not created', async () => {
    const { store, vault } = await openProfiles(await tempDataDir())
    const error = await failureOf(store.create({ ...prod, apiToken: TOKEN }))
    expect(error.code).toBe('refused')
    expect(error.message).toBe(vault.status().message)
    expect(store.list()).toEqual([])
  })

  it('goes where the operator says: an owner-only file or this session', async () => {
    const { store, vault } = await openProfiles(await tempDataDir())
    const inFile = await store.create({ ...prod, apiToken: TOKEN, tokenStorage: 'file' })
    const inSession = await store.create({ ...prod, name: 'Staging', apiToken: TOKEN, tokenStorage: 'session' })
    expect(vault.describe(profileTokenKey(inFile.id)).storage).toBe('file')
    expect(vault.describe(profileTokenKey(inSession.id)).storage).toBe('session')
  })

  it('resolves a connection for the API client, and only with a token', async () => {
    const { store } = await openProfiles(await tempDataDir(), fakeSafeStorage())
    const withToken = await store.create({ ...prod, apiToken: TOKEN })
    expect(await store.resolveConnection(withToken.id)).toEqual({
      baseUrl: 'https://api.example.com',
      apiToken: TOKEN,
      timeoutMs: 30_000,
      network: { proxy: { mode: 'environment' } },
    })

    const without = await store.create(draft({ name: 'Empty', baseUrl: 'https://empty.example.com' }))
    const error = await failureOf(store.resolveConnection(without.id))
    expect(error.code).toBe('refused')
    expect(error.message).toBe('The profile “Empty” has no API token. Edit the profile and enter one.')
  })
})

describe('profiles: update', () => {
  it('changes the fields given, keeps the others and the token, and moves updatedAt', async () => {
    let clock = Date.parse('2025-01-01T00:00:00Z')
    const { store } = await openProfiles(await tempDataDir(), fakeSafeStorage(), () => new Date((clock += 1000)))

    const created = await store.create({ ...prod, apiToken: TOKEN })
    const updated = await store.update(created.id, { environmentLabel: 'Staging' })
    expect(updated).toEqual({ ...created, environmentLabel: 'Staging', updatedAt: expect.any(String) })
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt))
    expect(await store.resolveConnection(created.id)).toMatchObject({ apiToken: TOKEN })
  })

  it('replaces the token in the place the old one was, clears it only on request, and can move it', async () => {
    const { store, vault } = await openProfiles(await tempDataDir())
    const created = await store.create({ ...prod, apiToken: TOKEN, tokenStorage: 'file' })
    const key = profileTokenKey(created.id)

    await store.update(created.id, { apiToken: 'replacement-token-9999' })
    expect(vault.describe(key)).toEqual({ set: true, storage: 'file', last4: '9999' })

    await store.update(created.id, { tokenStorage: 'session' })
    expect(vault.describe(key).storage).toBe('session')
    expect(await vault.get(key)).toBe('replacement-token-9999')

    await store.update(created.id, { clearToken: true })
    expect(vault.describe(key)).toEqual({ set: false, storage: 'none' })
    expect((await failureOf(store.update(created.id, { tokenStorage: 'file' }))).message).toMatch(/has no API token to move/)
  })

  it('drops the API token and the group tokens when the base URL moves to another scheme, host or port', async () => {
    for (const elsewhere of [
      'https://evil.example',
      'http://api.example.com',
      'https://api.example.com:8443',
      'https://API.example.com.evil.example',
    ]) {
      const { store, vault } = await openProfiles(await tempDataDir(), fakeSafeStorage())
      const created = await store.create({ ...prod, apiToken: TOKEN })
      vault.set(groupTokenKey(created.id, 'g1'), 'group-token-abcdefgh', 'keychain')
      vault.set(groupTokenKey(created.id, 'g2'), 'group-session-token-abcdefgh', 'session')

      const moved = await store.update(created.id, { baseUrl: elsewhere, name: 'Moved' })
      expect(moved).toMatchObject({ baseUrl: elsewhere, name: 'Moved' })
      expect(vault.describe(profileTokenKey(created.id))).toEqual({ set: false, storage: 'none' })
      expect(vault.has(groupTokenKey(created.id, 'g1'))).toBe(false)
      expect(vault.has(groupTokenKey(created.id, 'g2'))).toBe(false)
      expect((await failureOf(store.resolveConnection(created.id))).message).toMatch(/has no API token/)
    }
  })

  it('keeps the tokens when the base URL stays on the same server', async () => {
    for (const sameServer of ['https://api.example.com/v2', 'https://API.EXAMPLE.com:443/', 'https://api.example.com']) {
      const { store, vault } = await openProfiles(await tempDataDir(), fakeSafeStorage())
      const created = await store.create({ ...prod, apiToken: TOKEN })
      vault.set(groupTokenKey(created.id, 'g1'), 'group-token-abcdefgh', 'keychain')
      await store.update(created.id, { baseUrl: sameServer })
      expect(await store.resolveConnection(created.id)).toMatchObject({ apiToken: TOKEN })
      expect(vault.get(groupTokenKey(created.id, 'g1'))).toBe('group-token-abcdefgh')
    }
  })

  it('keeps a new token given with the new base URL, in the place the old one was, and no old group token', async () => {
    const { db, store, vault } = await openProfiles(await tempDataDir())
    const created = await store.create({ ...prod, apiToken: TOKEN, tokenStorage: 'file' })
    vault.set(groupTokenKey(created.id, 'g1'), 'group-token-abcdefgh', 'file')
    await store.update(created.id, { baseUrl: 'https://other.example', apiToken: 'new-server-token-7777' })
    expect(vault.describe(profileTokenKey(created.id))).toEqual({ set: true, storage: 'file', last4: '7777' })
    expect(await store.resolveConnection(created.id)).toMatchObject({ baseUrl: 'https://other.example', apiToken: 'new-server-token-7777' })
    expect(vault.has(groupTokenKey(created.id, 'g1'))).toBe(false)

    // A session token given with the move stays in this session only.
    const session = await store.create({ ...prod, name: 'Session', apiToken: TOKEN, tokenStorage: 'session' })
    await store.update(session.id, { baseUrl: 'https://third.example', apiToken: 'third-server-token-8888' })
    expect(vault.describe(profileTokenKey(session.id))).toEqual({ set: true, storage: 'session', last4: '8888' })
    expect(storedSecretKeys(db)).not.toContain(profileTokenKey(session.id))
  })

  it('refuses a name another profile has, but not the profile’s own', async () => {
    const { store } = await openProfiles(await tempDataDir())
    const first = await store.create(prod)
    await store.create(draft({ name: 'Staging', baseUrl: 'https://staging.example.com' }))
    expect((await failureOf(store.update(first.id, { name: 'staging' }))).code).toBe('conflict')
    expect((await store.update(first.id, { name: 'PRODUCTION' })).name).toBe('PRODUCTION')
  })
})

describe('profiles: duplicate', () => {
  it('copies the settings and the token (in the same place) under a new id and name, but not group tokens', async () => {
    const { store, vault } = await openProfiles(await tempDataDir(), fakeSafeStorage())
    const source = await store.create({ ...prod, apiToken: TOKEN })
    await vault.set(groupTokenKey(source.id, 'g1'), 'group-token-abcdefgh', 'keychain')

    const copy = await store.duplicate(source.id)
    expect(copy).toMatchObject({ name: 'Production (copy)', baseUrl: source.baseUrl, timeoutSeconds: 30, environmentLabel: 'Production' })
    expect(copy.id).not.toBe(source.id)
    expect(vault.describe(profileTokenKey(copy.id))).toEqual(vault.describe(profileTokenKey(source.id)))
    expect(await store.resolveConnection(copy.id)).toMatchObject({ apiToken: TOKEN })
    expect(vault.has(groupTokenKey(copy.id, 'g1'))).toBe(false)

    expect((await store.duplicate(source.id)).name).toBe('Production (copy) (2)')
  })

  it('gives the copy the token only for the same server: the copy moved elsewhere loses it, the original keeps it', async () => {
    const { store } = await openProfiles(await tempDataDir(), fakeSafeStorage())
    const source = await store.create({ ...prod, apiToken: TOKEN })
    const copy = await store.duplicate(source.id)
    await store.update(copy.id, { baseUrl: 'https://staging.example.com' })
    expect((await failureOf(store.resolveConnection(copy.id))).message).toMatch(/has no API token/)
    expect(await store.resolveConnection(source.id)).toMatchObject({ apiToken: TOKEN })
  })

  it('makes an ordinary, editable profile of a built-in one', async () => {
    const { store } = await openProfiles(await tempDataDir())
    await store.registerBuiltin(SANDBOX, TOKEN)
    const copy = await store.duplicate(SANDBOX.id)
    expect(copy.builtin).toBeUndefined()
    expect((await store.update(copy.id, { name: 'My sandbox' })).name).toBe('My sandbox')
  })
})

describe('profiles: delete', () => {
  it('removes the profile and every secret kept for it, and nothing of other profiles', async () => {
    const dataDir = await tempDataDir()
    const { db, store, vault } = await openProfiles(dataDir, fakeSafeStorage())
    const doomedToken = 'doomed-token-0123456789'
    const doomed = await store.create({ ...prod, apiToken: doomedToken })
    const kept = await store.create({ ...prod, name: 'Kept', apiToken: TOKEN })
    await vault.set(groupTokenKey(doomed.id, 'g1'), 'doomed-group-token-abcdefgh', 'keychain')
    await vault.set(groupTokenKey(doomed.id, 'g2'), 'doomed-session-token-abcdefgh', 'session')
    await vault.set(groupTokenKey(kept.id, 'g1'), 'group-token-abcdefgh', 'keychain')

    await store.delete(doomed.id)
    expect(store.list().map((profile) => profile.id)).toEqual([kept.id])
    expect(storedSecretKeys(db)).toEqual([groupTokenKey(kept.id, 'g1'), profileTokenKey(kept.id)].sort())
    expect(vault.has(groupTokenKey(doomed.id, 'g2'))).toBe(false)
    // secure_delete and a checkpoint: the deleted ciphertext lingers neither in free pages nor in the WAL.
    const ciphertext = fakeSafeStorage().encryptString(doomedToken).toString('base64')
    const onDisk = (await filesUnder(dataDir)).map((file) => file.text).join('\n')
    expect(onDisk).not.toContain(ciphertext)
    expect(onDisk).not.toContain(doomed.id)
  })
})

describe('profiles: the active one', () => {
  it('is remembered across restarts, and falls back when that profile is deleted', async () => {
    const dataDir = await tempDataDir()
    const { store } = await openProfiles(dataDir)
    const first = await store.create(prod)
    const second = await store.create(draft({ name: 'Staging', baseUrl: 'https://staging.example.com' }))
    expect(store.activeId()).toBe(first.id)
    await store.setActive(second.id)
    expect((await openProfiles(dataDir)).store.activeId()).toBe(second.id)

    await store.delete(second.id)
    expect(store.activeId()).toBe(first.id)
  })

  it('is the built-in one when none was chosen', async () => {
    const { store } = await openProfiles(await tempDataDir())
    await store.create(prod)
    await store.registerBuiltin(SANDBOX, TOKEN)
    expect(store.activeId()).toBe(SANDBOX.id)
  })

  it('is the built-in one when the stored choice names a profile that is gone', async () => {
    const dataDir = await tempDataDir()
    const { store } = await openProfiles(dataDir)
    const kept = await store.create(prod)
    ;(await openProfiles(dataDir)).db.run('UPDATE settings SET value = ? WHERE key = ?', 'gone', ACTIVE_PROFILE_SETTING)

    const { store: restarted } = await openProfiles(dataDir)
    await restarted.registerBuiltin(SANDBOX, TOKEN)
    expect(restarted.activeId()).toBe(SANDBOX.id)
    await restarted.setActive(kept.id)
    expect(restarted.activeId()).toBe(kept.id)
  })

  it('stays on a chosen built-in across restarts', async () => {
    const dataDir = await tempDataDir()
    const { store } = await openProfiles(dataDir)
    await store.create(prod)
    await store.registerBuiltin(SANDBOX, TOKEN)
    await store.setActive(SANDBOX.id)

    const { store: restarted } = await openProfiles(dataDir)
    expect(restarted.activeId()).not.toBe(SANDBOX.id)
    await restarted.registerBuiltin(SANDBOX, TOKEN)
    expect(restarted.activeId()).toBe(SANDBOX.id)
  })

  it('is null when there is no profile at all', async () => {
    const { store } = await openProfiles(await tempDataDir())
    expect(store.activeId()).toBeNull()
  })
})

describe('profiles: built-in', () => {
  it('is listed first, usable, protected, and neither it nor its token is written anywhere', async () => {
    const dataDir = await tempDataDir()
    const { db, store } = await openProfiles(dataDir, fakeSafeStorage())
    await store.create(prod)
    const sandbox = await store.registerBuiltin(SANDBOX, TOKEN)
    expect(sandbox).toMatchObject({ ...SANDBOX, builtin: true, timeoutSeconds: 15 })
    expect(store.list()[0]).toEqual(sandbox)
    expect(await store.resolveConnection(SANDBOX.id)).toEqual({
      baseUrl: SANDBOX.baseUrl,
      apiToken: TOKEN,
      timeoutMs: 15_000,
      network: { proxy: { mode: 'environment' } },
    })

    const editError = await failureOf(store.update(SANDBOX.id, { name: 'Mine' }))
    expect(editError.code).toBe('refused')
    expect(editError.message).toBe(
      '“Local sandbox” is built into the app and cannot be edited. Duplicate it to get a profile you can change.',
    )
    expect((await failureOf(store.delete(SANDBOX.id))).code).toBe('refused')

    await store.setActive(SANDBOX.id)
    const files = await filesUnder(dataDir)
    expect(files.map((file) => file.text).join('\n')).not.toContain(TOKEN)
    expect(db.get<{ n: number }>('SELECT count(*) AS n FROM profiles')?.n).toBe(1)
    expect(store.exportProfiles().profiles.map((profile) => profile.name)).toEqual(['Production'])
  })
})

describe('profiles: export and import', () => {
  it('exports settings only, never a token', async () => {
    const { store } = await openProfiles(await tempDataDir(), fakeSafeStorage())
    await store.create({ ...prod, apiToken: TOKEN })
    const exported = store.exportProfiles()
    expect(exported).toMatchObject({
      format: 'embed-console-profiles',
      version: 1,
      profiles: [{ name: 'Production', baseUrl: 'https://api.example.com', timeoutSeconds: 30, environmentLabel: 'Production' }],
    })
    expect(JSON.stringify(exported)).not.toContain(TOKEN)
    expect(JSON.stringify(exported)).not.toContain('cdef')
  })

  it('imports under new ids, with taken names made unique, and brings no token in', async () => {
    const source = (await openProfiles(await tempDataDir())).store
    await source.create(prod)
    await source.create(draft({ name: 'Staging', baseUrl: 'https://staging.example.com' }))
    const file = source.exportProfiles()
    const withToken = JSON.stringify({ ...file, profiles: file.profiles.map((profile) => ({ ...profile, apiToken: TOKEN })) })

    const { db, store } = await openProfiles(await tempDataDir())
    await store.create(prod)
    const imported = await store.importProfiles(withToken)
    expect(imported.map((profile) => profile.name)).toEqual(['Production (2)', 'Staging'])
    expect(new Set(store.list().map((profile) => profile.id)).size).toBe(3)
    expect(storedSecretKeys(db)).toEqual([])

    expect((await store.importProfiles(withToken)).map((profile) => profile.name)).toEqual(['Production (3)', 'Staging (2)'])
  })

  it('refuses a file that is not JSON, or not an export, or holds a bad address, and imports nothing', async () => {
    const { store } = await openProfiles(await tempDataDir())
    expect((await failureOf(store.importProfiles('{ not json'))).message).toBe('This file is not JSON, so it cannot be a profile export.')
    expect((await failureOf(store.importProfiles('{"hello": 1}'))).code).toBe('invalid_input')
    const badAddress = JSON.stringify({
      format: 'embed-console-profiles',
      version: 1,
      profiles: [
        { name: 'Fine', baseUrl: 'https://fine.example.com' },
        { name: 'Bad', baseUrl: 'ftp://files.example.com' },
      ],
    })
    const error = await failureOf(store.importProfiles(badAddress))
    expect(error.message).toMatch(/profiles\[1\]\.baseUrl/)
    expect(store.list()).toEqual([])
  })
})
