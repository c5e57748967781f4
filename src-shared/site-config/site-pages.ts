import { z } from 'zod'
import { fileNameOf } from './api-reference-pages'
import { apiSources, type DocsIndex, isExternal, type OpenApiCheck, pageKey } from './docs-files'
import { isPlainObject } from './mint-schema'
import { normalizeRefPath } from './refs'

// Every page the site will have, and the links inside its pages checked against them. Main reads
// and parses the pages (page-checks.ts: MDX, front matter, headings with Mintlify's slug rules) and
// hands in what it found; the rest is here, so the editor, the CLI and the export judge alike.
//
// A site's pages are its folder's Markdown files that Mintlify publishes, and the pages Mintlify
// generates from OpenAPI files: one per operation, at `/{directory}/{first tag}/{summary}` as
// @mintlify/common's generateOpenApiPages names them (directory "api-reference" unless the
// navigation's `openapi` says another), a page's `x-mint.href` taking the place of the name.

/** A link or image inside a page: its target as written, and its line (1-based). */
export const PageLinkSchema = z.object({ target: z.string(), line: z.number().int().positive(), image: z.boolean() })
export type PageLink = z.infer<typeof PageLinkSchema>

/** What one page holds for the checks: its anchors (ids as Mintlify renders them), its links, and what is wrong in it. */
export const PageFactSchema = z.object({
  /** As the docs index keys it ("guides/setup"), and the file ("guides/setup.mdx"). */
  path: z.string(),
  file: z.string(),
  anchors: z.array(z.string()),
  links: z.array(PageLinkSchema),
  /** Front matter, MDX, a page that cannot be read: with its line. */
  problems: z.array(z.object({ line: z.number().int().positive(), message: z.string() })),
  /** An API page (`openapi:` or `asyncapi:` in its front matter): Mintlify adds anchors for its parameters and responses. */
  apiPage: z.boolean().optional(),
  /** The page could not be read (too large, not UTF-8…): its anchors are not known. */
  unread: z.boolean().optional(),
})
export type PageFact = z.infer<typeof PageFactSchema>

export const PageFactsSchema = z.object({
  pages: z.array(PageFactSchema),
  /** The pages of the folder, checked or not: past MAX_PAGES_CHECKED the rest are not read. */
  total: z.number().int().nonnegative(),
  /** The local files links and images point at (not pages), by `image:path` or `file:path`: why each is wrong, or null. */
  files: z.record(z.string(), z.string().nullable()),
})
export type PageFacts = z.infer<typeof PageFactsSchema>

/** The pages read for links, anchors and front matter: past it, a folder says how many were left out. */
export const MAX_PAGES_CHECKED = 10_000

