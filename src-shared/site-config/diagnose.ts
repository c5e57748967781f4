import { type ConfigFormat, detectConfigFormat } from './config-format'
import {
  type DocsIndex,
  type DocsLookup,
  docsLookup,
  docsProblemChunks,
  type ImageCheck,
  imageFilesOf,
  type OpenApiCheck,
  openApiFilesOf,
} from './docs-files'
import { checkDocsConfig, type DocsCheckCache, type KeyCheck } from './docs-validate'
import { type DuplicateKey, duplicateKeyProblems, findDuplicateKeys } from './duplicate-keys'
import { jsonErrorSentence, type JsonSyntaxError, parseJsonText } from './json-text'
import { checkMintConfig } from './mint-validate'
import type { SiteConfigProblem } from './problem'
import { type RefFile, resolveRefs, unknownUnder } from './refs'
import type { RuleSet } from './rule-sets'
import { mintlifySuggestion } from './rule-suggestion'
import { type PageFacts, pageProblems, type SitePages, sitePages } from './site-pages'

// What is wrong with a document and its folder: one answer for the editor (which indexes it), the
// CLI (which prints it) and the export (which is refused while it has errors). In the shape of
// vscode-json-languageservice's doValidation: text in, every problem out, from parts that do not
// know each other: syntax (JSON, keys written twice), schema (the format's rules), refs ($ref files
// that cannot be followed), rules (what the file's rules warn of, and settings kept as written),
// folder (pages, images and OpenAPI files the folder lacks) and pages (front matter, MDX, links and
// anchors inside them). What the folder and pages parts know is gathered by main and handed in:
// this module reads nothing. Where a part was bounded (too many files, pages, OpenAPI files), the
// answer says so as a problem of that part, never by leaving it out in silence.

export const DIAGNOSIS_PARTS = ['syntax', 'schema', 'refs', 'rules', 'folder', 'pages'] as const
export type DiagnosisPart = (typeof DIAGNOSIS_PARTS)[number]
export type Severity = 'error' | 'warning' | 'info'

/** A problem, with the file it is in when that is not the document (a page: `file` relative to the docs folder, and its line). */
export interface DiagnosedProblem extends SiteConfigProblem {
  file?: string
}

/** Problems of one part and severity: the same array while what it came from is unchanged (the editor indexes each once). */
export interface ProblemChunk {
  part: DiagnosisPart
  severity: Severity
  problems: readonly DiagnosedProblem[]
}

export interface Diagnosis {
  format: ConfigFormat
  /** False exactly when there are errors: what an export is refused for. */
  valid: boolean
  chunks: readonly ProblemChunk[]
  /** A site.json that breaks the site.json spec (docs/site-json.md) only in Mintlify's ways: the sentence offering the switch. */
  mintlifySuggestion: string | null
}

/** The document as read: its value, or where its text breaks, and the keys written twice. */
export interface DocumentText {
  value: unknown
  syntaxError: JsonSyntaxError | null
  duplicates: readonly DuplicateKey[]
}

/** Reads a document's text for diagnoseDocument. */
export function readDocumentText(text: string): DocumentText {
  const parsed = parseJsonText(text)
  if (!parsed.ok) return { value: undefined, syntaxError: parsed.error, duplicates: [] }
  return { value: parsed.value, syntaxError: null, duplicates: findDuplicateKeys(text) }
}

/** The most OpenAPI files and images of one document that are read and checked: past it, the answer says how many were not. */
export const MAX_FILES_CHECKED = 20

/** What main found in the docs folder. */
export type FolderFacts =
  | {
      state: 'indexed'
      index: DocsIndex
      /** The OpenAPI files and images the document names, checked (the first MAX_FILES_CHECKED of each). */
      openapi: readonly OpenApiCheck[]
      images: readonly ImageCheck[]
      /** The pages read, or null while they are being read (the editor asks for them after the index). */
      pages: PageFacts | null
    }
  | { state: 'unreadable'; reason: string }

export interface DiagnoseInputs {
  document: DocumentText
  /** The document's file (its name helps tell the format), or null for an untitled one. */
  path: string | null
  rules: RuleSet
  /** The files a docs.json's `$ref`s name, as loaded (absent ones are reported missing). */
  refs?: ReadonlyMap<string, RefFile>
  /** The docs folder, or null where it is not checked (--no-files, a document with no folder yet). */
  folder?: FolderFacts | null
}

