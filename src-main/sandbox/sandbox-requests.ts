import type { IncomingMessage, ServerResponse } from 'node:http'
import type { z } from 'zod'
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '../../src-shared/json/depth'

export const SANDBOX_MAX_BODY_BYTES = 1024 * 1024

/** An HTTP refusal: the status, and the sentence that goes into `{ success: 0, error }`. */
export class Refusal {
  constructor(
    readonly status: number,
    readonly sentence: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

const tooLarge = () => new Refusal(413, `The request body is larger than ${SANDBOX_MAX_BODY_BYTES / 1024 / 1024} MB.`, { Connection: 'close' })

/**
 * Reads the body up to the limit. Past it (or when Content-Length announces more) the sandbox
 * keeps nothing further and answers 413 with `Connection: close`: Node closes the socket once
 * that answer is out, so the rest of the upload is never read.
 */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > SANDBOX_MAX_BODY_BYTES) return reject(tooLarge())
    const chunks: Buffer[] = []
    let size = 0
    const keep = (chunk: Buffer) => {
      size += chunk.length
      if (size <= SANDBOX_MAX_BODY_BYTES) return chunks.push(chunk)
      req.off('data', keep)
      reject(tooLarge())
    }
    req.on('data', keep)
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** The body as JSON through one of the shared request schemas, or a 400 saying what is wrong. */
export function parseRequest<T>(body: Buffer, schema: z.ZodType<T>): T {
  if (body.length === 0) throw new Refusal(400, 'The request body is empty: send a JSON object.')
  const text = body.toString('utf8')
  if (jsonTextTooDeep(text)) throw new Refusal(400, `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new Refusal(400, 'The request body is not JSON.')
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
    throw new Refusal(400, `The request body is not valid: ${issues.join('; ')}.`)
  }
  return parsed.data
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
    ...headers,
  })
  res.end(text)
}
