import { z } from 'zod'
import { formatProblemPath } from './format'
import { isPlainObject } from './schema'
import type { SiteConfigProblem } from './problem'

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

/** A page as navigation names it, without a leading slash or an extension. Remembered: the editor asks for every page on every keystroke. */
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
  const walk = (node: unknown, at: (string | number)[]) => {
    if (Array.isArray(node)) return node.forEach((child, index) => walk(child, [...at, index]))
    if (!isPlainObject(node)) return
    addApi([...at, 'openapi'], node.openapi, 'OpenAPI file')
    addApi([...at, 'asyncapi'], node.asyncapi, 'AsyncAPI file')
    for (const key of [...NAVIGATION_LISTS, 'pages'] as const) if (node[key] !== undefined) walk(node[key], [...at, key])
  }
  walk(config.navigation, ['navigation'])
  // mint.json's tabs and anchors name OpenAPI files too.
  for (const key of ['tabs', 'anchors'] as const) {
    if (Array.isArray(config[key]))
      (config[key] as unknown[]).forEach((item, index) => isPlainObject(item) && add([key, index, 'openapi'], item.openapi, 'OpenAPI file'))
  }
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
  const problems: SiteConfigProblem[] = []
  const checks = new Map(openapi.map((check) => [docsRelative(check.file), check]))
  const allSpecs = openApiFilesOf(config)
  forEachPage(config, (page, segments, scope) => {
    const operation = operationOf(page)
    if (operation) {
      const message = operationProblem(operation, scope.length ? scope : allSpecs, checks)
      if (message) problems.push({ path: formatProblemPath(segments), message })
      return
    }
    // Most pages are written as the index keeps them: looked up as they are first.
    if (docs.pages.has(page)) return
    const key = pageKey(page)
    if (!key) return
    if (PAGE_EXTENSION.test(page.trim())) {
      problems.push({
        path: formatProblemPath(segments),
        message: `is written with its extension: Mintlify names pages without one, so write "${key}"`,
      })
      if (docs.pages.has(key)) return
    }
    const excluded = docs.excluded.get(key)
    if (excluded) problems.push({ path: formatProblemPath(segments), message: `is not a page: ${excluded}` })
    else if (!docs.pages.has(key))
      problems.push({ path: formatProblemPath(segments), message: `has no page in the docs folder: expected ${key}.mdx or ${key}.md` })
  })
  const imageChecks = new Map(images.map((check) => [docsRelative(check.file), check]))
  for (const { segments, reference, what } of referencedFiles(config)) {
    const file = docsRelative(reference)
    const check = checks.get(file)
    const image = imageChecks.get(file)
    if (what === 'OpenAPI file' && check && check.state !== 'valid') {
      problems.push({ path: formatProblemPath(segments), message: openApiMessage(check) })
    } else if (image && image.state !== 'image') {
      problems.push({ path: formatProblemPath(segments), message: imageMessage(image, what) })
    } else if (!check && !image && !docs.files.has(file)) {
      problems.push({ path: formatProblemPath(segments), message: `is not in the docs folder: no ${what} at ${file}` })
    }
  }
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
  return `is not an operation of ${names}${known.length ? `: it has ${known.length} (${known.slice(0, 3).join(', ')}${known.length > 3 ? ', …' : ''})` : ''}`
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
