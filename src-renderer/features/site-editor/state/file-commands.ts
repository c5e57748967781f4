import { messageOf } from '../../../../src-shared/ipc/error-message'
import type { SaveTarget, SiteDocument, SiteDraft } from '../../../../src-shared/ipc/site-calls'
import type { RuleSet } from '../../../../src-shared/site-config/rule-sets'
import { SITE_CONFIG_TEMPLATE } from '../../../../src-shared/site-config/serialize'
import { plural } from '../../../../src-shared/text/plural'
import { call, CallError } from '../../../lib/api'
import { usesFileDialogs } from '../../../lib/uses-file-dialogs'
import { toast } from '../../../ui/toasts'
import { closeDialog, openDialog, type PathPurpose, type PendingAction, showDialogError, useEditorDialogs } from './dialog-store'
import { adoptDraft, discardDraft, forgetDraft, settleDrafts } from './draft-autosave'
import {
  closeDocument,
  isUnsaved,
  loadDocument,
  markRefsSaved,
  markSaved,
  replaceText,
  settleTypedText,
  updateDocument,
  useEditor,
} from './editor-store'
import { useRefFiles } from './ref-store'
import { showTextPosition } from './view-store'

// The File commands. Each reports its outcome itself (a toast, a dialog, a banner) so that a
// button, a shortcut and a dialog can all just call it.

export const fileNameOf = (path: string | null) => (path === null ? 'Untitled' : (path.split(/[\\/]/).pop() ?? path))

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
  loadDocument({
    documentId: document.documentId,
    path: document.path,
    baselineText: document.text,
    byteOrderMark: document.byteOrderMark,
    version: document.version,
    rules: document.rules ?? 'spec',
  })
  useEditorDialogs.setState({ changedOnDisk: false })
  // A file that is not JSON has nothing the form can show: it opens as text, at the break.
  const { syntaxError } = useEditor.getState()
  if (syntaxError) showTextPosition(syntaxError)
  if (document.draft) openDialog({ kind: 'restoreDraft', draft: document.draft })
  else closeDialog()
  if (document.recovered) toast.info(document.recovered)
}

async function newDocument() {
  showOpened(await call('site.new', {}))
}

/**
 * Reads a path, then opens it through the unsaved-changes question. Answers the error's sentence
 * instead of showing it, for the dialog that asked; nothing unsaved is at risk until the file read.
 */
export async function openPath(path: string): Promise<string | null> {
  try {
    const document = await whileBusy(() => call('site.open', { path }))
    requestAction({ kind: 'show', document })
    return null
  } catch (error) {
    if (codeOf(error) === 'not_found') await call('site.forgetRecent', { path }).catch(() => undefined)
    return messageOf(error)
  }
}

/** Open…: the system's dialog in the desktop app, a path to type in browser mode. */
export async function chooseFileToOpen() {
  if (!(await usesFileDialogs())) return openDialog({ kind: 'path', purpose: 'open', then: null })
  try {
    const { document } = await whileBusy(() => call('site.openWithDialog', {}))
    if (document) requestAction({ kind: 'show', document })
  } catch (error) {
    toast.error(messageOf(error))
  }
}

/** Save as… or Export…: the system's dialog, or the path dialog. */
export async function chooseWhereToWrite(purpose: Exclude<PathPurpose, 'open'>, then: PendingAction | null = null) {
  if (!(await usesFileDialogs())) return openDialog({ kind: 'path', purpose, then })
  if (purpose === 'saveAs') await saveAs({ kind: 'dialog' }, then)
  else await exportTo({ kind: 'dialog' })
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
    try {
      const document = await call('site.open', { path: draft.path })
      showOpened(document)
      return restoreDraft(draft)
    } catch (error) {
      toast.info(`${messageOf(error)} The unsaved changes open as an untitled document.`)
    }
  }
  loadDocument({
    documentId: draft.documentId,
    path: null,
    baselineText: SITE_CONFIG_TEMPLATE,
    byteOrderMark: false,
    version: null,
    rules: 'spec',
  })
  useEditorDialogs.setState({ changedOnDisk: false })
  adoptDraft(draft.documentId)
  replaceText(draft.text, null)
}

