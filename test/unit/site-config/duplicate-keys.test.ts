import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { visit } from 'jsonc-parser'
import { describe, expect, it } from 'vitest'
import { type DuplicateKey, findDuplicateKeys } from '../../../src-shared/site-config/duplicate-keys'
import { findCorpus } from '../../helpers/corpus'

/** The reference: jsonc-parser's visitor, which tokenises the whole text (what the scan replaced for speed). */
function byVisitor(text: string): DuplicateKey[] {
  const duplicates: DuplicateKey[] = []
  const objects: Map<string, { line: number; column: number; reported: boolean }>[] = []
  visit(text, {
    onObjectBegin: () => void objects.push(new Map()),
    onObjectEnd: () => void objects.pop(),
    onObjectProperty: (key, _offset, _length, startLine, startCharacter, pathSupplier) => {
      const seen = objects.at(-1)!
      const here = { line: startLine + 1, column: startCharacter + 1 }
      const first = seen.get(key)
      if (!first) return void seen.set(key, { ...here, reported: false })
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

const DOCS_JSON = findCorpus('docsjson')

describe('findDuplicateKeys', () => {
  it('names each occurrence, its place and the other one, inside arrays and nested objects', () => {
    const text = '{\r\n "a": [1, {"x": 1, "y": "\\"x\\"", "x": 2}],\r "b": {"\\u0061": 1, "a": 2, "a": 3}, "a": 0\n}'
    expect(findDuplicateKeys(text)).toEqual([
      { segments: ['a', 1, 'x'], line: 2, column: 12, otherLine: 2, otherColumn: 34 },
      { segments: ['a', 1, 'x'], line: 2, column: 34, otherLine: 2, otherColumn: 12 },
      { segments: ['b', 'a'], line: 3, column: 8, otherLine: 3, otherColumn: 21 },
      { segments: ['b', 'a'], line: 3, column: 21, otherLine: 3, otherColumn: 8 },
      { segments: ['b', 'a'], line: 3, column: 29, otherLine: 3, otherColumn: 8 },
      { segments: ['a'], line: 2, column: 2, otherLine: 3, otherColumn: 38 },
      { segments: ['a'], line: 3, column: 38, otherLine: 2, otherColumn: 2 },
    ])
    expect(findDuplicateKeys(text)).toEqual(byVisitor(text))
  })

  it('answers as a full JSON tokeniser does on any JSON text with repeated keys', () => {
    const key = fc.constantFrom('a', 'b', '\\u0061', 'a\\"b', 'a\\\\', 'é', '')
    const value: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('1', 'null', '"x\\\\"', '"{\\"a\\": 1}"', '[]', '{}'),
        fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
        fc
          .array(fc.tuple(key, tie('value'), fc.constantFrom('', ' ', '\n', '\r\n', '\r')), { maxLength: 5 })
          .map((entries) => `{${entries.map(([name, item, gap]) => `${gap}"${name}":${item}`).join(',')}}`),
      ),
    })).value
    fc.assert(
      fc.property(value, fc.boolean(), (text, bom) => {
        const full = bom ? `\ufeff${text}` : text
        JSON.parse(text)
        expect(findDuplicateKeys(full)).toEqual(byVisitor(full))
      }),
      { numRuns: 2_000 },
    )
  })

  it.skipIf(!DOCS_JSON.dir)(`answers as the tokeniser does on every docs.json of the shared corpus${DOCS_JSON.skipNote}`, async () => {
    for (const name of (await readdir(DOCS_JSON.dir!)).sort()) {
      const text = await readFile(join(DOCS_JSON.dir!, name), 'utf8')
      expect(findDuplicateKeys(text), name).toEqual(byVisitor(text))
    }
  })
})
