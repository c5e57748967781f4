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
      '\ufeffjoined,,,',
    ].join('\n')
    const { rows, problems } = parseBulkInput(csv, 'groups.csv', 'apply')
    expect(rows.map((row) => row.request.user_group_id)).toEqual(['ok-1'])
    expect(problems).toEqual([
      { line: 3, column: 'user_group_id', message: 'user_group_id: a non-empty string is required.' },
      { line: 4, column: 'mapping', message: 'a: must be a string: the data source, or the id you gave it.' },
      { line: 5, column: 'properties', message: expect.stringMatching(/^This is not JSON: /) },
      { line: 6, column: 'user_group_id', message: '"ok-1" is on line 2 too: each id may be in the file once.' },
      { line: 7, column: 'user_group_id', message: expect.stringMatching(/^user_group_id starts with a space/) },
      {
        line: 8,
        column: 'user_group_id',
        message: expect.stringMatching(/^user_group_id holds a hidden character \(U\+200B, invisible or not a plain space\) at position 5/),
      },
      { line: 9, column: 'properties', message: expect.stringMatching(/expected record/i) },
      { line: 10, message: 'This row has 1 cell; the header has 4.' },
      // A second file joined into this one: its byte order mark is named, not called a space.
      { line: 11, column: 'user_group_id', message: expect.stringMatching(/^user_group_id starts with a byte order mark \(U\+FEFF\)/) },
    ])
  })

  it('refuses unknown columns and a header without user_group_id', () => {
    expect(parseBulkInput('user_group_id,nmae\nacme,Acme', 'x.csv', 'apply').problems).toEqual([
      {
        line: 1,
        column: 'nmae',
        message: '"nmae" is not a column Embed Console knows: the header names user_group_id, name, mapping and properties.',
      },
    ])
    expect(parseBulkInput('id,name\nacme,Acme', 'x.csv', 'apply').problems).toContainEqual({
      line: 1,
      message: 'The header row has no user_group_id column.',
    })
  })

  it('refuses JSON cells nested more than 64 levels deep', () => {
    const deep = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`
    const csv = `user_group_id,properties\ndeep,"${deep.replaceAll('"', '""')}"`
    expect(parseBulkInput(csv, 'x.csv', 'apply').problems).toEqual([
      { line: 2, column: 'properties', message: 'The JSON is nested more than 64 levels deep.' },
    ])
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
    expect(parseBulkInput('[\n {"user_group_id": "a"},\n {"user_group_id": }\n]', 'g.json', 'apply').problems).toEqual([
      { line: 3, message: 'The JSON breaks here: ValueExpected.' },
    ])
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
    expect(problems).toContainEqual({
      line: 1,
      column: 'name',
      message: '"name" is a column of the header twice (columns 2 and 3): keep one.',
    })
  })
})