async function run(action: PendingAction) {
  try {
    switch (action.kind) {
      case 'new':
        return await newDocument()
      case 'show':
        return showOpened(action.document)
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
  settleTypedText()
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

/** Saves to the document's file; an untitled document asks where. True when saved. */
export async function save(then: PendingAction | null = null): Promise<boolean> {
  settleTypedText()
  const state = useEditor.getState()
  const document = state.document
  if (!document) return false
  if (document.path === null || document.version === null) {
    await chooseWhereToWrite('saveAs', then)
    return false
  }
  const { documentId, version, byteOrderMark } = document
  const text = state.text
  // docs.json $ref files edited here are saved in place with it.
  const loaded = useRefFiles.getState().files
  const refs = Object.entries(state.refTexts)
    .filter(([ref, refText]) => refText !== loaded[ref]?.baselineText)
    .map(([ref, refText]) => ({
      ref,
      text: refText,
      byteOrderMark: loaded[ref]?.byteOrderMark ?? false,
      expectedVersion: loaded[ref]?.version ?? null,
    }))
  try {
    await settleDrafts()
    const saved = await whileBusy(() =>
      call('site.save', { documentId, text, byteOrderMark, expectedVersion: version, ...(refs.length ? { refs } : {}) }),
    )
    forgetDraft(documentId)
    markSaved(saved)
    if (saved.refs?.length) {
      const files = { ...useRefFiles.getState().files }
      for (const written of saved.refs)
        files[written.ref] = { ...files[written.ref]!, baselineText: written.text, version: written.version, error: null }
      useRefFiles.setState({ files })
      markRefsSaved(saved.refs.map((written) => written.ref))
    }
    useEditorDialogs.setState({ changedOnDisk: false })
    toast.success(`Saved ${fileNameOf(saved.path)}.`)
    return true
  } catch (error) {
    if (codeOf(error) === 'file_changed_on_disk') useEditorDialogs.setState({ changedOnDisk: true })
    else toast.error(messageOf(error))
    return false
  }
}

/** The replace question for a typed path that names an existing file; its token lets the next try replace that file. */
function askToReplace(error: unknown, purpose: 'saveAs' | 'export', then: PendingAction | null): boolean {
  const details = error instanceof CallError ? (error.details as { path?: unknown; replaceToken?: unknown } | undefined) : undefined
  if (codeOf(error) !== 'conflict' || typeof details?.path !== 'string' || typeof details.replaceToken !== 'string') return false
  openDialog({ kind: 'replace', purpose, path: details.path, replaceToken: details.replaceToken, then })
  return true
}

export async function saveAs(target: SaveTarget, then: PendingAction | null) {
  settleTypedText()
  const state = useEditor.getState()
  if (!state.document) return
  const { documentId, byteOrderMark, rules } = state.document
  const text = state.text
  try {
    await settleDrafts()
    const { saved } = await whileBusy(() => call('site.saveAs', { documentId, text, byteOrderMark, target }))
    if (!saved) return
    forgetDraft(documentId)
    markSaved(saved)
    // The new file is checked with the rules the writer chose for this document.
    await call('site.setRules', { documentId: saved.documentId, rules }).catch(() => undefined)
    useEditorDialogs.setState({ changedOnDisk: false })
    closeDialog()
    toast.success(`Saved ${fileNameOf(saved.path)}.`)
    if (then) await run(then)
  } catch (error) {
    if (askToReplace(error, 'saveAs', then)) return
    if (target.kind === 'dialog') toast.error(messageOf(error))
    else showDialogError(messageOf(error))
  }
}

export async function exportTo(target: SaveTarget) {
  settleTypedText()
  const { text, document } = useEditor.getState()
  if (!document) return
  const { documentId, byteOrderMark, rules } = document
  try {
    const { exported } = await whileBusy(() => call('site.export', { documentId, text, byteOrderMark, rules, target }))
    if (!exported) return
    closeDialog()
    const warnings = exported.warnings ? ` (${plural(exported.warnings, 'warning')} left)` : ''
    toast.success(`Exported a valid copy to ${exported.path}${warnings}.`)
  } catch (error) {
    if (askToReplace(error, 'export', null)) return
    if (target.kind === 'dialog') toast.error(messageOf(error))
    else showDialogError(messageOf(error))
  }
}

/** Checks the document with other rules, and remembers the choice for its file. */
export async function chooseRules(rules: RuleSet) {
  const document = useEditor.getState().document
  if (!document || document.rules === rules) return
  updateDocument({ rules })
  await call('site.setRules', { documentId: document.documentId, rules }).catch((error) => toast.error(messageOf(error)))
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
    updateDocument({ baselineText: fresh.text, version: fresh.version, byteOrderMark: fresh.byteOrderMark })
    useEditorDialogs.setState({ changedOnDisk: false })
    toast.info(`Reloaded ${fileNameOf(fresh.path)} from disk. Undo brings your version back.`)
    if (fresh.recovered) toast.info(fresh.recovered)
  } catch (error) {
    toast.error(messageOf(error))
  }
}
