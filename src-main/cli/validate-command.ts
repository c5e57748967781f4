import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { AppErrorException } from '../../src-shared/ipc/result'
import { MAX_SITE_FILE_CHARACTERS } from '../../src-shared/ipc/site-calls'
import { docsLookup, docsProblems, openApiFilesOf, type DocsLookup } from '../../src-shared/site-config/docs-files'
import { parseJsonText } from '../../src-shared/site-config/json-text'
import { RULE_SETS, RuleSetSchema, type RuleSet } from '../../src-shared/site-config/rule-sets'
import { checkSiteConfigText, type SiteConfigCheck, type SiteConfigProblem } from '../../src-shared/site-config/validate'
import { checkOpenApiFile, indexDocsFolder } from '../site-files/docs-folder'
import { readRegularFile } from '../site-files/file-access'
import { UsageError, type CliIo, type Command } from './usage'

interface FileReport {
  file: string
  valid: boolean
  errors: SiteConfigProblem[]
  warnings: SiteConfigProblem[]
  info: SiteConfigProblem[]
  /** Set when the file could not be read; such a file counts as invalid and exits with 2. */
  unreadable?: string
}

/**
 * `embed-console validate [--rules spec|mintlify] [--root DIR | --no-files] [--json] FILE...`,
 * made for a docs repository's CI: every problem of every file, then a summary. The docs folder
 * (the file's own folder unless --root names another) is checked too: pages without a file,
 * missing images, missing or invalid OpenAPI files, as warnings. Exit 0 when all files are valid
 * (warnings allowed), 1 when one is invalid, 2 when one cannot be read. Bad usage throws
 * UsageError, which the CLI prints with the usage line and turns into exit 2.
 */
export async function runValidate(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals: files } = parseArgs({
    args: argv,
    options: {
      json: { type: 'boolean', default: false },
      rules: { type: 'string', default: 'spec' },
      root: { type: 'string' },
      'no-files': { type: 'boolean', default: false },
    },
    allowPositionals: true,
    strict: true,
  })
  if (files.length === 0) throw new UsageError('Name at least one site.json file to validate.')
  const rules = RuleSetSchema.safeParse(values.rules)
  if (!rules.success) throw new UsageError(`--rules takes ${RULE_SETS.join(' or ')}, not "${values.rules}".`)
  if (values.root !== undefined && values['no-files']) throw new UsageError('--root and --no-files do not go together.')

  const folders = new Map<string, Promise<DocsLookup>>()
  const docsFor = values['no-files']
    ? null
    : (file: string) => {
        const root = resolve(values.root ?? dirname(resolve(file)))
        if (!folders.has(root)) folders.set(root, indexDocsFolder(root, null).then(docsLookup))
        return folders.get(root)!
      }

  const reports = await Promise.all(files.map((file) => validateFile(file, rules.data, docsFor)))
  if (values.json) {
    // `info` appears only where there is some, so a file without Mintlify settings reads as before.
    const entries = reports.map(({ file, valid, errors, warnings, info }) => ({ file, valid, errors, warnings, ...(info.length ? { info } : {}) }))
    io.stdout(JSON.stringify(entries, null, 2))
  } else {
    for (const report of reports) printReport(report, io)
    io.stdout(summary(reports))
  }
  if (reports.some((report) => report.unreadable !== undefined)) return 2
  return reports.every((report) => report.valid) ? 0 : 1
}

async function validateFile(file: string, rules: RuleSet, docsFor: ((file: string) => Promise<DocsLookup>) | null): Promise<FileReport> {
  let text: string
  try {
    // Regular files only, read up to the cap: a pipe or /dev/zero named by mistake cannot hang CI.
    text = (await readRegularFile(file, MAX_SITE_FILE_CHARACTERS)).bytes.toString('utf8').replace(/^\uFEFF/, '')
  } catch (error) {
    const reason = unreadableReason(error)
    return { file, unreadable: reason, valid: false, errors: [{ path: '$', message: `cannot be read: ${reason}` }], warnings: [], info: [] }
  }
  const check: SiteConfigCheck = checkSiteConfigText(text, rules)
  const parsed = parseJsonText(text)
  if (!docsFor || !parsed.ok) return { file, ...check }
  const docs = await docsFor(file).catch(() => null)
  if (!docs) {
    return { file, ...check, warnings: [...check.warnings, { path: '$', message: 'the docs folder could not be read, so its pages and files were not checked' }] }
  }
  const openapi = await Promise.all(openApiFilesOf(parsed.value).map((reference) => checkOpenApiFile(docs.index.root, reference)))
  return { file, ...check, warnings: [...check.warnings, ...docsProblems(parsed.value, docs, openapi)] }
}

function unreadableReason(error: unknown): string {
  if (error instanceof AppErrorException) {
    if (error.code === 'not_found') return 'no such file'
    const errno = (error.details as { errno?: string } | undefined)?.errno
    if (errno === 'EACCES' || errno === 'EPERM') return 'permission denied'
    if (/is a folder/.test(error.message)) return 'it is a folder'
    return error.message.replace(/^\S+ is /, 'it is ')
  }
  return error instanceof Error ? error.message : String(error)
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
  const info = reports.reduce((total, report) => total + report.info.length, 0)
  const files = [`${valid} valid`, `${invalid} invalid`, ...(unreadable > 0 ? [`${unreadable} unreadable`] : [])]
  const kept = info > 0 ? `; ${count(info, 'Mintlify setting')} outside the spec kept as written` : ''
  return `Checked ${count(reports.length, 'file')}: ${files.join(', ')} (${count(errors, 'error')}, ${count(warnings, 'warning')}${kept}).`
}

export const validateCommand: Command = {
  name: 'validate',
  usage: 'embed-console validate [--rules spec|mintlify] [--root DIR | --no-files] [--json] FILE...',
  examples: ['embed-console validate docs/site.json', 'embed-console validate --rules mintlify --root docs docs/site.json', 'embed-console validate --json docs/*/site.json'],
  exitCodes: [
    [0, 'every file is valid (warnings allowed)'],
    [1, 'a file is invalid'],
    [2, 'a file cannot be read, or bad usage'],
  ],
  run: runValidate,
}
