import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openAppDatabase } from '../../../src-main/app-database'
import { createProfileHandlers } from '../../../src-main/profiles/profile-handlers'
import { profileProxyPasswordKey, profileTokenKey } from '../../../src-main/profiles/vault-keys'
import { ProfileChangesSchema, ProfileDraftSchema, ProxyUrlSchema } from '../../../src-shared/profiles/schemas'
import { makeCertificates } from '../../helpers/company-network'
import { failureOf } from '../../helpers/failure-of'
import { draft, fakeSafeStorage, filesUnder, openProfiles, storedSecretKeys, tempDataDir } from './helpers'

const TOKEN = 'api-token-0123456789abcdef'
const PROXY_PASSWORD = 'CANARY-proxy-password-5e6f7a8b'
const corp = draft({
  name: 'Corp',
  baseUrl: 'https://api.example.com',
  proxyMode: 'custom',
  proxyUrl: 'http://proxy.corp.example:3128',
  proxyUsername: 'alice',
})
const messageOf = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues.map((issue) => issue.message).join(' | ')

describe('the network settings of a profile (schema)', () => {
  it.each([
    ['http://user:secret@proxy.example:3128', /Leave the user name and password out of the proxy address/],
    ['socks5://proxy.example:1080', /"socks5:" proxies are not supported/],
    ['http://proxy.example:3128/path', /a host and a port, without a path/],
    ['proxy.example:3128', /not a full address|"proxy.example:" proxies/],
  ])('refuses the proxy address %s, without quoting it', (url, message) => {
    const result = ProxyUrlSchema.safeParse(url)
    expect(messageOf(result)).toMatch(message)
    expect(messageOf(result)).not.toContain('secret')
  })

  it('takes an http(s) proxy without its trailing slash', () => {
    expect(ProxyUrlSchema.parse(' https://proxy.example:8443/ ')).toBe('https://proxy.example:8443')
  })

  it('needs the address of the profile’s own proxy, a user name without a colon, a full CA bundle path', () => {
    expect(messageOf(ProfileDraftSchema.safeParse({ name: 'A', baseUrl: 'https://a.example', proxyMode: 'custom' }))).toBe(
      'Give the proxy’s address, or choose another way to connect.',
    )
    expect(messageOf(ProfileDraftSchema.safeParse({ name: 'A', baseUrl: 'https://a.example', proxyUsername: 'a:b' }))).toMatch(
      /cannot hold a colon/,
    )
    expect(messageOf(ProfileDraftSchema.safeParse({ name: 'A', baseUrl: 'https://a.example', caBundlePath: 'certs/ca.pem' }))).toMatch(
      /full path of the CA bundle/,
    )
    expect(ProfileDraftSchema.safeParse({ name: 'A', baseUrl: 'https://a.example', caBundlePath: 'C:\\certs\\ca.pem' }).success).toBe(true)
    expect(messageOf(ProfileChangesSchema.safeParse({ proxyMode: 'custom', proxyUrl: '' }))).toBe(
      'Give the proxy’s address, or choose another way to connect.',
    )
    expect(ProfileChangesSchema.safeParse({ clearProxyPassword: true, proxyPassword: 'x' }).success).toBe(false)
  })
})

