import { LineStarts } from '../text/line-starts'
import type { SiteConfigProblem } from './problem'
import { formatProblemPath } from './problem-path'

/** A key written a second time in one object: JSON.parse keeps the last and drops the first without a word. */
export interface DuplicateKey {
  segments: (string | number)[]
  /** Where this occurrence is, 1-based. */
  line: number
  column: number
  /** Where the other occurrence is. */
  otherLine: number
  otherColumn: number
}

/** One open object or array while scanning: the segment it is at now, and for an object the keys it has had. */
interface Frame {
  /** The object's keys so far, each with the offset of its first occurrence (negated once reported). */
  keys: Map<string, number> | null
  /** The key or index of the value being read in it. */
  at: string | number
}

const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * Every key written more than once in the same object, each occurrence reported with where the
 * other one is. One linear pass over the text that reads only strings and brackets (no tokens, no
 * values built, lines counted only once a key repeats): on a 2.3 MB docs.json a generic JSON
 * visitor took several times a JSON.parse, this a fraction of one. Meant for text that parses.
 */
export function findDuplicateKeys(text: string): DuplicateKey[] {
  const duplicates: DuplicateKey[] = []
  const frames: Frame[] = []
  let lines: LineStarts | null = null
  let expectingKey = false
  for (let offset = 0; offset < text.length;) {
    const code = text.charCodeAt(offset)
    if (code === QUOTE) {
      const end = stringEnd(text, offset)
      const top = frames.at(-1)
      if (expectingKey && top?.keys) {
        const key = keyOf(text.slice(offset + 1, end))
        top.at = key
        const first = top.keys.get(key)
        if (first === undefined) top.keys.set(key, offset)
        else {
          lines ??= new LineStarts(text)
          const segments = frames.map((frame) => frame.at)
          const here = lines.at(offset)
          const other = lines.at(first < 0 ? -first - 1 : first)
          if (first >= 0) {
            duplicates.push({ segments, ...other, otherLine: here.line, otherColumn: here.column })
            top.keys.set(key, -first - 1)
          }
          duplicates.push({ segments, ...here, otherLine: other.line, otherColumn: other.column })
        }
        expectingKey = false
      }
      offset = end + 1
      continue
    }
    if (code === 0x7b /* { */) {
      frames.push({ keys: new Map(), at: '' })
      expectingKey = true
    } else if (code === 0x5b /* [ */) {
      frames.push({ keys: null, at: 0 })
      expectingKey = false
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      frames.pop()
      expectingKey = false
    } else if (code === 0x2c /* , */) {
      const top = frames.at(-1)
      if (top?.keys) expectingKey = true
      else if (top) top.at = (top.at as number) + 1
    }
    offset++
  }
  return duplicates
}

/** The offset of the quote that closes the string opened at `start` (the text's end if none does). */
function stringEnd(text: string, start: number): number {
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
function keyOf(raw: string): string {
  if (!raw.includes('\\')) return raw
  try {
    return JSON.parse(`"${raw}"`) as string
  } catch {
    return raw
  }
}

/** Duplicate keys as errors, one per occurrence, each naming the other's line. */
export function duplicateKeyProblems(duplicates: readonly DuplicateKey[]): (SiteConfigProblem & { line: number; column: number })[] {
  return duplicates.map((duplicate) => ({
    path: formatProblemPath(duplicate.segments),
    line: duplicate.line,
    column: duplicate.column,
    message: `is written twice in the same object (lines ${Math.min(duplicate.line, duplicate.otherLine)} and ${Math.max(duplicate.line, duplicate.otherLine)}): JSON keeps only the last one, so delete the one you do not mean`,
  }))
}
