import { describe, expect, it } from 'vitest'
import type { SafeStorageLike } from '../../../src-main/ports'
import { createProfileHandlers } from '../../../src-main/profiles/profile-handlers'
import { createRouter, type Handlers } from '../../../src-main/router'
import { ProfilesExportSchema, type TokenStorage } from '../../../src-shared/profiles/schemas'
import { fakeSafeStorage, filesUnder, openProfiles, tempDataDir } from './helpers'

const context = { transport: 'test' } as const
const SANDBOX = { id: 'local-sandbox', name: 'Local sandbox', baseUrl: 'http://127.0.0.1:43210', environmentLabel: 'Sandbox' }
const SANDBOX_TOKEN = 'sandbox-token-0000111122223333'

async function profileRouter(safeStorage?: SafeStorageLike) {
  const dataDir = await tempDataDir()
  const { store, vault } = await openProfiles(dataDir, safeStorage)
  await store.registerBuiltin(SANDBOX, SANDBOX_TOKEN)
  const internalErrors: string[] = []
  const router = createRouter(createProfileHandlers(store, vault) as unknown as Handlers, {
    onInternalError: (name, error) => internalErrors.push(`${name}: ${error instanceof Error ? error.message : String(error)}`),
  })
  const call = async (name: string, input: unknown) => router.dispatch(name, input, context)
  const value = async (name: string, input: unknown) => {
    const result = await call(name, input)
    if (!result.ok) throw new Error(`${name} failed: ${result.error.message}`)
    return result.value as never
  }
  return { dataDir, store, vault, call, value, internalErrors }
}

describe('profile calls through the router', () => {
  it('lists the built-in profile, preselected, with its token described and the vault status', async () => {
    const { value } = await profileRouter()
    const list: {
      profiles: Array<{ id: string; token: unknown; builtin?: boolean }>
      activeId: string
      vault: { encryptionAvailable: boolean }
      notices: string[]
    } = await value('profiles.list', {})
    expect(list.activeId).toBe(SANDBOX.id)
    expect(list.profiles).toEqual([
      expect.objectContaining({ id: SANDBOX.id, builtin: true, token: { set: true, last4: '3333', storage: 'session' } }),
    ])
    expect(list.vault.encryptionAvailable).toBe(false)
    expect(list.notices).toEqual([])
  })

  it('creates, edits, duplicates, activates and deletes', async () => {
    const { value } = await profileRouter(fakeSafeStorage())
    const created: { id: string; token: unknown } = await value('profiles.create', {
      name: 'Production',
      baseUrl: 'https://api.example.com/',
      apiToken: 'prod-token-abcdefghijkl',
    })
    expect(created).toMatchObject({
      baseUrl: 'https://api.example.com',
      timeoutSeconds: 15,
      token: { set: true, last4: 'ijkl', storage: 'keychain' },
    })

    const edited = await value('profiles.update', { id: created.id, changes: { timeoutSeconds: 60, clearToken: true } })
    expect(edited).toMatchObject({ timeoutSeconds: 60, token: { set: false, storage: 'none' } })

    const copy: { id: string; name: string } = await value('profiles.duplicate', { id: created.id })
    expect(copy.name).toBe('Production (copy)')
    expect(await value('profiles.setActive', { id: copy.id })).toEqual({ activeId: copy.id })
    expect(await value('profiles.delete', { id: copy.id })).toEqual({ activeId: SANDBOX.id })
  })

  it('refuses a non-http(s) base URL before any handler runs', async () => {
    const { call, store } = await profileRouter()
    const result = await call('profiles.create', { name: 'Files', baseUrl: 'ftp://files.example.com' })
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { issues: [{ path: ['baseUrl'] }] } } })
    expect(store.list()).toHaveLength(1)
  })

  it('refuses clearing and setting a token in one edit', async () => {
    const { call } = await profileRouter()
    const result = await call('profiles.update', { id: SANDBOX.id, changes: { clearToken: true, apiToken: 'abc' } })
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })

  it('answers with operator sentences: a protected built-in, a missing profile, a keychain that is not there', async () => {
    const { call } = await profileRouter()
    expect(await call('profiles.delete', { id: SANDBOX.id })).toEqual({
      ok: false,
      error: {
        code: 'refused',
        message: '“Local sandbox” is built into the app and cannot be deleted. Duplicate it to get a profile you can change.',
      },
    })
    expect(await call('profiles.setActive', { id: 'missing' })).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(
      await call('profiles.create', { name: 'P', baseUrl: 'https://p.example.com', apiToken: 'abcdef', tokenStorage: 'keychain' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'refused', message: expect.stringMatching(/^No system keychain is available here/) },
    })
  })

  it('exports a file that imports back under new names', async () => {
    const { value } = await profileRouter()
    await value('profiles.create', { name: 'Staging', baseUrl: 'https://staging.example.com', environmentLabel: 'Staging' })
    const exported: { text: string; count: number } = await value('profiles.export', {})
    expect(exported.count).toBe(1)
    expect(ProfilesExportSchema.parse(JSON.parse(exported.text)).profiles).toEqual([
      {
        name: 'Staging',
        baseUrl: 'https://staging.example.com',
        timeoutSeconds: 15,
        environmentLabel: 'Staging',
        environmentKind: 'unspecified',
        proxyMode: 'environment',
        proxyUrl: '',
        caBundlePath: '',
      },
    ])
    expect(await value('profiles.import', { text: exported.text })).toEqual({ imported: 1, names: ['Staging (2)'] })
  })

  it('reports the vault status on its own', async () => {
    const { value } = await profileRouter(fakeSafeStorage({ backend: 'kwallet6' }))
    expect(await value('profiles.vaultStatus', {})).toEqual({
      encryptionAvailable: true,
      backend: 'kwallet6',
      message: 'Tokens are encrypted with the system keychain (kwallet6).',
    })
  })
})

