import { join } from 'node:path'
import { messageOf } from '../../src-shared/ipc/error-message'
import slugify, { slugifyWithCounter } from '@sindresorhus/slugify'
import type { Nodes, Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { mdxFromMarkdown } from 'mdast-util-mdx'
import { frontmatter } from 'micromark-extension-frontmatter'
import { gfm } from 'micromark-extension-gfm'
import { mdxjs } from 'micromark-extension-mdxjs'
import { pageKey, type DocsIndex } from '../../src-shared/site-config/docs-files'
import {
  isFileLink,
  linkedFileKey,
  MAX_PAGES_CHECKED,
  pageProblems,
  resolveLink,
  sitePages,
  type PageFact,
  type PageFacts,
  type PageLink,
  type PageProblem,
} from '../../src-shared/site-config/site-pages'
import { checkImageFile } from './docs-folder'
import { fileExists, readRegularFile } from './file-access'

// What is inside the pages: MDX that does not parse, front matter that does not, every heading's
// anchor as Mintlify renders it, and every in-page link and image. Pages are parsed with
// micromark and mdast (the parser MDX itself is built on, with its MDX, GFM and front matter
// extensions), never evaluated. What the links lead to is judged in src-shared
// (site-pages.ts), against every page the site will have.

export type { PageProblem }

const MAX_PAGE_BYTES = 2_000_000
const READS_AT_ONCE = 16

/**
 * A heading's id as Mintlify gives it (@mintlify/common's slugify: spaces to dashes and
 * percent-encoding first, then @sindresorhus/slugify, which keeps a percent-encoded title as it
 * is; the browser shows it decoded), numbered -2, -3… when repeated in the page.
 */
function headingId(title: string, counter: ReturnType<typeof slugifyWithCounter>): string {
  const encoded = encodeURIComponent(title.toLowerCase().trim().replace(/\s+/g, '-'))
  const slug = /%[0-9A-F]{2}/.test(encoded)
    ? counter(encoded, { decamelize: false, preserveCharacters: ['%', '_'], lowercase: false })
    : counter(encoded, { decamelize: false, preserveCharacters: ['_'] })
  return cleanId(slug)
}

/** Emoji and their joiners and variation selectors, which Mintlify strips from ids. */
const EMOJI = /\p{Emoji_Modifier}|\p{Emoji_Modifier_Base}|\p{Emoji_Presentation}|\p{Extended_Pictographic}|\u200D|\uFE0E|\uFE0F/gu

/** What the browser compares: the id decoded, without the punctuation and emoji Mintlify strips when it renders. */
function cleanId(id: string): string {
  let decoded = id
  try {
    decoded = decodeURIComponent(id.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'))
  } catch {
    // A malformed sequence stays as written, as Mintlify leaves it.
  }
  return decoded.replace(/[?,;:!'"()[\]{}]/g, '').replace(EMOJI, '')
}

/** An accordion's or a view's id: Mintlify's generateComponentId, numbered from -1 when repeated. */
const componentId = (title: string, count: number) => {
  const base = slugify(title.replace(':', '-'), { decamelize: false })
  return count > 0 ? `${base}-${count}` : base
}

/** `## Title {#custom-id}` (outside code): Mintlify turns it into a heading with that id before parsing. */
const CUSTOM_HEADING_ID = /^( {0,3})(#{1,6})\s+(.+?)\s*\{\s*#([^}]+?)\s*\}\s*$/

/** The page with its custom heading ids taken out (as Mintlify's preprocessing does), and those ids. */
function customHeadingIds(text: string): { text: string; ids: string[] } {
  const ids: string[] = []
  let fence: string | null = null
  const lines = text.split('\n').map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)
    if (fence !== null) {
      if (opening && opening[1]![0] === fence[0] && opening[1]!.length >= fence.length) fence = null
      return line
    }
    if (opening) {
      fence = opening[1]!
      return line
    }
    const heading = CUSTOM_HEADING_ID.exec(line)
    if (!heading) return line
    ids.push(
      heading[4]!
        .trim()
        .replace(/[<>"&?,;:!'()[\]{}]/g, '')
        .replace(EMOJI, '')
        .replace(/\s+/g, '-'),
    )
    return `${heading[1]}${heading[2]} ${heading[3]}`
  })
  return { text: ids.length ? lines.join('\n') : text, ids }
}

interface ParsedPage {
  apiPage: boolean
  anchors: Set<string>
  links: PageLink[]
  problems: { line: number; message: string }[]
}

function parsePage(file: string, original: string): ParsedPage {
  const problems: ParsedPage['problems'] = []
  const { text, ids: customIds } = customHeadingIds(original)
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
    problems.push({ line, message: `is not valid MDX: ${reason} (Mintlify cannot build this page)` })
    // Its links are still worth checking: read as plain Markdown.
    tree = fromMarkdown(text, markdown)
  }
  const headings = slugifyWithCounter()
  const tabs = slugifyWithCounter()
  const counts = new Map<string, number>()
  const counted = (title: string) => {
    const base = componentId(title, 0)
    const count = counts.get(base) ?? 0
    counts.set(base, count + 1)
    return componentId(title, count)
  }
  const anchors = new Set<string>(customIds)
  const links: PageLink[] = []
  const addLink = (target: unknown, node: Nodes, image: boolean) => {
    if (typeof target !== 'string' || !target.trim()) return
    // Links out of the site are not followed: only those resolveLink keeps are kept.
    if (resolveLink(target.trim(), file) === null) return
    links.push({ target: target.trim(), line: node.position?.start.line ?? 1, image })
  }
  let apiPage = false
  const visit = (node: Nodes) => {
    switch (node.type) {
      case 'yaml':
        apiPage = /^(openapi|openapi-schema|asyncapi)\s*:/m.test(node.value)
        break
      case 'heading':
        // Mintlify gives ids to headings of levels 1 to 4 only.
        if (node.depth <= 4) anchors.add(headingId(textOf(node), headings))
        break
      case 'html':
        for (const match of node.value.matchAll(/\bid=["']([^"']+)["']/g)) anchors.add(cleanId(match[1]!))
        break
      case 'link':
      case 'definition':
        addLink(node.url, node, false)
        break
      case 'image':
        addLink(node.url, node, true)
        break
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement': {
        const attribute = (name: string) => {
          const found = node.attributes.find((entry) => entry.type === 'mdxJsxAttribute' && entry.name === name)
          return found && typeof found.value === 'string' ? found.value : undefined
        }
        const id = attribute('id')
        const title = attribute('title')
        if (id) anchors.add(cleanId(id))
        else if (title && node.name === 'Tab') anchors.add(headingId(title, tabs))
        else if (title && (node.name === 'Accordion' || node.name === 'View')) anchors.add(counted(title))
        else if (title && node.name === 'Step') anchors.add(headingId(title, headings))
        else if (node.name === 'Update' && attribute('label')) anchors.add(headingId(attribute('label')!, headings))
        else if (node.name === 'ParamField' || node.name === 'ResponseField') {
          const name = attribute('query') ?? attribute('path') ?? attribute('body') ?? attribute('header') ?? attribute('name')
          if (name) for (const prefix of ['param', 'response']) anchors.add(slugify(`${prefix}-${name}`, { decamelize: true }))
        }
        if (/^h[1-4]$/.test(node.name ?? '') && !id) anchors.add(headingId(textOf(node), headings))
        const href = attribute('href')
        if (href) addLink(href, node, false)
        const src = attribute('src')
        if (src && /^(img|Frame|image)$/i.test(node.name ?? '')) addLink(src, node, true)
        break
      }
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes)
  }
  visit(tree)
  return { apiPage, anchors, links, problems }
}

function textOf(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string' && node.type !== 'yaml') return node.value
  return 'children' in node ? node.children.map((child) => textOf(child as Nodes)).join('') : ''
}

async function mapLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!)
    }),
  )
}

