import { describe, expect, it } from 'vitest'
import { parseBulkInput } from '../../../src-main/bulk/bulk-input'
import { MAX_BULK_ROWS } from '../../../src-shared/bulk/schemas'

describe('bulk input: CSV', () => {
  it('reads a header row and JSON cells, with each row’s line', () => {
    const csv = [
      'user_group_id,name,mapping,properties',
      'acme,Acme,"{""sales"":""warehouse""}","{""plan"":""pro""}"',
      '',
      'globex,"Globex, Inc.",,',
      'initech,"Two',
      'lines",,"{""seats"": 3}"',
    ].join('\r\n')
    const parsed = parseBulkInput(csv, 'groups.csv', 'apply')
    expect(parsed.problems).toEqual([])
    expect(parsed.format).toBe('csv')
    expect(parsed.rows).toEqual([
      { line: 2, request: { user_group_id: 'acme', name: 'Acme', mapping: { sales: 'warehouse' }, properties: { plan: 'pro' } } },
      { line: 4, request: { user_group_id: 'globex', name: 'Globex, Inc.' } },
      { line: 5, request: { user_group_id: 'initech', name: 'Two\r\nlines', properties: { seats: 3 } } },
    ])
  })

  it('lists every bad row with its line, column and a sentence, and reports duplicate ids', () => {
    const csv = [
      'user_group_id,name,mapping,properties',
      'ok-1,One,,',
      ',No id,,',
      'bad-mapping,,"{""a"": 1}",',
      'bad-json,,,{not json',
      'ok-1,Again,,',
      ' spaced ,,,',
      'zero\u200bwidth,,,',
      'array-props,,,"[1,2]"',
      'short-row',
    ].join('\n')
    const { rows, problems } = parseBulkInput(csv, 'groups.csv', 'apply')
    expect(rows.map((row) => row.request.user_group_id)).toEqual(['ok-1'])
    expect(problems).toEqual([
      { line: 3, column: 'user_group_id', message: 'user_group_id: a non-empty string is required.' },
      { line: 4, column: 'mapping', message: 'a: must be a string: the data source, or the id you gave it.' },
      { line: 5, column: 'properties', message: expect.stringMatching(/^This is not JSON: /) },
      { line: 6, column: 'user_group_id', message: '"ok-1" is on line 2 too: each id may be in the file once.' },
      { line: 7, column: 'user_group_id', message: expect.stringMatching(/^user_group_id starts with a space/) },
      { line: 8, column: 'user_group_id', message: expect.stringMatching(/^user_group_id holds a hidden character \(U\+200B, invisible or not a plain space\) at position 5/) },
      { line: 9, column: 'properties', message: expect.stringMatching(/expected record/i) },
      { line: 10, message: 'This row has 1 cell; the header has 4.' },
    ])
  })

  it('refuses unknown columns and a header without user_group_id', () => {
    expect(parseBulkInput('user_group_id,nmae\nacme,Acme', 'x.csv', 'apply').problems).toEqual([
      { line: 1, column: 'nmae', message: '"nmae" is not a column Embed Console knows: the header names user_group_id, name, mapping and properties.' },
    ])
    expect(parseBulkInput('id,name\nacme,Acme', 'x.csv', 'apply').problems).toContainEqual({ line: 1, message: 'The header row has no user_group_id column.' })
  })

  it('refuses JSON cells nested more than 64 levels deep', () => {
    const deep = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`
    const csv = `user_group_id,properties\ndeep,"${deep.replaceAll('"', '""')}"`
    expect(parseBulkInput(csv, 'x.csv', 'apply').problems).toEqual([{ line: 2, column: 'properties', message: 'The JSON is nested more than 64 levels deep.' }])
  })

  it('refuses more than 100,000 rows in one sentence', () => {
    const csv = ['user_group_id', ...Array.from({ length: MAX_BULK_ROWS + 1 }, (_, index) => `g${index}`)].join('\n')
    const { rows, problems } = parseBulkInput(csv, 'big.csv', 'apply')
    expect(rows).toEqual([])
    expect(problems).toEqual([{ line: MAX_BULK_ROWS + 2, message: 'The file has 100,001 rows; a run takes at most 100,000. Split it.' }])
  })
})

