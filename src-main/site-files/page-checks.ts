import { join, posix } from 'node:path'
import { messageOf } from '../../src-shared/ipc/error-message'
import GithubSlugger from 'github-slugger'
import type { Nodes, Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { mdxFromMarkdown } from 'mdast-util-mdx'
import { frontmatter } from 'micromark-extension-frontmatter'
import { gfm } from 'micromark-extension-gfm'
import { mdxjs } from 'micromark-extension-mdxjs'
import { isExternal, pageKey, type DocsIndex } from '../../src-shared/site-config/docs-files'
import { isPlainObject } from '../../src-shared/site-config/schema'
import { checkImageFile } from './docs-folder'
import { AppErrorException } from '../../src-shared/ipc/result'
import { firstInvalidUtf8, lineAt } from '../../src-shared/text/utf8'
import { fileExists, megabytes, notUtf8Sentence, readRegularFile, realPathInside } from './file-access'

// What is inside the pages: MDX that does not parse, front matter that does not, and every
// in-page link, anchor and image checked against the docs folder. Pages are parsed with
// micromark and mdast (the parser MDX itself is built on, with its MDX, GFM and front matter
// extensions), never evaluated. Mintlify's `mint broken-links` finds broken links; this finds
// broken anchors, images that are missing or not images, and says the line of each.

/** One problem inside a page file, with its line (1-based). */
export interface PageProblem {
  file: string
  line: number
  message: string
}

/**
 * A page is Markdown or MDX of a few kB (a long generated reference, a few hundred). Parsing costs
 * about a second of CPU per 200 kB, so a larger file is named as too large rather than parsed.
 */
export const MAX_PAGE_BYTES = 500_000
const READS_AT_ONCE = 16
/**
 * Anchors compared loosely: slugifiers differ on punctuation (Mintlify's keeps `$`, GitHub's drops
 * it), so both sides keep only letters, digits, - and _.
 */
const anchorKey = (anchor: string) => anchor.toLowerCase().replace(/[^\p{L}\p{N}_-]/gu, '')

/** Components whose title (or id) Mintlify turns into an anchor, besides headings. */
const TITLED_COMPONENTS = /^(Accordion|Step|Tab|Update|ResponseField|ParamField|Expandable|Card)$/

interface Link {
  target: string
  line: number
  image: boolean
}

interface ParsedPage {
  anchors: Set<string>
  links: Link[]
  problems: PageProblem[]
}

function parsePage(file: string, text: string): ParsedPage {
  const problems: PageProblem[] = []
  const markdown = { extensions: [frontmatter(['yaml']), gfm()], mdastExtensions: [frontmatterFromMarkdown(['yaml']), gfmFromMarkdown()] }
  let tree: Root
  try {
    tree = /\.mdx$/i.test(file)
      ? fromMarkdown(text, {
          extensions: [...markdown.extensions, mdxjs()],
          mdastExtensions: [...markdown.mdastExtensions, mdxFromMarkdown()],
        })
      : fromMarkdown(text, markdown)
  } catch (error) {
    // micromark's errors (VFileMessage) carry their place; the line goes in the problem, not the sentence.
    const found = error as { line?: number; place?: { line?: number; start?: { line?: number } }; reason?: string; message?: string }
    const said = found.reason ?? found.message ?? String(error)
    // Some say their place only in their text: "… (3:1-3:18)".
    const line = found.line ?? found.place?.start?.line ?? found.place?.line ?? Number(/\((\d+):\d+(?:-\d+:\d+)?\)$/.exec(said)?.[1] ?? 1)
    const reason = said.replace(/\s*\(\d+:\d+(-\d+:\d+)?\)$/, '')
    problems.push({ file, line, message: `is not valid MDX: ${reason} (Mintlify cannot build this page)` })
    // Its links are still worth checking: read as plain Markdown.
    tree = fromMarkdown(text, markdown)
  }
  const slugger = new GithubSlugger()
  const anchors = new Set<string>()
  const links: Link[] = []
  const addLink = (target: unknown, node: Nodes, image: boolean) => {
    if (typeof target === 'string' && target.trim()) links.push({ target: target.trim(), line: node.position?.start.line ?? 1, image })
  }
  const visit = (node: Nodes) => {
    switch (node.type) {
      case 'heading':
        anchors.add(anchorKey(slugger.slug(textOf(node))))
        break
      case 'html':
        for (const match of node.value.matchAll(/\bid=["']([^"']+)["']/g)) anchors.add(anchorKey(match[1]!))
        break
      case 'link':
      case 'definition':
        addLink(node.url, node, false)
        break
      case 'image':
        addLink(node.url, node, true)
        break
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement':
        for (const attribute of node.attributes) {
          if (attribute.type !== 'mdxJsxAttribute' || typeof attribute.value !== 'string') continue
          if (attribute.name === 'href') addLink(attribute.value, node, false)
          else if (attribute.name === 'src' && /^(img|Frame|image)$/i.test(node.name ?? '')) addLink(attribute.value, node, true)
          else if (attribute.name === 'id') anchors.add(anchorKey(attribute.value))
          else if ((attribute.name === 'title' || attribute.name === 'name') && TITLED_COMPONENTS.test(node.name ?? ''))
            anchors.add(anchorKey(slugger.slug(attribute.value)))
        }
        break
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes)
  }
  visit(tree)
  return { anchors, links, problems }
}

function textOf(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string' && node.type !== 'yaml') return node.value
  return 'children' in node ? node.children.map((child) => textOf(child as Nodes)).join('') : ''
}

/** A link's page as the docs folder keys pages, or null for a link that leaves the site. */
function resolveLink(target: string, fromFile: string): { path: string; anchor: string | null } | null {
  if (isExternal(target) || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//') || target.startsWith('{')) return null
  const hash = target.indexOf('#')
  const anchor = hash >= 0 ? decodeURIComponentSafe(target.slice(hash + 1)) : null
  const withoutHash = hash >= 0 ? target.slice(0, hash) : target
  const bare = withoutHash.split('?')[0]!
  if (bare === '') return { path: '', anchor }
  const absolute = bare.startsWith('/') ? bare : posix.join(posix.dirname(fromFile), bare)
  return { path: posix.normalize(absolute).replace(/^\/+/, '').replace(/\/+$/, ''), anchor }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
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

/**
 * A page's text, or why it is not checked: a file too large to be a page, or one that is not text
 * (NUL bytes, as binary files hold, or bytes that are not UTF-8: the rule the app opens files by),
 * is said at once, never handed to the parser. Read only inside the docs folder, never through a link.
 */
async function readPage(root: string, file: string): Promise<string | { line: number; message: string }> {
  let bytes: Buffer
  try {
    bytes = (await readRegularFile(await realPathInside(root, join(root, file)), MAX_PAGE_BYTES, 'a page')).bytes
  } catch (error) {
    if (error instanceof AppErrorException && (error.details as { maxBytes?: number } | undefined)?.maxBytes)
      return { line: 1, message: `is larger than ${megabytes(MAX_PAGE_BYTES)}: too large to be a page, so it was not checked` }
    return { line: 1, message: `cannot be read: ${messageOf(error)}` }
  }
  const nul = bytes.indexOf(0)
  if (nul !== -1)
    return {
      line: lineAt(bytes, nul),
      message: 'is not text: it holds NUL bytes, as binary files do, where a page is Markdown or MDX text; it was not checked',
    }
  const bad = firstInvalidUtf8(bytes)
  if (bad !== -1) return { line: lineAt(bytes, bad), message: notUtf8Sentence(bytes, bad) }
  const text = bytes.toString('utf8')
  const deepest = deepestNesting(text)
  if (deepest.depth > MAX_NESTING)
    return {
      line: deepest.line,
      message: `nests blockquotes or lists more than ${MAX_NESTING} levels deep, which takes the MDX parser minutes: it was not checked`,
    }
  return text
}

/**
 * Blockquotes and lists nested deeper than this cost the Markdown parser time that grows with the
 * square of the depth (20 kB of ">" took 5 s of CPU, a list 2,000 levels deep minutes); pages
 * nest a few levels.
 */
const MAX_NESTING = 32
/** A blockquote marker or a list item's, at the start of what is left of a line. */
const CONTAINER = /^[ \t]*(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))/

/**
 * How deep blockquotes and lists nest in a page, outside fenced code, and on which line: the
 * markers that open a line, and for a list item indented under others, a level per two spaces.
 * The first line past MAX_NESTING ends the look.
 */
function deepestNesting(text: string): { depth: number; line: number } {
  const deepest = { depth: 0, line: 1 }
  let fence: string | null = null
  const lines = text.split('\n')
  for (let index = 0; index < lines.length && deepest.depth <= MAX_NESTING; index++) {
    const line = lines[index]!
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (fenceMark && (fence === null || fenceMark.startsWith(fence))) fence = fence === null ? fenceMark : null
    if (fence !== null || fenceMark) continue
    let rest = line
    let markers = 0
    for (let match = CONTAINER.exec(rest); match && markers <= MAX_NESTING; match = CONTAINER.exec(rest)) {
      markers++
      rest = rest.slice(match[0].length)
    }
    const depth = markers === 0 ? 0 : markers + Math.floor(/^ */.exec(line)![0].length / 2)
    if (depth > deepest.depth) Object.assign(deepest, { depth, line: index + 1 })
  }
  return deepest
}

async function mapLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!)
    }),
  )
}

