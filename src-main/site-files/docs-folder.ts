import { open } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { validate as validateOpenApi } from '@readme/openapi-parser'
import ignore from 'ignore'
import { imageSize } from 'image-size'
import { load as loadYaml } from 'js-yaml'
import { glob } from 'tinyglobby'
import { parseDocument } from 'yaml'
import { messageOf } from '../../src-shared/ipc/error-message'
import { AppErrorException } from '../../src-shared/ipc/result'
import {
  type DocsIndex,
  type DocsPage,
  docsRelative,
  type ImageCheck,
  type OpenApiCheck,
  pageKey,
} from '../../src-shared/site-config/docs-files'
import { decodeUtf8, isInside, readRegularFile, realPathInside } from '../user-files/file-access'

// The docs folder: its pages and files, found with tinyglobby (fdir and picomatch, what Vite
// uses; links are not followed), page titles read from front matter with yaml, and OpenAPI files
// validated with @readme/openapi-parser (Swagger 2 and OpenAPI 3.0/3.1, ReadMe's maintained fork
// of swagger-parser), never following a $ref to another file or a URL.

/** More than any docs site holds (the largest real one: 23,000 pages); a folder picked by mistake (a home folder) stops here. */
export const MAX_INDEXED_FILES = 50_000
/** What all the front matter read for titles may add up to; past it, pages are listed without one. */
export const MAX_TITLE_BYTES = 64 * 1024 * 1024
const PAGE_GLOB = '**/*.{md,mdx}'
const FILE_GLOB = '**/*.{svg,png,jpg,jpeg,gif,webp,ico,avif,json,yaml,yml}'
/** Folders Mintlify never publishes (its default ignore list): not even looked into. */
const IGNORED = [
  '.git',
  '.github',
  '.claude',
  '.agents',
  '.idea',
  '.vscode',
  'node_modules',
  'build',
  'dist',
  'coverage',
  '.cache',
  'tmp',
  'temp',
].map((folder) => `**/${folder}/**`)
/** Files Mintlify never publishes, wherever they are. */
const NEVER_PAGES = ['README.md', 'LICENSE.md', 'CHANGELOG.md', 'CONTRIBUTING.md']
/** Front matter sits at the top: a title is never further than this. */
const FRONT_MATTER_BYTES = 16 * 1024
/** Most front matter ends within this: read first, and the rest only when it does not. */
const FIRST_READ_BYTES = 2 * 1024
const PROGRESS_EVERY = 1000

export interface IndexLimits {
  maxFiles?: number
  maxTitleBytes?: number
  /** Told every thousand pages read, and at the end. */
  onProgress?: (progress: { done: number; total: number }) => void
}
const MAX_OPENAPI_BYTES = 20_000_000
const MAX_IMAGE_BYTES = 20_000_000
const TITLE_READS_AT_ONCE = 16

const toSlashes = (path: string) => path.split(sep).join('/')

/**
 * The files of a docs folder, the app's data folder left out if it lies inside: at most
 * `maxFiles` of them (the index says how many there were), and at most `maxTitleBytes` of front
 * matter read for the pages' titles.
 */
