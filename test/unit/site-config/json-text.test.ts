import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  MAX_SITE_JSON_DEPTH,
  parseJsonText,
  parseScannedJsonText,
  rescanJsonText,
  scanJsonText,
  type TextChange,
} from '../../../src-shared/site-config/json-text'
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

describe('rescanning a text after a change', () => {
  const applied = (text: string, { offset, removed, inserted }: TextChange) =>
    text.slice(0, offset) + inserted + text.slice(offset + removed)
  const findings = ({ problem, tooDeepAt }: ReturnType<typeof scanJsonText>) => ({ problem, tooDeepAt })
  /** Line and column of `offset`, as Monaco counts them (\n, \r\n and a lone \r end a line; a leading byte order mark is no column). */
  const placeOf = (text: string, offset: number) => {
    const breaks = [...text.matchAll(/\r\n|\r|\n/g)].filter((found) => found.index + found[0].length <= offset)
    const lineStart = breaks.length ? breaks.at(-1)!.index + breaks.at(-1)![0].length : text.startsWith('\uFEFF') ? 1 : 0
    return { line: breaks.length + 1, column: offset - lineStart + 1 }
  }

  /** JSON texts, some nested to about the cap, some with a byte order mark, some with Windows' line ends. */
  const textArbitrary = fc.oneof(
    fc.jsonValue().map((value) => JSON.stringify(value, null, 2)),
    fc.jsonValue().map((value) => JSON.stringify(value, null, 1).replaceAll('\n', '\r\n')),
    fc.jsonValue().map((value) => `\uFEFF${JSON.stringify(value)}`),
    fc
      .integer({ min: MAX_SITE_JSON_DEPTH - 2, max: MAX_SITE_JSON_DEPTH + 1 })
      .map((depth) => `{"a": ${'['.repeat(depth)}1${']'.repeat(depth)}, "b": []}`),
  )
  const changeArbitrary = fc.record({
    at: fc.nat(),
    removed: fc.nat({ max: 3 }),
    inserted: fc.string({ unit: fc.constantFrom(...'{}[],:"\\ \n\r0-e.tu/x'), maxLength: 3 }),
  })

  it('finds what a whole scan finds, and parses as parseJsonText does, through a chain of changes', () => {
    fc.assert(
      fc.property(
        textArbitrary,
        fc.array(changeArbitrary, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 12 }),
        (text, changes, spacing) => {
          let scan = scanJsonText(text, spacing)
          for (const { at, removed, inserted } of changes) {
            const offset = at % (scan.text.length + 1)
            const change = { offset, removed: Math.min(removed, scan.text.length - offset), inserted }
            const next = applied(scan.text, change)
            scan = rescanJsonText(scan, next, change)
            expect(findings(scan)).toEqual(findings(scanJsonText(next, spacing)))
            const parsed = parseScannedJsonText(scan)
            expect(parsed).toEqual(parseJsonText(next))
            const problemAt = scan.tooDeepAt !== -1 ? scan.tooDeepAt : scan.problem?.offset
            if (problemAt !== undefined && !parsed.ok) expect(parsed.error).toMatchObject(placeOf(next, problemAt))
          }
        },
      ),
      { numRuns: 400 },
    )
  })

  it.each([
    // At offset 3 a value starts before the change, and one has ended after it.
    ['[0,5]', { offset: 1, removed: 2, inserted: '""' }],
    // After the 2, two arrays are open before the change and one after it.
    ['[[1,2]]', { offset: 3, removed: 1, inserted: '],' }],
    // At offset 2 a number has ended before the change, and goes on after it.
    ['[1]', { offset: 2, removed: 0, inserted: '2' }],
  ])('meets a point of %j again only as the scan stood there', (text, change) => {
    const next = applied(text, change)
    expect(findings(rescanJsonText(scanJsonText(text, 1), next, change))).toEqual(findings(scanJsonText(next, 1)))
  })

  // A change told falsely: what the text holds away from the change shows whether the rescan read it.
  const large = JSON.stringify(
    { items: Array.from({ length: 4000 }, (_, index) => ({ name: `item ${index}`, pages: ['a', 'b'] })) },
    null,
    2,
  )

  it('reads from the last point before the change: a key at the end of the text does not read its start', () => {
    const scan = scanJsonText(large)
    const end = large.length
    // The start made invalid in the text given, unknown to the rescan: it is not read.
    const next = `[${large.slice(1)}x`
    const rescanned = rescanJsonText(scan, next, { offset: end, removed: 0, inserted: 'x' })
    expect(rescanned.problem).toEqual({ offset: end, message: 'expected the end of the text, found the word x (text needs double quotes)' })
    expect(scanJsonText(next).problem?.offset).toBeLessThan(100)
  })

  it('stops where the scan stands at a point of the previous scan as it stood there, and takes the rest from it', () => {
    const scan = scanJsonText(large)
    const at = large.indexOf('item 10"')
    const change = { offset: at, removed: 4, inserted: 'entry' }
    // Past the change and past the next point, a break the rescan does not read.
    const breakAt = large.length - 10
    const next = applied(`${large.slice(0, breakAt)}?${large.slice(breakAt + 1)}`, change)
    expect(rescanJsonText(scan, next, change).problem).toBeNull()
    expect(scanJsonText(next).problem).toMatchObject({ offset: breakAt + 1 })
    // The points past the change are the previous ones, moved by the change's length.
    const rescanned = rescanJsonText(scan, applied(large, change), change)
    const last = scan.points.at(-1)!
    expect(rescanned.points.at(-1)).toEqual({ ...last, offset: last.offset + 1, lineStart: last.lineStart + 1 })
  })
})