describe('the canary: an API token never leaves main', () => {
  const CANARY = 'CANARY-7e1f0c2d-token-that-must-never-leak-9a8b'

  // Only the operator's explicit choice of unencrypted storage (where no keychain exists) puts
  // the token's text in a file: the database (and its write-ahead log), nowhere else.
  const modes: Array<{ storage: TokenStorage; safeStorage?: SafeStorageLike; inDatabase: boolean }> = [
    { storage: 'keychain', safeStorage: fakeSafeStorage(), inDatabase: false },
    { storage: 'file', inDatabase: true },
    { storage: 'session', inDatabase: false },
  ]

  it.each(modes)(
    'stored in $storage: in no response, no log line, no file but the database when chosen',
    async ({ storage, safeStorage, inDatabase }) => {
      const { call, dataDir, store, vault, internalErrors } = await profileRouter(safeStorage)
      const responses: unknown[] = []
      const record = async (name: string, input: unknown) => {
        const result = await call(name, input)
        responses.push(result)
        return result
      }

      await record('profiles.vaultStatus', {})
      const created = await record('profiles.create', {
        name: 'Production',
        baseUrl: 'https://api.example.com',
        apiToken: CANARY,
        tokenStorage: storage,
      })
      if (!created.ok) throw new Error(created.error.message)
      const { id } = created.value as { id: string }
      await record('profiles.list', {})
      await record('profiles.update', { id, changes: { environmentLabel: 'Production' } })
      await record('profiles.update', { id, changes: { apiToken: CANARY, tokenStorage: storage } })
      const copy = await record('profiles.duplicate', { id })
      const copyId = copy.ok ? (copy.value as { id: string }).id : ''
      await record('profiles.setActive', { id: copyId })
      const exported = await record('profiles.export', {})
      await record('profiles.import', { text: exported.ok ? (exported.value as { text: string }).text : '' })
      // Failures carry the input's problems back: they must not carry the input.
      await record('profiles.create', { name: 'Bad', baseUrl: 'https://api.example.com', apiToken: `${CANARY} ${CANARY}` })
      await record('profiles.create', { name: 'Bad', baseUrl: 'https://api.example.com', apiToken: CANARY.repeat(200) })
      await record('profiles.create', { name: 'Production', baseUrl: 'https://api.example.com', apiToken: CANARY, tokenStorage: storage })
      await record('profiles.update', { id: SANDBOX.id, changes: { apiToken: CANARY } })
      await record('profiles.update', { id: 'missing', changes: { apiToken: CANARY } })
      await record('profiles.create', { name: 'Extra', baseUrl: 'https://api.example.com', apiToken: CANARY, token: CANARY })
      await record('profiles.delete', { id: copyId })
      const finalList = await record('profiles.list', {})

      // The session did what it should: the token is held, and described by its last four only.
      expect(await store.resolveConnection(id)).toMatchObject({ apiToken: CANARY })
      expect(JSON.stringify(finalList)).toContain(`"last4":"${CANARY.slice(-4)}"`)
      expect(responses.filter((result) => (result as { ok: boolean }).ok === false)).toHaveLength(6)

      expect(JSON.stringify(responses)).not.toContain(CANARY)
      expect(internalErrors).toEqual([])

      const files = await filesUnder(dataDir)
      const holding = files.filter((file) => file.text.includes(CANARY)).map((file) => file.name)
      if (inDatabase) expect(holding.length > 0 && holding.every((name) => name.startsWith('embed-console.db'))).toBe(true)
      else expect(holding).toEqual([])
      expect(vault.describe(`profile:${id}:api-token`).storage).toBe(storage)
    },
  )
})
