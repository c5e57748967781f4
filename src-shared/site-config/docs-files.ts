import { z } from 'zod'
import { isPlainObject } from './mint-schema'
import type { SiteConfigProblem } from './problem'
import { formatProblemPath } from './problem-path'

// The docs folder beside a site.json: its pages (.md and .mdx), the other files the site points
// at, and what the file says that the folder does not hold. Main indexes the folder; the editor
// and the validate command check a config against the index with the functions here.

export const DocsPageSchema = z.object({
  /** As navigation writes it: relative, with / and without the extension ("guides/setup"). */
  path: z.string(),
  /** The file, relative to the docs folder ("guides/setup.mdx"). */
  file: z.string(),
  /** From the page's front matter (sidebarTitle, else title), for the sidebar preview. */
  title: z.string().nullable(),
  /** Front matter that does not parse, with its line in the page file (1-based). */
  frontMatterError: z.object({ line: z.number().int().positive(), message: z.string() }).nullable().optional(),
})
export type DocsPage = z.infer<typeof DocsPageSchema>

export const DocsIndexSchema = z.object({
  root: z.string(),
  pages: z.array(DocsPageSchema),
  /** Every other file the site could point at (images, OpenAPI files), relative, with /. */
  files: z.array(z.string()),
  /** True when the folder held more files than are indexed: the rest are not checked. */
  truncated: z.boolean(),
  /** The files found in all (pages and others), indexed or not: what "showing the first N of M" says. */
  totalFiles: z.number().int().nonnegative().optional(),
  /** Markdown files that are not pages: in snippets/, excluded by .mintignore, or ignored by Mintlify (README.md…). */
  excluded: z.array(z.object({ path: z.string(), file: z.string(), reason: z.string() })).optional(),
  /** What of the folder is not indexed or not watched, and why, as sentences (a cap reached, links out of the folder). */
  notices: z.array(z.string()).optional(),
})
export type DocsIndex = z.infer<typeof DocsIndexSchema>

export const OpenApiCheckSchema = z.object({
  /** As the site.json writes it. */
  file: z.string(),
  state: z.enum(['valid', 'invalid', 'missing', 'unreadable']),
  /** What is wrong, in the parser's words (at most a few). */
  problems: z.array(z.string()),
  title: z.string().nullable(),
  version: z.string().nullable(),
  /** Its operations as navigation names them: "GET /users", "WEBHOOK order-created". */
  operations: z.array(z.string()).optional(),
  /** Each operation with what names its generated page (site-pages.ts), in the file's order. */
  endpoints: z
    .array(z.object({ operation: z.string(), summary: z.string().nullable(), tag: z.string().nullable(), href: z.string().nullable() }))
    .optional(),
})
export type OpenApiCheck = z.infer<typeof OpenApiCheckSchema>

/** What an image the site names turned out to be: its type as read from its first bytes. */
export const ImageCheckSchema = z.object({
  file: z.string(),
  state: z.enum(['image', 'not-an-image', 'missing', 'unreadable']),
  /** The format read ("png", "svg"…), when it is an image. */
  type: z.string().nullable(),
})
export type ImageCheck = z.infer<typeof ImageCheckSchema>

const EXTERNAL = /^[a-z][a-z0-9+.-]*:\/\//i
/** The page or file a site.json names, as a path relative to the docs folder: "/images/logo.svg" → "images/logo.svg". */
export const docsRelative = (reference: string) => reference.trim().replace(/^\.?\/+/, '')
export const isExternal = (reference: string) => EXTERNAL.test(reference.trim())

const pageKeys = new Map<string, string>()

/**
 * A page as navigation names it, without a leading slash or an extension. Remembered: the editor asks for every page on
 * every keystroke.
 */
export function pageKey(page: string): string {
  let key = pageKeys.get(page)
  if (key === undefined) {
    key = docsRelative(page).replace(/\.mdx?$/i, '')
    if (pageKeys.size > 50_000) pageKeys.clear()
    pageKeys.set(page, key)
  }
  return key
}

const NAVIGATION_LISTS = ['products', 'languages', 'versions', 'tabs', 'dropdowns', 'anchors', 'menu', 'groups'] as const

/** The OpenAPI (or AsyncAPI) files an `openapi` value names: a path or URL, a list, or { source }. */
export function apiSources(value: unknown): string[] {
  const sources: string[] = []
  const add = (entry: unknown) => {
    if (typeof entry === 'string') sources.push(entry)
    else if (isPlainObject(entry) && typeof entry.source === 'string') sources.push(entry.source)
  }
  if (Array.isArray(value)) value.forEach(add)
  else add(value)
  return sources
}

