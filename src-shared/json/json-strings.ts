/*
 * A walk over JSON text that reads only its strings and brackets: no tokens, no values built. On a
 * 2.3 MB docs.json a generic JSON visitor took several times a JSON.parse; this, a fraction of one.
 * The checks that need a key's or a string's place in the text (keys written twice, the raw view's
 * typing inside a string) are written on it. Meant for text that parses.
 */

export type JsonSegment = string | number

export interface JsonStringVisitor {
  /** An object or an array opens: its first key or item comes next. */
  open?(kind: 'object' | 'array'): void
  close?(): void
  /** A key, between the quotes at `start` and `end`; `path` ends with it (read it now: the walk changes it). */
  key?(key: string, start: number, end: number, path: readonly JsonSegment[]): void
  /** A string value, between the quotes at `start` and `end`, at `path` (read it now: the walk changes it). */
  string?(start: number, end: number, path: readonly JsonSegment[]): void
}

const QUOTE = 0x22
const BACKSLASH = 0x5c

export function walkJsonStrings(text: string, visitor: JsonStringVisitor): void {
  // Where the walk is: a key (a string) for each open object, an index for each open array.
  const path: JsonSegment[] = []
  let expectingKey = false
  for (let offset = 0; offset < text.length;) {
    const code = text.charCodeAt(offset)
    if (code === QUOTE) {
      const end = stringEnd(text, offset)
      if (expectingKey) {
        const key = decodeKey(text.slice(offset + 1, end))
        path[path.length - 1] = key
        visitor.key?.(key, offset, end, path)
        expectingKey = false
      } else visitor.string?.(offset, end, path)
      offset = end + 1
      continue
    }
    if (code === 0x7b /* { */) {
      path.push('')
      expectingKey = true
      visitor.open?.('object')
    } else if (code === 0x5b /* [ */) {
      path.push(0)
      expectingKey = false
      visitor.open?.('array')
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      path.pop()
      expectingKey = false
      visitor.close?.()
    } else if (code === 0x2c /* , */) {
      const at = path.at(-1)
      if (typeof at === 'string') expectingKey = true
      else if (at !== undefined) path[path.length - 1] = at + 1
    }
    offset++
  }
}

/** The offset of the quote that closes the string opened at `start` (the text's end if none does). */
export function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1)
  while (end !== -1) {
    let backslashes = 0
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return end
    end = text.indexOf('"', end + 1)
  }
  return text.length
}

/** A key as JSON reads it: escapes decoded, so "\u0061" and "a" are the same key. */
function decodeKey(raw: string): string {
  if (!raw.includes('\\')) return raw
  try {
    return JSON.parse(`"${raw}"`) as string
  } catch {
    return raw
  }
}
