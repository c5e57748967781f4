import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import {
  AnchorSchema,
  ApiAuthSchema,
  ApiSchema,
  ColorsSchema,
  FeedbackSchema,
  FOOTER_PLATFORMS,
  FooterSocialsSchema,
  HEX_COLOR_MESSAGE,
  ICON_TYPES,
  LogoPathsSchema,
  MintConfigSchema,
  ModeToggleSchema,
  NavigationGroupSchema,
  TabSchema,
  TopAnchorSchema,
  TopbarCtaButtonSchema,
  TopbarLinkSchema,
} from '../../../src-shared/site-config/mint-schema'
import { validateMintConfig } from '../../../src-shared/site-config/mint-validate'
import { MINIMAL_CONFIG, type SpecRow, testSpecTable } from './spec-table'

// One describe per table of docs/site-json.md section 2 (the spec), each row as data (spec-table.ts runs them).

const inFile = (key: string) => (object: Record<string, unknown>) => ({ ...MINIMAL_CONFIG, [key]: object })
const asFirstItemOf = (key: string) => (object: Record<string, unknown>) => ({ ...MINIMAL_CONFIG, [key]: [object] })
const stringRow = (field: string, example: string, missing?: string): SpecRow => ({
  field,
  missing,
  valid: [example],
  invalid: [{ value: 5, message: 'must be a string, not the number 5' }],
})
const booleanRow = (field: string, defaultValue?: boolean): SpecRow => ({
  field,
  default: defaultValue,
  valid: [true, false],
  invalid: [{ value: 'yes', message: 'must be true or false, not "yes"' }],
})
const hexRow = (field: string, missing?: string): SpecRow => ({
  field,
  missing,
  valid: ['#0D9373', '#0d9', '#ABCDEF'],
  invalid: [
    { value: '#0D93', message: HEX_COLOR_MESSAGE },
    { value: '0D9373', message: HEX_COLOR_MESSAGE },
    { value: '#0D9373FF', message: HEX_COLOR_MESSAGE },
    { value: '#GGG', message: HEX_COLOR_MESSAGE },
    { value: 'teal', message: HEX_COLOR_MESSAGE },
    { value: 0x0d9373, message: 'must be a string, not the number 889715' },
  ],
})
const ICON_TYPE_CHOICES = 'one of "brands", "duotone", "light", "sharp-solid", "solid" or "thin"'