/**
 * Every page string in the navigation, with where it is and the OpenAPI files in scope there
 * (for "GET /users" pages: the nearest `openapi` above, else the file's own). Reads both
 * formats: mint.json's list of groups, and docs.json's navigation object at every level
 * (products, languages, versions, tabs, dropdowns, anchors, menus, groups nested to any depth,
 * and a group's root page).
 */
export function forEachPage(
  config: unknown,
  visit: (page: string, segments: (string | number)[], openapi: readonly string[]) => void,
): void {
  if (!isPlainObject(config)) return
  const topScope = [...apiSources(config.openapi), ...(isPlainObject(config.api) ? apiSources(config.api.openapi) : [])]
  const walkPages = (pages: unknown, at: (string | number)[], scope: readonly string[]) => {
    if (!Array.isArray(pages)) return
    pages.forEach((page, index) => {
      if (typeof page === 'string') visit(page, [...at, index], scope)
      else walkNode(page, [...at, index], scope)
    })
  }
  const walkNode = (node: unknown, at: (string | number)[], inherited: readonly string[]) => {
    if (!isPlainObject(node)) return
    const own = apiSources(node.openapi)
    const scope = own.length ? own : inherited
    if (typeof node.root === 'string') visit(node.root, [...at, 'root'], scope)
    walkPages(node.pages, [...at, 'pages'], scope)
    for (const key of NAVIGATION_LISTS) {
      const list = node[key]
      if (Array.isArray(list)) list.forEach((child, index) => walkNode(child, [...at, key, index], scope))
    }
  }
  if (Array.isArray(config.navigation)) config.navigation.forEach((group, index) => walkNode(group, ['navigation', index], topScope))
  else walkNode(config.navigation, ['navigation'], topScope)
}

/**
 * The folders of the docs folder a site configuration can name (its pages' folders, and those of
 * the files it points at), relative with /, '' for the folder itself: what is watched for changes,
 * rather than every folder of a tree that may hold 100,000 files.
 */
export function foldersNamed(config: unknown): string[] {
  const folders = new Set<string>([''])
  const add = (file: string) => {
    if (isExternal(file)) return
    const relative = docsRelative(file)
    const at = relative.lastIndexOf('/')
    folders.add(at === -1 ? '' : relative.slice(0, at))
  }
  forEachPage(config, (page) => add(page))
  for (const file of referencedFiles(config)) add(file.reference)
  return [...folders].sort()
}

export type FileKind = 'logo image' | 'favicon' | 'background image' | 'OpenAPI file' | 'AsyncAPI file'
export interface ReferencedFile {
  segments: (string | number)[]
  reference: string
  what: FileKind
}

/**
 * The files a config points at in the docs folder, in either format: logo, favicon, background
 * image, and the local OpenAPI and AsyncAPI files named anywhere (the top level, `api`, and every
 * level of the navigation).
 */
export function referencedFiles(config: unknown): ReferencedFile[] {
  if (!isPlainObject(config)) return []
  const found: ReferencedFile[] = []
  const add = (segments: (string | number)[], value: unknown, what: FileKind) => {
    if (typeof value === 'string' && value.trim() && !isExternal(value)) found.push({ segments, reference: value, what })
  }
  const addImage = (segments: (string | number)[], value: unknown, what: FileKind) => {
    if (isPlainObject(value)) {
      add([...segments, 'light'], value.light, what)
      add([...segments, 'dark'], value.dark, what)
    } else add(segments, value, what)
  }
  const addApi = (segments: (string | number)[], value: unknown, what: FileKind) => {
    if (Array.isArray(value)) value.forEach((entry, index) => addApi([...segments, index], entry, what))
    else if (isPlainObject(value)) add([...segments, 'source'], value.source, what)
    else add(segments, value, what)
  }
  addImage(['logo'], config.logo, 'logo image')
  addImage(['favicon'], config.favicon, 'favicon')
  add(['backgroundImage'], config.backgroundImage, 'background image')
  if (isPlainObject(config.background)) addImage(['background', 'image'], config.background.image, 'background image')
  addApi(['openapi'], config.openapi, 'OpenAPI file')
  if (isPlainObject(config.api)) {
    addApi(['api', 'openapi'], config.api.openapi, 'OpenAPI file')
    addApi(['api', 'asyncapi'], config.api.asyncapi, 'AsyncAPI file')
  }
  found.push(...navigationFiles(config.navigation, ['navigation']))
  // mint.json's tabs and anchors name OpenAPI files too.
  for (const key of ['tabs', 'anchors'] as const) {
    if (Array.isArray(config[key]))
      (config[key] as unknown[]).forEach((item, index) => isPlainObject(item) && add([key, index, 'openapi'], item.openapi, 'OpenAPI file'))
  }
  return found
}

