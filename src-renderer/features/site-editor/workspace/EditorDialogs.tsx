import { type FormEvent, useMemo, useState } from 'react'
import { detectConfigFormat } from '../../../../src-shared/site-config/config-format'
import { plural } from '../../../../src-shared/text/plural'
import { toast } from '../../../ui/toasts'
import { closeDialog, type EditorDialog, type PathPurpose, useEditorDialogs } from '../state/dialog-store'
import { editValue, useEditor, useProblemIndex } from '../state/editor-store'
import {
  declineDraft,
  discardAndContinue,
  exportTo,
  fileNameOf,
  openFromDialog,
  restoreDraft,
  saveAndContinue,
  saveAs,
} from '../state/file-commands'
import { groupsOf, placePage } from '../state/navigation-edits'
import { ApiReferenceDialog } from './ApiReferenceDialog'
import { folderOf, formatWhen } from './format-time'
import { Modal } from './Modal'
import { RecentFiles } from './RecentFiles'
import { UpgradeDialog } from './UpgradeDialog'

/** The one modal the editor may show at a time, from the dialog store. */
export function EditorDialogs() {
  const dialog = useEditorDialogs((state) => state.dialog)
  if (!dialog) return null
  return <DialogFor key={dialogKey(dialog)} dialog={dialog} />
}

function dialogKey(dialog: EditorDialog): string {
  if (dialog.kind === 'path') return `path:${dialog.purpose}`
  // Asked again about a file that changed meanwhile: the earlier answer does not carry over.
  if (dialog.kind === 'apiReference') return `apiReference:${dialog.target.existing?.replaceToken ?? 'new'}`
  return dialog.kind
}

function DialogFor({ dialog }: { dialog: EditorDialog }) {
  switch (dialog.kind) {
    case 'path':
      return <PathDialog purpose={dialog.purpose} then={dialog.then} />
    case 'replace':
      return (
        <Modal
          title={`Replace ${fileNameOf(dialog.path)}?`}
          actions={
            <>
              <button type="button" className="btn" autoFocus onClick={closeDialog}>
                Cancel
              </button>
              <button
                type="button"
                className="btn btn--danger"
                onClick={() => {
                  const target = { kind: 'path', path: dialog.path, replaceToken: dialog.replaceToken } as const
                  void (dialog.purpose === 'saveAs' ? saveAs(target, dialog.then) : exportTo(target))
                }}
              >
                Replace
              </button>
            </>
          }
        >
          A file named <strong>{fileNameOf(dialog.path)}</strong> already exists in <code>{folderOf(dialog.path)}</code>. Replacing it
          overwrites what it holds.
        </Modal>
      )
    case 'unsaved':
      return <UnsavedDialog dialog={dialog} />
    case 'apiReference':
      return <ApiReferenceDialog target={dialog.target} />
    case 'upgrade':
      return <UpgradeDialog />
    case 'placePage':
      return <PlacePageDialog page={dialog.page} from={dialog.from} />
    case 'confirm':
      return (
        <Modal
          title={dialog.title}
          actions={
            <>
              <button type="button" className="btn" autoFocus onClick={closeDialog}>
                Cancel
              </button>
              {dialog.choices.map((choice) => (
                <button
                  key={choice.label}
                  type="button"
                  className={`btn${choice.tone ? ` btn--${choice.tone}` : ''}`}
                  onClick={() => {
                    closeDialog()
                    choice.run()
                  }}
                >
                  {choice.label}
                </button>
              ))}
            </>
          }
        >
          {dialog.body}
        </Modal>
      )
    case 'restoreDraft':
      return (
        <Modal
          title={`Restore unsaved changes from ${formatWhen(dialog.draft.savedAt)}?`}
          onCancel={() => void declineDraft(dialog.draft)}
          actions={
            <>
              <button type="button" className="btn" onClick={() => void declineDraft(dialog.draft)}>
                Discard them
              </button>
              <button type="button" className="btn btn--primary" autoFocus onClick={() => restoreDraft(dialog.draft)}>
                Restore
              </button>
            </>
          }
        >
          {fileNameOf(dialog.draft.path)} has changes that were autosaved but never saved, most likely because Embed Console closed before
          they were. Restoring them is one step you can undo.
        </Modal>
      )
  }
}

function UnsavedDialog({ dialog }: { dialog: Extract<EditorDialog, { kind: 'unsaved' }> }) {
  const path = useEditor((state) => state.document?.path ?? null)
  return (
    <Modal
      title={`Save the changes to ${fileNameOf(path)}?`}
      actions={
        <>
          <button type="button" className="btn" onClick={closeDialog}>
            Cancel
          </button>
          <button type="button" className="btn btn--danger" onClick={() => void discardAndContinue(dialog.then)}>
            Don’t save
          </button>
          <button type="button" className="btn btn--primary" autoFocus onClick={() => void saveAndContinue(dialog.then)}>
            {path ? 'Save' : 'Save as…'}
          </button>
        </>
      }
    >
      Your changes are lost if you don’t save them.
    </Modal>
  )
}