/** Kept by a caller between diagnoses of one document (the editor, per keystroke): unchanged parts are not worked out again. */
export interface DiagnosisCache {
  keys: DocsCheckCache
  lookups: WeakMap<DocsIndex, DocsLookup>
  pages: { inputs: unknown[]; problems: readonly DiagnosedProblem[] } | null
}

export const createDiagnosisCache = (): DiagnosisCache => ({ keys: new Map(), lookups: new WeakMap(), pages: null })

const chunk = (part: DiagnosisPart, severity: Severity, problems: readonly DiagnosedProblem[]): ProblemChunk => ({
  part,
  severity,
  problems,
})

/** Every problem of a document and its folder, in parts (see the top of this file). Never throws; reads nothing. */
export function diagnoseDocument(inputs: DiagnoseInputs, cache: DiagnosisCache = createDiagnosisCache()): Diagnosis {
  const { document, rules } = inputs
  if (document.syntaxError) {
    const { line, column } = document.syntaxError
    const problem = { path: '$', message: jsonErrorSentence(document.syntaxError), line, column }
    return {
      format: detectConfigFormat(undefined, inputs.path),
      valid: false,
      chunks: [chunk('syntax', 'error', [problem])],
      mintlifySuggestion: null,
    }
  }
  const format = detectConfigFormat(document.value, inputs.path)
  const chunks: ProblemChunk[] = []
  if (document.duplicates.length) chunks.push(chunk('syntax', 'error', duplicateKeyProblems(document.duplicates)))
  let suggestion: string | null = null
  let checked: unknown = document.value
  if (format === 'docs') checked = docsParts(document.value, inputs.refs, cache, chunks)
  else {
    const report = checkMintConfig(document.value, rules)
    chunks.push(chunk('schema', 'error', report.errors), chunk('rules', 'warning', report.warnings), chunk('rules', 'info', report.info))
    suggestion = rules === 'spec' ? mintlifySuggestion(document.value, report) : null
  }
  if (inputs.folder) chunks.push(...folderParts(checked, inputs.folder, cache))
  const kept = chunks.filter((part) => part.problems.length > 0)
  return { format, valid: !kept.some((part) => part.severity === 'error'), chunks: kept, mintlifySuggestion: suggestion }
}

/** docs.json's schema, refs and rules parts, one chunk per top-level key; answers the value with its $refs resolved. */
function docsParts(value: unknown, refs: ReadonlyMap<string, RefFile> | undefined, cache: DiagnosisCache, chunks: ProblemChunk[]): unknown {
  const resolved = resolveRefs(value, refs ?? new Map())
  const check = checkDocsConfig(resolved.value, cache.keys)
  if (resolved.problems.length === 0 && resolved.pending.length === 0) {
    const keys: KeyCheck[] = [...cache.keys.values()]
    const fromKeys = keys.reduce((total, key) => total + key.errors.length, 0)
    // The key checks are this value's (the cache holds exactly its keys): their arrays go to the index as they are.
    if (typeof resolved.value === 'object' && resolved.value !== null && fromKeys === check.errors.length) {
      for (const key of keys) chunks.push(chunk('schema', 'error', key.errors))
      for (const key of keys)
        chunks.push(chunk('rules', 'warning', key.leftOut), chunk('rules', 'warning', key.ignored), chunk('rules', 'warning', key.extra))
      chunks.push(
        chunk(
          'rules',
          'warning',
          check.warnings.filter((problem) => problem.path === 'variations'),
        ),
      )
      return resolved.value
    }
    chunks.push(chunk('schema', 'error', check.errors), chunk('rules', 'warning', check.warnings))
    return resolved.value
  }
  // What a $ref that could not be followed (or is still being read, or was left at the cap) would have held is unknown:
  // nothing under it is judged.
  const under = unknownUnder(resolved)
  chunks.push(
    chunk(
      'refs',
      'error',
      resolved.problems.map(({ path, message }) => ({ path, message })),
    ),
    chunk(
      'schema',
      'error',
      check.errors.filter((problem) => !under(problem.path)),
    ),
    chunk(
      'rules',
      'warning',
      check.warnings.filter((problem) => !under(problem.path)),
    ),
  )
  return resolved.value
}

