import type { IncomingMessage, ServerResponse } from 'node:http'
import { SECURITY_HEADERS } from '../content-security-policy'

// Browser mode's JSON answers, and the reading of a request's body within its cap: nothing
// larger reaches a parser, and the client hears why.

/** A refused upload is read (and dropped) this far, so the client hears the 413; further, it is cut. */
const MAX_DRAINED_BYTES = 64 * 1024 * 1024

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${bytes / 1024} kB`)

export const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...SECURITY_HEADERS })
  res.end(JSON.stringify(body))
}

export const refuse = (res: ServerResponse, status: 401 | 403, message: string) =>
  sendJson(res, status, { ok: false, error: { code: 'refused', message } })

/** The body, or null (after a 413) when it is larger than `limit`. */
export const readBody = (req: IncomingMessage, res: ServerResponse, limit: number): Promise<Buffer | null> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const tooLarge = () => {
      // Answer now and drop the rest as it comes, so the client reads the 413 instead of a reset.
      sendJson(res, 413, { ok: false, error: { code: 'invalid_input', message: `The request is larger than ${sizeText(limit)}.` } })
      resolve(null)
      req.removeAllListeners('data')
      req.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > limit + MAX_DRAINED_BYTES) req.destroy()
      })
    }
    const declared = Number(req.headers['content-length'])
    if (declared > limit) return tooLarge()
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) return tooLarge()
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