/**
 * Checks every page of an indexed docs folder: its front matter and MDX, and each link, anchor
 * and image in it. `config` gives the redirects a link may go through.
 */
export async function checkPages(index: DocsIndex, config: unknown): Promise<PageProblem[]> {
  const parsed = new Map<string, ParsedPage>()
  const pages = new Map(index.pages.map((page) => [page.path, page]))
  const excluded = new Map((index.excluded ?? []).map((entry) => [entry.path, entry.reason]))
  const files = new Set(index.files)
  const problems: PageProblem[] = []
  for (const page of index.pages) if (page.frontMatterError) problems.push({ file: page.file, ...page.frontMatterError })
  await mapLimited(index.pages, READS_AT_ONCE, async (page) => {
    const read = await readPage(index.root, page.file)
    if (typeof read === 'string') parsed.set(page.path, parsePage(page.file, read))
    else problems.push({ file: page.file, ...read })
  })
  const redirected = redirectMatcher(config)
  const fileChecks = new Map<string, Promise<string | null>>()
  /** Why a local file a page points at is wrong, or null: checked once however many pages name it. */
  const fileProblem = (path: string, image: boolean) => {
    const key = `${image}:${path}`
    if (!fileChecks.has(key)) {
      fileChecks.set(
        key,
        (async () => {
          if (image) {
            const check = await checkImageFile(index.root, path)
            if (check.state === 'missing') return `is not in the docs folder`
            if (check.state === 'not-an-image') return 'is not an image (no PNG, JPEG, GIF, WebP, AVIF, ICO or SVG picture in it)'
            return check.state === 'unreadable' ? 'cannot be read' : null
          }
          if (files.has(path)) return null
          // Only inside the folder: a link out of it is as good as no file.
          const inside = await realPathInside(index.root, join(index.root, path)).catch(() => null)
          return inside !== null && (await fileExists(inside)) ? null : 'is not in the docs folder'
        })(),
      )
    }
    return fileChecks.get(key)!
  }
  for (const page of index.pages) {
    const found = parsed.get(page.path)
    if (!found) continue
    problems.push(...found.problems)
    for (const link of found.links) {
      const target = resolveLink(link.target, page.file)
      if (!target) continue
      const where = { file: page.file, line: link.line }
      if (target.path === '') {
        if (target.anchor && !link.image && !found.anchors.has(anchorKey(target.anchor))) {
          problems.push({ ...where, message: `links to #${target.anchor}, but this page has no heading with that anchor` })
        }
        continue
      }
      const key = pageKey(target.path)
      const isPage = pages.has(key) || pages.has(`${key}/index`)
      if (link.image || (!isPage && /\.[a-z0-9]+$/i.test(target.path) && !/\.mdx?$/i.test(target.path))) {
        const wrong = await fileProblem(target.path, link.image)
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
            : `links to ${link.target}, which is not a page in the docs folder`,
        })
        continue
      }
      if (target.anchor) {
        const anchors = parsed.get(pages.has(key) ? key : `${key}/index`)?.anchors
        if (anchors && !anchors.has(anchorKey(target.anchor))) {
          problems.push({ ...where, message: `links to ${link.target}, but that page has no heading with the anchor #${target.anchor}` })
        }
      }
    }
  }
  return problems.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1))
}
