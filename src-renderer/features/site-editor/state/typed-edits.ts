import { walkJsonStrings } from '../../../../src-shared/json/json-strings'
import type { TextChange } from '../../../../src-shared/site-config/json-text'
import type { Path } from './json-path'

/**
 * What a keystroke did to the value, told without parsing the whole text: a string value took a
 * new text, or only the layout changed (whitespace between tokens).
 */
export type TypedEdit = { kind: 'string'; path: Path; value: string } | { kind: 'layout' }

const isLayout = (text: string) => /^[ \t\n\r]*$/.test(text)
/** Characters that end a number or a literal (true, false, null): whitespace and JSON's punctuation. */
const isBoundary = (char: string | undefined) => char === undefined || /[ \t\n\r{}[\],:"]/.test(char)

/**
 * Where the strings of a JSON text are: every key and string value between its quotes, the values
 * with their paths. A keystroke inside a string value of a 2.3 MB docs.json then changes one value
 * at a known path: no JSON.parse, no depth or duplicate-key scan, and every other part of the value
 * keeps its identity, so the checks redo the navigation item that changed alone. A keystroke in the
 * whitespace between tokens changes no value. Anything else (a key, a bracket, a comma, a quote)
 * is not told here: the text is parsed whole.
 *
 * Built from text that parses, with no key written twice (so each path names one value); each edit
 * it tells moves the later strings' offsets, so it follows the text as typed.
 */
export class StringSpans {
  /** Offsets of each string's opening and closing quote, in text order. */
  private readonly starts: Int32Array
  private readonly ends: Int32Array
  /** Each string's path as a value; null for a key. */
  private readonly paths: (Path | null)[]

  private constructor(
    private text: string,
    starts: number[],
    ends: number[],
    paths: (Path | null)[],
  ) {
    this.starts = Int32Array.from(starts)
    this.ends = Int32Array.from(ends)
    this.paths = paths
  }

  static of(text: string): StringSpans {
    const starts: number[] = []
    const ends: number[] = []
    const paths: (Path | null)[] = []
    walkJsonStrings(text, {
      key(_key, start, end) {
        starts.push(start)
        ends.push(end)
        paths.push(null)
      },
      string(start, end, path) {
        starts.push(start)
        ends.push(end)
        paths.push([...path])
      },
    })
    return new StringSpans(text, starts, ends, paths)
  }

  /** Whether these are the spans of `text` (the text they were built from, or followed to). */
  describes(text: string): boolean {
    return this.text === text
  }

  /**
   * What `change` did, turning this text into `next`, or null when it cannot be told without a
   * parse. When told, the spans follow `next`.
   */
  edit(change: TextChange, next: string): TypedEdit | null {
    const { offset, removed, inserted } = change
    const delta = inserted.length - removed
    // The last string opening before the change.
    const index = this.lastStartBefore(offset)
    if (index >= 0 && offset <= this.ends[index]!) {
      // Inside a value's string, its closing quote kept (so what follows the string is the text as
      // it was), and still one string up to that quote.
      const path = this.paths[index] ?? null
      if (path === null || offset + removed > this.ends[index]!) return null
      const value = stringToken(next.slice(this.starts[index]!, this.ends[index]! + delta + 1))
      if (value === null) return null
      this.ends[index] = this.ends[index]! + delta
      this.follow(next, index + 1, delta)
      return { kind: 'string', path, value }
    }
    // Between strings: whitespace (which holds no quote, so no string is touched) replaced by
    // whitespace that splits no number or literal in two.
    if (!isLayout(inserted) || !isLayout(this.text.slice(offset, offset + removed))) return null
    if (inserted && !(isBoundary(next[offset - 1]) || isBoundary(next[offset + inserted.length]))) return null
    this.follow(next, index + 1, delta)
    return { kind: 'layout' }
  }

  /** The index of the last string whose opening quote is before `offset`, or -1. */
  private lastStartBefore(offset: number): number {
    let low = 0
    let high = this.starts.length - 1
    let found = -1
    while (low <= high) {
      const middle = (low + high) >>> 1
      if (this.starts[middle]! < offset) {
        found = middle
        low = middle + 1
      } else high = middle - 1
    }
    return found
  }

  private follow(next: string, from: number, delta: number) {
    this.text = next
    if (delta === 0) return
    for (let index = from; index < this.starts.length; index++) {
      this.starts[index] = this.starts[index]! + delta
      this.ends[index] = this.ends[index]! + delta
    }
  }
}

/** The string a JSON string token holds, or null when the token is not one string. */
function stringToken(token: string): string | null {
  try {
    const value: unknown = JSON.parse(token)
    return typeof value === 'string' ? value : null
  } catch {
    return null
  }
}

/**
 * Whether `change`, made right after `earlier`, undoes it: `earlier` changed `before`, and `change`
 * puts back what it took out, where it was (a key typed and deleted, a deletion typed again, or
 * either undone). The text is then `before` again, told without reading either text whole.
 */
export function undoesChange(change: TextChange, earlier: TextChange, before: string): boolean {
  return (
    change.offset === earlier.offset &&
    change.removed === earlier.inserted.length &&
    change.inserted === before.slice(earlier.offset, earlier.offset + earlier.removed)
  )
}
