import { visit } from 'jsonc-parser'
import { formatProblemPath } from './format'
import type { SiteConfigProblem } from './problem'

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
 * other one is. Only scans (jsonc-parser's visitor), so it costs about as much as one parse.
 */
export function findDuplicateKeys(text: string): DuplicateKey[] {
  const duplicates: DuplicateKey[] = []
  const objects: Map<string, { line: number; column: number; reported: boolean }>[] = []
  visit(text, {
    onObjectBegin: () => {
      objects.push(new Map())
    },
    onObjectEnd: () => {
      objects.pop()
    },
    onObjectProperty: (key, _offset, _length, startLine, startCharacter, pathSupplier) => {
      const seen = objects.at(-1)
      if (!seen) return
      const here = { line: startLine + 1, column: startCharacter + 1 }
      const first = seen.get(key)
      if (!first) {
        seen.set(key, { ...here, reported: false })
        return
      }
      const segments = [...pathSupplier(), key]
      if (!first.reported) {
        duplicates.push({ segments, line: first.line, column: first.column, otherLine: here.line, otherColumn: here.column })
        first.reported = true
      }
      duplicates.push({ segments, ...here, otherLine: first.line, otherColumn: first.column })
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