export async function indexDocsFolder(root: string, dataDir: string | null, limits: IndexLimits = {}): Promise<DocsIndex> {
  const maxFiles = limits.maxFiles ?? MAX_INDEXED_FILES
  let titleBudget = limits.maxTitleBytes ?? MAX_TITLE_BYTES
  const ignore = [...IGNORED]
  if (dataDir && isInside(dataDir, root) && dataDir !== root) ignore.push(`${toSlashes(relative(root, dataDir))}/**`)
  const options = {
    cwd: root,
    ignore,
    dot: false,
    followSymbolicLinks: false,
    caseSensitiveMatch: false,
    expandDirectories: false,
  } as const
  const [pageFiles, otherFiles, notPage] = await Promise.all([glob(PAGE_GLOB, options), glob(FILE_GLOB, options), notPageRule(root)]).catch(
    (error: unknown) => {
      throw new AppErrorException('file_io', `The docs folder ${root} could not be read: ${(error as Error).message}`, { root })
    },
  )
  const totalFiles = pageFiles.length + otherFiles.length
  const truncated = totalFiles > maxFiles
  const sortedPages = pageFiles.sort().slice(0, maxFiles)
  const excluded: NonNullable<DocsIndex['excluded']> = []
  const published = sortedPages.filter((file) => {
    const reason = notPage(file)
    if (reason) excluded.push({ path: pageKey(file), file, reason })
    return reason === null
  })
  let done = 0
  const pages = await mapLimited(published, TITLE_READS_AT_ONCE, async (file): Promise<DocsPage> => {
    const read = titleBudget > 0 ? await frontMatterOf(join(root, file)) : { title: null, bytes: 0 }
    titleBudget -= read.bytes
    if (++done % PROGRESS_EVERY === 0) limits.onProgress?.({ done, total: published.length })
    const { bytes: _bytes, ...frontMatter } = read
    return { path: pageKey(file), file, ...frontMatter }
  })
  limits.onProgress?.({ done, total: published.length })
  return { root, pages, files: otherFiles.sort().slice(0, Math.max(0, maxFiles - sortedPages.length)), truncated, totalFiles, excluded }
}

/**
 * Why a Markdown file of the folder is not a page, or null when it is one: files in snippets/ are
 * snippets, README.md and its like are never published, and .mintignore (gitignore syntax,
 * read with the `ignore` package, as git reads it) excludes what it names.
 */
async function notPageRule(root: string): Promise<(file: string) => string | null> {
  let rules: ReturnType<typeof ignore> | null = null
  try {
    const path = await realPathInside(root, join(root, '.mintignore'))
    rules = ignore().add((await readRegularFile(path, 1_000_000, { kind: 'a .mintignore file' })).bytes.toString('utf8'))
  } catch {
    // No .mintignore (or one that cannot be read): nothing more is excluded.
  }
  const neverPages = new Set(NEVER_PAGES.map((name) => name.toLowerCase()))
  return (file) => {
    if (file.split('/')[0]?.toLowerCase() === 'snippets') return 'files in snippets/ are snippets, never pages'
    if (neverPages.has(file.split('/').at(-1)!.toLowerCase())) return `Mintlify never publishes ${file.split('/').at(-1)}`
    if (rules?.ignores(file)) return '.mintignore excludes it'
    return null
  }
}

async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

/**
 * The title a page shows in the sidebar (its front matter's sidebarTitle, else its title), what is
 * wrong with its front matter, and how many bytes were read for it. The first 2 kB hold most
 * front matter; the rest of the 16 kB is read only when they do not.
 */
export async function frontMatterOf(path: string): Promise<Pick<DocsPage, 'title' | 'frontMatterError'> & { bytes: number }> {
  let head: string
  let bytes = 0
  try {
    const handle = await open(path, 'r')
    try {
      const first = Buffer.allocUnsafe(FIRST_READ_BYTES)
      const { bytesRead } = await handle.read(first, 0, first.length, 0)
      bytes = bytesRead
      head = first.subarray(0, bytesRead).toString('utf8')
      const opened = /^\uFEFF?---[ \t]*\r?\n/.exec(head)
      if (bytesRead === FIRST_READ_BYTES && opened && !/\r?\n---[ \t]*(?:\r?\n|$)/.test(head.slice(opened[0].length - 1))) {
        const whole = Buffer.allocUnsafe(FRONT_MATTER_BYTES)
        const more = await handle.read(whole, 0, whole.length, 0)
        bytes = more.bytesRead
        head = whole.subarray(0, more.bytesRead).toString('utf8')
      }
    } finally {
      await handle.close()
    }
  } catch {
    return { title: null, bytes }
  }
  return { ...readFrontMatter(head), bytes }
}

export const titleFromFrontMatter = (text: string): string | null => readFrontMatter(text).title

