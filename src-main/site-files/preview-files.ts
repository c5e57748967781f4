import { randomBytes } from 'node:crypto'
import { realpath } from 'node:fs/promises'
import { extname, isAbsolute, resolve } from 'node:path'
import { parseDocument } from 'yaml'
import { PREVIEW_FILES_PREFIX } from '../../src-shared/ipc/preview'
import { AppErrorException } from '../../src-shared/ipc/result'
import { docsRelative } from '../../src-shared/site-config/docs-files'
import {
  operationSummaries,
  type OperationSummary,
  type OperationView,
  operationView,
} from '../../src-shared/site-config/openapi-operation'
import { type FileAccessPolicy, isInside, readRegularFile } from '../user-files/file-access'
import { createWebPictures, type WebPictures } from './web-pictures'

// The site preview's reads: page and snippet text for the renderer (through IPC), and the folder's
// images for the preview's frame (through a read-only route both transports serve). Every read
// goes through the same guard as every other file the editor opens (FileAccessPolicy: never the
// data folder, links resolved) and must land inside the docs folder once links are resolved.
// Pictures from the web come through the same route (`…/<token>/?web=<url>`, so the frame's
// policy stays the folder's alone), fetched by main, for a token given with the operator's leave.

const MAX_PAGE_BYTES = 2_000_000
const MAX_ASSET_BYTES = 20_000_000
const MAX_OPENAPI_BYTES = 20_000_000

/** What the frame may load from the folder: pictures and videos, nothing a browser would run. */
const ASSET_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
}

/**
 * An asset's own answer is inert even when opened by itself: an SVG's scripts never run (sandbox),
 * it loads nothing (default-src 'none'), and any origin's page may show it as an image (the frame
 * has no origin of its own), though none can find it without the folder's random token.
 */
export const PREVIEW_ASSET_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Cache-Control': 'no-cache',
}

export interface PreviewAnswer {
  status: number
  headers: Record<string, string>
  body: Buffer
}

export interface PreviewFiles {
  /**
   * The URL path prefix under which the frame finds `root`'s files for a document: a random token
   * per document, folder and leave, for this run of the app. `web`: the operator allowed pictures
   * from the web for this document, which the route then fetches (never from a private address).
   */
  grant(documentId: string, root: string, web: boolean): string
  /** Whether a token was granted (the frame's page names its folder's token). */
  known(token: string): boolean
  /** A page or snippet's text (.md, .mdx), read from inside `root`. */
  readText(root: string, file: string): Promise<string>
  /** An OpenAPI file's operations, and one of them in full when named. */
  openApi(
    root: string,
    file: string,
    operation?: string,
  ): Promise<{ title: string | null; operations: OperationSummary[]; detail: OperationView | null }>
  /** The answer to GET `/preview-files/<token>/<path>` (or `/preview-files/<token>/?web=<url>`), for either transport. */
  respond(urlPath: string): Promise<PreviewAnswer>
}

export interface PreviewFilesOptions {
  /** Where pictures from the web come from (tests give one with their own resolver). */
  webPictures?: WebPictures
}

interface Grant {
  root: string
  web: boolean
}

