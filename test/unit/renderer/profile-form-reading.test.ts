import { describe, expect, it } from 'vitest'
import {
  initialValues,
  type ProfileFormValues,
  readProfileForm,
  storagesFor,
} from '../../../src-renderer/features/profiles/profile-form-values'
import { type ProfileView, ProfileViewSchema, type VaultStatus } from '../../../src-shared/profiles/schemas'

const vault: VaultStatus = { encryptionAvailable: true, backend: 'gnome_libsecret', message: 'Encrypted.' }

const saved: ProfileView = ProfileViewSchema.parse({
  id: 'p1',
  name: 'Prod',
  baseUrl: 'https://api.example.com',
  caBundlePath: '/etc/ssl/company.pem',
  token: { set: true, last4: 'abcd', storage: 'file' },
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
})

const editing = (changes: Partial<ProfileFormValues>) => readProfileForm({ ...initialValues(saved, storagesFor(vault)), ...changes }, saved)

describe('the profile form, read as what saving sends', () => {
  it('starts an edit with the secrets empty and the token kept where it is', () => {
    const values = initialValues(saved, storagesFor(vault))
    expect(values).toMatchObject({ apiToken: '', proxyPassword: '', tokenStorage: 'file', baseUrl: 'https://api.example.com' })
    expect(initialValues(null, storagesFor(vault))).toMatchObject({ environmentKind: 'customer', tokenStorage: 'keychain' })
    expect(initialValues(null, storagesFor({ ...vault, encryptionAvailable: false })).tokenStorage).toBe('session')
  })

  it('sends no secret and no unchanged CA bundle on an unrelated edit, so the saved ones stay', () => {
    const reading = editing({ name: 'Production' })
    expect(reading.movesServer).toBe(false)
    expect(reading.submission).toEqual({ kind: 'update', id: 'p1', changes: expect.objectContaining({ name: 'Production' }) })
    const changes = reading.submission?.kind === 'update' ? reading.submission.changes : {}
    expect(changes).not.toHaveProperty('caBundlePath')
    expect(changes.apiToken).toBeUndefined()
    expect(changes.tokenStorage).toBeUndefined()
    expect(changes.clearToken).toBeUndefined()
  })

  it('says an address on another server moves the profile, and "remove the token" is moot then', () => {
    expect(editing({ baseUrl: 'https://api.example.com/v2' }).movesServer).toBe(false)
    const moved = editing({ baseUrl: 'https://other.example.com', clearToken: true })
    expect(moved).toMatchObject({ movesServer: true, clearing: false })
    const changes = moved.submission?.kind === 'update' ? moved.submission.changes : {}
    expect(changes.clearToken).toBeUndefined()
  })

  it('removes the token only without sending a new one, and sends a typed token with where to keep it', () => {
    const clearing = editing({ clearToken: true, apiToken: 'typed-but-cleared-1234' })
    const cleared = clearing.submission?.kind === 'update' ? clearing.submission.changes : {}
    expect(cleared).toMatchObject({ clearToken: true })
    expect(cleared.apiToken).toBeUndefined()
    expect(cleared.tokenStorage).toBeUndefined()
    const replacing = editing({ apiToken: 'new-token-5678', tokenStorage: 'session' })
    expect(replacing.submission?.kind === 'update' && replacing.submission.changes).toMatchObject({
      apiToken: 'new-token-5678',
      tokenStorage: 'session',
    })
  })

  it('holds no submission while a field is wrong, and names the field', () => {
    const reading = readProfileForm({ ...initialValues(null, storagesFor(vault)), baseUrl: 'https://api.example.com' }, null)
    expect(reading.submission).toBeNull()
    expect(reading.problems.some((problem) => problem.field === 'name')).toBe(true)
    const draft = readProfileForm({ ...initialValues(null, storagesFor(vault)), name: 'New', baseUrl: 'https://api.example.com' }, null)
    expect(draft.submission).toMatchObject({ kind: 'create', draft: { name: 'New', environmentKind: 'customer' } })
    expect(draft.submission?.kind === 'create' && draft.submission.draft.tokenStorage).toBeUndefined()
  })
})