/** Counts as every part of the app writes them in these sentences, whatever the machine's locale: 10,000. */
const count = (value: number) => value.toLocaleString('en-US')

/** The folder and pages parts, with a problem for every bound that left something unchecked. */
function folderParts(config: unknown, folder: FolderFacts, cache: DiagnosisCache): ProblemChunk[] {
  if (folder.state === 'unreadable')
    return [
      chunk('folder', 'warning', [
        { path: '$', message: `docs folder: cannot be read (${folder.reason}), so its pages and files were not checked` },
      ]),
    ]
  const { index, openapi, images, pages } = folder
  let lookup = cache.lookups.get(index)
  if (!lookup) cache.lookups.set(index, (lookup = docsLookup(index)))
  const bounds: DiagnosedProblem[] = []
  if (index.truncated) {
    const indexed = index.pages.length + index.files.length + (index.excluded?.length ?? 0)
    bounds.push({
      path: '$',
      message: `docs folder: ${count(indexed)} of ${count(index.totalFiles ?? indexed)} files indexed; the others are not checked (is this the docs folder itself, not a folder above it?)`,
    })
  }
  const namedApis = openApiFilesOf(config).length
  if (namedApis > openapi.length && openapi.length >= MAX_FILES_CHECKED)
    bounds.push({
      path: '$',
      message: `docs folder: ${count(openapi.length)} of ${count(namedApis)} OpenAPI files checked; the others are not read`,
    })
  const namedImages = imageFilesOf(config).length
  if (namedImages > images.length && images.length >= MAX_FILES_CHECKED)
    bounds.push({
      path: '$',
      message: `docs folder: ${count(images.length)} of ${count(namedImages)} images checked; the others are not read`,
    })
  if (pages && pages.total > pages.pages.length)
    bounds.push({
      path: '$',
      message: `docs folder: ${count(pages.pages.length)} of ${count(pages.total)} pages checked for links, anchors and front matter`,
    })
  const chunks = docsProblemChunks(config, lookup, openapi, images).map((problems) => chunk('folder', 'warning', problems))
  if (bounds.length) chunks.unshift(chunk('folder', 'warning', bounds))
  if (pages) chunks.push(chunk('pages', 'warning', pagesPart(config, index, openapi, pages, cache)))
  return chunks
}

/**
 * The pages part, worked out again only when what it reads changed: the folder, the OpenAPI checks, the redirects, or where
 * OpenAPI pages go.
 */
function pagesPart(
  config: unknown,
  index: DocsIndex,
  openapi: readonly OpenApiCheck[],
  facts: PageFacts,
  cache: DiagnosisCache,
): readonly DiagnosedProblem[] {
  const object = typeof config === 'object' && config !== null ? (config as Record<string, unknown>) : {}
  const site: SitePages = sitePages(config, index, openapi)
  const inputs = [index, openapi, facts, object.redirects, [...site.generated.keys()].join('\0')]
  if (cache.pages && cache.pages.inputs.length === inputs.length && cache.pages.inputs.every((input, at) => input === inputs[at]))
    return cache.pages.problems
  const problems = pageProblems(config, index, facts, site).map(({ file, line, message }) => ({ path: '$', file, line, message }))
  cache.pages = { inputs, problems }
  return problems
}

/** Every problem, errors first, then warnings, then the settings kept as written, each in the parts' order. */
export function problemsOf(diagnosis: Diagnosis, severity?: Severity): DiagnosedProblem[] {
  const order: Severity[] = severity ? [severity] : ['error', 'warning', 'info']
  return order.flatMap((wanted) => diagnosis.chunks.filter((part) => part.severity === wanted).flatMap((part) => part.problems))
}

/** How many problems of each severity. */
export function countsOf(diagnosis: Diagnosis): Record<Severity, number> {
  const counts = { error: 0, warning: 0, info: 0 }
  for (const part of diagnosis.chunks) counts[part.severity] += part.problems.length
  return counts
}