/** A link's page as the docs folder keys pages, with its anchor, or null for a link that leaves the site. */
export function resolveLink(target: string, fromFile: string): { path: string; anchor: string | null } | null {
  if (isExternal(target) || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//') || target.startsWith('{')) return null
  const hash = target.indexOf('#')
  const anchor = hash >= 0 ? decodeSafe(target.slice(hash + 1)) : null
  const withoutHash = (hash >= 0 ? target.slice(0, hash) : target).split('?')[0]!
  if (withoutHash === '') return { path: '', anchor }
  const folder = fromFile.includes('/') ? fromFile.slice(0, fromFile.lastIndexOf('/')) : ''
  const absolute = withoutHash.startsWith('/') ? withoutHash : `${folder}/${withoutHash}`
  return { path: normalizeRefPath(decodeSafe(absolute)).replace(/^\/+/, '').replace(/\/+$/, ''), anchor }
}

export function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** The key under which a link's local file is checked (PageFacts.files). */
export const linkedFileKey = (path: string, image: boolean) => `${image ? 'image' : 'file'}:${path}`

/** Whether a link's target names a file other than a page (an image, a PDF…), checked as a file. */
export const isFileLink = (path: string, image: boolean) => image || (/\.[a-z0-9]+$/i.test(path) && !/\.mdx?$/i.test(path))

/**
 * Files Mintlify serves at the root of every site without one in the docs folder: the llms.txt
 * files it writes from the pages, and the sitemap. A link to one is good.
 */
export const SERVED_FILES: ReadonlySet<string> = new Set(['llms.txt', 'llms-full.txt', 'sitemap.xml'])

/** How an anchor is compared: decoded, as the browser matches the id Mintlify rendered. */
export const anchorKey = (anchor: string) => decodeSafe(anchor).toLowerCase()

/** Mintlify's file names for generated pages (its prepareStringToBeValidFilename), as api-reference-pages.ts writes them. */
const fileNamePart = (text: string | null | undefined): string | undefined => (text ? fileNameOf(text) : undefined)

/** One operation of an OpenAPI file, as far as its generated page goes. */
export interface Endpoint {
  /** "GET /users/{id}", or "WEBHOOK name". */
  operation: string
  summary: string | null
  tag: string | null
  /** Its `x-mint.href`, which names the page instead. */
  href: string | null
}

/** The pages Mintlify generates for an OpenAPI file's operations under `directory`, by page key. */
export function generatedPages(endpoints: readonly Endpoint[], directory = 'api-reference'): Map<string, Endpoint> {
  const pages = new Map<string, Endpoint>()
  const used: string[] = []
  for (const endpoint of endpoints) {
    const [method, ...rest] = endpoint.operation.split(' ')
    const target = rest.join(' ')
    const webhook = method === 'WEBHOOK'
    let base: string
    if (endpoint.href) base = endpoint.href.replace(/^\//, '')
    else {
      const title = fileNamePart(endpoint.summary) ?? (webhook ? fileNamePart(target)! : `${method!.toLowerCase()}-${fileNamePart(target)}`)
      base = [directory, fileNamePart(endpoint.tag) ?? '', title].join('/').replace(/\/+/g, '/').replace(/\/$/, '')
    }
    let name = base
    for (let suffix = 1; used.includes(name); suffix++) name = `${base}-${suffix}`
    used.push(name)
    pages.set(name.toLowerCase().replace(/^\/+/, ''), endpoint)
  }
  return pages
}

/** The OpenAPI files the navigation generates pages from, each with the directory its pages go in. */
export function openApiDirectories(config: unknown): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>()
  const add = (value: unknown) => {
    const entries = Array.isArray(value) ? value : [value]
    for (const entry of entries) {
      for (const source of apiSources(entry)) {
        if (isExternal(source)) continue
        const directory =
          isPlainObject(entry) && typeof entry.directory === 'string' ? entry.directory.replace(/^\/+|\/+$/g, '') : 'api-reference'
        const key = source.trim().replace(/^\.?\/+/, '')
        if (!found.has(key)) found.set(key, new Set())
        found.get(key)!.add(directory)
      }
    }
  }
  if (!isPlainObject(config)) return found
  add(config.openapi)
  if (isPlainObject(config.api)) add(config.api.openapi)
  for (const value of openApiValuesIn(config.navigation)) add(value)
  return found
}

const valuesWithin = new WeakMap<object, unknown[]>()

/** Every `openapi` value in a navigation, each object's answer kept while it is the same object (its place does not matter here). */
function openApiValuesIn(node: unknown): unknown[] {
  if (typeof node !== 'object' || node === null) return []
  const known = valuesWithin.get(node)
  if (known) return known
  const values: unknown[] = []
  if (Array.isArray(node)) for (const child of node) values.push(...openApiValuesIn(child))
  else {
    const object = node as Record<string, unknown>
    if (object.openapi !== undefined) values.push(object.openapi)
    for (const [key, child] of Object.entries(object)) if (key !== 'openapi') values.push(...openApiValuesIn(child))
  }
  valuesWithin.set(node, values)
  return values
}

/** Every page the site will have: published Markdown files, and the pages its OpenAPI files generate. */
export interface SitePages {
  files: ReadonlySet<string>
  generated: ReadonlyMap<string, Endpoint>
  has(key: string): boolean
}

export function sitePages(config: unknown, index: DocsIndex, openapi: readonly OpenApiCheck[]): SitePages {
  const files = new Set(index.pages.map((page) => page.path))
  const generated = new Map<string, Endpoint>()
  const checks = new Map(openapi.map((check) => [check.file.trim().replace(/^\.?\/+/, ''), check]))
  for (const [file, directories] of openApiDirectories(config)) {
    const endpoints = checks.get(file)?.endpoints
    if (!endpoints) continue
    for (const directory of directories) for (const [key, endpoint] of generatedPages(endpoints, directory)) generated.set(key, endpoint)
  }
  const has = (key: string) => files.has(key) || files.has(`${key}/index`) || generated.has(key.toLowerCase())
  return { files, generated, has }
}

/** A redirect's source as a test of paths: `:name` and `*` match a segment, `:name*` the rest. */
function redirectMatcher(config: unknown): (path: string) => boolean {
  const sources =
    isPlainObject(config) && Array.isArray(config.redirects)
      ? config.redirects.map((redirect) => (isPlainObject(redirect) ? redirect.source : undefined))
      : []
  const patterns = sources
    .filter((source): source is string => typeof source === 'string')
    .map((source) => {
      const body = source
        .replace(/^\/+|\/+$/g, '')
        .split('/')
        .map((segment) =>
          /^:\w+\*$/.test(segment)
            ? '.*'
            : segment === '*' || /^:\w+$/.test(segment)
              ? '[^/]+'
              : segment.replace(/[.+?^${}()|[\]\\*]/g, '\\$&'),
        )
        .join('/')
      return new RegExp(`^${body}$`)
    })
  return (path) => patterns.some((pattern) => pattern.test(path))
}

/** One problem inside a page file. */
export interface PageProblem {
  file: string
  line: number
  message: string
}

/**
 * What is wrong inside the pages: their own problems (front matter, MDX), and every link, anchor
 * and image that leads nowhere, a link being good when the site will have its page (generated
 * ones included) or a redirect catches it. Sorted by file and line.
 */
export function pageProblems(config: unknown, index: DocsIndex, facts: PageFacts, site: SitePages): PageProblem[] {
  const problems: PageProblem[] = []
  const byPath = new Map(facts.pages.map((page) => [page.path, page]))
  const anchorsOf = new Map<string, Set<string>>()
  const anchors = (page: PageFact) => {
    let set = anchorsOf.get(page.path)
    if (!set) anchorsOf.set(page.path, (set = new Set(page.anchors.map(anchorKey))))
    return set
  }
  const excluded = new Map((index.excluded ?? []).map((entry) => [entry.path, entry.reason]))
  const redirected = redirectMatcher(config)
  for (const page of facts.pages) {
    for (const problem of page.problems) problems.push({ file: page.file, ...problem })
    for (const link of page.links) {
      const target = resolveLink(link.target, page.file)
      if (!target) continue
      const where = { file: page.file, line: link.line }
      if (target.path === '') {
        if (target.anchor && !link.image && !anchors(page).has(anchorKey(target.anchor)))
          problems.push({ ...where, message: `links to #${target.anchor}, but this page has no heading with that anchor` })
        continue
      }
      const key = pageKey(target.path)
      const isPage = site.has(key)
      if (!isPage && isFileLink(target.path, link.image)) {
        if (!link.image && SERVED_FILES.has(target.path)) continue
        const wrong = facts.files[linkedFileKey(target.path, link.image)]
        if (wrong) problems.push({ ...where, message: `${link.image ? 'shows the image' : 'links to'} ${link.target}, which ${wrong}` })
        continue
      }
      if (!isPage) {
        if (redirected(key)) continue
        const why = excluded.get(key)
        problems.push({
          ...where,
          message: why
            ? `links to ${link.target}, which is not a page: ${why}`
            : `links to ${link.target}, which is not a page of the site (no file in the docs folder, no page its OpenAPI files generate)`,
        })
        continue
      }
      if (target.anchor) {
        // A generated page's anchors are its parameters' and responses': not known here, so not judged.
        // So are an API page's (its parameters' anchors come from the OpenAPI file), and those of a
        // page that could not be read (it has its own problem saying so).
        const linked = byPath.get(key) ?? byPath.get(`${key}/index`)
        if (linked && !linked.apiPage && !linked.unread && !anchors(linked).has(anchorKey(target.anchor)))
          problems.push({ ...where, message: `links to ${link.target}, but that page has no heading with the anchor #${target.anchor}` })
      }
    }
  }
  return problems.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1))
}
