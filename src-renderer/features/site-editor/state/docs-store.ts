import { create } from 'zustand'
import { messageOf } from '../../../../src-shared/ipc/error-message'
import { MAX_WATCHED_FOLDERS } from '../../../../src-shared/ipc/site-calls'
import { MAX_FILES_CHECKED } from '../../../../src-shared/site-config/diagnose'
import { docsLookup, foldersNamed, imageFilesOf, openApiFilesOf } from '../../../../src-shared/site-config/docs-files'
import { resolveRefs } from '../../../../src-shared/site-config/refs'
import { call } from '../../../lib/api'
import { setDocs, setDocsFailure, useEditor } from './editor-store'
import { refFilesFor, useRefFiles } from './ref-store'

/**
 * Loading the open document's docs folder, as main indexes it: its pages (for autocompletion,
 * the missing-page warnings, the unlisted pages and the sidebar preview) and the checks of the
 * OpenAPI files the document names, kept in the editor store (`docs`) where the Problems find
 * them. Main watches the folder and says when it changed.
 */
interface DocsLoading {
  loading: boolean
  error: string | null
  /** Pages read so far while main indexes (on a thread of its own), when it has said. */
  progress: { done: number; total: number } | null
  /** The folders watched for changes, of those the document names (main watches at most MAX_WATCHED_FOLDERS). */
  watched: { watched: number; named: number } | null
  /** Main is reading the pages for their links, anchors and front matter. */
  readingPages: boolean
}

export const useDocsLoading = create<DocsLoading>(() => ({
  loading: false,
  error: null,
  progress: null,
  watched: null,
  readingPages: false,
}))

/** Main's word on how far the index has got (site.docsProgress). */
export const noteDocsProgress = (progress: { done: number; total: number }) => {
  if (useDocsLoading.getState().loading) useDocsLoading.setState({ progress })
}

let serial = 0

/** Indexes the document's folder, or the one chosen; a cancelled dialog changes nothing. */
export async function loadDocs(folder?: { kind: 'dialog' } | { kind: 'path'; path: string }): Promise<void> {
  const document = useEditor.getState().document
  if (!document) return
  const { documentId } = document
  // An untitled document has no folder until one is chosen.
  if (!folder && document.path === null) return void useDocsLoading.setState({ loading: false, error: null, progress: null })
  const mine = ++serial
  useDocsLoading.setState({ loading: true, error: null, progress: null })
  try {
    // Only the folders this document can name are watched, not a whole tree of files; past the
    // cap, the shallowest are (a change deeper down shows at the next Index again), and the view says so.
    const named = foldersNamed(resolvedValue())
    const watch = named.length > MAX_WATCHED_FOLDERS ? shallowestFirst(named).slice(0, MAX_WATCHED_FOLDERS) : named
    useDocsLoading.setState({ watched: { watched: watch.length, named: named.length } })
    const { index } = await call('site.docsIndex', folder ? { documentId, folder, watch } : { documentId, watch })
    if (mine !== serial || useEditor.getState().document?.documentId !== documentId) return
    if (index) setDocs({ lookup: docsLookup(index), openapi: useEditor.getState().docs?.openapi ?? [] })
    useDocsLoading.setState({ loading: false, progress: null })
    await checkOpenApi()
    if (index) await loadPages(mine, documentId)
  } catch (error) {
    if (mine !== serial) return
    useDocsLoading.setState({ loading: false, progress: null, readingPages: false, error: messageOf(error) })
    // Said in the Problems too, as validate says it: the folder part could not be worked out.
    setDocsFailure(messageOf(error))
  }
}

const shallowestFirst = (folders: readonly string[]) =>
  [...folders].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0))

/** Asks main for what the indexed pages hold (it parses them on a thread of its own), for the pages part of the Problems. */
async function loadPages(mine: number, documentId: string): Promise<void> {
  useDocsLoading.setState({ readingPages: true })
  try {
    const { facts } = await call('site.docsPages', { documentId })
    const current = useEditor.getState().docs
    if (mine === serial && current && useEditor.getState().document?.documentId === documentId) setDocs({ ...current, pages: facts })
  } finally {
    if (mine === serial) useDocsLoading.setState({ readingPages: false })
  }
}

let checkedFiles = ''

/** The document as its $ref files complete it: where a docs.json's OpenAPI files and images may be named. */
const resolvedValue = () => {
  const { value, refTexts } = useEditor.getState()
  return resolveRefs(value, refFilesFor(refTexts)).value
}
let lastListed: { value: unknown; key: string } | null = null
/** The OpenAPI files and images a value names, as one string to compare: worked out again only when a key that names files changed. */
function filesToCheck(value: unknown): string {
  const relevant =
    typeof value === 'object' && value !== null
      ? ['navigation', 'api', 'openapi', 'logo', 'favicon', 'background', 'backgroundImage', 'tabs', 'anchors'].map(
          (key) => (value as Record<string, unknown>)[key],
        )
      : [value]
  const previous = lastListed?.value as unknown[] | undefined
  if (previous && previous.length === relevant.length && previous.every((part, index) => part === relevant[index])) return lastListed!.key
  const key = JSON.stringify([openApiFilesOf(value), imageFilesOf(value)])
  lastListed = { value: relevant, key }
  return key
}

/** Validates the OpenAPI files and reads the images the document names, again whenever the lists change. */
export async function checkOpenApi(): Promise<void> {
  const { document, docs } = useEditor.getState()
  if (!document || !docs) return
  const value = resolvedValue()
  const files = openApiFilesOf(value)
  const images = imageFilesOf(value)
  checkedFiles = filesToCheck(value)
  const asked = checkedFiles
  try {
    const [openapi, imageChecks] = await Promise.all([
      files.length
        ? call('site.checkOpenApi', { documentId: document.documentId, files: files.slice(0, MAX_FILES_CHECKED) }).then(
            (answer) => answer.checks,
          )
        : [],
      images.length
        ? call('site.checkImages', { documentId: document.documentId, files: images.slice(0, MAX_FILES_CHECKED) }).then(
            (answer) => answer.checks,
          )
        : [],
    ])
    const current = useEditor.getState().docs
    if (checkedFiles === asked && current) setDocs({ ...current, openapi, images: imageChecks })
  } catch {
    // The files stay unchecked; the docs folder view says which.
  }
}

// For the life of the app: a new document brings its folder, and new OpenAPI paths are checked.
let openApiTimer: ReturnType<typeof setTimeout> | undefined
useEditor.subscribe((state, previous) => {
  if (state.document?.documentId !== previous.document?.documentId || state.document?.path !== previous.document?.path) {
    if (state.document) void loadDocs()
    else useDocsLoading.setState({ loading: false, error: null })
    return
  }
  // Whether the files named changed is worked out after the typing pauses, off the keystroke's frame.
  if (state.value !== previous.value || state.refTexts !== previous.refTexts) {
    clearTimeout(openApiTimer)
    openApiTimer = setTimeout(() => {
      if (useEditor.getState().docs && filesToCheck(resolvedValue()) !== checkedFiles) void checkOpenApi()
    }, 500)
  }
})

// Loaded $ref files may name OpenAPI files and images too.
useRefFiles.subscribe(() => {
  if (useEditor.getState().docs && filesToCheck(resolvedValue()) !== checkedFiles) void checkOpenApi()
})
