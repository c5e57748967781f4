import { extname } from 'node:path'
import { getNodeValue, type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser'
import Papa from 'papaparse'
import { type BulkFormat, type BulkKind, type BulkProblem, MAX_BULK_ROWS } from '../../src-shared/bulk/schemas'
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '../../src-shared/json/depth'
import { plural } from '../../src-shared/text/plural'
import { checkOutgoing } from '../../src-shared/user-api/outgoing'
import type { GetOrCreateRequest } from '../../src-shared/user-api/schemas'

/** One row of the input, validated with the shared request schema, and the line it starts on. */
export interface BulkRow {
  line: number
  request: GetOrCreateRequest
}

export interface ParsedBulkInput {
  format: BulkFormat
  rows: BulkRow[]
  problems: BulkProblem[]
}

const CSV_COLUMNS = ['user_group_id', 'name', 'mapping', 'properties'] as const
type CsvColumn = (typeof CSV_COLUMNS)[number]
const JSON_COLUMNS = new Set<string>(['mapping', 'properties'])

/** Spaces at either end, or a character nobody can see: an id the operator could never type again. */

export function formatOf(fileName: string, text: string): BulkFormat {
  const extension = extname(fileName).slice(1).toLowerCase()
  if (extension === 'csv' || extension === 'tsv') return 'csv'
  if (extension === 'jsonl' || extension === 'ndjson') return 'jsonl'
  if (extension === 'json') return 'json'
  const first = text.trimStart()[0]
  return first === '[' ? 'json' : first === '{' ? 'jsonl' : 'csv'
}

/** Offsets where each line starts, to turn a character offset into a 1-based line number. */
function lineIndex(text: string): (offset: number) => number {
  const starts = [0]
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1)
  return (offset) => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (starts[middle]! <= offset) low = middle
      else high = middle - 1
    }
    return low + 1
  }
}

/**
 * Reads a bulk file: CSV with a header row (`user_group_id`, `name`, `mapping`, `properties`, the
 * last two as JSON text), a JSON array of request objects, or JSON Lines. Every row is checked
 * with the shared request schema; every problem is listed with its line, column and a sentence,
 * and ids that appear twice are reported. For a rotation only `user_group_id` matters.
 */
export function parseBulkInput(text: string, fileName: string, kind: BulkKind): ParsedBulkInput {
  const body = text.replace(/^\uFEFF/, '')
  const format = formatOf(fileName, body)
  const problems: BulkProblem[] = []
  const records =
    format === 'csv' ? csvRecords(body, problems) : format === 'json' ? jsonRecords(body, problems) : jsonLinesRecords(body, problems)

  if (records.length > MAX_BULK_ROWS) {
    return {
      format,
      rows: [],
      problems: [
        {
          line: records[MAX_BULK_ROWS]!.line,
          message: `The file has ${records.length.toLocaleString('en')} rows; a run takes at most ${MAX_BULK_ROWS.toLocaleString('en')}. Split it.`,
        },
      ],
    }
  }
  const rows: BulkRow[] = []
  const firstLineOf = new Map<string, number>()
  for (const record of records) {
    const request = checkRecord(record, kind, problems)
    if (!request) continue
    const earlier = firstLineOf.get(request.user_group_id)
    if (earlier !== undefined) {
      problems.push({
        line: record.line,
        column: 'user_group_id',
        message: `"${request.user_group_id}" is on line ${earlier} too: each id may be in the file once.`,
      })
      continue
    }
    firstLineOf.set(request.user_group_id, record.line)
    rows.push({ line: record.line, request })
  }
  if (records.length === 0 && problems.length === 0) problems.push({ line: 1, message: 'The file holds no rows.' })
  problems.sort((a, b) => a.line - b.line)
  return { format, rows, problems }
}

interface RawRecord {
  line: number
  value: unknown
  /** CSV only: which columns held JSON text that did not parse (already reported). */
  broken?: Set<string>
}

function checkRecord(record: RawRecord, kind: BulkKind, problems: BulkProblem[]): GetOrCreateRequest | null {
  const { line, value } = record
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ line, message: 'This row is not an object with a user_group_id.' })
    return null
  }
  if (record.broken?.size) return null
  const fields = kind === 'rotate' ? { user_group_id: (value as { user_group_id?: unknown }).user_group_id } : value
  // The one outgoing check (the client's at send): a row that would be refused there is refused in the plan.
  const checked = checkOutgoing('getOrCreate', fields)
  if (checked.ok) return checked.value
  for (const issue of checked.issues) {
    const [column, ...rest] = issue.path
    if (issue.kind === 'user_group_id') problems.push({ line, column: 'user_group_id', message: issue.message })
    else if (issue.unknownKeys) {
      const keys = issue.unknownKeys
      problems.push({
        line,
        message: `${keys.join(', ')} ${keys.length === 1 ? 'is not a field' : 'are not fields'} of a request: use user_group_id, name, mapping and properties.`,
      })
    } else if (column === 'user_group_id') problems.push({ line, column, message: `user_group_id: ${issue.message}.` })
    else problems.push({ line, ...(column ? { column } : {}), message: `${rest.length ? `${rest.join('.')}: ` : ''}${issue.message}.` })
  }
  return null
}

