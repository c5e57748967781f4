import { z } from 'zod'

// The one schema of site.json (Mintlify's older mint.json), as docs/site-json.md (the product's
// statement of the site file, in this project's words: "the spec" below) defines it. The form,
// the Monaco JSON Schema, the validator, the unknown-key warnings and the tests all derive from
// it, so a field is added here and nowhere else.
//
// Conventions:
// - Every field carries its meaning in the spec as its description, and the spec's default as
//   `meta({ default })`: recorded, never applied. The editor shows defaults as placeholders and
//   validation never adds a key.
// - Objects are loose: a key the spec does not know is kept as written and reported as a warning
//   (warnings.ts), never dropped. footerSocials is the one exception, as the spec closes its keys.
// - Where a table has no Required column, a field is required when the item means nothing
//   without it and the spec gives it no default (an anchor's name and url, a logo's light and
//   dark paths); the rest are optional. Mintlify's own validator draws the same line. These
//   choices are listed in docs/site-editor.md ("Where the site.json spec leaves a choice").

/** A JSON object (not null, not an array): what every object field of the file must be. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export const HEX_COLOR_MESSAGE = 'must be a hex colour like #0D9373 or #0D9'

export const HexColorSchema = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { error: HEX_COLOR_MESSAGE })
  // Monaco's JSON service shows this instead of the bare pattern.
  .meta({ patternErrorMessage: HEX_COLOR_MESSAGE })

export const IconTypeSchema = z.enum(['brands', 'duotone', 'light', 'sharp-solid', 'solid', 'thin'])
export const ICON_TYPES = IconTypeSchema.options

const optionalIconType = IconTypeSchema.optional().meta({
  description: 'One of `brands`, `duotone`, `light`, `sharp-solid`, `solid`, `thin`.',
  default: 'duotone',
})

export const NavigationGroupSchema = z.looseObject({
  group: z.string().describe('Group name.'),
  pages: z.array(z.string()).describe('Relative paths to the markdown files that are the pages.'),
})

export const LogoPathsSchema = z.looseObject({
  light: z.string().describe('Logo path in light mode.'),
  dark: z.string().describe('Logo path in dark mode.'),
  href: z.string().optional().meta({ description: 'Where a click on the logo leads.', default: '/' }),
})

export const LogoSchema = z.union([z.string(), LogoPathsSchema], {
  error: 'must be the path to a logo image, or an object with light and dark logo paths',
})

export const ColorsSchema = z.looseObject({
  primary: HexColorSchema.describe('Primary color for highlighted content, section headers and accents in light mode.'),
  light: HexColorSchema.optional().describe('Primary color for dark mode, used for the same purposes.'),
  dark: HexColorSchema.optional().describe('Primary color for important buttons.'),
  background: z
    .looseObject({
      light: HexColorSchema.describe('Background color in light mode.'),
      dark: HexColorSchema.describe('Background color in dark mode.'),
    })
    .optional()
    .describe('Background color, for light and dark mode.'),
})

export const TopbarLinkSchema = z.looseObject({
  name: z.string().describe('Button name.'),
  url: z.string().describe('Target URL of the button.'),
})

export const TopbarCtaButtonSchema = z
  .looseObject({
    type: z.enum(['link', 'github']).optional().meta({
      description: '`link` shows a button; `github` shows repository information, including the star count, for the URL given.',
      default: 'link',
    }),
    url: z.string().describe('For `link`: the button target. For `github`: the repository to load information from.'),
    name: z.string().optional().describe('Button text. Required only when `type` is `link`.'),
  })
  .refine((button) => button.name !== undefined || (button.type !== undefined && button.type !== 'link'), {
    path: ['name'],
    error: 'is required when type is "link" (the default)',
    // Checked even when another field of the button is wrong, so every problem shows at once.
    when: (payload) => isPlainObject(payload.value),
  })

export const AnchorGradientSchema = z.looseObject({
  from: HexColorSchema.describe('Hex color where the gradient starts.'),
  to: HexColorSchema.describe('Hex color where the gradient ends.'),
})

export const AnchorSchema = z.looseObject({
  icon: z.string().optional().describe('Icon name from an icon set.'),
  name: z.string().describe('Anchor label.'),
  url: z.string().describe('Start of the URL that decides which pages belong to the anchor; generally the folder name.'),
  color: z
    .union([HexColorSchema, AnchorGradientSchema], {
      error: 'must be a hex colour like #0D9373, or an object with from and to hex colours',
    })
    .optional()
    .describe('Hex color of the icon background; an object with `from` and `to` (each hex) gives a gradient.'),
  version: z.string().optional().describe('Hides the anchor until that docs version is selected.'),
  isDefaultHidden: z.boolean().optional().meta({
    description: 'When true, the anchor is hidden until someone is linked directly to a page inside it.',
    default: false,
  }),
  iconType: optionalIconType,
})

export const TopAnchorSchema = z.looseObject({
  name: z.string().optional().meta({ description: 'Name of the top-most anchor.', default: 'Documentation' }),
  icon: z.string().optional().meta({ description: 'Icon name.', default: 'book-open' }),
  iconType: optionalIconType,
})

export const TabSchema = z.looseObject({
  name: z.string().describe('Tab label.'),
  url: z.string().describe('Start of the URL that decides which pages belong to the tab; generally the folder name.'),
})

export const ApiAuthSchema = z.looseObject({
  method: z.enum(['bearer', 'basic', 'key']).optional().describe('Authentication strategy used for all API endpoints.'),
  name: z
    .string()
    .optional()
    .describe(
      'Name of the authentication parameter in the playground. When method is `basic`, the format is `<usernameName>:<passwordName>`.',
    ),
  inputPrefix: z.string().optional().describe('Default value that serves as a prefix in the authentication input field.'),
})

export const ApiSchema = z.looseObject({
  baseUrl: z
    .union([z.string(), z.array(z.string())], { error: 'must be a URL, or a list of URLs' })
    .optional()
    .describe('Base URL for all API endpoints; an array gives several base URLs the reader can toggle between.'),
  auth: ApiAuthSchema.optional().describe('Authentication settings for the API playground.'),
  playground: z
    .looseObject({
      mode: z.enum(['show', 'simple', 'hide']).optional().meta({
        description: '`hide` hides the playground; `simple` shows only the endpoint with no added interactivity.',
        default: 'show',
      }),
    })
    .optional()
    .describe('API playground settings.'),
  maintainOrder: z
    .boolean()
    .optional()
    .describe(
      'When enabled, key ordering in OpenAPI pages follows the order in the OpenAPI file. Announced to become the default behaviour, after which the field will be deprecated.',
    ),
})

export const OpenApiSchema = z.union([z.string(), z.array(z.string())], {
  error: 'must be a URL or relative path to an OpenAPI file, or a list of them',
})

const footerSocialFields = {
  website: z.string().optional().describe('URL of the website.'),
  facebook: z.string().optional().describe('Facebook account URL.'),
  twitter: z.string().optional().describe('Twitter account URL.'),
  discord: z.string().optional().describe('Discord account URL.'),
  slack: z.string().optional().describe('Slack account URL.'),
  github: z.string().optional().describe('GitHub account URL.'),
  linkedin: z.string().optional().describe('LinkedIn account URL.'),
  instagram: z.string().optional().describe('Instagram account URL.'),
  'hacker-news': z.string().optional().describe('Hacker News account URL.'),
}

export const FooterSocialsSchema = z.strictObject(footerSocialFields, {
  error: (issue) =>
    issue.code === 'unrecognized_keys' ? `is not a supported platform: use ${Object.keys(footerSocialFields).join(', ')}` : undefined,
})
export const FOOTER_PLATFORMS = FooterSocialsSchema.keyof().options
export type FooterPlatform = (typeof FOOTER_PLATFORMS)[number]

export const FeedbackSchema = z.looseObject({
  suggestEdit: z.boolean().optional().meta({ description: 'Enables a button to suggest edits through pull requests.', default: false }),
  raiseIssue: z.boolean().optional().meta({ description: 'Enables a button to raise an issue about the documentation.', default: false }),
})

export const ModeToggleSchema = z.looseObject({
  default: z
    .enum(['light', 'dark'])
    .optional()
    .describe('Mode shown to new users. When unset, the mode follows the user’s operating system.'),
  isHidden: z
    .boolean()
    .optional()
    .meta({ description: 'When true, hides the toggle. With `default` set, this forces a single mode.', default: false }),
})

export const MintConfigSchema = z.looseObject({
  name: z.string().describe('Project name, used for the global title.'),
  navigation: z.array(NavigationGroupSchema).describe('Array of groups with the pages of each group.'),
  logo: LogoSchema.optional().describe('Path to a logo image, or an object with light and dark logo paths.'),
  favicon: z.string().optional().describe('Path to the favicon image.'),
  colors: ColorsSchema.optional().describe('Hex color codes of the global theme.'),
  topbarLinks: z.array(TopbarLinkSchema).optional().describe('Links in the top bar.'),
  topbarCtaButton: TopbarCtaButtonSchema.optional().describe('Call-to-action button in the top bar.'),
  versions: z.array(z.string()).optional().describe('Version names; only used to show a version dropdown in the navigation bar.'),
  anchors: z.array(AnchorSchema).optional().describe('Anchors.'),
  topAnchor: TopAnchorSchema.optional().describe('Overrides of the top-most anchor.'),
  tabs: z.array(TabSchema).optional().describe('Navigational tabs.'),
  api: ApiSchema.optional().describe('API settings.'),
  openapi: OpenApiSchema.optional().describe('URL(s) or relative path(s) to OpenAPI file(s).'),
  footerSocials: FooterSocialsSchema.optional().describe('Social media accounts.'),
  feedback: FeedbackSchema.optional().describe('Feedback button switches.'),
  modeToggle: ModeToggleSchema.optional().describe('Dark/light toggle customization.'),
  backgroundImage: z.string().optional().describe('Background image shown behind every page.'),
})
export type MintConfig = z.infer<typeof MintConfigSchema>
