import { z } from 'zod'
import { HexColorSchema } from './mint-schema'
import { MINTLIFY_FOOTER_PLATFORMS, MINTLIFY_ICON_TYPES } from './rule-sets'

// The one schema of docs.json, the configuration Mintlify sites use today (schema
// https://mintlify.com/docs.json). Like site.json's (mint-schema.ts) it is written once here; the
// validator, the unknown-key warnings, the editor's form and Monaco's JSON Schema derive from it.
// It follows Mintlify's own rules as @mintlify/validation states them (its docsConfigSchema,
// read at version 0.1.878): test/unit/site-config/docs-json.test.ts holds the two together on the
// shared corpus and on fuzzed files, which is the only place that package is loaded.
//
// Two differences of form, not of verdict:
// - Mintlify writes each navigation item (a tab, an anchor…) as a union of one object per kind of
//   content. Here an item is one object with every kind optional; the validator (docs-validate.ts)
//   reproduces which problems Mintlify lets pass (it silently leaves out content it cannot read)
//   and reports those as warnings instead of errors.
// - Objects Mintlify does not close are loose: unknown keys are kept as written and reported as
//   warnings (Mintlify ignores them). Objects Mintlify closes (`colors`, `global`…) are strict.

export const DOCS_JSON_SCHEMA_URL = 'https://mintlify.com/docs.json'

export const DOCS_THEMES = ['mint', 'maple', 'palm', 'willow', 'linden', 'almond', 'aspen', 'luma', 'sequoia'] as const
export const ICON_LIBRARIES = ['fontawesome', 'lucide', 'tabler'] as const
export const DIRECTORY_LAYOUTS = ['none', 'accordion', 'card'] as const
export const SDK_FORMATS = ['typedoc', 'docfx', 'javadoc', 'sphinx', 'phpdoc'] as const
export const CONTEXTUAL_OPTIONS = [
  'copy',
  'assistant',
  'view',
  'download-pdf',
  'download-spec',
  'chatgpt',
  'claude',
  'perplexity',
  'grok',
  'aistudio',
  'devin',
  'windsurf',
  'mcp',
  'add-mcp',
  'cursor',
  'vscode',
  'devin-mcp',
] as const
/** The languages a `languages` entry may name (Mintlify's locales). */
export const DOCS_LOCALES = [
  'en',
  'cn',
  'zh',
  'zh-Hans',
  'zh-Hant',
  'zh-CN',
  'zh-TW',
  'es',
  'fr',
  'fr-CA',
  'fr-ca',
  'ja',
  'jp',
  'ja-jp',
  'ja-JP',
  'pt',
  'pt-BR',
  'de',
  'ko',
  'it',
  'ru',
  'ro',
  'cs',
  'id',
  'ar',
  'tr',
  'hi',
  'sv',
  'no',
  'da',
  'lv',
  'nl',
  'uk',
  'vi',
  'pl',
  'uz',
  'he',
  'ca',
  'fi',
  'hu',
] as const
export const SHIKI_THEMES = [
  'andromeeda',
  'aurora-x',
  'ayu-dark',
  'catppuccin-frappe',
  'catppuccin-latte',
  'catppuccin-macchiato',
  'catppuccin-mocha',
  'dark-plus',
  'dracula',
  'dracula-soft',
  'everforest-dark',
  'everforest-light',
  'github-dark',
  'github-dark-default',
  'github-dark-dimmed',
  'github-dark-high-contrast',
  'github-light',
  'github-light-default',
  'github-light-high-contrast',
  'gruvbox-dark-hard',
  'gruvbox-dark-medium',
  'gruvbox-dark-soft',
  'gruvbox-light-hard',
  'gruvbox-light-medium',
  'gruvbox-light-soft',
  'houston',
  'kanagawa-dragon',
  'kanagawa-lotus',
  'kanagawa-wave',
  'laserwave',
  'light-plus',
  'material-theme',
  'material-theme-darker',
  'material-theme-lighter',
  'material-theme-ocean',
  'material-theme-palenight',
  'min-dark',
  'min-light',
  'monokai',
  'night-owl',
  'nord',
  'one-dark-pro',
  'one-light',
  'plastic',
  'poimandres',
  'red',
  'rose-pine',
  'rose-pine-dawn',
  'rose-pine-moon',
  'slack-dark',
  'slack-ochin',
  'snazzy-light',
  'solarized-dark',
  'solarized-light',
  'synthwave-84',
  'tokyo-night',
  'vesper',
  'vitesse-black',
  'vitesse-dark',
  'vitesse-light',
  'css-variables',
] as const

/**
 * The kinds of navigation content, each a list under its key, and the key naming one item of it
 * (`tabs: [{ tab: "Guides", … }]`). Groups and pages are the leaves' containers.
 */
