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
 * engines and often carry no position, so a failure is located again by `findSyntaxError`.
 *
 * A text nested deeper than MAX_SITE_JSON_DEPTH is refused with its place: JSON.parse reads any
 * depth without recursing, but every reader after it (the checks, the form, the CLI) recurses. The
 * depth is scanned after JSON.parse; when the text has a syntax error, by the scan that finds it,
 * up to it (a key that breaks a 2.3 MB text near its start is told without reading the rest).
 * Either way the first of the two problems in the text is the one told.
 */
export function parseJsonText(text: string): ParsedJsonText {
  const json = text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (error) {
    // The scanner follows the same grammar as JSON.parse (a property test holds them together);
    // should they ever disagree, the engine's own words at the start still beat a throw.
    const found = findSyntaxError(json) ?? { offset: 0, message: (error as Error).message, tooDeepAt: -1 }
    if (found.tooDeepAt !== -1) return { ok: false, error: tooDeepError(json, found.tooDeepAt) }
    return { ok: false, error: { message: found.message, ...lineAndColumn(json, found.offset) } }
  }
  const tooDeep = jsonDepthExceededAt(json, MAX_SITE_JSON_DEPTH)
  return tooDeep === -1 ? { ok: true, value } : { ok: false, error: tooDeepError(json, tooDeep) }
}

const tooDeepError = (json: string, offset: number): JsonSyntaxError => ({
  message: 'no site configuration is, so Embed Console reads it only as text',
  ...lineAndColumn(json, offset),
  tooDeep: true,
})

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  const carriageReturn = text.indexOf('\r')
  if (carriageReturn === -1 || carriageReturn >= offset) {
    // Every line before the place ends with \n alone: indexOf finds them (about 2 ms through the
    // 50,000 lines of a 2.3 MB docs.json, where reading each character took about 15).
    for (let end = text.indexOf('\n'); end !== -1 && end < offset; end = text.indexOf('\n', end + 1)) {
      line++
      lineStart = end + 1
    }
    return { line, column: offset - lineStart + 1 }
  }
  for (let index = 0; index < offset; index++) {
    const code = text.charCodeAt(index)
    // \n, \r\n and a lone \r each end a line, as in Monaco.
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(index + 1) !== 0x0a)) {
      line++
      lineStart = index + 1
    }
  }
  return { line, column: offset - lineStart + 1 }
}

interface SyntaxProblem {
  offset: number
  message: string
  /** Where the text first opened more than MAX_SITE_JSON_DEPTH arrays and objects before the problem, or -1. */
  tooDeepAt: number
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39
const isHexDigit = (code: number) => isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66)
const SIMPLE_ESCAPES = '"\\/bfnrt'
const WORD = /[A-Za-z_$][\w$]*/y

/**
 * The first place where `text` breaks the JSON grammar, with a sentence a writer can act on, or
 * undefined for valid JSON. It only scans (builds no values), and it is iterative, so no nesting
 * depth can overflow the stack.
 */
function findSyntaxError(text: string): SyntaxProblem | undefined {
  let offset = 0
  // The closing character each open container is waiting for.
  const closers: string[] = []
  // The depth is watched on the way, as jsonDepthExceededAt would find it up to the problem: a
  // second scan of a 2.3 MB text broken near its end took about 20 ms.
  let tooDeepAt = -1

  const problem = (at: number, message: string): SyntaxProblem => ({ offset: at, message, tooDeepAt })
  const skipWhitespace = () => {
    while (offset < text.length) {
      const code = text.charCodeAt(offset)
      if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return
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

  const readString = (): SyntaxProblem | undefined => {
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

  const readDigits = (what: string): SyntaxProblem | undefined => {
    if (!isDigit(text.charCodeAt(offset))) return problem(offset, `expected a digit ${what}, found ${found(offset)}`)
    while (isDigit(text.charCodeAt(offset))) offset++
    return undefined
  }

  const readNumber = (): SyntaxProblem | undefined => {
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

  const readPropertyName = (): SyntaxProblem | undefined => {
    if (text[offset] !== '"') return problem(offset, `expected a property name in double quotes, found ${found(offset)}`)
    const name = readString()
    if (name) return name
    skipWhitespace()
    if (text[offset] !== ':') return problem(offset, `expected ":" after the property name, found ${found(offset)}`)
    offset++
    return undefined
  }

  skipWhitespace()
  if (offset >= text.length) return problem(offset, 'the text is empty: a site.json file holds one JSON object')
  let expectingValue = true
  for (;;) {
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
      let failure: SyntaxProblem | undefined
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
      return offset < text.length ? problem(offset, `expected the end of the text, found ${found(offset)}`) : undefined
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
