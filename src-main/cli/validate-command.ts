import { dirname, join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { findNodeAtLocation, type Node, parseTree } from 'jsonc-parser'
import { messageOf } from '../../src-shared/ipc/error-message'
import { AppErrorException } from '../../src-shared/ipc/result'
import { type ConfigFormat, detectConfigFormat } from '../../src-shared/site-config/config-format'
import { diagnoseDocument, type DiagnosedProblem, problemsOf, readDocumentText } from '../../src-shared/site-config/diagnose'
import type { DocsIndex } from '../../src-shared/site-config/docs-files'
import type { SiteConfigProblem } from '../../src-shared/site-config/mint-validate'
import { parseProblemPath } from '../../src-shared/site-config/problem-path'
import { locateInFiles, type RefFile, resolveRefs } from '../../src-shared/site-config/refs'
import { RULE_SETS, type RuleSet, RuleSetSchema } from '../../src-shared/site-config/rule-sets'
import { gatherDocumentFacts } from '../site-files/document-facts'
import { readVersionedText } from '../user-files/file-access'
// The folder's indexer loads only when a folder is checked: with --no-files the command reads,
// parses and checks the file alone.
const docsFolder = () => import('../site-files/docs-folder')
import { LineStarts } from '../../src-shared/text/line-starts'
import { plural } from '../../src-shared/text/plural'
import { type CliIo, type Command, UsageError } from './usage'

/** A problem as the CLI reports it: in which file (when not the one checked) and on which line. */
interface CliProblem extends SiteConfigProblem {
  file?: string
}

interface FileReport {
  file: string
  format?: ConfigFormat
  valid: boolean
  errors: CliProblem[]
  warnings: CliProblem[]
  info: CliProblem[]
  /** Set when the file could not be read; such a file counts as invalid and exits with 2. */
  unreadable?: string
}

/**
 * `embed-console validate [--rules spec|mintlify] [--root DIR | --no-files] [--json] FILE...`,
 * made for a docs repository's CI: every problem of every file, then a summary. Each file is
 * checked in its format: docs.json by Mintlify's rules (its `$ref` files followed), site.json or
 * mint.json by the rule set chosen. The docs folder (the file's own folder unless --root names
 * another) is checked too: pages without a file, images missing or not images, OpenAPI files and
 * the operations pages name, and inside each page its front matter, MDX, links and anchors, as
 * warnings with their file and line. Exit 0 when all files are valid (warnings allowed), 1 when
 * one is invalid, 2 when one cannot be read. Bad usage throws UsageError, which the CLI prints
 * with the usage line and turns into exit 2.
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
  if (files.length === 0) throw new UsageError('Name at least one site.json or docs.json file to validate.')
  const rules = RuleSetSchema.safeParse(values.rules)
  if (!rules.success) throw new UsageError(`--rules takes ${RULE_SETS.join(' or ')}, not "${values.rules}".`)
  if (values.root !== undefined && values['no-files']) throw new UsageError('--root and --no-files do not go together.')

  const folders = new Map<string, Promise<DocsIndex>>()
  const docsFor = values['no-files']
    ? null
    : (root: string) => {
        if (!folders.has(root))
          folders.set(
            root,
            docsFolder().then(({ indexDocsFolder }) => indexDocsFolder(root, null)),
          )
        return folders.get(root)!
      }

  const reports = await Promise.all(
    files.map((file) => validateFile(file, rules.data, values.root === undefined ? null : resolve(values.root), docsFor, values.json)),
  )
  if (values.json) {
    // `info` appears only where there is some, so a file without Mintlify settings reads as before.
    const entries = reports.map(({ file, format, valid, errors, warnings, info }) => ({
      file,
      ...(format ? { format } : {}),
      valid,
      errors,
      warnings,
      ...(info.length ? { info } : {}),
    }))
    io.stdout(JSON.stringify(entries, null, 2))
  } else {
    for (const report of reports) printReport(report, io)
    io.stdout(summary(reports))
  }
  if (reports.some((report) => report.unreadable !== undefined)) return 2
  return reports.every((report) => report.valid) ? 0 : 1
}

async function validateFile(
  file: string,
  rules: RuleSet,
  rootOption: string | null,
  docsFor: ((root: string) => Promise<DocsIndex>) | null,
  withLines: boolean,
): Promise<FileReport> {
  let text: string
  try {
    // Read as the app opens a file: a regular file, up to the cap (a pipe named by mistake cannot
    // hang CI), and UTF-8 text or refused, never decoded with U+FFFD in place of what is not.
    text = (await readVersionedText(file)).text
  } catch (error) {
    const reason = unreadableReason(error)
    return { file, unreadable: reason, valid: false, errors: [{ path: '$', message: `cannot be read: ${reason}` }], warnings: [], info: [] }
  }
  const document = readDocumentText(text)
  const format = document.syntaxError ? undefined : detectConfigFormat(document.value, file)
  const path = resolve(file)
  // The same facts the editor gathers through its calls, judged by the same function (diagnose.ts).
  const { refs, folder } = await gatherDocumentFacts(document, {
    path,
    format: format ?? 'mint',
    root: docsFor ? (rootOption ?? dirname(path)) : null,
    index: docsFor ?? undefined,
  })
  const diagnosis = diagnoseDocument({ document, path: file, rules, refs, folder })
  const lines = new LineFinder(text, refs, dirname(path), withLines)
  const sites = format === 'docs' ? resolveRefs(document.value, refs).sites : []
  const root = folder?.state === 'indexed' ? folder.index.root : dirname(path)
  const place = (problem: DiagnosedProblem): CliProblem =>
    problem.file !== undefined
      ? { ...problem, file: relative(process.cwd(), join(root, problem.file)) || problem.file }
      : lines.place(problem, sites)
  return {
    file,
    ...(format ? { format } : {}),
    valid: diagnosis.valid,
    errors: problemsOf(diagnosis, 'error').map(place),
    warnings: problemsOf(diagnosis, 'warning').map(place),
    info: problemsOf(diagnosis, 'info').map(place),
  }
}

/**
 * The file a problem's place is written in (the docs.json or one of its $ref files) and, for
 * --json or a problem in another file, its line there. Lines cost a parse of the file's tree, so
 * plain output, which names the file's own problems by path, skips them.
 */
class LineFinder {
  /** Each file's tree, parsed when a problem in it first needs a line. */
  private trees = new Map<string, { tree: Node | undefined; lines: LineStarts }>()
  constructor(
    private text: string,
    private refs: ReadonlyMap<string, RefFile & { text?: string }>,
    private folder: string,
    private withLines: boolean,
  ) {}

  place(problem: SiteConfigProblem, sites: Parameters<typeof locateInFiles>[1]): CliProblem {
    if (problem.line !== undefined || problem.path === '$') return problem
    const located = locateInFiles(parseProblemPath(problem.path), sites)
    if (!this.withLines && located.file === null) return problem
    const key = located.file ?? ''
    if (!this.trees.has(key)) {
      const text = located.file === null ? this.text : (this.refs.get(key)?.text ?? '')
      this.trees.set(key, { tree: parseTree(text), lines: new LineStarts(text) })
    }
    const { tree, lines } = this.trees.get(key)!
    const line = lineOf(tree, lines, located.path)
    const file = located.file === null ? {} : { file: relative(process.cwd(), join(this.folder, located.file)) }
    return { ...problem, ...file, ...(line === undefined ? {} : { line }) }
  }
}

/** The line of the value at `path`, or of the nearest place above it that exists (a missing key's object). */
function lineOf(tree: Node | undefined, lines: LineStarts, path: readonly (string | number)[]): number | undefined {
  if (!tree) return undefined
  for (let depth = path.length; depth >= 0; depth--) {
    const node = findNodeAtLocation(tree, [...path.slice(0, depth)])
    // Looked up, not counted from the start: 23,000 problems in a 2.3 MB file counted 23,000 times took minutes.
    if (node) return lines.at(node.parent?.type === 'property' ? node.parent.offset : node.offset).line
  }
  return undefined
}

function unreadableReason(error: unknown): string {
  if (error instanceof AppErrorException) {
    if (error.code === 'not_found') return 'no such file'
    const errno = (error.details as { errno?: string } | undefined)?.errno
    if (errno === 'EACCES' || errno === 'EPERM') return 'permission denied'
    if (/is a folder/.test(error.message)) return 'it is a folder'
    return error.message.replace(/^\S+ is /, 'it is ')
  }
  return messageOf(error)
}

function printReport({ file, unreadable, errors, warnings }: FileReport, io: CliIo): void {
  if (unreadable !== undefined) {
    io.stderr(`${file}: cannot be read: ${unreadable}`)
    return
  }
  // A problem in another file (a page, a $ref file) leads with that file and its line, as compilers print them.
  const where = (problem: CliProblem) =>
    problem.file ? `${problem.file}:${problem.line ?? 1}: ${problem.path === '$' ? '' : `${problem.path}: `}` : `${file}: ${problem.path}: `
  for (const problem of errors) io.stdout(`${where(problem)}${problem.message}`)
  for (const problem of warnings) io.stdout(`${where(problem)}warning: ${problem.message}`)
}

function summary(reports: FileReport[]): string {
  const unreadable = reports.filter((report) => report.unreadable !== undefined).length
  const valid = reports.filter((report) => report.valid).length
  const invalid = reports.length - valid - unreadable
  // An unreadable file's one "error" is already counted as unreadable.
  const errors = reports.reduce((total, report) => total + (report.unreadable ? 0 : report.errors.length), 0)
  const warnings = reports.reduce((total, report) => total + report.warnings.length, 0)
  const info = reports.reduce((total, report) => total + report.info.length, 0)
  const files = [`${valid} valid`, `${invalid} invalid`, ...(unreadable > 0 ? [`${unreadable} unreadable`] : [])]
  const kept = info > 0 ? `; ${plural(info, 'Mintlify setting')} outside the spec kept as written` : ''
  return `Checked ${plural(reports.length, 'file')}: ${files.join(', ')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')}${kept}).`
}

export const validateCommand: Command = {
  name: 'validate',
  usage: 'embed-console validate [--rules spec|mintlify] [--root DIR | --no-files] [--json] FILE...',
  examples: [
    'embed-console validate docs/docs.json',
    'embed-console validate docs/site.json',
    'embed-console validate --rules mintlify --root docs docs/site.json',
    'embed-console validate --json docs/*/site.json',
  ],
  exitCodes: [
    [0, 'every file is valid (warnings allowed)'],
    [1, 'a file is invalid'],
    [2, 'a file cannot be read, or bad usage'],
  ],
  run: runValidate,
}