describe('top-level properties', () => {
  testSpecTable({ schema: MintConfigSchema, path: [], minimal: MINIMAL_CONFIG, place: (config) => config }, [
    { ...stringRow('name', 'Acme Docs', 'is required'), invalid: [{ value: null, message: 'must be a string, not null' }] },
    {
      field: 'navigation',
      missing: 'is required',
      valid: [[{ group: 'Get started', pages: ['introduction', 'quickstart'] }]],
      invalid: [
        { value: 'introduction', message: 'must be a list, not "introduction"' },
        { value: { group: 'Get started', pages: [] }, message: 'must be a list, not an object' },
        { value: ['introduction'], message: 'must be an object, not "introduction"', at: [0] },
      ],
    },
    {
      field: 'logo',
      valid: ['/logo.svg', { light: '/logo/light.svg', dark: '/logo/dark.svg' }],
      invalid: [
        { value: 5, message: 'must be the path to a logo image, or an object with light and dark logo paths' },
        { value: ['/logo.svg'], message: 'must be the path to a logo image, or an object with light and dark logo paths' },
        { value: { light: '/logo/light.svg' }, message: 'is required', at: ['dark'] },
      ],
    },
    stringRow('favicon', '/favicon.svg'),
    {
      field: 'colors',
      valid: [{ primary: '#0D9373' }],
      invalid: [
        { value: '#0D9373', message: 'must be an object, not "#0D9373"' },
        { value: {}, message: 'is required', at: ['primary'] },
      ],
    },
    {
      field: 'topbarLinks',
      valid: [[], [{ name: 'Support', url: 'mailto:support@acme.com' }]],
      invalid: [
        { value: { name: 'Support', url: 'mailto:support@acme.com' }, message: 'must be a list, not an object' },
        { value: [{ name: 'Support' }], message: 'is required', at: [0, 'url'] },
      ],
    },
    {
      field: 'topbarCtaButton',
      valid: [
        { name: 'Dashboard', url: 'https://dashboard.acme.com' },
        { type: 'github', url: 'https://github.com/acme/docs' },
      ],
      invalid: [{ value: 'Dashboard', message: 'must be an object, not "Dashboard"' }],
    },
    {
      field: 'versions',
      valid: [[], ['v1', 'v2']],
      invalid: [
        { value: 'v1', message: 'must be a list, not "v1"' },
        { value: ['v1', 2], message: 'must be a string, not the number 2', at: [1] },
      ],
    },
    {
      field: 'anchors',
      valid: [[], [{ name: 'API', url: 'api-reference' }]],
      invalid: [
        { value: { name: 'API', url: 'api-reference' }, message: 'must be a list, not an object' },
        { value: [{ name: 'API' }], message: 'is required', at: [0, 'url'] },
      ],
    },
    {
      field: 'topAnchor',
      valid: [{}, { name: 'Guides' }],
      invalid: [{ value: [], message: 'must be an object, not a list' }],
    },
    {
      field: 'tabs',
      valid: [[], [{ name: 'API', url: 'api-reference' }]],
      invalid: [{ value: [{ url: 'api-reference' }], message: 'is required', at: [0, 'name'] }],
    },
    {
      field: 'api',
      valid: [{}, { baseUrl: 'https://api.acme.com' }],
      invalid: [{ value: 'https://api.acme.com', message: 'must be an object, not "https://api.acme.com"' }],
    },
    {
      field: 'openapi',
      valid: ['openapi.json', 'https://acme.com/openapi.yaml', ['v1/openapi.json', 'v2/openapi.json']],
      invalid: [
        { value: true, message: 'must be a URL or relative path to an OpenAPI file, or a list of them' },
        { value: ['openapi.json', null], message: 'must be a string, not null', at: [1] },
      ],
    },
    {
      field: 'footerSocials',
      valid: [{}, { github: 'https://github.com/acme' }],
      invalid: [{ value: ['https://github.com/acme'], message: 'must be an object, not a list' }],
    },
    {
      field: 'feedback',
      valid: [{}, { suggestEdit: true }],
      invalid: [{ value: true, message: 'must be an object, not true' }],
    },
    {
      field: 'modeToggle',
      valid: [{}, { default: 'dark' }],
      invalid: [{ value: 'dark', message: 'must be an object, not "dark"' }],
    },
    { ...stringRow('backgroundImage', '/background.png'), invalid: [{ value: [], message: 'must be a string, not a list' }] },
  ])

  it('refuses a file that is not an object, at the root', () => {
    expect(validateMintConfig([]).errors).toEqual([{ path: '$', message: 'must be an object, not a list' }])
    expect(validateMintConfig(null).errors).toEqual([{ path: '$', message: 'must be an object, not null' }])
    expect(validateMintConfig('site').errors).toEqual([{ path: '$', message: 'must be an object, not "site"' }])
  })

  it('reports every missing required property at once', () => {
    expect(validateMintConfig({}).errors).toEqual([
      { path: 'name', message: 'is required' },
      { path: 'navigation', message: 'is required' },
    ])
  })
})

describe('navigation items', () => {
  testSpecTable(
    {
      schema: NavigationGroupSchema,
      path: ['navigation', 0],
      minimal: { group: 'Get started', pages: ['introduction'] },
      place: asFirstItemOf('navigation'),
    },
    [
      stringRow('group', 'Get started', 'is required'),
      {
        field: 'pages',
        missing: 'is required',
        valid: [[], ['introduction'], ['guides/setup', 'guides/deploy']],
        invalid: [
          { value: 'introduction', message: 'must be a list, not "introduction"' },
          { value: ['introduction', { group: 'Nested', pages: [] }], message: 'must be a string, not an object', at: [1] },
        ],
      },
    ],
  )
})

