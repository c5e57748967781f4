import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { validateSiteConfigText, type SiteConfigReport } from '../../src-shared/site-config/validate'
import { UsageError, type CliIo, type Command } from './usage'

interface FileReport extends SiteConfigReport {
  file: string
  /** Set when the file could not be read; such a file counts as invalid and exits with 2. */
  unreadable?: string
}

/**
 * `embed-console validate [--json] FILE...`, made for a docs repository's CI: every problem of
 * every file, then a summary. Exit 0 when all files are valid (warnings allowed), 1 when one is
 * invalid, 2 when one cannot be read. Bad usage throws UsageError, which the CLI prints with the
 * usage line and turns into exit 2.
 */
export async function runValidate(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals: files } = parseArgs({
    args: argv,
    options: { json: { type: 'boolean', default: false } },
    allowPositionals: true,
    strict: true,
  })
  if (files.length === 0) throw new UsageError('Name at least one site.json file to validate.')

  const reports = await Promise.all(files.map(validateFile))
  if (values.json) {
    const entries = reports.map(({ file, valid, errors, warnings }) => ({ file, valid, errors, warnings }))
    io.stdout(JSON.stringify(entries, null, 2))
  } else {
    for (const report of reports) printReport(report, io)
    io.stdout(summary(reports))
  }
  if (reports.some((report) => report.unreadable !== undefined)) return 2
  return reports.every((report) => report.valid) ? 0 : 1
}

async function validateFile(file: string): Promise<FileReport> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const reason = unreadableReason(error)
    const errors = [{ path: '$', message: `cannot be read: ${reason}` }]
    return { file, unreadable: reason, valid: false, errors, warnings: [] }
  }
  return { file, ...validateSiteConfigText(text) }
}

function unreadableReason(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'no such file'
    case 'EISDIR':
      return 'it is a folder'
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    default:
      return error instanceof Error ? error.message : String(error)
  }
}

function printReport({ file, unreadable, errors, warnings }: FileReport, io: CliIo): void {
  if (unreadable !== undefined) {
    io.stderr(`${file}: cannot be read: ${unreadable}`)
    return
  }
  for (const { path, message } of errors) io.stdout(`${file}: ${path}: ${message}`)
  for (const { path, message } of warnings) io.stdout(`${file}: ${path}: warning: ${message}`)
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`

function summary(reports: FileReport[]): string {
  const unreadable = reports.filter((report) => report.unreadable !== undefined).length
  const valid = reports.filter((report) => report.valid).length
  const invalid = reports.length - valid - unreadable
  // An unreadable file's one "error" is already counted as unreadable.
  const errors = reports.reduce((total, report) => total + (report.unreadable ? 0 : report.errors.length), 0)
  const warnings = reports.reduce((total, report) => total + report.warnings.length, 0)
  const files = [`${valid} valid`, `${invalid} invalid`, ...(unreadable > 0 ? [`${unreadable} unreadable`] : [])]
  return `Checked ${count(reports.length, 'file')}: ${files.join(', ')} (${count(errors, 'error')}, ${count(warnings, 'warning')}).`
}

export const validateCommand: Command = {
  name: 'validate',
  usage: 'embed-console validate [--json] FILE...',
  examples: ['embed-console validate docs/site.json', 'embed-console validate --json docs/*/site.json'],
  exitCodes: [
    [0, 'every file is valid (warnings allowed)'],
    [1, 'a file is invalid'],
    [2, 'a file cannot be read, or bad usage'],
  ],
  run: runValidate,
}