const filesWithin = new WeakMap<object, { at: string; found: ReferencedFile[] }>()

/**
 * The OpenAPI and AsyncAPI files named at every level of a navigation value, each object's answer
 * kept while it and its place stay the same: a keystroke walks the objects on its path, not 23,000 pages.
 */
function navigationFiles(node: unknown, at: (string | number)[]): ReferencedFile[] {
  if (Array.isArray(node))
    return node.flatMap((child, index) => (typeof child === 'object' && child !== null ? navigationFiles(child, [...at, index]) : []))
  if (!isPlainObject(node)) return []
  const place = formatProblemPath(at)
  const known = filesWithin.get(node)
  if (known && known.at === place) return known.found
  const found: ReferencedFile[] = []
  const addApi = (segments: (string | number)[], value: unknown, what: FileKind) => {
    if (Array.isArray(value)) value.forEach((entry, index) => addApi([...segments, index], entry, what))
    else if (isPlainObject(value)) addApi([...segments, 'source'], value.source, what)
    else if (typeof value === 'string' && value.trim() && !isExternal(value)) found.push({ segments, reference: value, what })
  }
  addApi([...at, 'openapi'], node.openapi, 'OpenAPI file')
  addApi([...at, 'asyncapi'], node.asyncapi, 'AsyncAPI file')
  for (const key of [...NAVIGATION_LISTS, 'pages'] as const)
    if (node[key] !== undefined) found.push(...navigationFiles(node[key], [...at, key]))
  filesWithin.set(node, { at: place, found })
  return found
}

/** The local OpenAPI files a config names, as written, each once. */
export const openApiFilesOf = (config: unknown) => [
  ...new Set(
    referencedFiles(config)
      .filter((file) => file.what === 'OpenAPI file')
      .map((file) => file.reference),
  ),
]

const IMAGE_KINDS: ReadonlySet<FileKind> = new Set(['logo image', 'favicon', 'background image'])
/** The local images a config names, as written, each once. */
export const imageFilesOf = (config: unknown) => [
  ...new Set(
    referencedFiles(config)
      .filter((file) => IMAGE_KINDS.has(file.what))
      .map((file) => file.reference),
  ),
]

const OPERATION = /^(?:(\S+)\s+)?(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|WEBHOOK)\s+(\S.*)$/i
/** A navigation entry naming an OpenAPI operation ("GET /users", "openapi.json POST /users"), or null for a page. */
export function operationOf(page: string): { file: string | null; operation: string } | null {
  const match = OPERATION.exec(page.trim())
  if (!match) return null
  const [, file, method, target] = match
  return { file: file ?? null, operation: `${method!.toUpperCase()} ${target!.trim()}` }
}

/** What a docs index makes of a config, for the editor: the page paths as a set, to look up per keystroke. */
export interface DocsLookup {
  index: DocsIndex
  pages: Set<string>
  files: Set<string>
  /** Markdown files that are not pages, by page path, with why. */
  excluded: Map<string, string>
}

export const docsLookup = (index: DocsIndex): DocsLookup => ({
  index,
  pages: new Set(index.pages.map((page) => page.path)),
  files: new Set([...index.files, ...index.pages.map((page) => page.file)]),
  excluded: new Map((index.excluded ?? []).map((entry) => [entry.path, entry.reason])),
})

const PAGE_EXTENSION = /\.mdx?$/i

/**
 * Warnings for what the config names and the docs folder does not hold: every page without a
 * file (or written with its extension, or pointing at a file that is not a page), every OpenAPI
 * operation its files do not have, every missing or broken image and OpenAPI file. Warnings, not
 * errors: the file itself follows its rules, the folder is what is short.
 */
export function docsProblems(
  config: unknown,
  docs: DocsLookup,
  openapi: readonly OpenApiCheck[] = [],
  images: readonly ImageCheck[] = [],
): SiteConfigProblem[] {
  return docsProblemChunks(config, docs, openapi, images).flat()
}

