import type { SiteDocument, SiteDraft } from '../../../../src-shared/ipc/site-calls'
import { SITE_CONFIG_TEMPLATE } from '../../../../src-shared/site-config/format'
import { call, CallError } from '../../../lib/api'
import { toast } from '../../../ui/toasts'
import { closeDialog, openDialog, showDialogError, useEditorDialogs, type PendingAction } from './dialog-store'
import { adoptDraft, discardDraft, forgetDraft, settleDrafts } from './draft-autosave'
import { showTextPosition } from './view-store'
import { closeDocument, isUnsaved, loadDocument, markSaved, replaceText, updateDocument, useEditor } from './editor-store'

// The File commands. Each reports its outcome itself (a toast, a dialog, a banner) so that a
// button, a shortcut and a dialog can all just call it.

export const fileNameOf = (path: string | null) => (path === null ? 'Untitled' : (path.split(/[\\/]/).pop() ?? path))

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
const codeOf = (error: unknown) => (error instanceof CallError ? error.code : null)

async function whileBusy<T>(work: () => Promise<T>): Promise<T> {
  useEditorDialogs.setState({ busy: true })
  try {
    return await work()
  } finally {
    useEditorDialogs.setState({ busy: false })
  }
}

function showOpened(document: SiteDocument) {
  loadDocument({ documentId: document.documentId, path: document.path, baselineText: document.text, version: document.version })
  useEditorDialogs.setState({ changedOnDisk: false })
  // A file that is not JSON has nothing the form can show: it opens as text, at the break.
  const { syntaxError } = useEditor.getState()
  if (syntaxError) showTextPosition(syntaxError)
  if (document.draft) openDialog({ kind: 'restoreDraft', draft: document.draft })
  else closeDialog()
}

async function newDocument() {
  showOpened(await call('site.new', {}))
}

/** Opens a path; answers the error's sentence instead of showing it, for the dialog that asked. */
async function openPath(path: string): Promise<string | null> {
  try {
    showOpened(await whileBusy(() => call('site.open', { path })))
    return null
  } catch (error) {
    if (codeOf(error) === 'not_found') await call('site.forgetRecent', { path }).catch(() => undefined)
    return messageOf(error)
  }
}

/**
 * Puts an autosaved draft's text in the editor as one undoable change. When the file changed on
 * disk after the draft was made, the document keeps the draft's base version, so Save refuses
 * and offers reload or Save as rather than silently replacing that change.
 */
export function restoreDraft(draft: SiteDraft) {
  const document = useEditor.getState().document
  if (!document) return
  adoptDraft(draft.documentId)
  replaceText(draft.text, null)
  if (draft.baseVersion && document.version && draft.baseVersion.sha256 !== document.version.sha256) {
    updateDocument({ version: draft.baseVersion })
    toast.info(`${fileNameOf(document.path)} changed on disk after these changes were made: saving will ask what to do.`)
  }
  closeDialog()
}

export async function declineDraft(draft: SiteDraft) {
  closeDialog()
  await discardDraft(draft.documentId).catch((error) => toast.error(messageOf(error)))
}

async function restoreListedDraft(summary: { documentId: string; path: string | null }) {
  const draft = await call('site.draftGet', { documentId: summary.documentId })
  if (draft.path !== null) {
    const problem = await openPath(draft.path)
    if (problem === null) return restoreDraft(draft)
    toast.info(`${problem} The unsaved changes open as an untitled document.`)
  }
  loadDocument({ documentId: draft.documentId, path: null, baselineText: SITE_CONFIG_TEMPLATE, version: null })
  useEditorDialogs.setState({ changedOnDisk: false })
  adoptDraft(draft.documentId)
  replaceText(draft.text, null)
}

async function run(action: PendingAction) {
  try {
    switch (action.kind) {
      case 'new':
        return await newDocument()
      case 'open': {
        const problem = await openPath(action.path)
        if (problem) toast.error(problem)
        return
      }
      case 'restoreDraft':
        return await restoreListedDraft(action.draft)
      case 'close':
        return closeDocument()
    }
  } catch (error) {
    toast.error(messageOf(error))
  }
}