export const DIVISIONS = {
  products: 'product',
  languages: 'language',
  versions: 'version',
  tabs: 'tab',
  dropdowns: 'dropdown',
  anchors: 'anchor',
  menu: 'item',
} as const
export type DivisionKey = keyof typeof DIVISIONS
export const NAVIGATION_CONTENT_KEYS = [
  'products',
  'languages',
  'versions',
  'tabs',
  'dropdowns',
  'anchors',
  'menu',
  'groups',
  'pages',
] as const
export type NavigationContentKey = (typeof NAVIGATION_CONTENT_KEYS)[number]

/**
 * For each place, the content keys Mintlify reads and in which order it tries them: the first that
 * is valid is used, the others are left out of the site. `href` makes an item a plain link.
 */
export const CONTENT_ORDER = {
  navigation: ['products', 'languages', 'versions', 'tabs', 'dropdowns', 'anchors', 'groups', 'pages'],
  tabs: ['href', 'languages', 'versions', 'dropdowns', 'anchors', 'products', 'groups', 'pages', 'menu'],
  anchors: ['href', 'languages', 'versions', 'dropdowns', 'tabs', 'products', 'groups', 'pages'],
  dropdowns: ['href', 'languages', 'versions', 'tabs', 'anchors', 'products', 'groups', 'pages'],
  versions: ['href', 'languages', 'tabs', 'dropdowns', 'anchors', 'products', 'groups', 'pages'],
  languages: ['href', 'versions', 'tabs', 'dropdowns', 'anchors', 'products', 'groups', 'pages'],
  products: ['href', 'languages', 'versions', 'tabs', 'anchors', 'dropdowns', 'groups', 'pages', 'menu'],
  menu: ['href', 'languages', 'versions', 'dropdowns', 'anchors', 'products', 'tabs', 'groups', 'pages'],
} as const satisfies Record<'navigation' | DivisionKey, readonly string[]>

const isAbsoluteUrl = (value: string) => URL.canParse(value)

/** A link: a path from the site's root, an in-page #anchor, mailto:, or any absolute URL. */
export const isHref = (value: string) =>
  value.startsWith('/') || value.startsWith('#') || value.startsWith('mailto:') || isAbsoluteUrl(value)
const HREF_MESSAGE = 'must be a URL, or a path starting with /'
const HrefSchema = z.string().refine(isHref, { error: HREF_MESSAGE }).describe('A path on the site (starting with /) or an external link.')

const DANGEROUS_EXTENSIONS = ['.svg', '.exe', '.zip']
const hasDangerousExtension = (url: URL) => {
  try {
    const path = decodeURIComponent(url.pathname).toLowerCase()
    return DANGEROUS_EXTENSIONS.some((extension) => path.endsWith(extension))
  } catch {
    return true
  }
}
/** Without an in-page #anchor and a trailing slash, as Mintlify compares links. */
function normalizeLink(value: string): string {
  const hash = value.indexOf('#')
  let link = hash > 0 ? value.slice(0, hash) : value
  if (URL.canParse(link)) return link
  if (link.startsWith('mailto:')) return link
  const query = link.indexOf('?')
  const [path, rest] = query < 0 ? [link, ''] : [link.slice(0, query), link.slice(query)]
  link = (path.length > 1 ? path.replace(/\/+$/, '') : path) + rest
  return link
}
/** Links shown to readers in the footer: https only (or a path on the site), never to an .svg, .exe or .zip. */
const isSecureHref = (value: string) => {
  const link = normalizeLink(value)
  if (link.startsWith('//')) return false
  if (link.startsWith('/') || link.startsWith('mailto:') || link.startsWith('#')) return true
  if (!URL.canParse(link)) return false
  const url = new URL(link)
  return url.protocol === 'https:' && !hasDangerousExtension(url)
}
const isSecureUrl = (value: string) => {
  if (!URL.canParse(value)) return false
  const url = new URL(normalizeLink(value))
  return url.protocol === 'https:' && !hasDangerousExtension(url)
}
const HTTPS_URL_MESSAGE = 'must be an https:// URL (not to an .svg, .exe or .zip file)'

/** A URL (http or https) or a path in the docs folder, not blank. */
const fileOrUrl = (what: string) =>
  z
    .string()
    .trim()
    .min(1, { error: `must name ${what}` })
    .refine((value) => !isAbsoluteUrl(value) || /^https?:$/.test(new URL(value).protocol), {
      error: 'must be an http:// or https:// URL, or a path in the docs folder',
    })

