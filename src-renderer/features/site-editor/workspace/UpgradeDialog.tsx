import { useMemo } from 'react'
import { convertMintToDocs } from '../../../../src-shared/site-config/convert-mint'
import { isPlainObject } from '../../../../src-shared/site-config/mint-schema'
import { closeDialog, openDialog, useEditorDialogs } from '../state/dialog-store'
import { formCanEdit, replaceText, useEditor, useFormat } from '../state/editor-store'
import { chooseWhereToWrite } from '../state/file-commands'
import { Modal } from './Modal'

/** "Upgrade to docs.json…", for a site.json or mint.json: asks first, showing what changes and what cannot be carried. */
export function UpgradeButton() {
  const format = useFormat()
  const editable = useEditor(formCanEdit)
  const busy = useEditorDialogs((state) => state.busy)
  if (format === 'docs') return null
  return (
    <button
      type="button"
      className="btn btn--small"
      disabled={!editable || busy}
      title={
        editable
          ? 'Turns this file into a docs.json Mintlify accepts, naming each setting it cannot carry; asks first'
          : 'Fix the JSON text first'
      }
      onClick={() => openDialog({ kind: 'upgrade' })}
    >
      Upgrade to docs.json…
    </button>
  )
}

/**
 * The conversion (convert-mint.ts, the same as `embed-console convert`) shown before it is made:
 * the settings carried with a change and those not carried, each by its key with why. Upgrading
 * replaces the text in one undoable step and asks where to save the docs.json; the mint.json on
 * disk stays as it was.
 */
export function UpgradeDialog() {
  const text = useEditor((state) => state.text)
  const value = useEditor((state) => state.value)
  const conversion = useMemo(() => (isPlainObject(value) ? convertMintToDocs(text, value) : null), [text, value])
  if (!conversion) {
    return (
      <Modal
        title="Upgrade to docs.json"
        actions={
          <button type="button" className="btn" autoFocus onClick={closeDialog}>
            Close
          </button>
        }
      >
        The file does not hold a JSON object, so there is nothing to upgrade.
      </Modal>
    )
  }
  const upgrade = () => {
    replaceText(conversion.text, null)
    closeDialog()
    void chooseWhereToWrite('saveAs')
  }
  return (
    <Modal
      title="Upgrade to docs.json"
      actions={
        <>
          <button type="button" className="btn" autoFocus onClick={closeDialog}>
            Cancel
          </button>
          <button type="button" className="btn btn--primary" onClick={upgrade}>
            Upgrade and save as docs.json…
          </button>
        </>
      }
    >
      <p>
        The text becomes a docs.json that Mintlify accepts, in the file’s own layout. Undo takes it back; the file on disk stays as it is
        until you save, and Save as then writes the docs.json beside it.
      </p>
      <h3 className="upgrade__heading">Not carried ({conversion.dropped.length})</h3>
      {conversion.dropped.length ? (
        <ul className="upgrade__list" aria-label="Settings not carried" tabIndex={0}>
          {conversion.dropped.map((note) => (
            <li key={note.path}>
              <code>{note.path}</code>: {note.message}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Every setting has a place in docs.json.</p>
      )}
      <h3 className="upgrade__heading">Carried with a change ({conversion.changed.length})</h3>
      {conversion.changed.length ? (
        <ul className="upgrade__list" aria-label="Settings carried with a change" tabIndex={0}>
          {conversion.changed.map((note, index) => (
            <li key={`${note.path}-${index}`}>
              <code>{note.path}</code>: {note.message}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None.</p>
      )}
    </Modal>
  )
}
