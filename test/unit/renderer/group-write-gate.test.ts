import { describe, expect, it } from 'vitest'
import { type Submission, writeGateOf } from '../../../src-renderer/features/groups/group-submission'
import { type ProfileView, ProfileViewSchema } from '../../../src-shared/profiles/schemas'

const profileOf = (fields: Partial<ProfileView>): ProfileView =>
  ProfileViewSchema.parse({
    id: 'p1',
    name: 'Prod',
    baseUrl: 'https://example.com',
    token: { set: true, last4: 'abcd', storage: 'file' },
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...fields,
  })

const write = (profile: ProfileView): Submission => ({ profile, operation: 'update', request: { user_group_id: 'acme' } })
const rotation = (profile: ProfileView): Submission => ({ profile, operation: 'rotateToken', source: { kind: 'catalog', groupId: 'acme' } })

describe('the gate a group write passes before it is sent', () => {
  it('asks first on a session’s first write to production, and sends once that profile is confirmed', () => {
    const customer = profileOf({ environmentKind: 'customer' })
    expect(writeGateOf(write(customer), new Set())).toBe('ask')
    expect(writeGateOf(write(customer), new Set(['p1']))).toBe('send')
    expect(writeGateOf(write(customer), new Set(['another']))).toBe('ask')
  })

  it('takes a rotation’s own dialog as the confirmation: it is recorded, not asked again', () => {
    const customer = profileOf({ environmentKind: 'customer' })
    expect(writeGateOf(rotation(customer), new Set())).toBe('confirm and send')
    expect(writeGateOf(rotation(customer), new Set(['p1']))).toBe('send')
  })

  it('asks for a Testing profile whose server put its groups in Customer, and never for testing or unsaid ones', () => {
    expect(writeGateOf(write(profileOf({ environmentKind: 'testing', serverEnvironment: 'Customer' })), new Set())).toBe('ask')
    expect(writeGateOf(write(profileOf({ environmentKind: 'testing', serverEnvironment: 'Testing' })), new Set())).toBe('send')
    expect(writeGateOf(write(profileOf({ environmentKind: 'unspecified', builtin: true })), new Set())).toBe('send')
  })
})