function csvRecords(text: string, problems: BulkProblem[]): RawRecord[] {
  const lineOf = lineIndex(text)
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' })
  for (const error of parsed.errors) {
    // A one-column file has no delimiter to detect. (Papa counts a row's fields only in header
    // mode, not used here: a ragged row is checked below, against the header.)
    if (error.code === 'UndetectableDelimiter') continue
    problems.push({ line: error.index === undefined ? 1 : lineOf(error.index), message: `${error.message}.` })
  }
  const [header, ...data] = parsed.data
  if (!header) return []
  const columns = header.map((name) => name.trim())
  // A column named twice: which cell would win is a guess, and a guess sends the wrong value.
  // No row is read then, even with the bad ones left out: every row would be a guess.
  const twice = columns.filter((name, at) => columns.indexOf(name) !== at)
  for (const name of twice) {
    problems.push({
      line: 1,
      column: name,
      message: `"${name}" is a column of the header twice (columns ${columns.indexOf(name) + 1} and ${columns.lastIndexOf(name) + 1}): keep one.`,
    })
  }
  if (twice.length) return []
  for (const name of new Set(columns)) {
    if (!(CSV_COLUMNS as readonly string[]).includes(name)) {
      problems.push({
        line: 1,
        column: name,
        message: `"${name}" is not a column Embed Console knows: the header names user_group_id, name, mapping and properties.`,
      })
    }
  }
  if (!columns.includes('user_group_id')) {
    problems.push({ line: 1, message: 'The header row has no user_group_id column.' })
    return []
  }
  // Papa gives no line numbers in this mode: find each row's start by counting the rows' text.
  const starts = csvRowStarts(text)
  return data.map((cells, index): RawRecord => {
    const line = lineOf(starts[index + 1] ?? text.length)
    const value: Partial<Record<CsvColumn, unknown>> = {}
    const broken = new Set<string>()
    if (cells.length !== columns.length) {
      problems.push({ line, message: `This row has ${plural(cells.length, 'cell')}; the header has ${columns.length}.` })
      broken.add('*')
    }
    columns.forEach((column, at) => {
      const cell = cells[at]
      if (cell === undefined || cell === '' || !(CSV_COLUMNS as readonly string[]).includes(column)) return
      if (!JSON_COLUMNS.has(column)) {
        value[column as CsvColumn] = cell
        return
      }
      const json = parseJsonCell(cell)
      if (json.ok) value[column as CsvColumn] = json.value
      else {
        broken.add(column)
        problems.push({ line, column, message: json.message })
      }
    })
    return { line, value, broken }
  })
}

/**
 * The offset each CSV row starts at. Quoted cells may hold line breaks, so rows are found by
 * walking the text with the quoting rules Papa applies (RFC 4180), skipping blank lines as its
 * `skipEmptyLines: 'greedy'` does.
 */
function csvRowStarts(text: string): number[] {
  const starts: number[] = []
  let rowStart = 0
  let quoted = false
  const close = (end: number) => {
    if (text.slice(rowStart, end).trim() !== '') starts.push(rowStart)
  }
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index)
    if (char === 0x22) quoted = !quoted
    else if (char === 0x0a && !quoted) {
      close(index)
      rowStart = index + 1
    }
  }
  close(text.length)
  return starts
}

function parseJsonCell(cell: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (jsonTextTooDeep(cell)) return { ok: false, message: `The JSON is nested more than ${MAX_JSON_DEPTH} levels deep.` }
  try {
    return { ok: true, value: JSON.parse(cell) }
  } catch (error) {
    return { ok: false, message: `This is not JSON: ${(error as Error).message.replace(/^JSON\.parse: /, '')}.` }
  }
}

function jsonRecords(text: string, problems: BulkProblem[]): RawRecord[] {
  const lineOf = lineIndex(text)
  // Each request is an element of the array: two levels of the depth allowance go to that.
  if (jsonTextTooDeep(text, MAX_JSON_DEPTH + 2)) {
    problems.push({ line: 1, message: `The JSON is nested more than ${MAX_JSON_DEPTH} levels deep.` })
    return []
  }
  const errors: ParseError[] = []
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false })
  for (const error of errors.slice(0, 20)) {
    problems.push({ line: lineOf(error.offset), message: `The JSON breaks here: ${printParseErrorCode(error.error)}.` })
  }
  if (errors.length > 0) return []
  if (!tree || tree.type !== 'array') {
    problems.push({ line: 1, message: 'A JSON file holds an array of request objects (or use JSON Lines: one object a line).' })
    return []
  }
  return (tree.children ?? []).map((element: Node) => ({ line: lineOf(element.offset), value: getNodeValue(element) }))
}

function jsonLinesRecords(text: string, problems: BulkProblem[]): RawRecord[] {
  const records: RawRecord[] = []
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim()
    if (!line) return
    const json = parseJsonCell(line)
    // parseJsonCell refuses a line nested deeper than MAX_JSON_DEPTH before parsing it.
    if (!json.ok) problems.push({ line: index + 1, message: json.message })
    else records.push({ line: index + 1, value: json.value })
  })
  return records
}
