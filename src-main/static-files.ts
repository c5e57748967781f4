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

export interface StaticFile {
  body: Buffer
  contentType: string
}

/**
 * Reads a file of the built renderer for a URL path, or null when there is none. Paths that
 * climb out of the folder are refused, so neither transport can be made to serve other files.
 */
export async function readRendererFile(rendererDir: string, urlPath: string): Promise<StaticFile | null> {
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
  try {
    const body = await readFile(full)
    return { body, contentType: CONTENT_TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream' }
  } catch {
    return null
  }
}
