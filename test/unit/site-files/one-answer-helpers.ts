import { join, relative, resolve } from 'node:path'
import type { CliIo } from '../../../src-main/cli/usage'
import { runValidate } from '../../../src-main/cli/validate-command'
import { createRouter, type Handlers } from '../../../src-main/router'
import { createDocsFolderService } from '../../../src-main/site-files/docs-folder-service'
import { createSiteFileHandlers } from '../../../src-main/site-files/site-file-handlers'
import { buildProblemIndex } from '../../../src-renderer/features/site-editor/state/problem-index'
import { MAX_WATCHED_FOLDERS } from '../../../src-shared/ipc/site-calls'
import { MAX_FILES_CHECKED, problemsOf } from '../../../src-shared/site-config/diagnose'
import { type DocsIndex, docsLookup, foldersNamed, imageFilesOf, openApiFilesOf } from '../../../src-shared/site-config/docs-files'
import { findDuplicateKeys } from '../../../src-shared/site-config/duplicate-keys'
import { parseJsonText } from '../../../src-shared/site-config/json-text'
import { type RefFile, refsIn, resolveRefs } from '../../../src-shared/site-config/refs'
import type { PageFacts } from '../../../src-shared/site-config/site-pages'
import { siteFiles, tempDir } from './helpers'

// One answer for one document, three ways: the editor (its problem index, fed by the calls it
// makes), the CLI (`validate --json`) and the export (the answer it is refused on).

export interface Said {
  severity: string
  path: string
  message: string
  file?: string
  line?: number
}

/** What is compared: the place and the sentence; a page's file (relative to the docs folder) and line. */
const said = (severity: string, problem: { path: string; message: string; file?: string; line?: number }): Said => ({
  severity,
  path: problem.path,
  message: problem.message,
  ...(problem.path === '$' && problem.file !== undefined ? { file: problem.file, line: problem.line } : {}),
})

export async function byCli(path: string, root: string): Promise<Said[]> {
  const out: string[] = []
  const io: CliIo = { stdout: (text) => out.push(text), stderr: () => {}, stdin: async () => '', env: {} }
  await runValidate(['--json', path], io)
  const [report] = JSON.parse(out[0]!) as Record<'errors' | 'warnings' | 'info', Said[] | undefined>[]
  return (['errors', 'warnings', 'info'] as const).flatMap((key) =>
    (report![key] ?? []).map((problem) =>
      // The CLI names a page's file from where it runs.
      said(key === 'errors' ? 'error' : key === 'warnings' ? 'warning' : 'info', {
        ...problem,
        ...(problem.file !== undefined ? { file: relative(root, resolve(process.cwd(), problem.file)) } : {}),
      }),
    ),
  )
}

export async function byExport(dataDir: string, path: string): Promise<Said[]> {
  const files = siteFiles(dataDir)
  const { documentId, text } = await files.open(path)
  const diagnosis = await files.diagnose({ documentId, text, rules: 'spec' })
  return (['error', 'warning', 'info'] as const).flatMap((severity) =>
    problemsOf(diagnosis, severity).map((problem) => said(severity, problem)),
  )
}

/** The editor: the calls it makes through the router, in its order, and its index of the answer. */
export async function byEditor(dataDir: string, path: string): Promise<Said[]> {
  const files = siteFiles(dataDir)
  const router = createRouter(
    createSiteFileHandlers(files, createDocsFolderService({ files, dataDir, workerFile: null })) as unknown as Handlers,
  )
  const call = async <T>(name: string, input: unknown): Promise<T> => {
    const answer = (await router.dispatch(name, input, { transport: 'test' })) as { ok: boolean; value: T; error?: unknown }
    if (!answer.ok) throw new Error(`${name}: ${JSON.stringify(answer.error)}`)
    return answer.value
  }
  const document = await call<{ documentId: string; text: string; path: string }>('site.open', { path })
  const { documentId } = document
  const parsed = parseJsonText(document.text)
  const value = parsed.ok ? parsed.value : undefined
  // ref-loader.ts: the refs the document names, and theirs in turn.
  const refs = new Map<string, RefFile>()
  let missing = parsed.ok ? refsIn(value) : []
  while (missing.length) {
    const { files: read } = await call<{ files: { ref: string; text: string | null; error: string | null }[] }>('site.readRefs', {
      documentId,
      refs: missing.slice(0, 200),
    })
    const next: string[] = []
    for (const file of read) {
      if (file.text === null) {
        if (file.error) refs.set(file.ref, { ok: false, reason: file.error })
        else refs.set(file.ref, { ok: false, reason: 'is missing' })
        continue
      }
      const inner = parseJsonText(file.text)
      refs.set(
        file.ref,
        inner.ok
          ? { ok: true, value: inner.value }
          : { ok: false, reason: `is not valid JSON (line ${inner.error.line}, column ${inner.error.column})` },
      )
      if (inner.ok) next.push(...refsIn(inner.value, file.ref))
    }
    // Missing files are left out of the map, as ref-store.ts leaves them.
    for (const [ref, file] of refs) if (!file.ok && file.reason === 'is missing') refs.delete(ref)
    missing = next.filter((ref) => !refs.has(ref))
  }
  // docs-store.ts: the index (watching the shallowest folders), the OpenAPI files and images, the pages.
  const resolved = resolveRefs(value, refs).value
  const named = foldersNamed(resolved)
  const watch = [...named].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1)).slice(0, MAX_WATCHED_FOLDERS)
  const { index } = await call<{ index: DocsIndex }>('site.docsIndex', { documentId, watch })
  const [{ checks: openapi }, { checks: images }, { facts }] = await Promise.all([
    call<{ checks: never[] }>('site.checkOpenApi', { documentId, files: openApiFilesOf(resolved).slice(0, MAX_FILES_CHECKED) }),
    call<{ checks: never[] }>('site.checkImages', { documentId, files: imageFilesOf(resolved).slice(0, MAX_FILES_CHECKED) }),
    call<{ facts: PageFacts }>('site.docsPages', { documentId }),
  ])
  const problems = buildProblemIndex({
    value,
    syntaxError: parsed.ok ? null : parsed.error,
    duplicates: parsed.ok ? findDuplicateKeys(document.text) : [],
    rules: 'spec',
    docs: { lookup: docsLookup(index), openapi, images, pages: facts },
    path,
    refs,
  }).problems
  return problems.map((problem) => said(problem.severity, problem))
}

export async function threeAnswers(root: string, name = 'docs.json') {
  const dataDir = await tempDir('ec-one-answer-data-')
  const path = join(root, name)
  const [cli, exported, editor] = [await byCli(path, root), await byExport(dataDir, path), await byEditor(dataDir, path)]
  return { cli, exported, editor }
}