describe('bulk input: what the name and the text say', () => {
  const formatOf = (fileName: string, text: string) => parseBulkInput(text, fileName, 'apply').format

  it('takes the format from the extension, in any case, and sniffs the text without one', () => {
    expect(formatOf('a.CSV', '[]')).toBe('csv')
    expect(formatOf('a.tsv', '[]')).toBe('csv')
    expect(formatOf('a.jsonl', '[]')).toBe('jsonl')
    expect(formatOf('a.NDJSON', '[]')).toBe('jsonl')
    expect(formatOf('a.json', 'id')).toBe('json')
    expect(formatOf('a.json.txt', 'user_group_id')).toBe('csv')
    expect(formatOf('rows', '  [{"user_group_id": "a"}]')).toBe('json')
    expect(formatOf('rows.txt', '\n{"user_group_id": "a"}')).toBe('jsonl')
    expect(formatOf('rows.txt', 'user_group_id\nacme')).toBe('csv')
    expect(formatOf('rows.txt', '')).toBe('csv')
  })

  it('drops a byte order mark at the start, and keeps one anywhere else', () => {
    expect(parseBulkInput('\ufeffuser_group_id,name\nacme,A\ufeffB\n', 'x.csv', 'apply')).toEqual({
      format: 'csv',
      rows: [{ line: 2, request: { user_group_id: 'acme', name: 'A\ufeffB' } }],
      problems: [],
    })
  })

  it('says a file holds no rows when it has none and nothing else is wrong', () => {
    const empty = [{ line: 1, message: 'The file holds no rows.' }]
    expect(parseBulkInput('', 'x.csv', 'apply').problems).toEqual(empty)
    expect(parseBulkInput('\n\n', 'x.csv', 'apply').problems).toEqual(empty)
    expect(parseBulkInput('user_group_id,name\n', 'x.csv', 'apply').problems).toEqual(empty)
    expect(parseBulkInput('[]', 'x.json', 'apply').problems).toEqual(empty)
    expect(parseBulkInput('\n   \n', 'x.jsonl', 'apply').problems).toEqual(empty)
    expect(parseBulkInput('name\nA\n', 'x.csv', 'apply').problems).toEqual([
      { line: 1, message: 'The header row has no user_group_id column.' },
    ])
    expect(parseBulkInput('user_group_id,user_group_id\na,b\n', 'x.csv', 'apply').problems).toEqual([
      { line: 1, column: 'user_group_id', message: '"user_group_id" is a column of the header twice (columns 1 and 2): keep one.' },
    ])
  })

  it('trims the names of the header', () => {
    expect(parseBulkInput(' user_group_id , name \nacme,Acme\n', 'x.csv', 'apply').rows).toEqual([
      { line: 2, request: { user_group_id: 'acme', name: 'Acme' } },
    ])
  })

  it('says what is wrong with a row, field by field', () => {
    const problems = (line: string) => parseBulkInput(line, 'x.jsonl', 'apply').problems
    expect(problems('null')).toEqual([{ line: 1, message: 'This row is not an object with a user_group_id.' }])
    expect(problems('[{"user_group_id": "a"}]')).toEqual([{ line: 1, message: 'This row is not an object with a user_group_id.' }])
    expect(problems('"a"')).toEqual([{ line: 1, message: 'This row is not an object with a user_group_id.' }])
    expect(problems('{"user_group_id": "a", "name": 5}')).toEqual([
      { line: 1, column: 'name', message: 'Invalid input: expected string, received number.' },
    ])
    expect(problems('{"user_group_id": 5}')).toEqual([
      { line: 1, column: 'user_group_id', message: 'user_group_id: a non-empty string is required.' },
    ])
    expect(problems('{"user_group_id": "a", "extra": 1}')).toEqual([
      { line: 1, message: 'extra is not a field of a request: use user_group_id, name, mapping and properties.' },
    ])
    expect(problems('{"user_group_id": "a", "extra": 1, "more": 2}')).toEqual([
      { line: 1, message: 'extra, more are not fields of a request: use user_group_id, name, mapping and properties.' },
    ])
    const nested = problems('{"user_group_id": "a", "mapping": {"sales": 5}}')
    expect(nested).toHaveLength(1)
    expect(nested[0]).toMatchObject({ line: 1, column: 'mapping', message: expect.stringMatching(/^sales: .+\.$/) })
  })

  it('reports where Papa says CSV breaks, and a ragged row once, by its own count', () => {
    expect(parseBulkInput('user_group_id,name\nacme,A\n"b,x\n', 'x.csv', 'apply').problems).toEqual([
      { line: 3, message: 'Quoted field unterminated.' },
      { line: 3, message: 'This row has 1 cell; the header has 2.' },
    ])
    expect(parseBulkInput('user_group_id,name\nacme\nb,B,c\n', 'x.csv', 'apply').problems).toEqual([
      { line: 2, message: 'This row has 1 cell; the header has 2.' },
      { line: 3, message: 'This row has 3 cells; the header has 2.' },
    ])
    expect(parseBulkInput('user_group_id\nacme\n', 'x.csv', 'apply')).toMatchObject({ rows: [{ line: 2 }], problems: [] })
  })

  it('numbers the rows after a quoted cell with line breaks by where they start', () => {
    const csv = 'user_group_id,name\na,"one\ntwo\nthree"\nb,B\n\nc,"x""y"\nd,D\n'
    expect(parseBulkInput(csv, 'x.csv', 'apply').rows.map((row) => [row.line, row.request.user_group_id])).toEqual([
      [2, 'a'],
      [5, 'b'],
      [7, 'c'],
      [8, 'd'],
    ])
  })

  it('caps nesting at 64 levels for a request, in a JSON array and in JSON Lines', () => {
    const request = (levels: number) => `{"user_group_id": "a", "properties": {"p": ${'['.repeat(levels)}${']'.repeat(levels)}}}`
    const tooDeep = [{ line: 1, message: 'The JSON is nested more than 64 levels deep.' }]
    // The array and the request object take two levels of the allowance.
    expect(parseBulkInput(`[${request(63)}]`, 'x.json', 'apply')).toMatchObject({ rows: [{ line: 1 }], problems: [] })
    expect(parseBulkInput(`[${request(64)}]`, 'x.json', 'apply').problems).toEqual(tooDeep)
    expect(parseBulkInput(request(62), 'x.jsonl', 'apply')).toMatchObject({ rows: [{ line: 1 }], problems: [] })
    expect(parseBulkInput(request(63), 'x.jsonl', 'apply').problems).toEqual(tooDeep)
  })

  it('refuses comments and trailing commas in a JSON file, and lists at most 20 breaks', () => {
    expect(parseBulkInput('[{"user_group_id": "a"} /* c */]', 'x.json', 'apply').problems).toEqual([
      { line: 1, message: 'The JSON breaks here: InvalidCommentToken.' },
    ])
    expect(parseBulkInput('[{"user_group_id": "a"},]', 'x.json', 'apply').problems).toEqual([
      { line: 1, message: 'The JSON breaks here: ValueExpected.' },
    ])
    expect(parseBulkInput(`[${'{"user_group_id": "a"} '.repeat(30)}]`, 'x.json', 'apply').problems).toHaveLength(20)
  })

  it('takes exactly the most rows a run allows', () => {
    const csv = `user_group_id\n${Array.from({ length: MAX_BULK_ROWS }, (_, index) => `g-${index}`).join('\n')}\n`
    const parsed = parseBulkInput(csv, 'x.csv', 'rotate')
    expect(parsed.problems).toEqual([])
    expect(parsed.rows).toHaveLength(MAX_BULK_ROWS)
  })
})

describe('reading a bulk file: what is not a problem', () => {
  it('takes a one-column file without a word on its delimiter, and a byte order mark only at the start', () => {
    expect(parseBulkInput('user_group_id\nacme\nbeta\n', 'ids.csv', 'rotate')).toEqual({
      format: 'csv',
      rows: [
        { line: 2, request: { user_group_id: 'acme' } },
        { line: 3, request: { user_group_id: 'beta' } },
      ],
      problems: [],
    })
    // U+FEFF inside a name is the operator's text, kept as it is; only a leading one is a mark.
    for (const text of ['user_group_id,name\nacme,A\ufeffB\n', '\ufeffuser_group_id,name\nacme,A\ufeffB\n']) {
      const parsed = parseBulkInput(text, 'x.csv', 'apply')
      expect(parsed.problems).toEqual([])
      expect(parsed.rows).toEqual([{ line: 2, request: { user_group_id: 'acme', name: 'A\ufeffB' } }])
    }
  })
})
