/*
 * A file of rows as text, decoded the way it was written: by its byte order mark (UTF-8, UTF-16
 * LE or BE), else as UTF-8, strictly. A file that is not valid UTF-8 (Excel's "CSV" on Windows
 * writes Windows-1252) is refused with the line of its first bad byte, never decoded with U+FFFD
 * in place of each accented letter; the operator may choose to read it as Windows-1252 instead.
 * Pure (TextDecoder is in browsers and Node alike), so the app and the CLI decode one way.
 */

import { byteName, firstInvalidUtf8, lineAt } from '../text/utf8'

export const INPUT_ENCODINGS = ['utf-8', 'windows-1252'] as const
export type InputEncoding = (typeof INPUT_ENCODINGS)[number]

export type DecodedInput =
  | { ok: true; text: string; encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252' }
  | { ok: false; line: number; byte: number; message: string }

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
    message: `${fileName} is not UTF-8 text: line ${line} holds the byte ${byteName(byte)}, which UTF-8 does not allow there. It may be Windows-1252 (Excel's "CSV" on Windows): read it as Windows-1252, or save it as "CSV UTF-8".`,
  }
}
