import { z } from 'zod'
import { formatProblemPath } from './format'
import { isPlainObject } from './schema'
import type { SiteConfigProblem } from './validate'

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
})
export type DocsPage = z.infer<typeof DocsPageSchema>

export const DocsIndexSchema = z.object({
  root: z.string(),
  pages: z.array(DocsPageSchema),
  /** Every other file the site could point at (images, OpenAPI files), relative, with /. */
  files: z.array(z.string()),
  /** True when the folder held more files than are indexed: the rest are not checked. */
  truncated: z.boolean(),
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
})
export type OpenApiCheck = z.infer<typeof OpenApiCheckSchema>

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

/** Every page string in the navigation, nested groups included, with where it is. */
export function forEachPage(config: unknown, visit: (page: string, segments: (string | number)[]) => void): void {
  if (!isPlainObject(config) || !Array.isArray(config.navigation)) return
  const walk = (pages: unknown, at: (string | number)[]) => {
    if (!Array.isArray(pages)) return
    pages.forEach((page, index) => {
      if (typeof page === 'string') visit(page, [...at, index])
      else if (isPlainObject(page)) walk(page.pages, [...at, index, 'pages'])
    })
  }
  config.navigation.forEach((group, index) => {
    if (isPlainObject(group)) walk(group.pages, ['navigation', index, 'pages'])
  })
}

/** The files a config points at in the docs folder: logo, favicon, background image and local OpenAPI files. */
export function referencedFiles(config: unknown): { segments: (string | number)[]; reference: string; what: string }[] {
  if (!isPlainObject(config)) return []
  const found: { segments: (string | number)[]; reference: string; what: string }[] = []
  const add = (segments: (string | number)[], value: unknown, what: string) => {
    if (typeof value === 'string' && value.trim() && !isExternal(value)) found.push({ segments, reference: value, what })
  }
  if (isPlainObject(config.logo)) {
    add(['logo', 'light'], config.logo.light, 'logo image')
    add(['logo', 'dark'], config.logo.dark, 'logo image')
  } else add(['logo'], config.logo, 'logo image')
  add(['favicon'], config.favicon, 'favicon')
  add(['backgroundImage'], config.backgroundImage, 'background image')
  if (Array.isArray(config.openapi)) config.openapi.forEach((file, index) => add(['openapi', index], file, 'OpenAPI file'))
  else add(['openapi'], config.openapi, 'OpenAPI file')
  return found
}

/** The local OpenAPI files a config names, as written. */
export const openApiFilesOf = (config: unknown) => referencedFiles(config).filter((file) => file.what === 'OpenAPI file').map((file) => file.reference)

/** What a docs index makes of a config, for the editor: the page paths as a set, to look up per keystroke. */
export interface DocsLookup {
  index: DocsIndex
  pages: Set<string>
  files: Set<string>
}

export const docsLookup = (index: DocsIndex): DocsLookup => ({
  index,
  pages: new Set(index.pages.map((page) => page.path)),
  files: new Set([...index.files, ...index.pages.map((page) => page.file)]),
})

/**
 * Warnings for what the config names and the docs folder does not hold: every page without a
 * file, every missing image, every OpenAPI file missing or invalid. Warnings, not errors: the
 * file itself follows its rules, the folder is what is short.
 */
export function docsProblems(config: unknown, docs: DocsLookup, openapi: readonly OpenApiCheck[] = []): SiteConfigProblem[] {
  const problems: SiteConfigProblem[] = []
  forEachPage(config, (page, segments) => {
    // Most pages are written as the index keeps them: looked up as they are first.
    if (docs.pages.has(page)) return
    const key = pageKey(page)
    if (key && !docs.pages.has(key)) {
      problems.push({ path: formatProblemPath(segments), message: `has no page in the docs folder: expected ${key}.mdx or ${key}.md` })
    }
  })
  const checks = new Map(openapi.map((check) => [check.file, check]))
  for (const { segments, reference, what } of referencedFiles(config)) {
    const file = docsRelative(reference)
    const check = checks.get(reference)
    if (check && check.state !== 'valid') {
      problems.push({ path: formatProblemPath(segments), message: openApiMessage(check) })
    } else if (!check && !docs.files.has(file)) {
      problems.push({ path: formatProblemPath(segments), message: `is not in the docs folder: no ${what} at ${file}` })
    }
  }
  return problems
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