describe('bulk input: JSON and JSON Lines', () => {
  it('reads an array of requests with the line each starts on', () => {
    const json = '[\n  {"user_group_id": "a", "name": "A"},\n\n  {\n    "user_group_id": "b",\n    "properties": {"x": 1}\n  }\n]'
    expect(parseBulkInput(json, 'groups.json', 'apply')).toEqual({
      format: 'json',
      rows: [
        { line: 2, request: { user_group_id: 'a', name: 'A' } },
        { line: 4, request: { user_group_id: 'b', properties: { x: 1 } } },
      ],
      problems: [],
    })
  })

  it('says where a JSON file breaks, and what a row lacks', () => {
    expect(parseBulkInput('[\n {"user_group_id": "a"},\n {"user_group_id": }\n]', 'g.json', 'apply').problems).toEqual([{ line: 3, message: 'The JSON breaks here: ValueExpected.' }])
    expect(parseBulkInput('{"user_group_id": "a"}', 'g.json', 'apply').problems).toEqual([
      { line: 1, message: 'A JSON file holds an array of request objects (or use JSON Lines: one object a line).' },
    ])
    expect(parseBulkInput('[{"user_group_id": "a", "nmae": "x"}, 5]', 'g.json', 'apply').problems).toEqual([
      { line: 1, message: 'nmae is not a field of a request: use user_group_id, name, mapping and properties.' },
      { line: 1, message: 'This row is not an object with a user_group_id.' },
    ])
  })

  it('reads JSON Lines, skipping blank lines, with problems by line', () => {
    const jsonl = '{"user_group_id":"a"}\n\n{"user_group_id":"b","name":7}\n{broken\n{"user_group_id":"c"}\n'
    const { format, rows, problems } = parseBulkInput(jsonl, 'groups.jsonl', 'apply')
    expect(format).toBe('jsonl')
    expect(rows.map((row) => [row.line, row.request.user_group_id])).toEqual([
      [1, 'a'],
      [5, 'c'],
    ])
    expect(problems).toEqual([
      { line: 3, column: 'name', message: expect.stringMatching(/expected string/i) },
      { line: 4, message: expect.stringMatching(/^This is not JSON: /) },
    ])
  })

  it('takes only user_group_id for a rotation, whatever else a row holds', () => {
    const { rows, problems } = parseBulkInput('user_group_id,name\nacme,Acme\nglobex,', 'ids.csv', 'rotate')
    expect(problems).toEqual([])
    expect(rows).toEqual([
      { line: 2, request: { user_group_id: 'acme' } },
      { line: 3, request: { user_group_id: 'globex' } },
    ])
  })

  it('refuses in the plan what the client would refuse at send: NUL, a right-to-left override, a control character', () => {
    const csv = ['user_group_id,name', '"nul\u0000id",x', '"evil\u202Egnp.exe",y', '"tab\tid",z', 'fine,w'].join('\n')
    const { rows, problems } = parseBulkInput(csv, 'groups.csv', 'apply')
    expect(rows.map((row) => row.request.user_group_id)).toEqual(['fine'])
    expect(problems.map((problem) => [problem.line, problem.message.match(/U\+[0-9A-F]{4}/)?.[0]])).toEqual([
      [2, 'U+0000'],
      [3, 'U+202E'],
      [4, 'U+0009'],
    ])
  })

  it('refuses a header that names a column twice, saying which', () => {
    const { rows, problems } = parseBulkInput('user_group_id,name,name\nacme,One,Two', 'groups.csv', 'apply')
    expect(rows).toEqual([])
    expect(problems).toContainEqual({ line: 1, column: 'name', message: '"name" is a column of the header twice (columns 2 and 3): keep one.' })
  })
})
