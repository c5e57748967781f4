import { jsonDepthExceededAt, MAX_JSON_DEPTH } from '../json/depth'
/** Where and why a text is not JSON, in the terms an editor shows: 1-based line and column. */
export interface JsonSyntaxError {
  message: string
  line: number
  column: number
  /** Valid JSON, perhaps, but nested past MAX_SITE_JSON_DEPTH: refused before any parser. */
  tooDeep?: true
}

/** What is wrong with a text, after its subject ("site.json ", "The text "): a break in the grammar, or nesting too deep. */
export const jsonErrorSentence = ({ line, column, message, tooDeep }: JsonSyntaxError): string =>
  `${tooDeep ? `is nested deeper than ${MAX_SITE_JSON_DEPTH} levels` : 'is not valid JSON'} at line ${line}, column ${column}: ${message}`

export type ParsedJsonText = { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError }

const BYTE_ORDER_MARK = 0xfeff

/** The deepest a site.json, mint.json or docs.json may nest (the deepest of 300 real ones: 19). */
export const MAX_SITE_JSON_DEPTH = MAX_JSON_DEPTH

/**
 * Parses JSON text, or says where it breaks. A leading byte order mark is ignored (editors do
 * not count it as a column). JSON.parse does the parsing; its error messages differ between
 * engines and often carry no position, so a failure is located again by the scanner (scanJsonText).
 *
 * A text nested deeper than MAX_SITE_JSON_DEPTH is refused with its place: JSON.parse reads any
 * depth without recursing, but every reader after it (the checks, the form, the CLI) recurses. The
 * depth is checked after JSON.parse, and a text too deep scanned for its place; when the text has a
 * syntax error, the scan that finds it watches the depth up to it (a key that breaks a 2.3 MB text
 * near its start is told without reading the rest). Either way the first of the two problems in
 * the text is the one told.
 */
export function parseJsonText(text: string): ParsedJsonText {
  const json = withoutMark(text)
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (error) {
    // The scanner follows the same grammar as JSON.parse (a property test holds them together);
    // should they ever disagree, the engine's own words at the start still beat a throw.
    return { ok: false, error: scannedError(scanJsonText(text)) ?? { message: (error as Error).message, line: 1, column: 1 } }
  }
  return jsonDepthExceededAt(json, MAX_SITE_JSON_DEPTH) === -1 ? { ok: true, value } : parseScannedJsonText(scanJsonText(text))
}

const withoutMark = (text: string) => (text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text)

/** A place in a text with its line: the line's number (1-based) and where the line starts. */
interface LinePlace {
  offset: number
  line: number
  lineStart: number
}

const TEXT_START: LinePlace = { offset: 0, line: 1, lineStart: 0 }

/** Whether the character at `index` ends a line: \n, \r\n (at its \n) and a lone \r each do, as in Monaco. */
function endsLine(text: string, index: number): boolean {
  const code = text.charCodeAt(index)
  return code === 0x0a || (code === 0x0d && text.charCodeAt(index + 1) !== 0x0a)
}

/**
 * Where `offset` is in `text`, 1-based, counted from `from`, a place before it whose line is known
 * (a scan's point: a few kilobytes are read, not the text up to the place). A leading byte order
 * mark is no column.
 */
function lineAndColumn(text: string, offset: number, from: LinePlace): { line: number; column: number } {
  let { line, lineStart } = from
  for (let index = from.offset; index < offset; index++) {
    if (endsLine(text, index)) {
      line++
      lineStart = index + 1
    }
  }
  const column = offset - lineStart + 1
  return { line, column: text.charCodeAt(0) === BYTE_ORDER_MARK && line === 1 ? column - 1 : column }
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39
const isHexDigit = (code: number) => isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66)
const SIMPLE_ESCAPES = '"\\/bfnrt'
const WORD = /[A-Za-z_$][\w$]*/y

/** One change of a text: `removed` characters at `offset` replaced by `inserted`. */
export interface TextChange {
  offset: number
  removed: number
  inserted: string
}

/**
 * Where the scanner stood between two tokens: the characters read, the containers open (the
 * closer each waits for, outermost first) and whether a value comes next. Nothing else decides
 * what it does with the rest of the text. With them, the line it stood on, to count a problem's
 * line from the point before it.
 */
interface ScanPoint extends LinePlace {
  closers: string
  expectingValue: boolean
}