/** New, Open, Restore or Close: asks first when the open document has unsaved changes. */
export function requestAction(action: PendingAction) {
  if (isUnsaved(useEditor.getState())) openDialog({ kind: 'unsaved', then: action })
  else void run(action)
}

/** From the open dialog: the dialog stays, with the reason, when the path cannot be opened. */
export async function openFromDialog(path: string) {
  const problem = await openPath(path)
  if (problem) showDialogError(problem)
}

/** The unsaved-changes question answered "Don't save": the draft goes too. */
export async function discardAndContinue(action: PendingAction) {
  const document = useEditor.getState().document
  closeDialog()
  if (document) await discardDraft(document.documentId).catch(() => undefined)
  await run(action)
}

/** The unsaved-changes question answered "Save": the action runs once the save succeeded. */
export async function saveAndContinue(action: PendingAction) {
  closeDialog()
  if (await save(action)) await run(action)
}

/** Saves to the document's file; an untitled document asks for a path. True when saved. */
export async function save(then: PendingAction | null = null): Promise<boolean> {
  const state = useEditor.getState()
  const document = state.document
  if (!document) return false
  if (document.path === null || document.version === null) {
    openDialog({ kind: 'path', purpose: 'saveAs', then })
    return false
  }
  const { documentId, path, version } = document
  const text = state.text
  try {
    await settleDrafts()
    const saved = await whileBusy(() => call('site.save', { documentId, path, text, expectedVersion: version }))
    forgetDraft(documentId)
    markSaved(saved, text)
    useEditorDialogs.setState({ changedOnDisk: false })
    toast.success(`Saved ${fileNameOf(saved.path)}.`)
    return true
  } catch (error) {
    if (codeOf(error) === 'file_changed_on_disk') useEditorDialogs.setState({ changedOnDisk: true })
    else toast.error(messageOf(error))
    return false
  }
}

export async function saveAs(path: string, overwrite: boolean, then: PendingAction | null) {
  const state = useEditor.getState()
  if (!state.document) return
  const { documentId } = state.document
  const text = state.text
  try {
    await settleDrafts()
    const saved = await whileBusy(() => call('site.saveAs', { documentId, path, text, overwrite }))
    forgetDraft(documentId)
    markSaved(saved, text)
    useEditorDialogs.setState({ changedOnDisk: false })
    closeDialog()
    toast.success(`Saved ${fileNameOf(saved.path)}.`)
    if (then) await run(then)
  } catch (error) {
    if (codeOf(error) === 'conflict') openDialog({ kind: 'replace', purpose: 'saveAs', path, then })
    else showDialogError(messageOf(error))
  }
}

export async function exportTo(path: string, overwrite: boolean) {
  const { text, document } = useEditor.getState()
  if (!document) return
  if (path === document.path) {
    showDialogError('That is the file you are editing: choose another path, or use Save.')
    return
  }
  try {
    const exported = await whileBusy(() => call('site.export', { path, text, overwrite }))
    closeDialog()
    const warnings = exported.warnings ? ` (${exported.warnings} warning${exported.warnings === 1 ? '' : 's'} left)` : ''
    toast.success(`Exported a valid copy to ${exported.path}${warnings}.`)
  } catch (error) {
    if (codeOf(error) === 'conflict') openDialog({ kind: 'replace', purpose: 'export', path, then: null })
    else showDialogError(messageOf(error))
  }
}

/**
 * Replaces the text with the file as it is now on disk, as one undoable change: Undo brings the
 * writer's version back, to compare or to save over the file knowingly.
 */
export async function reloadFromDisk() {
  const document = useEditor.getState().document
  if (!document?.path) return
  try {
    const fresh = await whileBusy(() => call('site.open', { path: document.path! }))
    replaceText(fresh.text, null)
    updateDocument({ baselineText: fresh.text, version: fresh.version })
    useEditorDialogs.setState({ changedOnDisk: false })
    toast.info(`Reloaded ${fileNameOf(fresh.path)} from disk. Undo brings your version back.`)
  } catch (error) {
    toast.error(messageOf(error))
  }
}
