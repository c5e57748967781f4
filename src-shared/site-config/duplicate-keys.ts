import { walkJsonStrings } from '../json/json-strings'
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

/**
 * Every key written more than once in the same object, each occurrence reported with where the
 * other one is. One walk over the text's strings and brackets (json-strings.ts), lines counted
 * only once a key repeats. Meant for text that parses.
 */
export function findDuplicateKeys(text: string): DuplicateKey[] {
  const duplicates: DuplicateKey[] = []
  // Each open object's keys so far, each with the offset of its first occurrence (negated once
  // reported); null for an open array.
  const keysOf: (Map<string, number> | null)[] = []
  let lines: LineStarts | null = null
  walkJsonStrings(text, {
    open: (kind) => keysOf.push(kind === 'object' ? new Map() : null),
    close: () => keysOf.pop(),
    key(key, offset, _end, path) {
      const keys = keysOf.at(-1)!
      const first = keys.get(key)
      if (first === undefined) {
        keys.set(key, offset)
        return
      }
      lines ??= new LineStarts(text)
      const segments = [...path]
      const here = lines.at(offset)
      const other = lines.at(first < 0 ? -first - 1 : first)
      if (first >= 0) {
        duplicates.push({ segments, ...other, otherLine: here.line, otherColumn: here.column })
        keys.set(key, -first - 1)
      }
      duplicates.push({ segments, ...here, otherLine: other.line, otherColumn: other.column })
    },
  })
  return duplicates
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