export interface PageReadLimits {
  /** At most this many pages are read (MAX_PAGES_CHECKED unless a test says fewer). */
  maxPages?: number
}

/**
 * Reads and parses the pages of an indexed docs folder (the first MAX_PAGES_CHECKED of them): what
 * each holds for the checks (site-pages.ts judges them), and what is wrong with every local file a
 * link or an image points at. Anchors are kept only for the pages a link names with one.
 */
export async function readPageFacts(index: DocsIndex, limits: PageReadLimits = {}): Promise<PageFacts> {
  const chosen = index.pages.slice(0, limits.maxPages ?? MAX_PAGES_CHECKED)
  const facts = new Map<string, PageFact>()
  await mapLimited(chosen, READS_AT_ONCE, async (page) => {
    const fact: PageFact = { path: page.path, file: page.file, anchors: [], links: [], problems: [] }
    if (page.frontMatterError) fact.problems.push(page.frontMatterError)
    try {
      const text = (await readRegularFile(join(index.root, page.file), MAX_PAGE_BYTES)).bytes.toString('utf8')
      const parsed = parsePage(page.file, text)
      fact.anchors = [...parsed.anchors]
      fact.links = parsed.links
      fact.problems.push(...parsed.problems)
      if (parsed.apiPage) fact.apiPage = true
    } catch (error) {
      fact.problems.push({ line: 1, message: `cannot be read: ${messageOf(error)}` })
    }
    facts.set(page.path, fact)
  })
  const pages = chosen.map((page) => facts.get(page.path)!)
  const files = new Set(index.files)
  const checked: Record<string, string | null> = {}
  const linkedWithAnchor = new Set<string>()
  for (const page of pages) {
    for (const link of page.links) {
      const target = resolveLink(link.target, page.file)
      if (!target) continue
      if (target.anchor) linkedWithAnchor.add(target.path === '' ? page.path : pageKey(target.path))
      if (target.path === '' || !isFileLink(target.path, link.image)) continue
      const key = linkedFileKey(target.path, link.image)
      if (key in checked) continue
      checked[key] = await fileProblem(index.root, target.path, link.image, files)
    }
  }
  for (const page of pages)
    if (!linkedWithAnchor.has(page.path) && !linkedWithAnchor.has(page.path.replace(/\/index$/, ''))) page.anchors = []
  return { pages, total: index.pages.length, files: checked }
}

/** Why a local file a page points at is wrong, or null. */
async function fileProblem(root: string, path: string, image: boolean, files: ReadonlySet<string>): Promise<string | null> {
  if (image) {
    const check = await checkImageFile(root, path)
    if (check.state === 'missing') return 'is not in the docs folder'
    if (check.state === 'not-an-image') return 'is not an image (no PNG, JPEG, GIF, WebP, AVIF, ICO or SVG picture in it)'
    return check.state === 'unreadable' ? 'cannot be read' : null
  }
  return files.has(path) || (await fileExists(join(root, path))) ? null : 'is not in the docs folder'
}

/** Reads the pages and judges them against the folder's pages: what readPageFacts and pageProblems say together. */
export async function checkPages(index: DocsIndex, config: unknown): Promise<PageProblem[]> {
  return pageProblems(config, index, await readPageFacts(index), sitePages(config, index, []))
}
