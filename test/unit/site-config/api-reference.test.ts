import { describe, expect, it } from 'vitest'
import { type ApiReferenceOptions, baseUrlListToChoose, planApiReference } from '../../../src-shared/site-config/api-reference'
import { apiReferenceGroups, apiReferencePageText } from '../../../src-shared/site-config/api-reference-pages'
import { checkMintConfigText } from '../../../src-shared/site-config/mint-validate'
import { applyValueChanges } from '../../../src-shared/site-config/text-edits'
import { buildOpenApiDocument } from '../../../src-shared/user-api/openapi'

// What "Add the API reference" makes of site.json: worked out once, shown by the dialog, applied
// through the format-preserving edits.

const URL_A = 'https://api.example.com'
const add = (baseUrl: string | null = URL_A): ApiReferenceOptions => ({ baseUrl, list: 'add' })
const AUTH = { method: 'key', name: 'Authorization', inputPrefix: 'Token ' }

function planned(config: unknown, options = add()) {
  const plan = planApiReference(config, options)
  if (!plan.ok) throw new Error(plan.problem)
  return plan
}

describe('the openapi field', () => {
  it('is added when absent, and a string becomes a list that keeps it', () => {
    expect(planned({ name: 'A' }).next).toMatchObject({ openapi: 'openapi.json' })
    expect(planned({ name: 'A', openapi: 'specs/v1.yaml' }).next).toMatchObject({ openapi: ['specs/v1.yaml', 'openapi.json'] })
  })

  it('gains openapi.json at the end of a list', () => {
    const plan = planned({ openapi: ['a.yaml', 'https://example.com/b.json'] })
    expect(plan.next).toMatchObject({ openapi: ['a.yaml', 'https://example.com/b.json', 'openapi.json'] })
    expect(plan.changes.filter((change) => change.path[0] === 'openapi')).toEqual([
      { kind: 'insertItem', path: ['openapi'], index: 2, value: 'openapi.json' },
    ])
  })

  it('is left alone when it names the file already, however the path is spelled', () => {
    for (const openapi of ['openapi.json', './openapi.json', '/openapi.json', ['x.yaml', './openapi.json']]) {
      const config = { openapi, api: { auth: AUTH } }
      const plan = planned(config, add(null))
      expect(plan.fields).toEqual([])
      expect(plan.changes).toEqual([])
      expect((plan.next as { openapi: unknown }).openapi).toBe(openapi)
    }
  })
})

describe('the base URL', () => {
  it('is set, or replaced when it is one URL', () => {
    expect(planned({}).next).toMatchObject({ api: { baseUrl: URL_A } })
    expect(planned({ api: { baseUrl: 'https://old.example.com' } }).fields).toContainEqual({
      path: ['api', 'baseUrl'],
      before: 'https://old.example.com',
      after: URL_A,
    })
  })

  it('is left as it is when no URL is to be written (a loopback profile not confirmed, or none)', () => {
    const config = { api: { baseUrl: ['https://one.example.com'] } }
    const plan = planned(config, add(null))
    expect(plan.fields.map((field) => field.path.join('.'))).toEqual(['openapi', 'api.auth'])
    expect((plan.next as typeof config).api.baseUrl).toBe(config.api.baseUrl)
  })

  it('as a list, is extended or replaced as the writer chose; the choice is asked only when there is one to make', () => {
    const list = ['https://one.example.com', 'https://two.example.com']
    expect(baseUrlListToChoose({ api: { baseUrl: list } }, URL_A)).toEqual(list)
    expect(baseUrlListToChoose({ api: { baseUrl: [URL_A] } }, URL_A)).toBeNull()
    expect(baseUrlListToChoose({ api: { baseUrl: [] } }, URL_A)).toBeNull()
    expect(baseUrlListToChoose({ api: { baseUrl: URL_A } }, URL_A)).toBeNull()

    expect(planned({ api: { baseUrl: list } }).next).toMatchObject({ api: { baseUrl: [...list, URL_A] } })
    expect(planned({ api: { baseUrl: list } }, { baseUrl: URL_A, list: 'replace' }).next).toMatchObject({ api: { baseUrl: URL_A } })
    // Already in the list: nothing to add, nothing moved.
    const holding = [URL_A, 'https://two.example.com']
    expect((planned({ api: { baseUrl: holding } }).next as { api: { baseUrl: unknown } }).api.baseUrl).toBe(holding)
  })
})

