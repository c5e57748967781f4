import { describe, expect, it } from 'vitest'
import {
  BaseUrlSchema,
  baseUrlWarning,
  ProfileChangesSchema,
  ProfileDraftSchema,
  ProfilesExportSchema,
  ProfileViewSchema,
} from '../../../src-shared/profiles/schemas'

const messageOf = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues.map((issue) => issue.message).join(' | ')

describe('base URL', () => {
  it('accepts http and https, trimmed, without trailing slashes', () => {
    expect(BaseUrlSchema.parse('  https://api.example.com/  ')).toBe('https://api.example.com')
    expect(BaseUrlSchema.parse('http://127.0.0.1:8080/base//')).toBe('http://127.0.0.1:8080/base')
  })

  it.each(['ftp://example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'ws://example.com'])(
    'refuses %s, saying which schemes are accepted',
    (url) => {
      const result = BaseUrlSchema.safeParse(url)
      expect(result.success).toBe(false)
      expect(messageOf(result)).toMatch(/must start with https:\/\/ \(or http:\/\/\)/)
    },
  )

  it('refuses something that is not a full address', () => {
    expect(messageOf(BaseUrlSchema.safeParse('example.com'))).toMatch(/not a full address/)
  })

  it('refuses credentials in the address without repeating them', () => {
    const result = BaseUrlSchema.safeParse('https://admin:hunter2-password@example.com')
    expect(messageOf(result)).toMatch(/the API token has its own field/)
    expect(JSON.stringify(result.error)).not.toContain('hunter2-password')
  })

  it('refuses a query or a fragment, which /api/user could not follow', () => {
    expect(BaseUrlSchema.safeParse('https://example.com/?x=1').success).toBe(false)
    expect(BaseUrlSchema.safeParse('https://example.com/#top').success).toBe(false)
  })
})

describe('baseUrlWarning', () => {
  it.each(['http://example.com', 'http://10.0.0.5:8080', 'http://[2001:db8::1]'])('warns for plain http to %s', (url) => {
    expect(baseUrlWarning(url)).toMatch(/the API token would travel unencrypted/)
  })

  it.each([
    'https://example.com',
    'http://127.0.0.1:4000',
    'http://127.8.9.10',
    'http://localhost:3000',
    'http://LOCALHOST',
    'http://[::1]:9000',
  ])('stays quiet for %s (https or loopback)', (url) => {
    expect(baseUrlWarning(url)).toBeUndefined()
  })

  it('does not take a look-alike host for loopback', () => {
    expect(baseUrlWarning('http://127.0.0.1.example.com')).toBeDefined()
    expect(baseUrlWarning('http://localhost.example.com')).toBeDefined()
  })
})

describe('ProfileDraftSchema', () => {
  it('fills in the defaults: a 15 s timeout, no label, no token, the proxy variables, no CA bundle', () => {
    expect(ProfileDraftSchema.parse({ name: ' Prod ', baseUrl: 'https://example.com' })).toEqual({
      name: 'Prod',
      baseUrl: 'https://example.com',
      timeoutSeconds: 15,
      environmentLabel: '',
      environmentKind: 'unspecified',
      proxyMode: 'environment',
      proxyUrl: '',
      proxyUsername: '',
      caBundlePath: '',
    })
  })

  it.each([0, 301, 2.5])('refuses a timeout of %s', (timeoutSeconds) => {
    expect(ProfileDraftSchema.safeParse({ name: 'A', baseUrl: 'https://a.example', timeoutSeconds }).success).toBe(false)
  })

  it('trims a pasted token and refuses one with inner spaces or control characters', () => {
    expect(ProfileDraftSchema.parse({ name: 'A', baseUrl: 'https://a.example', apiToken: ' abc123\n' }).apiToken).toBe('abc123')
    expect(ProfileDraftSchema.safeParse({ name: 'A', baseUrl: 'https://a.example', apiToken: 'abc 123' }).success).toBe(false)
    expect(ProfileDraftSchema.safeParse({ name: 'A', baseUrl: 'https://a.example', apiToken: 'abc\u0000123' }).success).toBe(false)
  })

  it('refuses a token storage choice without a token', () => {
    const result = ProfileDraftSchema.safeParse({ name: 'A', baseUrl: 'https://a.example', tokenStorage: 'file' })
    expect(messageOf(result)).toMatch(/only when you enter one/)
  })

  it('refuses keys it does not know', () => {
    expect(ProfileDraftSchema.safeParse({ name: 'A', baseUrl: 'https://a.example', id: 'x' }).success).toBe(false)
  })
})

describe('ProfileChangesSchema', () => {
  it('takes any subset of fields and adds no defaults (a field left out is kept)', () => {
    expect(ProfileChangesSchema.parse({ environmentLabel: 'Staging' })).toEqual({ environmentLabel: 'Staging' })
  })

  it('refuses clearing the token and giving a new one at once', () => {
    expect(ProfileChangesSchema.safeParse({ clearToken: true, apiToken: 'abc' }).success).toBe(false)
    expect(ProfileChangesSchema.safeParse({ clearToken: true, tokenStorage: 'session' }).success).toBe(false)
  })

  it('does not take an empty token to mean "clear"', () => {
    expect(ProfileChangesSchema.safeParse({ apiToken: '' }).success).toBe(false)
    expect(ProfileChangesSchema.safeParse({ apiToken: '   ' }).success).toBe(false)
  })
})

describe('shapes that leave main', () => {
  const profile = {
    id: 'p1',
    name: 'Prod',
    baseUrl: 'https://example.com',
    timeoutSeconds: 15,
    environmentLabel: 'Production',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  }

  it('a profile view has no place for a token: one slipped in is dropped', () => {
    const parsed = ProfileViewSchema.parse({
      ...profile,
      apiToken: 'leak',
      token: { set: true, last4: 'eak1', storage: 'file', secret: 'leak' },
    })
    expect(JSON.stringify(parsed)).not.toContain('leak')
  })

  it('an export file keeps settings only, drops a hand-added token, and checks its format', () => {
    const parsed = ProfilesExportSchema.parse({
      format: 'embed-console-profiles',
      version: 1,
      profiles: [{ name: 'Prod', baseUrl: 'https://example.com', apiToken: 'leak' }],
    })
    expect(parsed.profiles).toEqual([
      {
        name: 'Prod',
        baseUrl: 'https://example.com',
        timeoutSeconds: 15,
        environmentLabel: '',
        environmentKind: 'unspecified',
        proxyMode: 'environment',
        proxyUrl: '',
        caBundlePath: '',
      },
    ])
    expect(ProfilesExportSchema.safeParse({ format: 'embed-console-profiles', version: 2, profiles: [] }).success).toBe(false)
    expect(ProfilesExportSchema.safeParse({ format: 'other', version: 1, profiles: [] }).success).toBe(false)
  })
})
