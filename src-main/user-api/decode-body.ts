import type { IncomingHttpHeaders } from 'node:http'
import { promisify } from 'node:util'
import type { InputType, ZlibOptions } from 'node:zlib'

/** What the client asks for: gateways that compress answer with one of these. */
export const ACCEPT_ENCODING = 'gzip, deflate, br'

type Decoder = (input: InputType, options: ZlibOptions) => Promise<Buffer>
type BodyDecoder = (body: Buffer, options: ZlibOptions) => Promise<Buffer>

/** "deflate" is meant to be zlib-wrapped (RFC 9110), but some servers send raw deflate: the header tells. */
const isZlibWrapped = (body: Buffer) => body.length >= 2 && (body[0]! & 0x0f) === 8 && ((body[0]! << 8) | body[1]!) % 31 === 0

/** The decoders by Content-Encoding, with zlib loaded at the first answer that names one: most answers name none. */
let decoders: Promise<Record<string, BodyDecoder>> | undefined
async function loadDecoders(): Promise<Record<string, BodyDecoder>> {
  const { brotliDecompress, gunzip, inflate, inflateRaw } = await import('node:zlib')
  const gunzipAsync = promisify(gunzip) as Decoder
  const inflateAsync = promisify(inflate) as Decoder
  const inflateRawAsync = promisify(inflateRaw) as Decoder
  return {
    gzip: gunzipAsync,
    'x-gzip': gunzipAsync,
    br: promisify(brotliDecompress) as Decoder,
    deflate: (body, options) => (isZlibWrapped(body) ? inflateAsync : inflateRawAsync)(body, options),
  }
}

type BodyProblem =
  | { kind: 'unsupported'; encoding: string }
  | { kind: 'too_large'; encoding: string }
  | { kind: 'corrupt'; encoding: string; reason: string }

export class BodyDecodingError extends Error {
  constructor(readonly problem: BodyProblem) {
    super(problem.kind)
  }
}

/**
 * The body as the server meant it: every Content-Encoding undone, last applied first, each
 * stopped as soon as its output passes `maxBytes` (a small gzip bomb cannot fill memory).
 */
export async function decodeContent(body: Buffer, headers: IncomingHttpHeaders, maxBytes: number): Promise<Buffer> {
  const encodings = (headers['content-encoding'] ?? '')
    .split(',')
    .map((encoding) => encoding.trim().toLowerCase())
    .filter((encoding) => encoding && encoding !== 'identity')
  let decoded = body
  if (encodings.length === 0) return decoded
  const byEncoding = await (decoders ??= loadDecoders())
  for (const encoding of encodings.reverse()) {
    const decoder = byEncoding[encoding]
    if (!decoder) throw new BodyDecodingError({ kind: 'unsupported', encoding })
    // An empty body is empty in every encoding (a 204 or a HEAD-like answer that still names one).
    if (decoded.length === 0) continue
    try {
      decoded = await decoder(decoded, { maxOutputLength: maxBytes })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ERR_BUFFER_TOO_LARGE') throw new BodyDecodingError({ kind: 'too_large', encoding })
      throw new BodyDecodingError({ kind: 'corrupt', encoding, reason: (error as Error).message })
    }
  }
  return decoded
}

const BOMS: Array<[bytes: number[], encoding: string]> = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xff, 0xfe], 'utf-16le'],
  [[0xfe, 0xff], 'utf-16be'],
]

/** The charset a Content-Type names, or undefined. */
function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType ?? '')
  return match?.[2]?.toLowerCase()
}

/**
 * The body as text: a byte order mark wins (and is dropped), then the Content-Type's charset,
 * then UTF-8, JSON's own encoding; `unknownCharset` when the charset is one no decoder knows.
 */
export function decodeText(body: Buffer, contentType: string | undefined): { text: string } | { unknownCharset: string } {
  const bom = BOMS.find(([bytes]) => bytes.every((byte, index) => body[index] === byte))
  const label = bom?.[1] ?? charsetOf(contentType) ?? 'utf-8'
  let decoder: TextDecoder
  try {
    // The BOM found is cut here, so the decoder keeps whatever follows it as text.
    decoder = new TextDecoder(label, { ignoreBOM: true })
  } catch {
    return { unknownCharset: label }
  }
  return { text: decoder.decode(bom ? body.subarray(bom[0].length) : body) }
}
