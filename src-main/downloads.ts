import { Readable } from 'node:stream'
import { DOWNLOAD_PATH_PREFIX } from '../src-shared/ipc/downloads'
import type { Router } from './router'

export interface DownloadResponse {
  status: number
  headers: Record<string, string>
  body: Readable
}

async function* utf8(chunks: AsyncIterable<string>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) yield Buffer.from(chunk, 'utf8')
}

/** RFC 6266: a plain ASCII fallback and the exact name, percent-encoded. */
const attachment = (fileName: string) =>
  `attachment; filename="${fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`

/**
 * A download as either transport answers it (browser mode over HTTP, Electron through the app://
 * protocol): `/download/<name>?query=<JSON>`, checked by the router, streamed as it is produced.
 * A refusal is the usual `{ ok: false, error }` with a 400.
 */
export function downloadResponse(router: Router, url: URL): DownloadResponse {
  const name = decodeURIComponent(url.pathname.slice(DOWNLOAD_PATH_PREFIX.length))
  let query: unknown
  try {
    query = JSON.parse(url.searchParams.get('query') ?? '{}')
  } catch {
    query = undefined
  }
  const started = query === undefined ? null : router.download(name, query)
  if (!started || !started.ok) {
    const error = started?.error ?? { code: 'invalid_input', message: 'The download query is not JSON.' }
    return {
      status: error.code === 'unknown_call' ? 404 : 400,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
      body: Readable.from([Buffer.from(JSON.stringify({ ok: false, error }), 'utf8')]),
    }
  }
  const { fileName, mimeType, chunks } = started.value
  return {
    status: 200,
    headers: { 'Content-Type': mimeType, 'Content-Disposition': attachment(fileName), 'Cache-Control': 'no-store' },
    body: Readable.from(utf8(chunks)),
  }
}