const OpenApiSourceSchema = fileOrUrl('an OpenAPI file').describe('The OpenAPI file: a path in the docs folder or a URL.')
const OpenApiObjectSchema = z.strictObject({
  source: OpenApiSourceSchema,
  directory: z.string().trim().optional().describe('The folder the generated API pages go in.'),
  overlays: z.array(OpenApiSourceSchema).optional().describe('OpenAPI Overlay documents applied to the source, in order.'),
})
export const DocsOpenApiSchema = z
  .union([OpenApiSourceSchema, z.array(z.union([OpenApiSourceSchema, OpenApiObjectSchema])), OpenApiObjectSchema], {
    error: 'must be the path or URL of an OpenAPI file, a list of them, or an object with a source',
  })
  .describe('OpenAPI file(s) whose operations become pages here: a path or URL, a list, or { source, directory }.')

const AsyncApiSourceSchema = fileOrUrl('an AsyncAPI file')
const DocsAsyncApiSchema = z
  .union(
    [
      AsyncApiSourceSchema,
      z.array(AsyncApiSourceSchema),
      z.strictObject({ source: AsyncApiSourceSchema, directory: z.string().trim().optional() }),
    ],
    {
      error: 'must be the path or URL of an AsyncAPI file, a list of them, or an object with a source',
    },
  )
  .describe('AsyncAPI file(s): a path or URL, a list, or { source, directory }.')

const httpsOrPath = (what: string) =>
  z
    .string()
    .trim()
    .min(1, { error: `must name ${what}` })
    .refine((value) => !isAbsoluteUrl(value) || new URL(value).protocol === 'https:', {
      error: 'must be a path in the docs folder or an https:// URL',
    })
const GraphqlSchema = z.union([
  httpsOrPath('a GraphQL schema'),
  z.strictObject({ source: httpsOrPath('a GraphQL schema'), directory: z.string().trim().min(1).optional() }),
])
const SdkSchema = z.strictObject({
  format: z.enum(SDK_FORMATS),
  source: httpsOrPath('an SDK reference artifact'),
  directory: z.string().trim().min(1).optional(),
})
const notHere = (what: string) => z.never({ error: `${what} is not supported here` }).optional()

const IconNameSchema = z.string().refine((icon) => !icon.startsWith('fa-'), { error: 'needs no "fa-" in front: write the icon name alone' })
export const DocsIconSchema = z
  .union(
    [
      IconNameSchema,
      z.looseObject({ name: IconNameSchema, style: z.enum(MINTLIFY_ICON_TYPES).optional(), library: z.enum(ICON_LIBRARIES).optional() }),
    ],
    { error: 'must be an icon name, or an object with the icon’s name' },
  )
  .describe('An icon: a Font Awesome, Lucide or Tabler name, or { name, style, library }.')

const LightDarkColorSchema = z.strictObject({
  light: HexColorSchema.optional().describe('In light mode.'),
  dark: HexColorSchema.optional().describe('In dark mode.'),
})

/** A page of the navigation: its path in the docs folder, without the extension. */
export const DocsNavPageSchema = z
  .string()
  .min(1, { error: 'must name a page' })
  .describe('A page: its path in the docs folder without the extension (guides/setup), or an OpenAPI operation (GET /users).')

const directory = z.enum(DIRECTORY_LAYOUTS).optional().describe('Directory layout for this part of the navigation and what it holds.')
const hidden = z.boolean().optional().describe('Hidden from the navigation until linked to.')
const searchable = z.boolean().optional().describe('When hidden, whether its pages stay in search, the sitemap and llms.txt.')
const apiSources = {
  openapi: DocsOpenApiSchema.optional(),
  asyncapi: DocsAsyncApiSchema.optional(),
}

export const DocsGroupSchema = z.looseObject({
  group: z.string().min(1, { error: 'must name the group' }).describe('The group’s name in the sidebar.'),
  pages: z
    .lazy(() => PagesSchema)
    .optional()
    .describe('The group’s pages, and groups nested in it.'),
  icon: DocsIconSchema.optional(),
  tag: z.string().optional().describe('A label shown beside the group’s name.'),
  expanded: z.boolean().optional().describe('Open by default.'),
  root: DocsNavPageSchema.optional().describe('The page the group’s name opens.'),
  public: z.boolean().optional().describe('Readable without signing in.'),
  boost: z.number().optional().describe('Search ranking multiplier for its pages.'),
  hidden,
  searchable,
  directory,
  sdk: SdkSchema.optional(),
  graphql: notHere('graphql'),
  ...apiSources,
})

/** A list of pages, where a page may be a group in turn. */
const PagesSchema: z.ZodType<unknown[]> = z.array(
  z.union([DocsNavPageSchema, DocsGroupSchema], { error: 'must be a page path, or a group with group and pages' }),
)

/** The content of any navigation level: every kind optional; which one applies is the validator's concern. */
const content = (keys: readonly NavigationContentKey[]) => {
  const fields: Record<string, z.ZodType> = {}
  for (const key of keys) {
    if (key === 'pages') fields.pages = z.lazy(() => PagesSchema).optional()
    else if (key === 'groups')
      fields.groups = z.lazy(() => z.array(DocsGroupSchema).min(1, { error: 'must hold at least one group' })).optional()
    else fields[key] = z.lazy(() => divisionLists[key]).optional()
  }
  return fields
}

