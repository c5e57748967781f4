import { dirname } from 'node:path'
import { messageOf } from '../../src-shared/ipc/error-message'
import type { ConfigFormat } from '../../src-shared/site-config/config-format'
import { type DocumentText, type FolderFacts, MAX_FILES_CHECKED } from '../../src-shared/site-config/diagnose'
import { type DocsIndex, imageFilesOf, openApiFilesOf } from '../../src-shared/site-config/docs-files'
import { type RefFile, resolveRefs } from '../../src-shared/site-config/refs'
import { loadRefFiles } from './ref-files'

// What diagnoseDocument (src-shared/site-config/diagnose.ts) needs to know of a document's disk,
// read for the CLI and the export the way the editor reads it through its calls: the $ref files,
// the docs folder's index, the OpenAPI files and images the document names (the first
// MAX_FILES_CHECKED of each, as the editor's calls allow), and its pages. The folder's indexer,
// OpenAPI parser and MDX parser load only when a folder is checked.
const docsFolder = () => import('./docs-folder')
const pageChecks = () => import('./page-checks')

export interface GatherOptions {
  /** The document's own file: its $ref files are read from its folder. */
  path: string
  format: ConfigFormat
  /** The docs folder to check, or null to check the file alone. */
  root: string | null
  /** Resolves every path before it is read (the export refuses the data folder through it). */
  allow?: (path: string) => Promise<string>
  /** Indexes a folder: the CLI shares one index among the files of one folder. */
  index?: (root: string) => Promise<DocsIndex>
  /** Fewer pages than MAX_PAGES_CHECKED (tests of the bound). */
  maxPages?: number
}

export interface GatheredFacts {
  refs: Map<string, RefFile & { text?: string }>
  folder: FolderFacts | null
}

export async function gatherDocumentFacts(document: DocumentText, options: GatherOptions): Promise<GatheredFacts> {
  const refs: GatheredFacts['refs'] =
    options.format === 'docs' && document.syntaxError === null
      ? await loadRefFiles(document.value, dirname(options.path), options.allow)
      : new Map()
  if (options.root === null || document.syntaxError !== null) return { refs, folder: null }
  const root = options.root
  const folder = await docsFolder()
  let index: DocsIndex
  try {
    index = await (options.index ?? ((at: string) => folder.indexDocsFolder(at, null)))(root)
  } catch (error) {
    return { refs, folder: { state: 'unreadable', reason: messageOf(error) } }
  }
  const resolved = options.format === 'docs' ? resolveRefs(document.value, refs).value : document.value
  const { readPageFacts } = await pageChecks()
  const [openapi, images, pages] = await Promise.all([
    Promise.all(
      openApiFilesOf(resolved)
        .slice(0, MAX_FILES_CHECKED)
        .map((reference) => folder.checkOpenApiFile(index.root, reference)),
    ),
    Promise.all(
      imageFilesOf(resolved)
        .slice(0, MAX_FILES_CHECKED)
        .map((reference) => folder.checkImageFile(index.root, reference)),
    ),
    readPageFacts(index, { maxPages: options.maxPages }),
  ])
  return { refs, folder: { state: 'indexed', index, openapi, images, pages } }
}