/**
 * A page's front matter, the YAML between `---` lines at its top, read as Mintlify reads it (its
 * front-matter package, on js-yaml: a quoted string may run over several lines). A block that is
 * opened and never closed, YAML that does not parse, or YAML that is not a mapping is an error with
 * its line in the page file; Mintlify cannot read such a page's title, description or settings.
 */
export function readFrontMatter(text: string): Pick<DocsPage, 'title' | 'frontMatterError'> {
  const opening = /^\uFEFF?---[ \t]*\r?\n/.exec(text)
  if (!opening) return { title: null }
  const rest = text.slice(opening[0].length)
  const closing = /(^|\r?\n)---[ \t]*(?:\r?\n|$)/.exec(rest)
  if (!closing) return { title: null, frontMatterError: { line: 1, message: 'opens its front matter with --- but never closes it' } }
  const yaml = rest.slice(0, closing.index)
  let data: unknown
  try {
    data = loadYaml(yaml)
  } catch (error) {
    const found = error as { reason?: string; mark?: { line?: number } }
    // js-yaml gives the verdict; `yaml` often points nearer the cause (where a list opened, not where the text ended).
    const nearer = parseDocument(yaml, { uniqueKeys: true }).errors[0]?.linePos?.[0]?.line
    const line = nearer ?? (found.mark?.line ?? 0) + 1
    return {
      title: null,
      frontMatterError: { line: line + 1, message: `front matter is not valid YAML: ${found.reason ?? messageOf(error)}` },
    }
  }
  if (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data)))
    return { title: null, frontMatterError: { line: 2, message: 'front matter must be key: value pairs' } }
  const { sidebarTitle, title } = (data ?? {}) as { sidebarTitle?: unknown; title?: unknown }
  const chosen = typeof sidebarTitle === 'string' && sidebarTitle.trim() ? sidebarTitle : title
  return { title: typeof chosen === 'string' && chosen.trim() ? chosen.trim() : null }
}

/**
 * Parses and validates one OpenAPI file of the docs folder. Only files inside the folder are
 * read (`../` out of it is refused), and references to other files or URLs are not followed, so
 * a crafted file cannot make main read or fetch anything else.
 */
