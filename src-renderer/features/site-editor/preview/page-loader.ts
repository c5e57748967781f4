import { messageOf } from '../../../../src-shared/ipc/error-message'
import { type DocsLookup, docsRelative } from '../../../../src-shared/site-config/docs-files'
import type { OperationSummary } from '../../../../src-shared/site-config/openapi-operation'
import { call } from '../../../lib/api'
import { snippetImports } from './frame/snippet-imports'
import type { PageContent } from './frame-protocol'

// What the preview shows of a page, read through main: its text (a page file of the docs folder),
// the snippets it imports (read the same way, three levels deep at most), and for an API page the
// operation from its OpenAPI file. Main refuses any file outside the folder.

const MAX_SNIPPET_DEPTH = 3

/** "openapi: file.json GET /users" in a page's front matter: the operation it documents. */
function frontMatterOperation(text: string): string | null {
  const front = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1]
  const line = front ? /^openapi:[ \t]*(.+)$/m.exec(front)?.[1] : undefined
  return line
    ? line
        .trim()
        .replace(/^(['"])(.*)\1$/, '$2')
        .trim()
    : null
}

async function readSnippets(documentId: string, text: string, file: string, found: Record<string, string>, depth: number) {
  if (depth >= MAX_SNIPPET_DEPTH) return
  for (const target of new Set(snippetImports(text, file).values())) {
    if (target in found) continue
    try {
      found[target] = (await call('site.previewText', { documentId, file: target })).text
      await readSnippets(documentId, found[target]!, target, found, depth + 1)
    } catch {
      // A snippet that cannot be read (missing, or outside the folder) is marked where it is used.
    }
  }
}

export async function operationSummaries(documentId: string, file: string): Promise<OperationSummary[]> {
  return (await call('site.previewOpenApi', { documentId, file })).operations
}

/**
 * The page's file and text: as the folder's index names it, or, while the index is still coming
 * (or was cut short on a very large folder), the file Mintlify would look for.
 */
async function readPageFile(documentId: string, page: string, docs: DocsLookup | null): Promise<{ file: string; text: string } | null> {
  const entry = docs?.index.pages.find((candidate) => candidate.path === page || candidate.path === `${page}/index`)
  const candidates = entry
    ? [entry.file]
    : docs && !docs.index.truncated
      ? []
      : [`${page}.mdx`, `${page}.md`, `${page}/index.mdx`, `${page}/index.md`]
  for (const file of candidates) {
    try {
      return { file, text: (await call('site.previewText', { documentId, file })).text }
    } catch (failure) {
      if (entry) throw failure
    }
  }
  return null
}

/** A page of the preview: `guides/setup`, or `<OpenAPI file>#<METHOD path>` for a generated one. */
export async function loadPage(
  documentId: string,
  page: string,
  docs: DocsLookup | null,
  specFiles: readonly string[],
): Promise<PageContent> {
  const empty: PageContent = { page, file: null, text: null, snippets: {}, operation: null, error: null }
  try {
    const hash = page.indexOf('#')
    if (hash >= 0) {
      const { detail } = await call('site.previewOpenApi', { documentId, file: page.slice(0, hash), operation: page.slice(hash + 1) })
      return {
        ...empty,
        operation: detail,
        error: detail ? null : `${page.slice(hash + 1)} is not an operation of ${page.slice(0, hash)}.`,
      }
    }
    const found = await readPageFile(documentId, page, docs)
    if (!found) return { ...empty, error: `There is no ${page}.mdx or ${page}.md in the docs folder.` }
    const { text } = found
    const snippets: Record<string, string> = {}
    await readSnippets(documentId, text, found.file, snippets, 0)
    const named = frontMatterOperation(text)
    let operation: PageContent['operation'] = null
    let error: string | null = null
    if (named) {
      const match = /^(?:(\S+)\s+)?((?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|WEBHOOK)\s+\S.*)$/i.exec(named)
      const file = match?.[1] ?? specFiles[0]
      if (match && file) {
        try {
          operation = (await call('site.previewOpenApi', { documentId, file: docsRelative(file), operation: match[2]! })).detail
          if (!operation) error = `The page documents ${match[2]}, which ${docsRelative(file)} does not have.`
        } catch (failure) {
          error = messageOf(failure)
        }
      }
    }
    return { ...empty, file: found.file, text, snippets, operation, error }
  } catch (failure) {
    return { ...empty, error: messageOf(failure) }
  }
}