describe('logo object', () => {
  testSpecTable(
    { schema: LogoPathsSchema, path: ['logo'], minimal: { light: '/logo/light.svg', dark: '/logo/dark.svg' }, place: inFile('logo') },
    [
      stringRow('light', '/logo/light.svg', 'is required'),
      stringRow('dark', '/logo/dark.svg', 'is required'),
      { ...stringRow('href', 'https://acme.com'), default: '/' },
    ],
  )
})

describe('colors', () => {
  testSpecTable({ schema: ColorsSchema, path: ['colors'], minimal: { primary: '#0D9373' }, place: inFile('colors') }, [
    hexRow('primary', 'is required'),
    hexRow('light'),
    hexRow('dark'),
    {
      field: 'background',
      valid: [{ light: '#FFFFFF', dark: '#0F1117' }],
      invalid: [
        { value: '#FFFFFF', message: 'must be an object, not "#FFFFFF"' },
        { value: { light: '#FFFFFF' }, message: 'is required', at: ['dark'] },
      ],
    },
  ])

  describe('colors.background', () => {
    testSpecTable(
      {
        schema: (ColorsSchema.shape.background as z.ZodOptional<z.ZodObject>).unwrap(),
        path: ['colors', 'background'],
        minimal: { light: '#FFFFFF', dark: '#0F1117' },
        place: (background) => ({ ...MINIMAL_CONFIG, colors: { primary: '#0D9373', background } }),
      },
      [hexRow('light', 'is required'), hexRow('dark', 'is required')],
    )
  })
})

describe('topbarLinks items', () => {
  testSpecTable(
    {
      schema: TopbarLinkSchema,
      path: ['topbarLinks', 0],
      minimal: { name: 'Support', url: 'mailto:support@acme.com' },
      place: asFirstItemOf('topbarLinks'),
    },
    [stringRow('name', 'Support', 'is required'), stringRow('url', 'https://acme.com/support', 'is required')],
  )
})

describe('topbarCtaButton', () => {
  const place = inFile('topbarCtaButton')
  testSpecTable(
    { schema: TopbarCtaButtonSchema, path: ['topbarCtaButton'], minimal: { name: 'Dashboard', url: 'https://dashboard.acme.com' }, place },
    [
      {
        field: 'type',
        default: 'link',
        valid: ['link'],
        invalid: [{ value: 'button', message: 'must be "link" or "github", not "button"' }],
      },
      stringRow('url', 'https://github.com/acme/docs', 'is required'),
      stringRow('name', 'Dashboard', 'is required when type is "link" (the default)'),
    ],
  )

  it('needs no name for type github', () => {
    expect(validateMintConfig(place({ type: 'github', url: 'https://github.com/acme/docs' })).valid).toBe(true)
  })

  it('needs a name for an explicit type link', () => {
    expect(validateMintConfig(place({ type: 'link', url: 'https://acme.com' })).errors).toEqual([
      { path: 'topbarCtaButton.name', message: 'is required when type is "link" (the default)' },
    ])
  })

  it('reports the missing name together with the other problems of the button', () => {
    expect(validateMintConfig(place({})).errors).toEqual([
      { path: 'topbarCtaButton.url', message: 'is required' },
      { path: 'topbarCtaButton.name', message: 'is required when type is "link" (the default)' },
    ])
  })
})

