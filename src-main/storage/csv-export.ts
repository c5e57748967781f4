import { createRequire } from 'node:module'
import type Papa from 'papaparse'

/** papaparse is loaded at the first export, not with every module that can export (a CLI call loads the activity log). */
let papa: typeof Papa | undefined
const loadPapa = () => (papa ??= createRequire(import.meta.url)('papaparse') as typeof Papa)

/**
 * Cells a spreadsheet would run as a formula: a text starting with =, +, -, @, a tab or a carriage
 * return (OWASP's list). papaparse's own pattern ends in `.*$` without the multiline flag, so a
 * cell "=cmd\nx" slips through it: the start alone decides here. Numbers are left as they are.
 */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * Rows as CSV text for a file the operator opens in a spreadsheet (the activity export, a bulk
 * run's results): such cells are prefixed with ' (papaparse's escapeFormulae), so a group id
 * `=HYPERLINK(…)` is shown, never run.
 */
export function csvRows(rows: readonly (readonly unknown[])[]): string {
  return `${loadPapa().unparse(rows as unknown[][], { newline: '\n', escapeFormulae: FORMULA_START })}\n`
}