/** Which group a page goes to: a move from another group, or a page of the docs folder no group lists yet. */
function PlacePageDialog({ page, from }: { page: string; from: readonly (string | number)[] | null }) {
  const value = useEditor((state) => state.value)
  const groups = useMemo(() => groupsOf(value), [value])
  const current = from ? JSON.stringify(from.slice(0, -2)) : null
  const choices = groups.filter((group) => JSON.stringify(group.path) !== current)
  const [chosen, setChosen] = useState(0)
  const place = () => {
    const group = choices[chosen]
    if (!group) return
    editValue((value) => placePage(value, page, group.path, from))
    closeDialog()
    toast.success(`${from ? 'Moved' : 'Added'} ${page} to ${group.label}.`)
  }
  return (
    <Modal
      title={from ? `Move ${page} to another group` : `Add ${page} to a group`}
      actions={
        <>
          <button type="button" className="btn" onClick={closeDialog}>
            Cancel
          </button>
          <button type="button" className="btn btn--primary" disabled={!choices.length} onClick={place}>
            {from ? 'Move' : 'Add'}
          </button>
        </>
      }
    >
      {choices.length ? (
        <div className="field">
          <label className="field__label" htmlFor="site-place-group">
            Group
          </label>
          <select id="site-place-group" autoFocus value={chosen} onChange={(event) => setChosen(Number(event.target.value))}>
            {choices.map((group, index) => (
              <option key={JSON.stringify(group.path)} value={index}>
                {group.label}
              </option>
            ))}
          </select>
        </div>
      ) : (
        'There is no other group yet: add one in the Navigation section first.'
      )}
    </Modal>
  )
}

const PATH_DIALOGS: Record<PathPurpose, { title: string; action: string; busyAction: string }> = {
  open: { title: 'Open a docs.json or site.json file', action: 'Open', busyAction: 'Opening…' },
  saveAs: { title: 'Save as', action: 'Save', busyAction: 'Saving…' },
  export: { title: 'Export a valid copy', action: 'Export', busyAction: 'Exporting…' },
}

function suggestedPath(purpose: PathPurpose, current: string | null): string {
  if (purpose === 'open' || current === null) return ''
  // A mint.json just upgraded is saved as the docs.json beside it.
  if (purpose === 'saveAs')
    return detectConfigFormat(useEditor.getState().value, null) === 'docs'
      ? current.replace(/(^|[\\/])(mint|site)\.json$/i, '$1docs.json')
      : current
  return current.replace(/(\.json)?$/i, '.export.json')
}

/** Browser mode has no file dialog, so a path is typed or pasted (or picked from the recent files). */
function PathDialog({ purpose, then }: { purpose: PathPurpose; then: Extract<EditorDialog, { kind: 'path' }>['then'] }) {
  const current = useEditor((state) => state.document?.path ?? null)
  const [path, setPath] = useState(() => suggestedPath(purpose, current))
  const error = useEditorDialogs((state) => state.dialogError)
  const busy = useEditorDialogs((state) => state.busy)
  const { counts } = useProblemIndex()
  const copy = PATH_DIALOGS[purpose]
  const exportBlocked = purpose === 'export' && counts.errors > 0

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const chosen = path.trim()
    if (!chosen || exportBlocked) return
    if (purpose === 'open') void openFromDialog(chosen)
    else if (purpose === 'saveAs') void saveAs({ kind: 'path', path: chosen }, then)
    else void exportTo({ kind: 'path', path: chosen })
  }

  return (
    <Modal title={copy.title} wide>
      <form className="stack" onSubmit={submit} aria-label={copy.title}>
        {purpose === 'export' ? (
          <p className={exportBlocked ? 'callout callout--danger' : 'muted'}>
            {exportBlocked
              ? `The file has ${plural(counts.errors, 'error')}; fix ${counts.errors === 1 ? 'it' : 'them'} before exporting.`
              : 'Writes the document, checked against the spec, as 2-space JSON to another file. The document itself stays where it is.'}
          </p>
        ) : null}
        {purpose === 'open' ? (
          <p className="muted">
            A Mintlify <code>docs.json</code>, or a <code>site.json</code> or <code>mint.json</code>: its format is told by its shape.
          </p>
        ) : null}
        <div className="field">
          <label className="field__label" htmlFor="site-path-input">
            File path
          </label>
          <input
            id="site-path-input"
            type="text"
            value={path}
            autoFocus
            spellCheck={false}
            autoComplete="off"
            placeholder="/home/you/docs/docs.json"
            aria-describedby="site-path-hint"
            aria-invalid={error ? true : undefined}
            onChange={(event) => setPath(event.target.value)}
          />
          <div id="site-path-hint" className="field__hint">
            The full path; ~ stands for your home folder.
          </div>
          {error ? (
            <div className="field__error" role="alert">
              {error}
            </div>
          ) : null}
        </div>
        {purpose === 'open' ? <RecentFiles onOpen={(recent) => void openFromDialog(recent)} /> : null}
        <div className="row dialog__actions">
          <button type="button" className="btn" onClick={closeDialog}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy || !path.trim() || exportBlocked}>
            {busy ? copy.busyAction : copy.action}
          </button>
        </div>
      </form>
    </Modal>
  )
}