describe('anchors items', () => {
  testSpecTable(
    {
      schema: AnchorSchema,
      path: ['anchors', 0],
      minimal: { name: 'API', url: 'api-reference' },
      place: (anchor) => ({ ...MINIMAL_CONFIG, versions: ['v1', 'v2'], anchors: [anchor] }),
    },
    [
      stringRow('icon', 'code'),
      stringRow('name', 'API reference', 'is required'),
      stringRow('url', 'api-reference', 'is required'),
      {
        field: 'color',
        valid: ['#0D9373', '#0D9', { from: '#0D9373', to: '#07C983' }],
        invalid: [
          { value: '#0D93', message: HEX_COLOR_MESSAGE },
          { value: 'teal', message: HEX_COLOR_MESSAGE },
          { value: { from: '#0D9373' }, message: 'is required', at: ['to'] },
          { value: { from: 'teal', to: '#07C983' }, message: HEX_COLOR_MESSAGE, at: ['from'] },
          { value: 5, message: 'must be a hex colour like #0D9373, or an object with from and to hex colours' },
        ],
      },
      { ...stringRow('version', 'v2'), invalid: [{ value: 2, message: 'must be a string, not the number 2' }] },
      booleanRow('isDefaultHidden', false),
      {
        field: 'iconType',
        default: 'duotone',
        valid: [...ICON_TYPES],
        invalid: [
          { value: 'regular', message: `must be ${ICON_TYPE_CHOICES}, not "regular"` },
          { value: 'Solid', message: `must be ${ICON_TYPE_CHOICES}, not "Solid"` },
        ],
      },
    ],
  )
})

describe('topAnchor', () => {
  testSpecTable({ schema: TopAnchorSchema, path: ['topAnchor'], minimal: {}, place: inFile('topAnchor') }, [
    { ...stringRow('name', 'Guides'), default: 'Documentation' },
    { ...stringRow('icon', 'rocket'), default: 'book-open' },
    {
      field: 'iconType',
      default: 'duotone',
      valid: [...ICON_TYPES],
      invalid: [{ value: 'regular', message: `must be ${ICON_TYPE_CHOICES}, not "regular"` }],
    },
  ])
})

describe('tabs items', () => {
  testSpecTable({ schema: TabSchema, path: ['tabs', 0], minimal: { name: 'API', url: 'api-reference' }, place: asFirstItemOf('tabs') }, [
    stringRow('name', 'API reference', 'is required'),
    stringRow('url', 'api-reference', 'is required'),
  ])
})

describe('api', () => {
  testSpecTable({ schema: ApiSchema, path: ['api'], minimal: {}, place: inFile('api') }, [
    {
      field: 'baseUrl',
      valid: ['https://api.acme.com', ['https://api.acme.com', 'https://sandbox.acme.com']],
      invalid: [
        { value: 5, message: 'must be a URL, or a list of URLs' },
        { value: ['https://api.acme.com', 5], message: 'must be a string, not the number 5', at: [1] },
      ],
    },
    {
      field: 'auth',
      valid: [{}, { method: 'bearer' }],
      invalid: [{ value: 'bearer', message: 'must be an object, not "bearer"' }],
    },
    {
      field: 'playground',
      valid: [{}, { mode: 'simple' }],
      invalid: [{ value: { mode: 'off' }, message: 'must be one of "show", "simple" or "hide", not "off"', at: ['mode'] }],
    },
    { ...booleanRow('maintainOrder'), invalid: [{ value: 'true', message: 'must be true or false, not "true"' }] },
  ])

  describe('api.playground', () => {
    testSpecTable(
      {
        schema: (ApiSchema.shape.playground as z.ZodOptional<z.ZodObject>).unwrap(),
        path: ['api', 'playground'],
        minimal: {},
        place: (playground) => ({ ...MINIMAL_CONFIG, api: { playground } }),
      },
      [
        {
          field: 'mode',
          default: 'show',
          valid: ['show', 'simple', 'hide'],
          invalid: [{ value: 'HIDE', message: 'must be one of "show", "simple" or "hide", not "HIDE"' }],
        },
      ],
    )
  })
})