const itemBase = (kind: DivisionKey, fields: Record<string, z.ZodType>) => ({
  [DIVISIONS[kind]]: z
    .string()
    .min(1, { error: `must name the ${DIVISIONS[kind]}` })
    .describe(`The ${DIVISIONS[kind]}’s name.`),
  ...fields,
  hidden,
  directory,
  graphql: notHere('graphql'),
  sdk: notHere('sdk'),
})

const withContent = (kind: DivisionKey, base: Record<string, z.ZodType>) =>
  z.looseObject({
    ...base,
    href: HrefSchema.optional().describe('Makes this a link to another site or page instead of a part of the navigation.'),
    ...content(CONTENT_ORDER[kind].filter((key): key is NavigationContentKey => key !== 'href')),
    ...apiSources,
    global: z.lazy(() => GlobalSchema).optional(),
  })

const tabBase = itemBase('tabs', {
  icon: DocsIconSchema.optional(),
  searchable,
  align: z.enum(['start', 'end']).optional().describe('Where the tab sits in the bar.'),
})
export const DocsTabSchema = withContent('tabs', {
  ...tabBase,
  graphql: GraphqlSchema.optional().describe('A GraphQL schema whose reference pages this tab holds.'),
  sdk: SdkSchema.optional().describe('An SDK reference artifact whose pages this tab holds.'),
}).superRefine((tab, context) => {
  // A tab of generated reference (graphql or sdk) holds that and its groups, nothing else.
  const generator = tab.graphql !== undefined ? 'graphql' : tab.sdk !== undefined ? 'sdk' : null
  if (!generator) return
  const allowed = new Set([...Object.keys(tabBase), 'groups'])
  for (const key of Object.keys(tab)) {
    if (!allowed.has(key) && key !== generator)
      context.addIssue({ code: 'custom', path: [key], message: `cannot be used in a tab that has ${generator}` })
  }
})
export const DocsAnchorSchema = withContent(
  'anchors',
  itemBase('anchors', { icon: DocsIconSchema.optional(), color: LightDarkColorSchema.optional().describe('The anchor’s icon colour.') }),
)
export const DocsDropdownSchema = withContent(
  'dropdowns',
  itemBase('dropdowns', {
    icon: DocsIconSchema.optional(),
    color: LightDarkColorSchema.optional(),
    description: z.string().optional().describe('Shown under the name in the menu.'),
  }),
)
export const DocsVersionSchema = withContent(
  'versions',
  itemBase('versions', {
    default: z.boolean().optional().describe('Shown first.'),
    tag: z.string().optional().describe('A label beside the version name.'),
  }),
)
export const DocsProductSchema = withContent(
  'products',
  itemBase('products', {
    name: z.string().optional().describe('Display name of the product.'),
    icon: DocsIconSchema.optional(),
    color: LightDarkColorSchema.optional(),
    description: z.string().optional().describe('Shown under the name in the menu.'),
  }),
)
export const DocsMenuItemSchema = withContent(
  'menu',
  itemBase('menu', { icon: DocsIconSchema.optional(), description: z.string().optional() }),
)

const NavbarLinkSchema = z
  .looseObject({
    label: z.string().optional().describe('The link text (optional for github and discord).'),
    href: HrefSchema,
    type: z.string().optional().describe('"github" or "discord" show that site’s button; anything else is a plain link.'),
    icon: DocsIconSchema.optional(),
  })
  .superRefine((link, context) => {
    if (link.label === undefined && link.type !== 'github' && link.type !== 'discord')
      context.addIssue({ code: 'custom', path: ['label'], message: 'is required, except for a github or discord link' })
  })
export const DocsNavbarSchema = z
  .looseObject({
    links: z.array(NavbarLinkSchema).optional().describe('Links in the top bar.'),
    primary: z
      .discriminatedUnion(
        'type',
        [
          z.looseObject({ type: z.literal('button'), label: z.string().describe('The button text.'), href: HrefSchema }),
          z.looseObject({ type: z.literal('github'), label: z.string().optional(), href: HrefSchema }),
          z.looseObject({ type: z.literal('discord'), label: z.string().optional(), href: HrefSchema }),
        ],
        { error: 'must be an object whose type is "button", "github" or "discord"' },
      )
      .optional()
      .describe('The call-to-action button at the end of the top bar.'),
  })
  .describe('The top bar: links and the call-to-action button.')

