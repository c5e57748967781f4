import { expect, it } from 'vitest'
import type { z } from 'zod'
import { validateMintConfig } from '../../../src-shared/site-config/mint-validate'
import { formatProblemPath } from '../../../src-shared/site-config/problem-path'

/** A file that is valid and warning-free, to put the object under test into. */
export const MINIMAL_CONFIG = {
  name: 'Acme Docs',
  navigation: [{ group: 'Get started', pages: ['introduction'] }],
}

/** One row of a table of docs/site-json.md (the spec), as data. */
export interface SpecRow {
  field: string
  /** The message when the field is left out; none when leaving it out is fine. */
  missing?: string
  /** The default docs/site-json.md gives, which the schema records as metadata. */
  default?: unknown
  valid: unknown[]
  /** `at` is where the problem is reported, relative to the field, when deeper than the field. */
  invalid: Array<{ value: unknown; message: string; at?: PropertyKey[] }>
}

/** One object docs/site-json.md describes with a table, and how to put it into a file. */
export interface SpecTable {
  schema: z.ZodObject
  path: PropertyKey[]
  /** The object with its required fields filled in. */
  minimal: Record<string, unknown>
  place: (object: Record<string, unknown>) => unknown
}

/** The tests every row gets: meaning and default recorded, required or not, values accepted and refused. */
export function testSpecTable(table: SpecTable, rows: SpecRow[]): void {
  it('has a row for every field of the schema', () => {
    expect(rows.map((row) => row.field)).toEqual(Object.keys(table.schema.shape))
  })

  for (const row of rows) {
    const fieldSchema = table.schema.shape[row.field] as z.ZodType
    const fieldPath = formatProblemPath([...table.path, row.field])
    const withField = (value: unknown) => table.place({ ...table.minimal, [row.field]: value })

    it(`${row.field}: describes itself, and records its default without applying it`, () => {
      expect(fieldSchema.meta()?.description).toMatch(/^[A-Z`].*\.$/)
      expect(fieldSchema.meta()?.default).toEqual(row.default)
    })

    it(`${row.field}: ${row.missing === undefined ? 'may be left out' : 'is required'}`, () => {
      const { [row.field]: _left, ...withoutField } = table.minimal
      const report = validateMintConfig(table.place(withoutField))
      if (row.missing === undefined) expect(report).toEqual({ valid: true, errors: [], warnings: [] })
      else expect(report.errors).toEqual([{ path: fieldPath, message: row.missing }])
    })

    it.each(row.valid.map((value) => ({ value })))(`${row.field}: accepts $value`, ({ value }) => {
      expect(validateMintConfig(withField(value))).toEqual({ valid: true, errors: [], warnings: [] })
    })

    it.each(row.invalid)(`${row.field}: refuses $value`, ({ value, message, at = [] }) => {
      const report = validateMintConfig(withField(value))
      expect(report.valid).toBe(false)
      expect(report.errors).toEqual([{ path: formatProblemPath([...table.path, row.field, ...at]), message }])
    })
  }
}