export async function checkOpenApiFile(root: string, reference: string): Promise<OpenApiCheck> {
  const result = (
    state: OpenApiCheck['state'],
    problems: string[],
    info: { title?: unknown; version?: unknown } = {},
    operations?: string[],
  ): OpenApiCheck => ({
    file: reference,
    state,
    problems: problems.slice(0, 5),
    title: typeof info.title === 'string' ? info.title : null,
    version: typeof info.version === 'string' ? info.version : null,
    ...(operations ? { operations } : {}),
  })
  const relativePath = docsRelative(reference)
  const path = resolve(root, relativePath)
  if (isAbsolute(relativePath) || !isInside(path, root)) return result('unreadable', ['it points outside the docs folder'])
  let text: string
  try {
    const read = await readRegularFile(await realPathInside(root, path), MAX_OPENAPI_BYTES, { kind: 'an OpenAPI file' })
    text = decodeUtf8(read.bytes, path)
  } catch (error) {
    if (error instanceof AppErrorException && error.code === 'not_found') return result('missing', [])
    return result('unreadable', [messageOf(error)])
  }
  // YAML reads JSON too; a document with errors is reported as such rather than guessed at.
  const document = parseDocument(text, { uniqueKeys: false })
  if (document.errors.length)
    return result(
      'invalid',
      document.errors.map((error) => `line ${error.linePos?.[0]?.line ?? '?'}: ${error.message.split('\n')[0]}`),
    )
  const api: unknown = document.toJS({ maxAliasCount: 100 })
  if (typeof api !== 'object' || api === null || Array.isArray(api)) return result('invalid', ['it does not hold an object'])
  const info = (api as { info?: { title?: unknown; version?: unknown } }).info ?? {}
  try {
    const validation = await validateOpenApi(structuredClone(api) as never, {
      resolve: { external: false, file: false },
      dereference: { circular: 'ignore' },
      timeoutMs: 10_000,
    })
    if (validation.valid) return { ...result('valid', [], info, operationsOf(api)), endpoints: endpointsOf(api) }
    return result(
      'invalid',
      validation.errors.map((error) => firstLine(error.message)),
      info,
    )
  } catch (error) {
    return result('invalid', [firstLine(messageOf(error))], info)
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** Each operation with what names the page Mintlify generates for it: its summary, first tag and x-mint.href; x-excluded ones left out. */
function endpointsOf(api: object): NonNullable<OpenApiCheck['endpoints']> {
  const endpoints: NonNullable<OpenApiCheck['endpoints']> = []
  const { paths, webhooks } = api as { paths?: unknown; webhooks?: unknown }
  const text = (value: unknown) => (typeof value === 'string' ? value : null)
  const collect = (items: unknown, name: (method: string, key: string) => string) => {
    if (typeof items !== 'object' || items === null) return
    for (const [key, item] of Object.entries(items)) {
      if (typeof item !== 'object' || item === null) continue
      for (const method of METHODS) {
        const operation = (item as Record<string, unknown>)[method] as Record<string, unknown> | undefined
        if (typeof operation !== 'object' || operation === null || operation['x-excluded']) continue
        const tags = Array.isArray(operation.tags) ? operation.tags : []
        const xMint = operation['x-mint'] as { href?: unknown } | undefined
        endpoints.push({ operation: name(method, key), summary: text(operation.summary), tag: text(tags[0]), href: text(xMint?.href) })
      }
    }
  }
  collect(paths, (method, path) => `${method.toUpperCase()} ${path}`)
  collect(webhooks, (_method, name) => `WEBHOOK ${name}`)
  return endpoints
}

/** An OpenAPI document's operations as navigation names them: "GET /users", and its webhooks as "WEBHOOK name". */
function operationsOf(api: object): string[] {
  const operations: string[] = []
  const { paths, webhooks } = api as { paths?: unknown; webhooks?: unknown }
  const collect = (items: unknown, name: (method: string, key: string) => string) => {
    if (typeof items !== 'object' || items === null) return
    for (const [key, item] of Object.entries(items)) {
      if (typeof item !== 'object' || item === null) continue
      for (const method of METHODS) if (method in item) operations.push(name(method, key))
    }
  }
  collect(paths, (method, path) => `${method.toUpperCase()} ${path}`)
  collect(webhooks, (_method, name) => `WEBHOOK ${name}`)
  return [...new Set(operations)]
}

/** What an image the site names is, from its first bytes (image-size reads PNG, JPEG, GIF, WebP, AVIF, ICO, SVG and more). */
export async function checkImageFile(root: string, reference: string): Promise<ImageCheck> {
  const relativePath = docsRelative(reference)
  const path = resolve(root, relativePath)
  if (isAbsolute(relativePath) || !isInside(path, root)) return { file: reference, state: 'unreadable', type: null }
  let bytes: Buffer
  try {
    bytes = (await readRegularFile(await realPathInside(root, path), MAX_IMAGE_BYTES, { kind: 'an image' })).bytes
  } catch (error) {
    return {
      file: reference,
      state: error instanceof AppErrorException && error.code === 'not_found' ? 'missing' : 'unreadable',
      type: null,
    }
  }
  if (bytes.length === 0) return { file: reference, state: 'not-an-image', type: null }
  try {
    return { file: reference, state: 'image', type: imageSize(bytes).type ?? null }
  } catch (error) {
    // image-size knows the format but not the size (an SVG sized by CSS): still a picture.
    return /unsupported file type/i.test((error as Error).message)
      ? { file: reference, state: 'not-an-image', type: null }
      : { file: reference, state: 'image', type: null }
  }
}

const firstLine = (message: string) =>
  message
    .split('\n')
    .find((line) => line.trim())
    ?.trim() ?? message