const FooterLinkSchema = z.looseObject({
  label: z.string().min(1, { error: 'must not be empty' }).describe('The link text.'),
  href: z.string().refine(isSecureHref, { error: 'must be a path on the site, or an https:// URL (not to an .svg, .exe or .zip file)' }),
})
export const DocsFooterSchema = z
  .looseObject({
    socials: z
      .partialRecord(
        z.enum(MINTLIFY_FOOTER_PLATFORMS, { error: `is not a platform Mintlify knows: use ${MINTLIFY_FOOTER_PLATFORMS.join(', ')}` }),
        z.string().refine(isSecureUrl, { error: HTTPS_URL_MESSAGE }),
      )
      .optional()
      .describe('Social accounts: platform → profile URL.'),
    links: z
      .array(
        z.looseObject({
          header: z.string().min(1, { error: 'must not be empty' }).optional().describe('The column’s title.'),
          items: z.array(FooterLinkSchema).min(1, { error: 'must hold at least one link' }).describe('The column’s links.'),
        }),
      )
      .min(1, { error: 'must hold at least one column' })
      .max(4, { error: 'holds at most 4 columns' })
      .optional()
      .describe('Columns of links.'),
  })
  .describe('The footer: social accounts and columns of links.')

const BannerSchema = z.looseObject({
  content: z.string().min(1, { error: 'must not be empty' }).describe('The banner’s text (basic MDX).'),
  dismissible: z.boolean().optional(),
  type: z.enum(['info', 'warning', 'critical']).optional(),
  color: LightDarkColorSchema.optional(),
})

const languageBase = itemBase('languages', {
  language: z
    .enum(DOCS_LOCALES, { error: `must be a language code Mintlify knows, such as en, fr, de, es, ja, zh-Hans or pt-BR` })
    .describe('The language, as an ISO 639-1 code.'),
  default: z.boolean().optional().describe('Shown first.'),
  banner: BannerSchema.optional(),
  footer: DocsFooterSchema.optional(),
  navbar: DocsNavbarSchema.optional(),
})
export const DocsLanguageSchema = withContent('languages', languageBase)

const divisionLists: Record<DivisionKey, z.ZodType> = {
  tabs: z.array(DocsTabSchema).min(1, { error: 'must hold at least one tab' }),
  anchors: z.array(DocsAnchorSchema).min(1, { error: 'must hold at least one anchor' }),
  dropdowns: z.array(DocsDropdownSchema),
  versions: z.array(DocsVersionSchema).min(1, { error: 'must hold at least one version' }),
  languages: z.array(DocsLanguageSchema).min(1, { error: 'must hold at least one language' }),
  products: z.array(DocsProductSchema),
  menu: z.array(DocsMenuItemSchema),
}

/** One item of each division list: what navigation-check.ts validates item by item. */
export const DIVISION_ITEM_SCHEMAS: Record<DivisionKey, z.ZodType> = {
  tabs: DocsTabSchema,
  anchors: DocsAnchorSchema,
  dropdowns: DocsDropdownSchema,
  versions: DocsVersionSchema,
  languages: DocsLanguageSchema,
  products: DocsProductSchema,
  menu: DocsMenuItemSchema,
}

const linkOnly = (kind: DivisionKey, base: Record<string, z.ZodType>) => z.looseObject({ ...base, href: HrefSchema })
/** Links shown on every page, whatever part of the navigation is open. */
const GlobalSchema: z.ZodType = z
  .strictObject({
    languages: z.array(linkOnly('languages', languageBase)).optional(),
    versions: z
      .array(linkOnly('versions', itemBase('versions', { default: z.boolean().optional(), tag: z.string().optional() })))
      .optional(),
    tabs: z.array(linkOnly('tabs', tabBase)).optional(),
    dropdowns: z
      .array(
        linkOnly(
          'dropdowns',
          itemBase('dropdowns', {
            icon: DocsIconSchema.optional(),
            color: LightDarkColorSchema.optional(),
            description: z.string().optional(),
          }),
        ),
      )
      .optional(),
    anchors: z
      .array(linkOnly('anchors', itemBase('anchors', { icon: DocsIconSchema.optional(), color: LightDarkColorSchema.optional() })))
      .optional(),
    products: z
      .array(
        linkOnly(
          'products',
          itemBase('products', {
            name: z.string().optional(),
            icon: DocsIconSchema.optional(),
            color: LightDarkColorSchema.optional(),
            description: z.string().optional(),
          }),
        ),
      )
      .optional(),
  })
  .describe('Links shown on every page: tabs, anchors… each with an href.')

export const DocsNavigationSchema = z
  .looseObject({
    ...content(CONTENT_ORDER.navigation),
    global: GlobalSchema.optional(),
    directory,
    graphql: notHere('graphql'),
    sdk: notHere('sdk'),
  })
  .superRefine((navigation, context) => {
    if (!CONTENT_ORDER.navigation.some((key) => navigation[key] !== undefined)) {
      context.addIssue({ code: 'custom', message: `needs its content: one of ${CONTENT_ORDER.navigation.join(', ')}` })
    }
  })
  .describe('The navigation: products, languages, versions, tabs, dropdowns, anchors, groups or pages, nested as the site needs.')

