/*
 * A file of rows as text, decoded the way it was written: by its byte order mark (UTF-8, UTF-16
 * LE or BE), else as UTF-8, strictly. A file that is not valid UTF-8 (Excel's "CSV" on Windows
 * writes Windows-1252) is refused with the line of its first bad byte, never decoded with U+FFFD
 * in place of each accented letter; the operator may choose to read it as Windows-1252 instead.
 * Pure (TextDecoder is in browsers and Node alike), so the app and the CLI decode one way.
 */

export const INPUT_ENCODINGS = ['utf-8', 'windows-1252'] as const
export type InputEncoding = (typeof INPUT_ENCODINGS)[number]

export type DecodedInput =
  | { ok: true; text: string; encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252' }
  | { ok: false; line: number; byte: number; message: string }

/** The offset of the first byte that is not part of a valid UTF-8 sequence, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let at = 0; at < bytes.length;) {
    const lead = bytes[at]!
    const length =
      lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0
    if (length === 0) return at
    for (let next = 1; next < length; next++) {
      const byte = bytes[at + next]
      if (byte === undefined || (byte & 0xc0) !== 0x80) return at
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8 either.
    const second = bytes[at + 1] ?? 0
    if (
      (lead === 0xe0 && second < 0xa0) ||
      (lead === 0xed && second > 0x9f) ||
      (lead === 0xf0 && second < 0x90) ||
      (lead === 0xf4 && second > 0x8f)
    )
      return at
    at += length
  }
  return -1
}

const lineAt = (bytes: Uint8Array, offset: number) => {
  let line = 1
  for (let at = 0; at < offset; at++) if (bytes[at] === 0x0a) line++
  return line
}

/** Decoded by its byte order mark, else as UTF-8 unless `encoding` says Windows-1252. */
export function decodeInput(bytes: Uint8Array, fileName: string, encoding?: InputEncoding): DecodedInput {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { ok: true, text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' }
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { ok: true, text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' }
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { ok: true, text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' }
  if (encoding === 'windows-1252') return { ok: true, text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' }
  const bad = firstInvalidUtf8(bytes)
  if (bad === -1) return { ok: true, text: new TextDecoder('utf-8').decode(bytes), encoding: 'utf-8' }
  const line = lineAt(bytes, bad)
  const byte = bytes[bad]!
  return {
    ok: false,
    line,
    byte,
    message: `${fileName} is not UTF-8 text: line ${line} holds the byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')}, which UTF-8 does not allow there. It may be Windows-1252 (Excel's "CSV" on Windows): read it as Windows-1252, or save it as "CSV UTF-8".`,
  }
}