/** What the page checks of one navigation item depend on besides the item: the same object while they stand. */
interface PageContext {
  docs: DocsLookup
  checks: ReadonlyMap<string, OpenApiCheck>
  allSpecs: readonly string[]
}
let lastContext: (PageContext & { openapi: readonly OpenApiCheck[]; specsKey: string }) | null = null
const itemChunks = new WeakMap<object, { context: PageContext; at: string; scope: string; chunks: readonly SiteConfigProblem[][] }>()
const referenced = new WeakMap<object, ReferencedFile[]>()

/**
 * docsProblems in parts: one array per navigation item (a tab, a group of a `groups` list…), the
 * same array while the item, its place and what it is checked against stay the same, so a
 * keystroke in one group works out that group's part alone (and the editor indexes that part alone).
 */
export function docsProblemChunks(
  config: unknown,
  docs: DocsLookup,
  openapi: readonly OpenApiCheck[] = [],
  images: readonly ImageCheck[] = [],
): readonly (readonly SiteConfigProblem[])[] {
  if (!isPlainObject(config)) return []
  let files = referenced.get(config)
  if (!files) referenced.set(config, (files = referencedFiles(config)))
  const allSpecs = [...new Set(files.filter((file) => file.what === 'OpenAPI file').map((file) => file.reference))]
  const specsKey = allSpecs.join('\0')
  if (!lastContext || lastContext.docs !== docs || lastContext.openapi !== openapi || lastContext.specsKey !== specsKey)
    lastContext = { docs, openapi, specsKey, allSpecs, checks: new Map(openapi.map((check) => [docsRelative(check.file), check])) }
  const context = lastContext
  const chunks: (readonly SiteConfigProblem[])[] = []
  const topScope = [...apiSources(config.openapi), ...(isPlainObject(config.api) ? apiSources(config.api.openapi) : [])]
  if (Array.isArray(config.navigation))
    config.navigation.forEach((group, index) => chunks.push(...itemProblems(group, ['navigation', index], topScope, context)))
  else chunks.push(...itemProblems(config.navigation, ['navigation'], topScope, context))
  chunks.push(fileProblems(files, context, images))
  return chunks
}

/** The pages of one navigation item, its own and its nested groups', with the items of its lists in parts of their own. */
function itemProblems(
  node: unknown,
  at: (string | number)[],
  inherited: readonly string[],
  context: PageContext,
): readonly SiteConfigProblem[][] {
  if (!isPlainObject(node)) return []
  const own = apiSources(node.openapi)
  const scope = own.length ? own : inherited
  const place = formatProblemPath(at)
  const scopeKey = scope.join('\0')
  const known = itemChunks.get(node)
  if (known && known.context === context && known.at === place && known.scope === scopeKey) return known.chunks
  const mine: SiteConfigProblem[] = []
  const chunks: SiteConfigProblem[][] = [mine]
  const visitPage = (page: string, segments: (string | number)[], pageScope: readonly string[]) => {
    const problem = pageProblem(page, pageScope, context)
    if (problem) mine.push({ path: formatProblemPath(segments), message: problem })
    else if (PAGE_EXTENSION.test(page.trim()) && pageKey(page)) {
      // Written with its extension: said, and looked up without it.
      mine.push({
        path: formatProblemPath(segments),
        message: `is written with its extension: Mintlify names pages without one, so write "${pageKey(page)}"`,
      })
      const missing = missingPage(pageKey(page), context.docs)
      if (missing) mine.push({ path: formatProblemPath(segments), message: missing })
    }
  }
  const walkGroup = (group: unknown, groupAt: (string | number)[], groupScope: readonly string[]) => {
    if (!isPlainObject(group)) return
    const ownApi = apiSources(group.openapi)
    const here = ownApi.length ? ownApi : groupScope
    if (typeof group.root === 'string') visitPage(group.root, [...groupAt, 'root'], here)
    if (Array.isArray(group.pages))
      group.pages.forEach((page, index) =>
        typeof page === 'string'
          ? visitPage(page, [...groupAt, 'pages', index], here)
          : walkGroup(page, [...groupAt, 'pages', index], here),
      )
    for (const key of NAVIGATION_LISTS) {
      const list = group[key]
      if (Array.isArray(list)) list.forEach((child, index) => chunks.push(...itemProblems(child, [...groupAt, key, index], here, context)))
    }
  }
  walkGroup(node, at, inherited)
  itemChunks.set(node, { context, at: place, scope: scopeKey, chunks })
  return chunks
}

