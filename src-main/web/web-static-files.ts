import type { IncomingMessage, ServerResponse } from 'node:http'
import { rendererFileHeaders, SECURITY_HEADERS } from '../content-security-policy'
import type { PreviewFiles } from '../site-files/preview-files'
import { readRendererFile } from '../static-files'

// Browser mode's static files: the built renderer, answered to GET and HEAD without a session
// (the page must load before it can open one).

export interface StaticFileOptions {
  rendererDir: string
  preview: Pick<PreviewFiles, 'known'>
  /** The server's port: the page's headers name the address it was opened at, this one's when its Host is not. */
  port: number
  isOwnHost: (host: string | undefined) => boolean
}

// Stryker disable all: the static files' answer (its path guard is readRendererFile's).
/** The build's brotli or gzip copy when the browser takes it; hashed assets cached for a year. */
export function answerStaticFile(req: IncomingMessage, res: ServerResponse, url: URL, options: StaticFileOptions): void {
  const { rendererDir, preview, port, isOwnHost } = options
  void readRendererFile(rendererDir, url.pathname, req.headers['accept-encoding']).then((file) => {
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS })
      res.end('Not found')
      return
    }
    res.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Length': file.body.length,
      'Cache-Control': file.cacheControl,
      ...(file.contentEncoding ? { 'Content-Encoding': file.contentEncoding } : {}),
      ...(file.varies ? { Vary: 'Accept-Encoding' } : {}),
      ...rendererFileHeaders(url, `http://${isOwnHost(req.headers.host) ? req.headers.host : `127.0.0.1:${port}`}`, preview),
    })
    res.end(req.method === 'HEAD' ? undefined : file.body)
  })
}
