import { z } from 'zod'
import {
  AnchorSchema,
  ApiAuthSchema,
  ApiSchema,
  ColorsSchema,
  HexColorSchema,
  MintConfigSchema,
  NavigationGroupSchema,
  TopAnchorSchema,
} from './mint-schema'

// Two rule sets from the one schema (mint-schema.ts). "site.json spec" is that schema as it stands
// (docs/site-json.md), the default. "Mintlify-compatible" is derived from it by widening the few
// places where the real files written for Mintlify (the format the spec was taken from) go beyond
// the spec, so a file Mintlify accepts is not reported broken. The names below were looked up in
// @mintlify/validation's mint.json schema (v1); test/unit/site-config/rule-sets.test.ts holds
// them to it, which is the only place that package is loaded.

export const RULE_SETS = ['spec', 'mintlify'] as const
export const RuleSetSchema = z.enum(RULE_SETS)
export type RuleSet = z.infer<typeof RuleSetSchema>

export const RULE_SET_LABELS: Record<RuleSet, string> = {
  spec: 'site.json spec',
  mintlify: 'Mintlify-compatible',
}

/** Mintlify's footer platforms (@mintlify/models footerSocialKeys). */
export const MINTLIFY_FOOTER_PLATFORMS = [
  'x',
  'website',
  'facebook',
  'youtube',
  'discord',
  'slack',
  'github',
  'linkedin',
  'instagram',
  'hacker-news',
  'medium',
  'telegram',
  'twitter',
  'x-twitter',
  'earth-americas',
  'bluesky',
  'threads',
  'reddit',
  'podcast',
] as const

/** Mintlify's icon styles (@mintlify/models iconTypes): the six of docs/site-json.md and five more. */
export const MINTLIFY_ICON_TYPES = [
  'brands',
  'duotone',
  'light',
  'regular',
  'sharp-duotone-solid',
  'sharp-light',
  'sharp-regular',
  'sharp-solid',
  'sharp-thin',
  'solid',
  'thin',
] as const

const mintlifyIconType = z.enum(MINTLIFY_ICON_TYPES).optional().meta({ description: 'An icon style Mintlify knows.', default: 'duotone' })

/** A navigation group whose pages may hold groups in turn, as deep as needed. */
export const MintlifyNavigationGroupSchema = z.looseObject({
  group: NavigationGroupSchema.shape.group,
  get pages() {
    return z
      .array(z.union([z.string(), MintlifyNavigationGroupSchema], { error: 'must be a page path, or a nested group with group and pages' }))
      .describe('Relative paths to the pages, and nested groups.')
  },
})

const MintlifyColorsSchema = ColorsSchema.extend({
  background: z
    .looseObject({
      light: HexColorSchema.optional().describe('Background color in light mode.'),
      dark: HexColorSchema.optional().describe('Background color in dark mode.'),
    })
    .optional()
    .describe('Background color, for light mode, dark mode, or both.'),
})

const footerPlatformName = (platform: string) =>
  platform === 'x' || platform === 'x-twitter'
    ? 'X'
    : platform
        .split('-')
        .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
        .join(' ')

const MintlifyFooterSocialsSchema = z.looseObject(
  Object.fromEntries(
    MINTLIFY_FOOTER_PLATFORMS.map((platform) => [
      platform,
      z
        .string()
        .optional()
        .describe(`${footerPlatformName(platform)} account URL.`),
    ]),
  ),
)

const MintlifyVersionSchema = z.union(
  [
    z.string(),
    z.looseObject({
      name: z.string().describe('Version name.'),
      url: z.string().optional().describe('Where the version lives.'),
      default: z.boolean().optional().describe('Whether this version is shown first.'),
      locale: z.string().optional().describe('The language of this version.'),
    }),
  ],
  { error: 'must be a version name, or an object with a name' },
)

export const MintConfigMintlifySchema = MintConfigSchema.extend({
  navigation: z
    .array(MintlifyNavigationGroupSchema)
    .describe('Array of groups with the pages of each group; a page may be a nested group.'),
  colors: MintlifyColorsSchema.optional().describe('Hex color codes of the global theme.'),
  anchors: z
    .array(AnchorSchema.extend({ iconType: mintlifyIconType }))
    .optional()
    .describe('Anchors.'),
  topAnchor: TopAnchorSchema.extend({ iconType: mintlifyIconType }).optional().describe('Overrides of the top-most anchor.'),
  versions: z
    .array(MintlifyVersionSchema)
    .optional()
    .describe('Version names; only used to show a version dropdown in the navigation bar.'),
  api: ApiSchema.extend({
    auth: ApiAuthSchema.extend({
      method: z.enum(['bearer', 'basic', 'key', 'cobo']).optional().describe('Authentication strategy used for all API endpoints.'),
    })
      .optional()
      .describe('Authentication settings for the API playground.'),
  })
    .optional()
    .describe('API settings.'),
  footerSocials: MintlifyFooterSocialsSchema.optional().describe('Social media accounts.'),
})

export const mintConfigSchemaFor = (rules: RuleSet): z.ZodType => (rules === 'mintlify' ? MintConfigMintlifySchema : MintConfigSchema)

/**
 * Settings Mintlify knows that the site.json spec (docs/site-json.md) does not, by where they are: `*` is any item of a list.
 * Both rule sets keep them and list them as information; neither checks what is inside them.
 */
export const MINTLIFY_ONLY_SETTINGS: readonly { at: readonly string[]; keys: readonly string[] }[] = [
  {
    at: [],
    keys: [
      'mintlify',
      'theme',
      'layout',
      'topbar',
      'sidebar',
      'rounded',
      'metadata',
      'codeBlock',
      'eyebrow',
      'primaryTab',
      'footer',
      'background',
      'font',
      'analytics',
      'integrations',
      'isWhiteLabeled',
      'search',
      'redirects',
      'seo',
    ],
  },
  { at: ['colors'], keys: ['anchors', 'ultraLight', 'ultraDark'] },
  { at: ['navigation', '*'], keys: ['public', 'icon', 'iconType', 'version'] },
  { at: ['anchors', '*'], keys: ['openapi'] },
  { at: ['anchors', '*', 'color'], keys: ['via'] },
  { at: ['tabs', '*'], keys: ['version', 'isDefaultHidden', 'openapi'] },
  { at: ['topbarCtaButton'], keys: ['style', 'arrow'] },
  { at: ['api'], keys: ['request', 'paramFields'] },
  { at: ['api', 'playground'], keys: ['disableProxy'] },
  { at: ['feedback'], keys: ['thumbsRating'] },
]

/** Keys that belong to the file rather than the site, known under both rule sets. */
export const FILE_KEYS = ['$schema'] as const