const FontSchema = z
  .looseObject({
    family: z.string().describe('A Google Fonts family, or the name of the font at source.'),
    weight: z.number().optional(),
    source: fileOrUrl('a font file').optional().describe('A self-hosted font file: a path or URL.'),
    format: z.enum(['woff', 'woff2']).optional().describe('Required with source.'),
  })
  .refine((font) => !font.source || font.format !== undefined, { path: ['format'], error: 'is required when source is set' })

const ApiSchema = z
  .looseObject({
    ...apiSources,
    params: z.looseObject({ expanded: z.enum(['all', 'closed']).optional(), post: z.array(z.string()).optional() }).optional(),
    playground: z
      .looseObject({
        display: z
          .enum(['interactive', 'simple', 'none', 'auth'])
          .optional()
          .describe('How the API playground shows: interactive (the default), simple, none, or auth (signed-in readers only).'),
        proxy: z.boolean().optional().describe('Send requests through Mintlify’s proxy (default true).'),
        credentials: z.boolean().optional().describe('Send cookies with cross-origin requests when the proxy is off.'),
      })
      .optional(),
    examples: z
      .looseObject({
        defaults: z.enum(['required', 'all']).optional(),
        languages: z.array(z.string()).optional().describe('Languages of the generated code samples.'),
        prefill: z.boolean().optional(),
        autogenerate: z.boolean().optional(),
      })
      .optional(),
    url: z.enum(['full']).optional(),
    mdx: z
      .looseObject({
        auth: z
          .looseObject({ method: z.enum(['bearer', 'basic', 'key', 'cobo']).optional(), name: z.string().optional() })
          .optional()
          .describe('Authentication of the playground on MDX API pages.'),
        server: z
          .union(
            [
              z.string().refine(isAbsoluteUrl, { error: 'must be a URL' }),
              z.array(z.string().refine(isAbsoluteUrl, { error: 'must be a URL' })),
            ],
            { error: 'must be a URL, or a list of URLs' },
          )
          .optional()
          .describe('Base URL(s) of the API.'),
      })
      .optional()
      .describe('API pages written in MDX: their server and authentication.'),
  })
  .describe('API reference: OpenAPI and AsyncAPI files, the playground, code samples.')

const RedirectsSchema = z
  .array(
    z.looseObject({
      source: z.string().describe('The path to redirect from (wildcards allowed).'),
      destination: z.string().describe('Where to.'),
      permanent: z.boolean().optional(),
    }),
  )
  .superRefine((redirects, context) => {
    const seen = new Set<unknown>()
    redirects.forEach((redirect, index) => {
      if (seen.has(redirect.source))
        context.addIssue({ code: 'custom', path: [index, 'source'], message: 'is redirected twice: each source path can be used once' })
      seen.add(redirect.source)
    })
  })
  .describe('Redirects from old paths.')

