import {
  hasRefs,
  MAX_EXPANDED_CHARACTERS,
  MAX_REF_FILES,
  PAST_REF_CHARACTERS,
  PAST_REF_FILES,
  refsIn,
} from '../../../../src-shared/site-config/refs'
import { call } from '../../../lib/api'
import { noteRefFilesRead, useEditor } from './editor-store'
import { refFilesFor, useRefFiles } from './ref-store'

// For the life of the app: the `$ref` files the open docs.json names (and theirs in turn) are read
// from its folder by main as they appear, so the navigation and the Problems show what they hold.

let forDocument: string | null = null
const reading = () => useRefFiles.getState().reading
const setReading = (refs: Iterable<string>, on: boolean) => {
  const next = new Set(reading())
  for (const ref of refs)
    if (on) next.add(ref)
    else next.delete(ref)
  useRefFiles.setState({ reading: next })
}

/** Refs named by the document or by a loaded ref file that are not loaded yet. */
function missingRefs(): string[] {
  const { value, refTexts, document } = useEditor.getState()
  if (!document?.path) return []
  const { files } = useRefFiles.getState()
  // Most files name none: a look costs a walk of what changed only (hasRefs remembers the rest).
  if (!hasRefs(value) && Object.keys(files).length === 0) return []
  const map = refFilesFor(refTexts)
  const named = new Set(refsIn(value))
  for (const [ref, file] of map) if (file.ok === true) for (const nested of refsIn(file.value, ref)) named.add(nested)
  return [...named].filter((ref) => !(ref in files) && !reading().has(ref))
}

/** Why a file is not asked for once the document's files reached their cap (main reads each call within it too). */
function pastCap(): string | null {
  const files = Object.values(useRefFiles.getState().files)
  if (files.length >= MAX_REF_FILES) return PAST_REF_FILES
  const characters = files.reduce((total, file) => total + (file.baselineText?.length ?? 0), 0)
  return characters >= MAX_EXPANDED_CHARACTERS ? PAST_REF_CHARACTERS : null
}

async function loadMissing(): Promise<void> {
  const document = useEditor.getState().document
  const refs = missingRefs().slice(0, 200)
  if (!document || refs.length === 0) return
  const cap = pastCap()
  if (cap) {
    const loaded = { ...useRefFiles.getState().files }
    for (const ref of refs) loaded[ref] = { baselineText: null, byteOrderMark: false, version: null, error: cap }
    return useRefFiles.setState({ files: loaded })
  }
  setReading(refs, true)
  try {
    const { files } = await call('site.readRefs', { documentId: document.documentId, refs })
    if (useEditor.getState().document?.documentId !== document.documentId) return
    const loaded = { ...useRefFiles.getState().files }
    for (const file of files)
      loaded[file.ref] = { baselineText: file.text, byteOrderMark: file.byteOrderMark, version: file.version, error: file.error }
    useRefFiles.setState({ files: loaded })
  } catch {
    // Unreadable refs stay unresolved: the Problems say which $ref could not be followed.
  } finally {
    setReading(refs, false)
  }
  // A file just read may name others.
  if (missingRefs().length) await loadMissing()
}

useEditor.subscribe((state, previous) => {
  const id = state.document ? `${state.document.documentId}\0${state.document.path}` : null
  if (id !== forDocument) {
    forDocument = id
    useRefFiles.setState({ files: {}, reading: new Set() })
  }
  if (state.document && (state.value !== previous.value || state.refTexts !== previous.refTexts || state.document !== previous.document))
    void loadMissing()
})

useRefFiles.subscribe(noteRefFilesRead)