describe('the authentication', () => {
  it('takes method key, name Authorization and the prefix "Token ", keeping its other keys, never a token', () => {
    const plan = planned({ api: { auth: { method: 'bearer', 'x-note': 'kept' } } })
    expect(plan.next).toMatchObject({ api: { auth: { method: 'key', name: 'Authorization', inputPrefix: 'Token ', 'x-note': 'kept' } } })
    expect(JSON.stringify(plan.next)).not.toMatch(/token"\s*:/i)
  })

  it('makes a valid site.json under the spec', () => {
    const text = JSON.stringify(planned({ name: 'A', navigation: [] }).next)
    expect(checkMintConfigText(text, 'spec').errors).toEqual([])
  })
})

it('refuses to write over a field of the wrong type, which the form shows read-only', () => {
  expect(planApiReference({ openapi: 42 }, add())).toEqual({ ok: false, problem: expect.stringMatching(/OpenAPI file/) })
  expect(planApiReference({ api: 'x' }, add())).toEqual({ ok: false, problem: expect.stringMatching(/^API is not an object/) })
  expect(planApiReference({ api: { auth: [] } }, add())).toEqual({ ok: false, problem: expect.stringMatching(/Authentication/) })
  expect(planApiReference({ api: { baseUrl: { url: 'x' } } }, add())).toEqual({ ok: false, problem: expect.stringMatching(/Base URL/) })
  // Not written, not in the way.
  expect(planApiReference({ api: { baseUrl: { url: 'x' } } }, add(null)).ok).toBe(true)
})

it('edits the text in place: 4 spaces, CRLF, an inline list and the key order kept, one hunk per field', () => {
  const lines = [
    '{',
    '    "name": "Acme",',
    '    "openapi": "https://petstore.example.com/openapi.json",',
    '    "navigation": [{"group": "Start", "pages": ["intro"]}],',
    '    "api": {',
    '        "baseUrl": "https://old.example.com",',
    '        "playground": {"mode": "simple"},',
    '        "auth": {',
    '            "method": "bearer"',
    '        }',
    '    }',
    '}',
  ]
  const text = lines.join('\r\n')
  const plan = planned(JSON.parse(text))
  expect(plan.fields.map((field) => field.path.join('.'))).toEqual(['openapi', 'api.baseUrl', 'api.auth'])
  const edited = applyValueChanges(text, plan.changes)
  expect(edited.split('\r\n')).toEqual([
    '{',
    '    "name": "Acme",',
    '    "openapi": [',
    '        "https://petstore.example.com/openapi.json",',
    '        "openapi.json"',
    '    ],',
    '    "navigation": [{"group": "Start", "pages": ["intro"]}],',
    '    "api": {',
    '        "baseUrl": "https://api.example.com",',
    '        "playground": {"mode": "simple"},',
    '        "auth": {',
    '            "method": "key",',
    '            "name": "Authorization",',
    '            "inputPrefix": "Token "',
    '        }',
    '    }',
    '}',
  ])
})

describe('the endpoint pages in the navigation', () => {
  const groups = apiReferenceGroups(buildOpenApiDocument())
  const PAGES = [
    'api-reference/user-groups/get-or-create-a-user-group',
    'api-reference/user-groups/update-a-user-group',
    'api-reference/user-groups/rotate-a-user-groups-token',
  ]

  it('are named as Mintlify’s scraper names them: a folder per tag, a page per operation after its summary, in method order', () => {
    expect(groups).toEqual([{ group: 'User groups', pages: PAGES.map((page) => expect.objectContaining({ page, file: `${page}.mdx` })) }])
    expect(groups[0]!.pages.map((page) => `${page.method} ${page.path}`)).toEqual(['get /api/user', 'put /api/user', 'post /api/user'])
    expect(apiReferencePageText(groups[0]!.pages[2]!)).toBe('---\ntitle: "Rotate a user group\'s token"\nopenapi: "POST /api/user"\n---\n')
    // Untagged operations go to "API Reference"; no summary names a page by its method and path; a repeated name gets -1.
    const other = apiReferenceGroups({
      paths: {
        '/items/{id}': { get: { summary: 'Item' }, delete: {} },
        '/items': { post: { summary: 'Item', tags: [] }, patch: { summary: 'Hidden', 'x-hidden': true } },
      },
    })
    expect(other).toEqual([
      {
        group: 'API Reference',
        pages: ['api-reference/item', 'api-reference/delete-items', 'api-reference/item-1'].map((page) =>
          expect.objectContaining({ page }),
        ),
      },
    ])
  })

  it('are added as a group of their tag at the end of the navigation, one change, valid, and only once', () => {
    const config = { name: 'Docs', navigation: [{ group: 'Start', pages: ['intro'] }] }
    const plan = planned(config, { ...add(), groups })
    expect((plan.next as { navigation: unknown }).navigation).toEqual([
      { group: 'Start', pages: ['intro'] },
      { group: 'User groups', pages: PAGES },
    ])
    expect(plan.fields.find((field) => field.path[0] === 'navigation')).toEqual({
      path: ['navigation', 1],
      before: undefined,
      after: { group: 'User groups', pages: PAGES },
    })
    expect(plan.changes.filter((change) => change.path[0] === 'navigation')).toEqual([
      { kind: 'insertItem', path: ['navigation'], index: 1, value: { group: 'User groups', pages: PAGES } },
    ])
    const text = applyValueChanges(JSON.stringify(config, null, 2), plan.changes)
    expect(checkMintConfigText(text, 'spec').errors).toEqual([])
    // Planned again on the result: nothing more to add.
    expect(planned(JSON.parse(text), { ...add(), groups }).fields.filter((field) => field.path[0] === 'navigation')).toEqual([])
  })

  it('go into a group of that name already there, skipping the pages listed anywhere, however spelled', () => {
    const config = {
      navigation: [
        { group: 'User groups', pages: ['overview', `/${PAGES[1]}`] },
        { group: 'Other', pages: [{ group: 'Nested', pages: [`${PAGES[2]}.mdx`] }] },
      ],
    }
    const plan = planned(config, { ...add(), groups })
    expect((plan.next as { navigation: unknown[] }).navigation[0]).toEqual({
      group: 'User groups',
      pages: ['overview', `/${PAGES[1]}`, PAGES[0]],
    })
    expect(plan.changes.filter((change) => change.path[0] === 'navigation')).toEqual([
      { kind: 'insertItem', path: ['navigation', 0, 'pages'], index: 2, value: PAGES[0] },
    ])
  })

  it('are refused over a navigation that is not a list', () => {
    expect(planApiReference({ navigation: { group: 'x' } }, { ...add(), groups })).toEqual({
      ok: false,
      problem: 'Navigation is not a list of groups: fix it first.',
    })
  })
})