const metatags = z.record(z.string(), z.string().min(1, { error: 'must not be empty' }))
const SEO_SEGMENT = /^[^\s/\\?#]+$/
const SeoSchema = z.looseObject({
  metatags: metatags.optional().describe('Meta tags on every page.'),
  paths: z
    .array(
      z.looseObject({
        path: z
          .string()
          .min(1)
          .refine((path) => path.split('/').every((segment) => SEO_SEGMENT.test(segment) && segment !== '.' && segment !== '..'), {
            error: 'must be a folder path relative to the docs root, like guides/v2 (no leading or trailing slash, no spaces)',
          }),
        metatags,
      }),
    )
    .superRefine((paths, context) => {
      const seen = new Set<unknown>()
      paths.forEach((entry, index) => {
        if (seen.has(entry.path))
          context.addIssue({ code: 'custom', path: [index, 'path'], message: 'is listed twice: each path can be used once' })
        seen.add(entry.path)
      })
    })
    .optional(),
  organization: z
    .looseObject({
      id: z.url().optional(),
      name: z.string().min(1).optional(),
      legalName: z.string().min(1).optional(),
      url: z.url().optional(),
      logo: z.url().optional(),
      sameAs: z.array(z.url()).optional(),
    })
    .optional(),
  indexing: z
    .enum(['navigable', 'all'])
    .optional()
    .describe('Which pages search engines index: navigable (in the navigation, the default) or all.'),
  trailingSlash: z.boolean().optional(),
})

const httpsUrl = z.url().refine((url) => url.startsWith('https://'), { error: 'must be an https:// URL' })
const IntegrationsSchema = z.strictObject({
  adobe: z.looseObject({ launchUrl: z.url() }).optional(),
  amplitude: z.looseObject({ apiKey: z.string() }).optional(),
  clarity: z.looseObject({ projectId: z.string() }).optional(),
  clearbit: z.looseObject({ publicApiKey: z.string() }).optional(),
  fathom: z.looseObject({ siteId: z.string() }).optional(),
  frontchat: z.looseObject({ snippetId: z.string().min(6, { error: 'must be a Front chat snippet id' }) }).optional(),
  ga4: z.looseObject({ measurementId: z.string().startsWith('G', { error: 'must start with G' }) }).optional(),
  gtm: z.looseObject({ tagId: z.string().startsWith('G', { error: 'must start with G' }) }).optional(),
  heap: z.looseObject({ appId: z.string() }).optional(),
  hightouch: z.looseObject({ writeKey: z.string(), apiHost: z.string().optional() }).optional(),
  hotjar: z.looseObject({ hjid: z.string(), hjsv: z.string() }).optional(),
  intercom: z.looseObject({ appId: z.string().min(6, { error: 'must be an Intercom app id' }) }).optional(),
  koala: z.looseObject({ publicApiKey: z.string().min(2) }).optional(),
  logrocket: z.looseObject({ appId: z.string() }).optional(),
  mixpanel: z.looseObject({ projectToken: z.string(), region: z.enum(['us', 'eu', 'in']).optional() }).optional(),
  onetrust: z
    .looseObject({ domainScript: z.string().min(1), categoryId: z.string().min(1).optional(), scriptSource: httpsUrl.optional() })
    .optional(),
  pirsch: z.looseObject({ id: z.string() }).optional(),
  posthog: z
    .looseObject({
      apiKey: z.string().startsWith('phc_', { error: 'must start with phc_' }),
      apiHost: z.url().optional(),
      sessionRecording: z.boolean().optional(),
    })
    .optional(),
  plausible: z
    .looseObject({
      domain: z.string().refine((domain) => !domain.startsWith('https://'), { error: 'must not start with https://' }),
      server: z
        .string()
        .refine((server) => !server.startsWith('https://'), { error: 'must not start with https://' })
        .optional(),
    })
    .optional(),
  segment: z
    .looseObject({
      key: z.string(),
      cdnUrl: httpsUrl
        .refine((url) => !URL.canParse(url) || (!new URL(url).search && !new URL(url).hash), {
          error: 'must not have a query or a fragment',
        })
        .optional(),
    })
    .optional(),
  telemetry: z.looseObject({ enabled: z.boolean().optional() }).optional(),
  cookies: z.looseObject({ key: z.string().optional(), value: z.string().optional() }).optional(),
  transcend: z
    .looseObject({
      bundleId: z
        .string()
        .trim()
        .regex(/^[a-zA-Z0-9_-]+$/, { error: 'must hold only letters, digits, - and _' }),
      analyticsPurpose: z.string().trim().min(1).max(100).optional(),
    })
    .optional(),
})

const contextualHref = z.union([
  z.string(),
  z.looseObject({ base: z.string(), query: z.array(z.looseObject({ key: z.string(), value: z.string() })).optional() }),
])
const ContextualSchema = z.looseObject({
  options: z
    .array(
      z.union(
        [
          z.enum(CONTEXTUAL_OPTIONS),
          z.looseObject({ title: z.string(), description: z.string(), icon: DocsIconSchema.optional(), href: contextualHref }),
        ],
        {
          error: `must be one of ${CONTEXTUAL_OPTIONS.join(', ')}, or an object with title, description and href`,
        },
      ),
    )
    .superRefine((options, context) => {
      const seen = new Set<unknown>()
      options.forEach((option, index) => {
        if (seen.has(option)) context.addIssue({ code: 'custom', path: [index], message: 'is listed twice: each option can appear once' })
        seen.add(option)
      })
    })
    .describe('Quick actions in each page’s menu: copy, view, chatgpt, claude, cursor…'),
  display: z.enum(['header', 'toc']).optional().describe('Where they show: header (the default) or toc.'),
})

const shikiTheme = z.enum(SHIKI_THEMES)
const StylingSchema = z.looseObject({
  eyebrows: z.enum(['section', 'breadcrumbs']).optional(),
  codeblocks: z
    .union(
      [
        z.enum(['system', 'dark']),
        z.looseObject({
          theme: z.union([shikiTheme, z.looseObject({ light: shikiTheme, dark: shikiTheme })]).optional(),
          languages: z.looseObject({ custom: z.array(z.string()).optional() }).optional(),
        }),
      ],
      { error: 'must be "system", "dark", or an object with a theme' },
    )
    .optional(),
  latex: z.boolean().optional(),
})

export const DocsConfigSchema = z.looseObject({
  $schema: z
    .string()
    .refine(isAbsoluteUrl, { error: 'must be a URL' })
    .optional()
    .describe('The JSON Schema this file follows: https://mintlify.com/docs.json.'),
  theme: z.enum(DOCS_THEMES).describe('The site’s theme: mint, maple, palm, willow, linden, almond, aspen, luma or sequoia.'),
  name: z.string().trim().min(1, { error: 'must not be empty' }).describe('The project’s name.'),
  description: z.string().optional().describe('What the project is: used for search engines and AI.'),
  colors: z
    .strictObject({
      primary: HexColorSchema.describe('The primary colour.'),
      light: HexColorSchema.optional().describe('The primary colour in dark mode.'),
      dark: HexColorSchema.optional().describe('The primary colour in light mode (buttons).'),
    })
    .describe('The site’s colours; at least the primary one.'),
  logo: z
    .union(
      [
        z.string().min(3, { error: 'must be the path of the logo file, with its extension' }),
        z.looseObject({
          light: z.string().describe('Logo for light mode.'),
          dark: z.string().describe('Logo for dark mode.'),
          href: HrefSchema.optional().describe('Where a click on the logo leads.'),
        }),
      ],
      { error: 'must be the path to a logo image, or an object with light and dark logo paths' },
    )
    .optional()
    .describe('The logo: one image, or { light, dark, href }.'),
  favicon: z
    .union([z.string(), z.looseObject({ light: z.string(), dark: z.string() })], {
      error: 'must be the path to the favicon, or an object with light and dark paths',
    })
    .optional()
    .describe('The favicon: one image, or { light, dark }.'),
  navigation: DocsNavigationSchema,
  navbar: DocsNavbarSchema.optional(),
  footer: DocsFooterSchema.optional(),
  api: ApiSchema.optional(),
  appearance: z
    .looseObject({
      default: z.enum(['system', 'light', 'dark']).optional().describe('The mode new readers see (default: system).'),
      strict: z.boolean().optional().describe('Hides the light/dark toggle.'),
    })
    .optional()
    .describe('Light and dark mode.'),
  background: z
    .looseObject({
      image: z
        .union([z.string(), z.looseObject({ light: z.string(), dark: z.string() })], {
          error: 'must be the path of an image, or { light, dark }',
        })
        .optional()
        .describe('A background image.'),
      decoration: z.enum(['gradient', 'grid', 'windows']).optional(),
      color: LightDarkColorSchema.optional().describe('Background colours.'),
    })
    .optional()
    .describe('The page background.'),
  public: z.boolean().optional().describe('Whether the site is readable without signing in by default.'),
  search: z.looseObject({ prompt: z.string().optional().describe('The search box’s placeholder.') }).optional(),
  seo: SeoSchema.optional().describe('Search engines: meta tags and indexing.'),
  fonts: z
    .union([FontSchema, z.strictObject({ heading: FontSchema.optional(), body: FontSchema.optional() })], {
      error: 'must be a font, or { heading, body }',
    })
    .optional()
    .describe('Fonts.'),
  icons: z
    .looseObject({ library: z.enum(ICON_LIBRARIES) })
    .optional()
    .describe('The icon library: fontawesome (the default), lucide or tabler.'),
  styling: StylingSchema.optional(),
  redirects: RedirectsSchema.optional(),
  integrations: IntegrationsSchema.optional().describe('Analytics and chat integrations.'),
  banner: BannerSchema.optional().describe('An announcement bar on every page.'),
  errors: z
    .looseObject({
      '404': z.looseObject({ redirect: z.boolean().optional(), title: z.string().optional(), description: z.string().optional() }),
    })
    .optional(),
  contextual: ContextualSchema.optional().describe('The page context menu.'),
  thumbnails: z
    .looseObject({
      appearance: z.enum(['light', 'dark']).optional(),
      background: z.string().optional(),
      fonts: z.looseObject({ family: z.string() }).optional(),
    })
    .optional(),
  interaction: z.looseObject({ drilldown: z.boolean().optional() }).optional(),
  metadata: z.looseObject({ timestamp: z.boolean().optional().describe('Show each page’s last-modified date.') }).optional(),
  variables: z.record(z.string(), z.string()).optional().describe('Variables reused in the content.'),
  markdown: z
    .looseObject({ schema: z.boolean().optional(), instructions: z.union([z.string(), z.array(z.string())]).optional() })
    .optional(),
  variations: z
    .looseObject({
      options: z
        .array(z.looseObject({ id: z.string().trim().min(1), label: z.string().trim().min(1) }))
        .min(1, { error: 'must hold at least one option' })
        .superRefine((options, context) => {
          const seen = new Set<string>()
          options.forEach((option, index) => {
            if (seen.has(option.id))
              context.addIssue({
                code: 'custom',
                path: [index, 'id'],
                message: `"${option.id}" is used twice: variation ids must be unique`,
              })
            seen.add(option.id)
          })
        }),
    })
    .optional()
    .describe('Content variations (the willow theme only).'),
})
