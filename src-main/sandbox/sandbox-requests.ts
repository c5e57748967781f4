import type { IncomingMessage, ServerResponse } from 'node:http'
import { type Node, parseTree } from 'jsonc-parser'
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

const tooLarge = () =>
  new Refusal(413, `The request body is larger than ${SANDBOX_MAX_BODY_BYTES / 1024 / 1024} MB.`, { Connection: 'close' })

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

/**
 * A JSON value kept as the text it arrived in, so it goes back out as it came: a `__proto__` key
 * and integers past 2^53 included, which a JavaScript value would drop or round.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

export interface ParsedRequest<T> {
  /** The body through the shared schema. */
  value: T
  /**
   * The text of a top-level member's value as it was sent (the last, when a key is repeated, as
   * JSON.parse reads it), or undefined when the body has no such member.
   */
  memberText(name: string): string | undefined
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** The body as JSON through one of the shared request schemas, or a 400 saying what is wrong. */
export function parseRequest<T extends object>(body: Buffer, schema: z.ZodType<T>): ParsedRequest<T> {
  if (body.length === 0) throw new Refusal(400, 'The request body is empty: send a JSON object.')
  let text: string
  try {
    // Bytes that are not UTF-8 would otherwise become U+FFFD, and an id another than the one sent.
    text = strictUtf8.decode(body)
  } catch {
    throw new Refusal(400, 'The request body is not valid UTF-8: send JSON encoded as UTF-8.')
  }
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
  // JSON.parse keeps no offsets: the text of a member takes a parse of its own, made only when a
  // member that is there is asked for, and once for all of them.
  let members: Node[] | undefined
  return {
    value: parsed.data,
    memberText(name) {
      if (!Object.hasOwn(parsed.data, name)) return undefined
      members ??= parseTree(text)?.children ?? []
      const member = members.findLast((property) => property.children?.[0]?.value === name)?.children?.[1]
      return member ? text.slice(member.offset, member.offset + member.length) : undefined
    },
  }
}

// A NUL is exactly what this looks for.
// eslint-disable-next-line no-control-regex
const NUL_OR_LONE_SURROGATE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * A 400 for an id or a name the database would not keep as sent: SQLite ends text at a NUL, and
 * UTF-8 has no way to write half of a surrogate pair (it becomes U+FFFD), so "ac\u0000me" would
 * be kept as "ac" and two different halves as one id. Refused rather than changed.
 */
export function refuseUnstorable(fields: Record<string, string | undefined>): void {
  for (const [field, value] of Object.entries(fields)) {
    const found = value === undefined ? null : NUL_OR_LONE_SURROGATE.exec(value)
    if (!found) continue
    const code = `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
    const what = found[0] === '\u0000' ? `a NUL character (${code})` : `a lone surrogate (${code}, half of a character)`
    throw new Refusal(400, `${field} holds ${what} at position ${found.index + 1}, which the sandbox cannot keep exactly: send it without.`)
  }
}

/** `body` as JSON: a JsonText as it is, anything else through JSON.stringify. */
export function sendJson(res: ServerResponse, status: number, body: JsonText | object, headers: Record<string, string> = {}): void {
  const text = body instanceof JsonText ? body.text : JSON.stringify(body)
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
    ...headers,
  })
  res.end(text)
}
