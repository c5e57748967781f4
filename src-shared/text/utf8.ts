/*
 * The one test of whether bytes are UTF-8 text, pure so that main, the CLI and the bulk input
 * decoder judge a file alike, and say where the first byte that is not sits.
 */

/** The offset of the first byte that is not part of a valid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
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

/** The line (1-based) that byte `offset` is on. */
export const lineAt = (bytes: Uint8Array, offset: number) => {
  let line = 1
  for (let at = 0; at < offset; at++) if (bytes[at] === 0x0a) line++
  return line
}

/** How a byte is named in a sentence: 0xE9. */
export const byteName = (byte: number) => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`