/**
 * A text as scanned: its first break in the grammar, where it first nests too deep, and points
 * along the way to scan an edit of it from (rescanJsonText).
 */
export interface JsonTextScan {
  readonly text: string
  readonly problem: { offset: number; message: string } | null
  /** Where the text first opens more than MAX_SITE_JSON_DEPTH arrays and objects, or -1. */
  readonly tooDeepAt: number
  /** About `spacing` characters apart, all before the problem and tooDeepAt. */
  readonly points: readonly ScanPoint[]
  readonly spacing: number
}

/**
 * How far apart a scan keeps its points by default: what a rescan reads at most before the change,
 * and after it when nothing changed state (about 0.2 ms of scanning). crewAI's 2.3 MB docs.json keeps 143.
 */
const SCAN_POINT_SPACING = 16_384

/** Scans a whole text for its first problem (parseScannedJsonText tells it). */
export const scanJsonText = (text: string, spacing = SCAN_POINT_SPACING): JsonTextScan => scan(text, spacing, [], null)

/**
 * Scans `text`, which is `previous.text` with `change` made, from the last point before the
 * change. Past the change, where the scan stands at one of the previous scan's points as it stood
 * there before, the rest of the text is the rest of the previous one and is read the same way: the
 * previous scan's findings are taken from there, moved by the change's length. A key at the end
 * of a 2.3 MB text reads its last few kilobytes, where a whole scan took about 25 ms.
 */
export function rescanJsonText(previous: JsonTextScan, text: string, change: TextChange): JsonTextScan {
  const delta = change.inserted.length - change.removed
  if (text.length !== previous.text.length + delta) return scanJsonText(text, previous.spacing)
  const { points } = previous
  // A point is where a token ended, which can take the character at the point to know (a number's
  // last digit, an array with no closer next): a point holds for the new text only before the change.
  let from = -1
  while (from + 1 < points.length && points[from + 1]!.offset < change.offset) from++
  return scan(text, previous.spacing, points.slice(0, from + 1), {
    previous,
    delta,
    // A point past the change (its character included) reads on as before once the scan stands there as it stood.
    after: change.offset + change.removed,
  })
}

/** A scanned text's value, or what is wrong with it, as parseJsonText says them. */
export function parseScannedJsonText(scanned: JsonTextScan): ParsedJsonText {
  const error = scannedError(scanned)
  // The scanner follows JSON.parse's grammar (a property test holds them together).
  return error ? { ok: false, error } : { ok: true, value: JSON.parse(withoutMark(scanned.text)) }
}

/** What a scan found wrong with its text, as an editor shows it; null for valid JSON nested no deeper than allowed. */
function scannedError({ text, problem, tooDeepAt, points }: JsonTextScan): JsonSyntaxError | null {
  if (tooDeepAt !== -1)
    return {
      message: 'no site configuration is, so Embed Console reads it only as text',
      ...lineAndColumn(text, tooDeepAt, placeBefore(points, tooDeepAt)),
      tooDeep: true,
    }
  return problem && { message: problem.message, ...lineAndColumn(text, problem.offset, placeBefore(points, problem.offset)) }
}

/** The last of `points` at or before `offset` (they are in order), or the text's start. */
function placeBefore(points: readonly ScanPoint[], offset: number): LinePlace {
  let low = 0
  let high = points.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (points[middle]!.offset <= offset) low = middle + 1
    else high = middle
  }
  return low === 0 ? TEXT_START : points[low - 1]!
}

/** A rescan's view of the scan before the change: where its points stand in the new text, and from where they may be met again. */
interface Resync {
  previous: JsonTextScan
  /** The change's length: what moves a previous point to its place in the new text. */
  delta: number
  /** The end of the change in the previous text: its points before here are not met again. */
  after: number
}

/**
 * A rescan that met the previous scan at its point `next` as it stood there: the previous findings
 * from that point on, moved by the change's length. Past the change the lines are the previous
 * text's, moved by the breaks the change made or took; a line whose break came before the change's
 * end (at lineStart - 1) starts where the rescan has it start.
 */