describe('the network settings of a profile (store)', () => {
  it('keeps the proxy and the CA bundle in the profile, the proxy password in the vault, and hands both to the client', async () => {
    const dataDir = await tempDataDir()
    const { db, store, vault } = await openProfiles(dataDir, fakeSafeStorage())
    const { caFile } = makeCertificates()
    const created = await store.create({ ...corp, caBundlePath: caFile, apiToken: TOKEN, proxyPassword: PROXY_PASSWORD })
    expect(created).toMatchObject({
      proxyMode: 'custom',
      proxyUrl: 'http://proxy.corp.example:3128',
      proxyUsername: 'alice',
      caBundlePath: caFile,
    })
    expect(storedSecretKeys(db)).toEqual([profileProxyPasswordKey(created.id), profileTokenKey(created.id)].sort())
    expect(vault.describe(profileProxyPasswordKey(created.id)).storage).toBe('keychain')
    expect(await store.resolveConnection(created.id)).toEqual({
      baseUrl: 'https://api.example.com',
      apiToken: TOKEN,
      timeoutMs: 15_000,
      network: {
        proxy: { mode: 'custom', url: 'http://proxy.corp.example:3128', username: 'alice', password: PROXY_PASSWORD },
        caBundlePath: caFile,
      },
    })
    // Encrypted at rest: the password's text is in no file of the data folder.
    for (const file of await filesUnder(dataDir)) expect(file.text, file.name).not.toContain(PROXY_PASSWORD)
  })

  it('shows the renderer whether a proxy password is kept, never the password', async () => {
    const { store, vault } = await openProfiles(await tempDataDir(), fakeSafeStorage())
    const handlers = createProfileHandlers(store, vault)
    const context = { transport: 'test' as const }
    const created = await handlers['profiles.create']({ ...corp, proxyPassword: PROXY_PASSWORD, tokenStorage: 'keychain' }, context)
    expect(created.proxyPasswordSet).toBe(true)
    const listed = await handlers['profiles.list']({}, context)
    expect(JSON.stringify(listed)).not.toContain(PROXY_PASSWORD)
    const exported = await handlers['profiles.export']({}, context)
    expect(exported.text).not.toContain(PROXY_PASSWORD)
    expect(exported.text).not.toContain('alice')
    expect(JSON.parse(exported.text).profiles[0]).toMatchObject({
      proxyMode: 'custom',
      proxyUrl: 'http://proxy.corp.example:3128',
      caBundlePath: '',
    })
  })

  it('keeps the proxy password when the base URL moves to another server, which drops the API token', async () => {
    const { store, vault } = await openProfiles(await tempDataDir(), fakeSafeStorage())
    const created = await store.create({ ...corp, apiToken: TOKEN, proxyPassword: PROXY_PASSWORD })
    await store.update(created.id, { baseUrl: 'https://other.example.com' })
    expect(vault.get(profileTokenKey(created.id))).toBeNull()
    expect(vault.get(profileProxyPasswordKey(created.id))).toBe(PROXY_PASSWORD)
  })

  it('replaces, clears, copies and deletes the proxy password with the profile', async () => {
    const { store, vault } = await openProfiles(await tempDataDir(), fakeSafeStorage())
    const created = await store.create({ ...corp, apiToken: TOKEN, proxyPassword: PROXY_PASSWORD })
    await store.update(created.id, { proxyPassword: 'another-password' })
    expect(vault.get(profileProxyPasswordKey(created.id))).toBe('another-password')
    const copy = await store.duplicate(created.id)
    expect(copy).toMatchObject({ proxyMode: 'custom', proxyUrl: corp.proxyUrl, proxyUsername: 'alice' })
    expect(vault.get(profileProxyPasswordKey(copy.id))).toBe('another-password')
    await store.update(created.id, { clearProxyPassword: true })
    expect(vault.has(profileProxyPasswordKey(created.id))).toBe(false)
    await store.delete(copy.id)
    expect(vault.has(profileProxyPasswordKey(copy.id))).toBe(false)
  })

  it('refuses a custom proxy without an address, and a CA bundle that cannot be used, when saving', async () => {
    const { store } = await openProfiles(await tempDataDir(), fakeSafeStorage())
    const created = await store.create(draft({ name: 'Direct', baseUrl: 'https://api.example.com' }))
    expect((await failureOf(store.update(created.id, { proxyMode: 'custom' }))).message).toBe(
      'Give the proxy’s address, or choose another way to connect.',
    )
    const missing = join(await tempDataDir(), 'missing.pem')
    expect((await failureOf(store.update(created.id, { caBundlePath: missing }))).message).toBe(
      `The CA bundle ${missing} cannot be read (ENOENT): correct the path, or clear it.`,
    )
    const notPem = join(await tempDataDir(), 'notes.txt')
    await writeFile(notPem, 'not a certificate')
    expect((await failureOf(store.create(draft({ name: 'Other', baseUrl: 'https://b.example', caBundlePath: notPem })))).message).toBe(
      `The CA bundle ${notPem} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`,
    )
    expect(store.get(created.id).caBundlePath).toBe('')
  })
})

describe('migration 7', () => {
  it('gives the profiles of an older database the proxy variables and no CA bundle', async () => {
    const dataDir = await tempDataDir()
    const { db, store } = await openProfiles(dataDir)
    const created = await store.create(draft({ name: 'Old', baseUrl: 'https://api.example.com' }))
    // The database as version 5 left it.
    db.exec(`
      ALTER TABLE profiles DROP COLUMN proxy_mode;
      ALTER TABLE profiles DROP COLUMN proxy_url;
      ALTER TABLE profiles DROP COLUMN proxy_username;
      ALTER TABLE profiles DROP COLUMN ca_bundle_path;
      DELETE FROM schema_migrations WHERE version = 7;
    `)
    db.close()
    const reopened = openAppDatabase(dataDir)
    expect(reopened.get('SELECT 1 AS applied FROM schema_migrations WHERE version = 7')).toBeDefined()
    reopened.close()
    const { store: again } = await openProfiles(dataDir)
    expect(again.get(created.id)).toMatchObject({ proxyMode: 'environment', proxyUrl: '', proxyUsername: '', caBundlePath: '' })
  })
})
