import { join } from 'node:path'
import slugify, { slugifyWithCounter } from '@sindresorhus/slugify'
import type { Nodes, Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { mdxFromMarkdown } from 'mdast-util-mdx'
import { frontmatter } from 'micromark-extension-frontmatter'
import { gfm } from 'micromark-extension-gfm'
import { mdxjs } from 'micromark-extension-mdxjs'
import { messageOf } from '../../src-shared/ipc/error-message'
import { AppErrorException } from '../../src-shared/ipc/result'
import { type DocsIndex, pageKey } from '../../src-shared/site-config/docs-files'
import { normalizeRefPath } from '../../src-shared/site-config/refs'
import {
  isFileLink,
  linkedFileKey,
  MAX_PAGES_CHECKED,
  type PageFact,
  type PageFacts,
  type PageLink,
  type PageProblem,
  pageProblems,
  resolveLink,
  sitePages,
} from '../../src-shared/site-config/site-pages'
import { firstInvalidUtf8, lineAt } from '../../src-shared/text/utf8'
import { fileExists, megabytes, notUtf8Sentence, readRegularFile, realPathInside } from '../user-files/file-access'
import { checkImageFile } from './docs-folder'

// What is inside the pages: MDX that does not parse, front matter that does not, every heading's
// anchor as Mintlify renders it, and every in-page link and image. Pages are parsed with
// micromark and mdast (the parser MDX itself is built on, with its MDX, GFM and front matter
// extensions), never evaluated. What the links lead to is judged in src-shared
// (site-pages.ts), against every page the site will have.

export type { PageProblem }

/**
 * A page is Markdown or MDX of a few kB (a long generated reference, a few hundred). Parsing costs
 * about a second of CPU per 200 kB, so a larger file is named as too large rather than parsed.
 */
export const MAX_PAGE_BYTES = 500_000
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
      // A closing fence is the opening's character, at least as long, and nothing after it but spaces
      // (CommonMark): "```shell" inside a block is a line of its code.
      if (opening && opening[1]![0] === fence[0] && opening[1]!.length >= fence.length && !line.slice(opening[0].length).trim())
        fence = null
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
  /** The Markdown snippets the page imports (`import Part from "/snippets/part.mdx"`), as written. */
  imports: string[]
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
  const imports: string[] = []
  const visit = (node: Nodes) => {
    switch (node.type) {
      case 'mdxjsEsm':
        for (const match of node.value.matchAll(/\bfrom\s*["']([^"']+\.mdx?)["']/g)) imports.push(match[1]!)
        break
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
  return { apiPage, anchors, links, problems, imports }
}

function textOf(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string' && node.type !== 'yaml') return node.value
  return 'children' in node ? node.children.map((child) => textOf(child as Nodes)).join('') : ''
}

/**
 * A page's text, or why it is not checked: a file too large to be a page, or one that is not text
 * (NUL bytes, as binary files hold, or bytes that are not UTF-8: the rule the app opens files by),
 * is said at once, never handed to the parser. Read only inside the docs folder, never through a link.
 */
async function readPage(root: string, file: string): Promise<string | { line: number; message: string }> {
  let bytes: Buffer
  try {
    bytes = (await readRegularFile(await realPathInside(root, join(root, file)), MAX_PAGE_BYTES, { kind: 'a page' })).bytes
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
  const imports = new Map<string, string[]>()
  await mapLimited(chosen, READS_AT_ONCE, async (page) => {
    const fact: PageFact = { path: page.path, file: page.file, anchors: [], links: [], problems: [] }
    if (page.frontMatterError) fact.problems.push(page.frontMatterError)
    const read = await readPage(index.root, page.file)
    if (typeof read === 'string') {
      const parsed = parsePage(page.file, read)
      fact.anchors = [...parsed.anchors]
      fact.links = parsed.links
      fact.problems.push(...parsed.problems)
      if (parsed.apiPage) fact.apiPage = true
      if (parsed.imports.length) imports.set(page.path, parsed.imports)
    } else {
      fact.problems.push(read)
      fact.unread = true
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
  const snippets = new Map<string, Promise<string[]>>()
  for (const page of pages) {
    if (!linkedWithAnchor.has(page.path) && !linkedWithAnchor.has(page.path.replace(/\/index$/, ''))) page.anchors = []
    else if (imports.has(page.path))
      page.anchors = [...new Set([...page.anchors, ...(await snippetAnchors(index.root, page.file, imports.get(page.path)!, snippets))])]
  }
  return { pages, total: index.pages.length, files: checked }
}

/** How deep snippets that import snippets are followed. */
const MAX_SNIPPET_DEPTH = 5

/**
 * The anchors a page's imported snippets render into it (Mintlify inlines an imported snippet
 * where its component is used: its headings and fields are the page's). A path with a leading
 * slash is from the docs folder, another from the importing file's folder; a snippet that cannot
 * be read adds nothing, nor does one that imports a snippet it is imported by. Each snippet is
 * read once per folder (`known`).
 */
async function snippetAnchors(
  root: string,
  fromFile: string,
  sources: readonly string[],
  known: Map<string, Promise<string[]>>,
  chain: readonly string[] = [],
): Promise<string[]> {
  if (chain.length >= MAX_SNIPPET_DEPTH) return []
  const folder = fromFile.includes('/') ? fromFile.slice(0, fromFile.lastIndexOf('/')) : ''
  const found: string[] = []
  for (const source of sources) {
    const file = normalizeRefPath(source.startsWith('/') ? source : `${folder}/${source}`).replace(/^\/+/, '')
    if (file.startsWith('../') || chain.includes(file)) continue
    let anchors = known.get(file)
    if (!anchors) {
      anchors = readPage(root, file).then((text) => {
        if (typeof text !== 'string') return []
        const parsed = parsePage(file, text)
        return snippetAnchors(root, file, parsed.imports, known, [...chain, file]).then((nested) => [...parsed.anchors, ...nested])
      })
      known.set(file, anchors)
    }
    found.push(...(await anchors))
  }
  return found
}

/** Why a local file a page points at is wrong, or null. */
async function fileProblem(root: string, path: string, image: boolean, files: ReadonlySet<string>): Promise<string | null> {
  if (image) {
    const check = await checkImageFile(root, path)
    if (check.state === 'missing') return 'is not in the docs folder'
    if (check.state === 'not-an-image') return 'is not an image (no PNG, JPEG, GIF, WebP, AVIF, ICO or SVG picture in it)'
    return check.state === 'unreadable' ? 'cannot be read' : null
  }
  if (files.has(path)) return null
  // Only inside the folder: a link out of it is as good as no file.
  const inside = await realPathInside(root, join(root, path)).catch(() => null)
  return inside !== null && (await fileExists(inside)) ? null : 'is not in the docs folder'
}

/** Reads the pages and judges them against the folder's pages: what readPageFacts and pageProblems say together. */
export async function checkPages(index: DocsIndex, config: unknown): Promise<PageProblem[]> {
  return pageProblems(config, index, await readPageFacts(index), sitePages(config, index, []))
}