/** Why a navigation entry has no page, or null: an operation its OpenAPI files lack, a page with no file. */
function pageProblem(page: string, scope: readonly string[], context: PageContext): string | null {
  const operation = operationOf(page)
  if (operation) return operationProblem(operation, scope.length ? scope : context.allSpecs, context.checks)
  // Most pages are written as the index keeps them: looked up as they are first.
  if (context.docs.pages.has(page)) return null
  const key = pageKey(page)
  if (!key || PAGE_EXTENSION.test(page.trim())) return null
  return missingPage(key, context.docs)
}

function missingPage(key: string, docs: DocsLookup): string | null {
  if (docs.pages.has(key)) return null
  const excluded = docs.excluded.get(key)
  return excluded ? `is not a page: ${excluded}` : `has no page in the docs folder: expected ${key}.mdx or ${key}.md`
}

let lastFiles: {
  files: readonly ReferencedFile[]
  context: PageContext
  images: readonly ImageCheck[]
  problems: SiteConfigProblem[]
} | null = null

/** The images and OpenAPI files the config names: missing, unreadable, not images, not valid. */
function fileProblems(files: readonly ReferencedFile[], context: PageContext, images: readonly ImageCheck[]): SiteConfigProblem[] {
  const same = (a: readonly ReferencedFile[], b: readonly ReferencedFile[]) =>
    a === b ||
    (a.length === b.length &&
      a.every(
        (file, index) =>
          file.reference === b[index]!.reference &&
          file.what === b[index]!.what &&
          formatProblemPath(file.segments) === formatProblemPath(b[index]!.segments),
      ))
  if (lastFiles && lastFiles.context === context && lastFiles.images === images && same(lastFiles.files, files)) return lastFiles.problems
  const problems: SiteConfigProblem[] = []
  const imageChecks = new Map(images.map((check) => [docsRelative(check.file), check]))
  for (const { segments, reference, what } of files) {
    const file = docsRelative(reference)
    const check = context.checks.get(file)
    const image = imageChecks.get(file)
    if (what === 'OpenAPI file' && check && check.state !== 'valid') {
      problems.push({ path: formatProblemPath(segments), message: openApiMessage(check) })
    } else if (image && image.state !== 'image') {
      problems.push({ path: formatProblemPath(segments), message: imageMessage(image, what) })
    } else if (!check && !image && !context.docs.files.has(file)) {
      problems.push({ path: formatProblemPath(segments), message: `is not in the docs folder: no ${what} at ${file}` })
    }
  }
  lastFiles = { files, context, images, problems }
  return problems
}

function operationProblem(
  operation: { file: string | null; operation: string },
  scope: readonly string[],
  checks: ReadonlyMap<string, OpenApiCheck>,
): string | null {
  const files = operation.file ? [operation.file] : scope
  if (files.length === 0) return `names the API operation ${operation.operation}, but no OpenAPI file is set here or above it`
  const found = files.map((file) => checks.get(docsRelative(file)))
  // Not checked yet (or a URL): nothing to say.
  if (found.some((check) => !check || check.state !== 'valid' || !check.operations)) return null
  if (found.some((check) => check!.operations!.includes(operation.operation))) return null
  const known = found.flatMap((check) => check!.operations!)
  const names = files.map(docsRelative).join(', ')
  return `names the operation ${operation.operation}, which ${names} does not have${known.length ? `: it has ${known.length} (${known.slice(0, 3).join(', ')}${known.length > 3 ? ', …' : ''})` : ''}`
}

function imageMessage(check: ImageCheck, what: string): string {
  if (check.state === 'missing') return `is not in the docs folder: no ${what} at ${docsRelative(check.file)}`
  if (check.state === 'unreadable') return `cannot be read: ${docsRelative(check.file)}`
  return `is not an image: ${docsRelative(check.file)} holds no PNG, JPEG, GIF, WebP, AVIF, ICO or SVG picture`
}

function openApiMessage(check: OpenApiCheck): string {
  if (check.state === 'missing') return `is not in the docs folder: no OpenAPI file at ${docsRelative(check.file)}`
  if (check.state === 'unreadable') return `cannot be read: ${check.problems[0] ?? 'unknown reason'}`
  const [first, ...rest] = check.problems
  return `is not a valid OpenAPI file: ${first ?? 'unknown reason'}${rest.length ? ` (and ${rest.length} more)` : ''}`
}

/** The pages in the docs folder that no group lists, in folder order. */
export function unlistedPages(config: unknown, index: DocsIndex): DocsPage[] {
  const listed = new Set<string>()
  forEachPage(config, (page) => listed.add(pageKey(page)))
  return index.pages.filter((page) => !listed.has(page.path))
}