function resynced(
  { previous, delta, after }: Resync,
  next: number,
  here: { text: string; spacing: number; points: ScanPoint[]; line: number; lineStart: number; tooDeepAt: number },
): JsonTextScan {
  const { text, spacing, points, tooDeepAt } = here
  const { problem, tooDeepAt: deepAt } = previous
  const lines = here.line - previous.points[next]!.line
  if (tooDeepAt === -1)
    for (const point of previous.points.slice(next)) {
      const lineStart = point.lineStart > after ? point.lineStart + delta : here.lineStart
      points.push({ ...point, offset: point.offset + delta, line: point.line + lines, lineStart })
    }
  return {
    text,
    problem: problem && { offset: problem.offset + delta, message: problem.message },
    tooDeepAt: tooDeepAt !== -1 || deepAt === -1 ? tooDeepAt : deepAt + delta,
    points,
    spacing,
  }
}

/**
 * Reads `text` against the JSON grammar from the last of the points `kept` (which the text reads as
 * before; from its start when there are none), keeping a point every `spacing`
 * characters, up to the first problem, the end of the text, or a point of `resync`'s previous scan
 * met again as it stood. It builds no values and is iterative, so no nesting depth can overflow the stack.
 */
function scan(text: string, spacing: number, kept: readonly ScanPoint[], resync: Resync | null): JsonTextScan {
  const points = [...kept]
  const from = points.at(-1)
  let offset = from?.offset ?? (text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0)
  // The closing character each open container is waiting for.
  const closers: string[] = from ? [...from.closers] : []
  let expectingValue = from?.expectingValue ?? true
  // The line being read, for the points: line breaks are only ever read as whitespace (a string cannot hold one).
  let line = from?.line ?? 1
  let lineStart = from?.lineStart ?? 0
  // The depth is watched on the way, as jsonDepthExceededAt would find it up to the problem: a
  // second scan of a 2.3 MB text broken near its end took about 20 ms.
  let tooDeepAt = -1

  // The previous scan's next point that may be met again, moved into this text.
  const previousPoints = resync?.previous.points ?? []
  let next = previousPoints.findIndex((point) => point.offset >= (resync?.after ?? Infinity))
  if (next === -1) next = previousPoints.length
  const delta = resync?.delta ?? 0
  const resyncAt = () => (next < previousPoints.length ? previousPoints[next]!.offset + delta : Infinity)
  let nextResync = resyncAt()
  let nextPoint = from ? from.offset + spacing : offset

  const result = (problem: JsonTextScan['problem']): JsonTextScan => ({ text, problem, tooDeepAt, points, spacing })
  const problem = (at: number, message: string) => result({ offset: at, message })
  /** At a point between two tokens: met again, kept, or passed. */
  const atPoint = (): JsonTextScan | undefined => {
    if (offset >= nextResync) {
      while (next < previousPoints.length && previousPoints[next]!.offset + delta < offset) next++
      const point = previousPoints[next]
      if (
        point !== undefined &&
        point.offset + delta === offset &&
        point.expectingValue === expectingValue &&
        point.closers === closers.join('')
      )
        return resynced(resync!, next, { text, spacing, points, line, lineStart, tooDeepAt })
      nextResync = resyncAt()
    }
    if (offset >= nextPoint) {
      if (tooDeepAt === -1) points.push({ offset, line, lineStart, closers: closers.join(''), expectingValue })
      nextPoint = offset + spacing
    }
    return undefined
  }

  const skipWhitespace = () => {
    while (offset < text.length) {
      const code = text.charCodeAt(offset)
      if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return
      if (endsLine(text, offset)) {
        line++
        lineStart = offset + 1
      }
      offset++
    }
  }
  const found = (at: number): string => {
    if (at >= text.length) return 'the end of the text'
    const char = text[at] as string
    if (char === '/' && (text[at + 1] === '/' || text[at + 1] === '*')) return 'a comment (JSON has no comments)'
    if (char === "'") return 'a single quote (JSON needs double quotes)'
    if (char === '"') return 'a double quote'
    WORD.lastIndex = at
    const word = WORD.exec(text)?.[0]
    if (word !== undefined) return `the word ${word} (text needs double quotes)`
    const code = char.charCodeAt(0)
    return code < 0x20 ? `the control character U+${code.toString(16).padStart(4, '0').toUpperCase()}` : `"${char}"`
  }

  const readString = (): JsonTextScan | undefined => {
    const start = offset
    offset++
    for (;;) {
      if (offset >= text.length) return problem(start, 'this string is never closed: end it with a double quote')
      const code = text.charCodeAt(offset)
      if (code === 0x22) {
        offset++
        return undefined
      }
      if (code === 0x5c) {
        const escape = text[offset + 1]
        if (escape === undefined) return problem(start, 'this string is never closed: end it with a double quote')
        if (escape === 'u') {
          for (let digit = 2; digit < 6; digit++) {
            if (!isHexDigit(text.charCodeAt(offset + digit))) return problem(offset, 'a \\u escape needs four hex digits, like \\u00e9')
          }
          offset += 6
        } else if (SIMPLE_ESCAPES.includes(escape)) {
          offset += 2
        } else {
          return problem(offset, `"\\${escape}" is not an escape JSON knows: write \\\\ for a backslash`)
        }
        continue
      }
      if (code === 0x0a || code === 0x0d)
        return problem(offset, 'a string cannot run onto the next line: close it, or write \\n for a line break')
      if (code < 0x20) return problem(offset, `a string cannot hold ${found(offset)}: escape it, like \\t for a tab`)
      offset++
    }
  }

  const readDigits = (what: string): JsonTextScan | undefined => {
    if (!isDigit(text.charCodeAt(offset))) return problem(offset, `expected a digit ${what}, found ${found(offset)}`)
    while (isDigit(text.charCodeAt(offset))) offset++
    return undefined
  }

  const readNumber = (): JsonTextScan | undefined => {
    if (text[offset] === '-') offset++
    if (text[offset] === '0') {
      offset++
      if (isDigit(text.charCodeAt(offset))) return problem(offset - 1, 'a number cannot start with 0 followed by more digits')
    } else {
      const digits = readDigits('to start the number')
      if (digits) return digits
    }
    if (text[offset] === '.') {
      offset++
      const digits = readDigits('after the decimal point')
      if (digits) return digits
    }
    if (text[offset] === 'e' || text[offset] === 'E') {
      offset++
      if (text[offset] === '+' || text[offset] === '-') offset++
      return readDigits('in the exponent')
    }
    return undefined
  }

  const readPropertyName = (): JsonTextScan | undefined => {
    if (text[offset] !== '"') return problem(offset, `expected a property name in double quotes, found ${found(offset)}`)
    const name = readString()
    if (name) return name
    skipWhitespace()
    if (text[offset] !== ':') return problem(offset, `expected ":" after the property name, found ${found(offset)}`)
    offset++
    return undefined
  }

  if (!from) {
    skipWhitespace()
    if (offset >= text.length) return problem(offset, 'the text is empty: a site.json file holds one JSON object')
  }
  for (;;) {
    if (offset >= nextPoint || offset >= nextResync) {
      const met = atPoint()
      if (met) return met
    }
    skipWhitespace()
    if (expectingValue) {
      const char = text[offset]
      if (char === '{' || char === '[') {
        const closer = char === '{' ? '}' : ']'
        if (tooDeepAt === -1 && closers.length >= MAX_SITE_JSON_DEPTH) tooDeepAt = offset
        offset++
        skipWhitespace()
        if (text[offset] === closer) {
          offset++
          expectingValue = false
          continue
        }
        closers.push(closer)
        if (closer === '}') {
          const name = readPropertyName()
          if (name) return name
        }
        continue
      }
      let failure: JsonTextScan | undefined
      if (char === '"') failure = readString()
      else if (char === '-' || isDigit(text.charCodeAt(offset))) failure = readNumber()
      else {
        const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, offset))
        if (literal === undefined) return problem(offset, `expected a value, found ${found(offset)}`)
        offset += literal.length
      }
      if (failure) return failure
      expectingValue = false
      continue
    }

    const closer = closers.at(-1)
    if (closer === undefined) {
      return offset < text.length ? problem(offset, `expected the end of the text, found ${found(offset)}`) : result(null)
    }
    const char = text[offset]
    if (char === closer) {
      offset++
      closers.pop()
    } else if (char === ',') {
      const comma = offset
      offset++
      skipWhitespace()
      if (text[offset] === closer) return problem(comma, `remove this comma: JSON allows none before "${closer}"`)
      if (closer === '}') {
        const name = readPropertyName()
        if (name) return name
      }
      expectingValue = true
    } else {
      // A quote where a comma should be is the usual slip: a line added without one.
      const hint = char === '"' ? ': is a comma missing?' : ''
      return problem(offset, `expected "," or "${closer}", found ${found(offset)}${hint}`)
    }
  }
}
