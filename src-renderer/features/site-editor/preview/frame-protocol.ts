import { z } from 'zod'
import { OperationViewSchema } from '../../../../src-shared/site-config/openapi-operation'

// What the editor and the preview's frame say to each other, with postMessage. The frame is a
// sandboxed iframe with no origin of its own: the editor accepts only messages from its window
// that parse here, and they can do no more than open a page, pick a tab or focus a field.

const Segments = z.array(z.union([z.string().max(200), z.number().int().nonnegative()])).max(64)

export const SidebarRowSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('group'), label: z.string(), icon: z.string().nullable(), depth: z.number(), segments: Segments }),
  z.object({
    kind: z.literal('page'),
    label: z.string(),
    icon: z.string().nullable(),
    depth: z.number(),
    /** The page as the preview opens it: a page path, or `<OpenAPI file>#<METHOD path>` for a generated one. */
    page: z.string(),
    method: z.string().nullable(),
    missing: z.string().nullable(),
    segments: Segments,
  }),
])
export type SidebarRow = z.infer<typeof SidebarRowSchema>

const Choice = z.object({ name: z.string(), icon: z.string().nullable(), href: z.string().nullable(), color: z.string().nullable() })
export type Choice = z.infer<typeof Choice>

export const SwitcherSchema = z.object({
  /** Which navigation list it picks from ("languages", "versions", "tabs", "anchors", "dropdowns", "products"). */
  level: z.string(),
  choices: z.array(Choice),
  selected: z.number(),
})
export type Switcher = z.infer<typeof SwitcherSchema>

export const SiteModelSchema = z.object({
  name: z.string(),
  theme: z.string(),
  colors: z.object({ primary: z.string(), light: z.string(), dark: z.string() }),
  background: z.object({ light: z.string().nullable(), dark: z.string().nullable() }),
  logo: z.object({ light: z.string().nullable(), dark: z.string().nullable() }),
  appearance: z.object({ default: z.enum(['system', 'light', 'dark']), strict: z.boolean() }),
  font: z.string().nullable(),
  links: z.array(z.object({ label: z.string(), href: z.string() })),
  primary: z.object({ type: z.string(), label: z.string(), href: z.string() }).nullable(),
  switchers: z.array(SwitcherSchema),
  /** Links every page shows (global anchors and tabs). */
  globalLinks: z.array(Choice),
  sidebar: z.array(SidebarRowSchema),
  current: z.string().nullable(),
  /** The logos from the web the document names (loaded through main once allowed). */
  webPictures: z.array(z.string()),
})
export type SiteModel = z.infer<typeof SiteModelSchema>

export const PageContentSchema = z.object({
  page: z.string(),
  /** The page's file in the docs folder (for relative links and images), null for a generated OpenAPI page. */
  file: z.string().nullable(),
  text: z.string().nullable(),
  /** Snippets the page imports, by their path in the folder. */
  snippets: z.record(z.string(), z.string()),
  operation: OperationViewSchema.nullable(),
  /** Why the page cannot be shown, when it cannot. */
  error: z.string().nullable(),
})
export type PageContent = z.infer<typeof PageContentSchema>

export const FolderSchema = z.object({
  /** Where the frame loads the folder's pictures (`…/preview-files/<token>/`), null with no folder. */
  filesBase: z.string().nullable(),
  pages: z.array(z.string()),
  files: z.array(z.string()),
  /** Whether the operator allowed pictures from the web for this document (main fetches them). */
  webPictures: z.boolean(),
})
export type Folder = z.infer<typeof FolderSchema>

export const ToFrameSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('site'), site: SiteModelSchema, mode: z.enum(['light', 'dark']) }),
  z.object({ kind: z.literal('folder'), folder: FolderSchema }),
  z.object({ kind: z.literal('page'), content: PageContentSchema }),
])
export type ToFrame = z.infer<typeof ToFrameSchema>

export const FromFrameSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ready') }),
  z.object({ kind: z.literal('open'), page: z.string().max(5000) }),
  z.object({ kind: z.literal('select'), level: z.string().max(40), index: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('focus'), segments: Segments }),
  z.object({ kind: z.literal('problem'), message: z.string().max(2000) }),
  z.object({ kind: z.literal('rendered'), page: z.string().max(5000) }),
  /** The pictures from the web the open page shows: what the notice counts and names. */
  z.object({ kind: z.literal('web-pictures'), page: z.string().max(5000), addresses: z.array(z.string().max(5000)).max(1000) }),
])
export type FromFrame = z.infer<typeof FromFrameSchema>
