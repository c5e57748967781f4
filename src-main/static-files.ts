import { readFile } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
}

/** The build writes `<file>.br` and `<file>.gz` beside these (see electron.vite.config.ts). */
export const PRECOMPRESSED = /\.(js|mjs|css|html|svg|json|ttf|map)$/

/**
 * Files the build names by their content (`assets/name-<hash>.ext`): a new build gives a new
 * name, so a browser may keep them for a year without asking again. index.html is revalidated.
 */
const HASHED_ASSET = /^assets\/.+-[\w-]{8}\.[a-z0-9]+$/i
export const IMMUTABLE = 'public, max-age=31536000, immutable'
export const REVALIDATE = 'no-cache'

export type ContentEncoding = 'br' | 'gzip'

export interface StaticFile {
  body: Buffer
  contentType: string
  /** Set when `body` is the precompressed copy: send it as Content-Encoding. */
  contentEncoding?: ContentEncoding
  cacheControl: string
  /** The answer depends on Accept-Encoding (a cache must key on it). */
  varies: boolean
}

/** The encodings an Accept-Encoding header allows, best first: brotli, then gzip. */
export function acceptedEncodings(header: string | undefined): ContentEncoding[] {
  const allowed = new Set(
    (header ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...params]) => !params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param)))
      .map(([name]) => name!.trim().toLowerCase()),
  )
  return (['br', 'gzip'] as const).filter((encoding) => allowed.has(encoding) || allowed.has('*'))
}

/**
 * Reads a file of the built renderer for a URL path, or null when there is none. Paths that
 * climb out of the folder are refused, so neither transport can be made to serve other files.
 * Given the request's Accept-Encoding, answers with the build's brotli or gzip copy where one
 * exists (browser mode); without it, the file as it is (Electron reads from disk, no transfer).
 */
export async function readRendererFile(rendererDir: string, urlPath: string, acceptEncoding?: string): Promise<StaticFile | null> {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/')
  } catch {
    return null
  }
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '')
  const root = normalize(rendererDir + sep)
  const full = normalize(join(rendererDir, relative))
  if (!full.startsWith(root) || relative.includes('\0')) return null
  const contentType = CONTENT_TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream'
  const cacheControl = HASHED_ASSET.test(relative.split(sep).join('/')) ? IMMUTABLE : REVALIDATE
  const varies = PRECOMPRESSED.test(full)
  if (varies) {
    for (const encoding of acceptedEncodings(acceptEncoding)) {
      try {
        const body = await readFile(`${full}.${encoding === 'br' ? 'br' : 'gz'}`)
        return { body, contentType, contentEncoding: encoding, cacheControl, varies }
      } catch {
        // No copy in this encoding (a small file, or a build without them): try the next.
      }
    }
  }
  try {
    return { body: await readFile(full), contentType, cacheControl, varies }
  } catch {
    return null
  }
}
