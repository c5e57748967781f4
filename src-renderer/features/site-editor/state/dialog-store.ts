import { create } from 'zustand'
import type { ApiReferenceTarget, SiteDocument, SiteDraft, SiteDraftSummary } from '../../../../src-shared/ipc/site-calls'

/**
 * What the writer asked for that replaces the open document, held while unsaved changes are
 * settled. A file to open is read first (`show`), so a path that cannot be opened is said before
 * anything unsaved is put at risk.
 */
export type PendingAction =
  { kind: 'new' } | { kind: 'show'; document: SiteDocument } | { kind: 'restoreDraft'; draft: SiteDraftSummary } | { kind: 'close' }

export type PathPurpose = 'open' | 'saveAs' | 'export'

export type EditorDialog =
  | { kind: 'path'; purpose: PathPurpose; then: PendingAction | null }
  | { kind: 'replace'; purpose: 'saveAs' | 'export'; path: string; replaceToken: string; then: PendingAction | null }
  | { kind: 'unsaved'; then: PendingAction }
  | { kind: 'restoreDraft'; draft: SiteDraft }
  /** Puts a page into a group chosen in the dialog: moved from `from`, or added when it is listed nowhere. */
  | { kind: 'placePage'; page: string; from: readonly (string | number)[] | null }
  /** "Add the API reference": what will change, asked once; `target` says whether openapi.json is there already. */
  | { kind: 'apiReference'; target: ApiReferenceTarget }
  | { kind: 'confirm'; title: string; body: string; choices: { label: string; tone?: 'primary' | 'danger'; run: () => void }[] }
  /** "Upgrade to docs.json": the conversion shown before it is made. */
  | { kind: 'upgrade' }

interface DialogState {
  dialog: EditorDialog | null
  /** A sentence shown inside the open dialog, e.g. why a path could not be opened. */
  dialogError: string | null
  /** Set when a save was refused because the file changed on disk: the banner offers a way out. */
  changedOnDisk: boolean
  busy: boolean
}

export const useEditorDialogs = create<DialogState>(() => ({ dialog: null, dialogError: null, changedOnDisk: false, busy: false }))

export const openDialog = (dialog: EditorDialog) => useEditorDialogs.setState({ dialog, dialogError: null })
export const closeDialog = () => useEditorDialogs.setState({ dialog: null, dialogError: null })
export const showDialogError = (dialogError: string) => useEditorDialogs.setState({ dialogError })