describe('openapi', () => {
  const place = (openapi: unknown) => ({ ...MINIMAL_CONFIG, openapi })

  it('takes one string: an absolute URL or a relative path', () => {
    expect(validateMintConfig(place('https://acme.com/openapi.json')).valid).toBe(true)
    expect(validateMintConfig(place('specs/openapi.yaml')).valid).toBe(true)
  })

  it('takes an array of strings', () => {
    expect(validateMintConfig(place(['specs/v1.json', 'https://acme.com/v2.json'])).valid).toBe(true)
  })

  it('refuses anything else', () => {
    expect(validateMintConfig(place({ url: 'openapi.json' })).errors).toEqual([
      { path: 'openapi', message: 'must be a URL or relative path to an OpenAPI file, or a list of them' },
    ])
    expect(validateMintConfig(place([['openapi.json']])).errors).toEqual([{ path: 'openapi[0]', message: 'must be a string, not a list' }])
  })
})

describe('footerSocials', () => {
  testSpecTable(
    { schema: FooterSocialsSchema, path: ['footerSocials'], minimal: {}, place: inFile('footerSocials') },
    FOOTER_PLATFORMS.map((platform) => stringRow(platform, `https://${platform}.example/acme`)),
  )

  it('allows exactly the spec’s platforms', () => {
    expect(FOOTER_PLATFORMS).toEqual([
      'website',
      'facebook',
      'twitter',
      'discord',
      'slack',
      'github',
      'linkedin',
      'instagram',
      'hacker-news',
    ])
  })

  it('refuses any other key as an error, not a warning', () => {
    const footerSocials = { github: 'https://github.com/acme', mastodon: 'https://m.example/@acme', x: 'https://x.com/acme' }
    const report = validateMintConfig({ ...MINIMAL_CONFIG, footerSocials })
    const message = `is not a supported platform: use ${FOOTER_PLATFORMS.join(', ')}`
    expect(report.errors).toEqual([
      { path: 'footerSocials.mastodon', message },
      { path: 'footerSocials.x', message },
    ])
    expect(report.warnings).toEqual([])
  })
})

describe('feedback', () => {
  testSpecTable({ schema: FeedbackSchema, path: ['feedback'], minimal: {}, place: inFile('feedback') }, [
    booleanRow('suggestEdit', false),
    booleanRow('raiseIssue', false),
  ])
})

describe('modeToggle', () => {
  testSpecTable({ schema: ModeToggleSchema, path: ['modeToggle'], minimal: {}, place: inFile('modeToggle') }, [
    {
      field: 'default',
      valid: ['light', 'dark'],
      invalid: [{ value: 'system', message: 'must be "light" or "dark", not "system"' }],
    },
    booleanRow('isHidden', false),
  ])

  it('forces a single mode with default and isHidden together', () => {
    expect(validateMintConfig({ ...MINIMAL_CONFIG, modeToggle: { default: 'dark', isHidden: true } }).valid).toBe(true)
  })
})

describe('authentication (api.auth)', () => {
  testSpecTable({ schema: ApiAuthSchema, path: ['api', 'auth'], minimal: {}, place: (auth) => ({ ...MINIMAL_CONFIG, api: { auth } }) }, [
    {
      field: 'method',
      valid: ['bearer', 'basic', 'key'],
      invalid: [{ value: 'oauth', message: 'must be one of "bearer", "basic" or "key", not "oauth"' }],
    },
    stringRow('name', 'X-API-Key'),
    stringRow('inputPrefix', 'Bearer '),
  ])

  it('takes a <usernameName>:<passwordName> name with method basic', () => {
    expect(validateMintConfig({ ...MINIMAL_CONFIG, api: { auth: { method: 'basic', name: 'user:pass' } } })).toEqual({
      valid: true,
      errors: [],
      warnings: [],
    })
  })
})

describe('versioning', () => {
  it('lists version names, and an anchor may be tied to one of them', () => {
    const config = { ...MINIMAL_CONFIG, versions: ['v1', 'v2'], anchors: [{ name: 'Legacy', url: 'v1', version: 'v1' }] }
    expect(validateMintConfig(config)).toEqual({ valid: true, errors: [], warnings: [] })
  })
})
