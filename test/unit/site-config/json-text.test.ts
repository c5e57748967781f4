import { describe, expect, it } from 'vitest'
import { MAX_SITE_JSON_DEPTH, parseJsonText } from '../../../src-shared/site-config/json-text'
import { validateMintConfigText } from '../../../src-shared/site-config/mint-validate'

const syntaxErrorOf = (text: string) => {
  const parsed = parseJsonText(text)
  if (parsed.ok) throw new Error(`expected a syntax error in ${JSON.stringify(text)}`)
  return parsed.error
}

describe('validateMintConfigText', () => {
  it('validates the parsed value of valid JSON', () => {
    expect(validateMintConfigText('{"name": "Docs", "navigation": [{"group": "A", "pages": []}]}')).toEqual({
      valid: true,
      errors: [],
      warnings: [],
    })
    expect(validateMintConfigText('{"name": "Docs"}').errors).toEqual([{ path: 'navigation', message: 'is required' }])
  })

  it('reports a syntax error at $ with its line and column', () => {
    const text = '{\n  "name": "Docs",\n  "navigation": [\n    {"group": "A" "pages": []}\n  ]\n}\n'
    expect(validateMintConfigText(text)).toEqual({
      valid: false,
      errors: [
        {
          path: '$',
          message: 'is not valid JSON at line 4, column 19: expected "," or "}", found a double quote: is a comma missing?',
          line: 4,
          column: 19,
        },
      ],
      warnings: [],
    })
  })

  it('ignores a byte order mark', () => {
    expect(validateMintConfigText('\uFEFF{"name": "Docs", "navigation": [{"group": "A", "pages": []}]}').valid).toBe(true)
    expect(syntaxErrorOf('\uFEFF{,}')).toMatchObject({ line: 1, column: 2 })
  })
})

describe('JSON syntax errors', () => {
  it.each([
    ['', 1, 1, 'the text is empty: a site.json file holds one JSON object'],
    ['  \n ', 2, 2, 'the text is empty: a site.json file holds one JSON object'],
    ['{"a":}', 1, 6, 'expected a value, found "}"'],
    ['{\n  "a": 1,\n}', 2, 9, 'remove this comma: JSON allows none before "}"'],
    ['[1, 2,]', 1, 6, 'remove this comma: JSON allows none before "]"'],
    ['{"a" 1}', 1, 6, 'expected ":" after the property name, found "1"'],
    ["{'a': 1}", 1, 2, 'expected a property name in double quotes, found a single quote (JSON needs double quotes)'],
    ['{name: 1}', 1, 2, 'expected a property name in double quotes, found the word name (text needs double quotes)'],
    ['{"a": tru}', 1, 7, 'expected a value, found the word tru (text needs double quotes)'],
    ['{"a": Docs}', 1, 7, 'expected a value, found the word Docs (text needs double quotes)'],
    ['// site\n{}', 1, 1, 'expected a value, found a comment (JSON has no comments)'],
    ['{"a": 1 /* x */}', 1, 9, 'expected "," or "}", found a comment (JSON has no comments)'],
    ['["a" "b"]', 1, 6, 'expected "," or "]", found a double quote: is a comma missing?'],
    ['[1, 2', 1, 6, 'expected "," or "]", found the end of the text'],
    ['{"a": [1}', 1, 9, 'expected "," or "]", found "}"'],
    ['{"a": 1}}', 1, 9, 'expected the end of the text, found "}"'],
    ['{} {}', 1, 4, 'expected the end of the text, found "{"'],
    ['{"a": "b', 1, 7, 'this string is never closed: end it with a double quote'],
    ['{"a": "b\\', 1, 7, 'this string is never closed: end it with a double quote'],
    ['{"a": "line\nbreak"}', 1, 12, 'a string cannot run onto the next line: close it, or write \\n for a line break'],
    ['{"a": "tab\there"}', 1, 11, 'a string cannot hold the control character U+0009: escape it, like \\t for a tab'],
    ['{"a": "\\x"}', 1, 8, '"\\x" is not an escape JSON knows: write \\\\ for a backslash'],
    ['{"a": "\\u12G4"}', 1, 8, 'a \\u escape needs four hex digits, like \\u00e9'],
    ['{"a": 01}', 1, 7, 'a number cannot start with 0 followed by more digits'],
    ['{"a": -}', 1, 8, 'expected a digit to start the number, found "}"'],
    ['{"a": 1.}', 1, 9, 'expected a digit after the decimal point, found "}"'],
    ['{"a": 1e+}', 1, 10, 'expected a digit in the exponent, found "}"'],
    ['{"a": +1}', 1, 7, 'expected a value, found "+"'],
    ['{"a": .5}', 1, 7, 'expected a value, found "."'],
    ['\r\n\r\n  {,}', 3, 4, 'expected a property name in double quotes, found ","'],
    ['\r\r{,}', 3, 2, 'expected a property name in double quotes, found ","'],
    ['{\n  "a": 1,\n\n  x}', 4, 3, 'expected a property name in double quotes, found the word x (text needs double quotes)'],
    ['{\n  "a": 1,\r\n\r  x}', 4, 3, 'expected a property name in double quotes, found the word x (text needs double quotes)'],
    ['{\n  "a": x}\r\n', 2, 8, 'expected a value, found the word x (text needs double quotes)'],
  ])('%j: line %i, column %i: %s', (text, line, column, message) => {
    expect(JSON.parse.bind(null, text)).toThrow()
    expect(syntaxErrorOf(text)).toEqual({ line, column, message })
  })

  it('accepts everything JSON allows', () => {
    const text = ' {"s": "\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\ud800", "n": [-0, 0.5, 1E3, -1.25e-2, 10], "l": [true, false, null, {}, []]} '
    expect(parseJsonText(text)).toEqual({ ok: true, value: JSON.parse(text) })
  })

  it('refuses any depth of nesting past the cap at its place, before any parser, without overflowing the stack', () => {
    const depth = 200_000
    const deep = `${'['.repeat(depth)}1${']'.repeat(depth - 1)}`
    expect(syntaxErrorOf(deep)).toEqual({
      line: 1,
      column: MAX_SITE_JSON_DEPTH + 1,
      message: 'no site configuration is, so Embed Console reads it only as text',
      tooDeep: true,
    })
    // Too deep, then broken later: the depth is told, at its place. Broken first: the break is.
    const deepThenBroken = `{\n"a": ${'['.repeat(MAX_SITE_JSON_DEPTH)}{}${']'.repeat(MAX_SITE_JSON_DEPTH)},\n"b": x}`
    expect(syntaxErrorOf(deepThenBroken)).toMatchObject({ line: 2, column: MAX_SITE_JSON_DEPTH + 5, tooDeep: true })
    const brokenThenDeep = `{"b": x, "a": ${'['.repeat(MAX_SITE_JSON_DEPTH + 1)}]}`
    expect(syntaxErrorOf(brokenThenDeep)).toEqual({
      line: 1,
      column: 7,
      message: 'expected a value, found the word x (text needs double quotes)',
    })
  })
})
