import { open } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { validate as validateOpenApi } from '@readme/openapi-parser'
import { watch, type FSWatcher } from 'chokidar'
import { glob } from 'tinyglobby'
import { parse as parseYaml, parseDocument } from 'yaml'
import { AppErrorException } from '../../src-shared/ipc/result'
import { docsRelative, pageKey, type DocsIndex, type DocsPage, type OpenApiCheck } from '../../src-shared/site-config/docs-files'
import { isInside, readRegularFile } from './file-access'

// The docs folder: its pages and files, found with tinyglobby (fdir and picomatch, what Vite
// uses), watched with chokidar, page titles read from front matter with yaml, and OpenAPI files
// validated with @readme/openapi-parser (Swagger 2 and OpenAPI 3.0/3.1, ReadMe's maintained fork
// of swagger-parser), never following a $ref to another file or a URL.

/** More than any docs site holds; a folder picked by mistake (a home folder) stops here. */
export const MAX_INDEXED_FILES = 50_000
const PAGE_GLOB = '**/*.{md,mdx}'
const FILE_GLOB = '**/*.{svg,png,jpg,jpeg,gif,webp,ico,avif,json,yaml,yml}'
const IGNORED = ['**/node_modules/**', '**/.git/**']
/** Front matter sits at the top: a title is never further than this. */
const FRONT_MATTER_BYTES = 16 * 1024
const MAX_OPENAPI_BYTES = 20_000_000
const TITLE_READS_AT_ONCE = 16

const toSlashes = (path: string) => path.split(sep).join('/')

/** The files of a docs folder, the app's data folder left out if it lies inside. */
export async function indexDocsFolder(root: string, dataDir: string | null): Promise<DocsIndex> {
  const ignore = [...IGNORED]
  if (dataDir && isInside(dataDir, root) && dataDir !== root) ignore.push(`${toSlashes(relative(root, dataDir))}/**`)
  const options = { cwd: root, ignore, dot: false, followSymbolicLinks: false, caseSensitiveMatch: false, expandDirectories: false } as const
  const [pageFiles, otherFiles] = await Promise.all([glob(PAGE_GLOB, options), glob(FILE_GLOB, options)]).catch((error: unknown) => {
    throw new AppErrorException('file_io', `The docs folder ${root} could not be read: ${(error as Error).message}`, { root })
  })
  const truncated = pageFiles.length + otherFiles.length > MAX_INDEXED_FILES
  const sortedPages = pageFiles.sort().slice(0, MAX_INDEXED_FILES)
  const pages = await mapLimited(sortedPages, TITLE_READS_AT_ONCE, async (file): Promise<DocsPage> => ({
    path: pageKey(file),
    file,
    title: await frontMatterTitle(join(root, file)),
  }))
  return { root, pages, files: otherFiles.sort().slice(0, Math.max(0, MAX_INDEXED_FILES - pages.length)), truncated }
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

/** The title a page shows in the sidebar: its front matter's sidebarTitle, else its title; null when it has neither. */
export async function frontMatterTitle(path: string): Promise<string | null> {
  let head: string
  try {
    const handle = await open(path, 'r')
    try {
      const buffer = Buffer.alloc(FRONT_MATTER_BYTES)
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
      head = buffer.subarray(0, bytesRead).toString('utf8')
    } finally {
      await handle.close()
    }
  } catch {
    return null
  }
  return titleFromFrontMatter(head)
}

export function titleFromFrontMatter(text: string): string | null {
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text)
  if (!match) return null
  try {
    const data: unknown = parseYaml(match[1]!, { maxAliasCount: 10 })
    if (typeof data !== 'object' || data === null) return null
    const { sidebarTitle, title } = data as { sidebarTitle?: unknown; title?: unknown }
    const chosen = typeof sidebarTitle === 'string' && sidebarTitle.trim() ? sidebarTitle : title
    return typeof chosen === 'string' && chosen.trim() ? chosen.trim() : null
  } catch {
    return null
  }
}

/**
 * Parses and validates one OpenAPI file of the docs folder. Only files inside the folder are
 * read (`../` out of it is refused), and references to other files or URLs are not followed, so
 * a crafted file cannot make main read or fetch anything else.
 */
export async function checkOpenApiFile(root: string, reference: string): Promise<OpenApiCheck> {
  const result = (state: OpenApiCheck['state'], problems: string[], info: { title?: unknown; version?: unknown } = {}): OpenApiCheck => ({
    file: reference,
    state,
    problems: problems.slice(0, 5),
    title: typeof info.title === 'string' ? info.title : null,
    version: typeof info.version === 'string' ? info.version : null,
  })
  const relativePath = docsRelative(reference)
  const path = resolve(root, relativePath)
  if (isAbsolute(relativePath) || !isInside(path, root)) return result('unreadable', ['it points outside the docs folder'])
  let text: string
  try {
    text = (await readRegularFile(path, MAX_OPENAPI_BYTES)).bytes.toString('utf8')
  } catch (error) {
    if (error instanceof AppErrorException && error.code === 'not_found') return result('missing', [])
    return result('unreadable', [error instanceof Error ? error.message : String(error)])
  }
  // YAML reads JSON too; a document with errors is reported as such rather than guessed at.
  const document = parseDocument(text, { uniqueKeys: false })
  if (document.errors.length) return result('invalid', document.errors.map((error) => `line ${error.linePos?.[0]?.line ?? '?'}: ${error.message.split('\n')[0]}`))
  const api: unknown = document.toJS({ maxAliasCount: 100 })
  if (typeof api !== 'object' || api === null || Array.isArray(api)) return result('invalid', ['it does not hold an object'])
  const info = (api as { info?: { title?: unknown; version?: unknown } }).info ?? {}
  try {
    const validation = await validateOpenApi(structuredClone(api) as never, {
      resolve: { external: false, file: false },
      dereference: { circular: 'ignore' },
      timeoutMs: 10_000,
    })
    if (validation.valid) return result('valid', [], info)
    return result('invalid', validation.errors.map((error) => firstLine(error.message)), info)
  } catch (error) {
    return result('invalid', [firstLine(error instanceof Error ? error.message : String(error))], info)
  }
}

const firstLine = (message: string) => message.split('\n').find((line) => line.trim())?.trim() ?? message

/** The docs folder watched for pages and files coming, going or changing; `onChange` is called once per burst. */
export function watchDocsFolder(root: string, dataDir: string | null, onChange: () => void): FSWatcher {
  let timer: ReturnType<typeof setTimeout> | undefined
  const relevant = /\.(md|mdx|svg|png|jpe?g|gif|webp|ico|avif|json|ya?ml)$/i
  const watcher = watch(root, {
    ignoreInitial: true,
    persistent: false,
    depth: 12,
    ignored: (path: string) => /[\\/](node_modules|\.git)([\\/]|$)/.test(path) || (dataDir !== null && isInside(path, dataDir)),
  })
  watcher.on('all', (_event, path) => {
    if (!relevant.test(path)) return
    clearTimeout(timer)
    timer = setTimeout(onChange, 200)
  })
  // A folder that vanishes or cannot be watched leaves the index as it was; reindexing says why.
  watcher.on('error', () => {})
  return watcher
}