const notFound = (message: string): PreviewAnswer => ({
  status: 404,
  headers: { ...PREVIEW_ASSET_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
  body: Buffer.from(message),
})

export function createPreviewFiles(policy: FileAccessPolicy, options: PreviewFilesOptions = {}): PreviewFiles {
  const tokens = new Map<string, Grant>()
  const byGrant = new Map<string, string>()
  let webPictures = options.webPictures ?? null
  const specs = new Map<string, { version: string; api: unknown }>()

  /** The real path of `file` inside `root`, refused when it leaves the folder (by `..`, an absolute path or a link). */
  const inside = async (root: string, file: string): Promise<string> => {
    const relative = docsRelative(file)
    if (relative.includes('\0') || isAbsolute(relative)) throw new AppErrorException('refused', `${file} is not a file of the docs folder.`)
    const path = resolve(root, relative)
    if (!isInside(path, root)) throw new AppErrorException('refused', `${file} is outside the docs folder.`)
    const [real, realRoot] = await Promise.all([
      policy.resolve(path),
      // The folder itself may be gone (moved or deleted since the document was opened): said, not an internal error.
      realpath(root).catch(() => {
        throw new AppErrorException('not_found', `The docs folder ${root} is no longer there: the preview cannot read ${file}.`)
      }),
    ])
    if (!isInside(real, realRoot)) throw new AppErrorException('refused', `${file} leads outside the docs folder.`)
    return real
  }

  const readSpec = async (root: string, file: string): Promise<unknown> => {
    const { bytes, info } = await readRegularFile(await inside(root, file), MAX_OPENAPI_BYTES)
    const key = `${root}\0${file}`
    const version = `${info.mtimeMs}:${bytes.length}`
    const cached = specs.get(key)
    if (cached?.version === version) return cached.api
    const document = parseDocument(bytes.toString('utf8'), { uniqueKeys: false })
    if (document.errors.length) throw new AppErrorException('invalid_input', `${file} is not valid JSON or YAML.`)
    const api: unknown = document.toJS({ maxAliasCount: 100 })
    specs.set(key, { version, api })
    return api
  }

  return {
    grant(documentId, root, web) {
      const key = `${documentId}\0${root}\0${web}`
      let token = byGrant.get(key)
      if (!token) {
        token = randomBytes(18).toString('base64url')
        tokens.set(token, { root, web })
        byGrant.set(key, token)
      }
      return `${PREVIEW_FILES_PREFIX}${token}/`
    },
    known: (token) => tokens.has(token),
    async readText(root, file) {
      if (!/\.mdx?$/i.test(file)) throw new AppErrorException('refused', `${file} is not a page or a snippet (.md, .mdx).`)
      const { bytes } = await readRegularFile(await inside(root, file), MAX_PAGE_BYTES)
      return bytes.toString('utf8')
    },
    async openApi(root, file, operation) {
      const api = await readSpec(root, file)
      const info = typeof api === 'object' && api !== null ? (api as { info?: { title?: unknown } }).info : undefined
      return {
        title: typeof info?.title === 'string' ? info.title : null,
        operations: operationSummaries(api).slice(0, 2000),
        detail: operation ? operationView(api, operation) : null,
      }
    },
    async respond(urlPath) {
      const [path = '', query = ''] = urlPath.split('?', 2)
      const match = /^\/preview-files\/([\w-]{24})\/(.*)$/.exec(path)
      const grant = match ? tokens.get(match[1]!) : undefined
      if (!match || !grant) return notFound('No such preview.')
      if (!match[2]) {
        const web = new URLSearchParams(query).get('web')
        if (!web || !grant.web) return notFound('Pictures from the web are shown only once allowed for the document.')
        webPictures ??= createWebPictures()
        const picture = await webPictures.fetch(web)
        if (!picture.contentType) return notFound('Not a picture the preview may show.')
        return {
          status: 200,
          headers: { ...PREVIEW_ASSET_HEADERS, 'Content-Type': picture.contentType, 'Cache-Control': 'private, max-age=600' },
          body: picture.body,
        }
      }
      const root = grant.root
      let file: string
      try {
        file = decodeURIComponent(match[2]!)
      } catch {
        return notFound('Not a file name.')
      }
      const contentType = ASSET_TYPES[extname(file).toLowerCase()]
      if (!contentType) return notFound('The preview shows only pictures and videos from the folder.')
      try {
        const { bytes } = await readRegularFile(await inside(root, file), MAX_ASSET_BYTES)
        return { status: 200, headers: { ...PREVIEW_ASSET_HEADERS, 'Content-Type': contentType }, body: bytes }
      } catch {
        return notFound('Not in the docs folder.')
      }
    },
  }
}
