import { useEditorDialogs } from '../state/dialog-store'
import { chooseWhereToWrite, fileNameOf, reloadFromDisk } from '../state/file-commands'
import { useEditor } from '../state/editor-store'
import { showTextPosition, useEditorView } from '../state/view-store'

/** What the writer must know before going on: a refused save, or a text the form cannot follow. */
export function DocumentBanners() {
  const changedOnDisk = useEditorDialogs((state) => state.changedOnDisk)
  const path = useEditor((state) => state.document?.path ?? null)
  const syntaxError = useEditor((state) => state.syntaxError)
  const view = useEditorView((state) => state.view)

  return (
    <>
      {changedOnDisk ? (
        <div className="callout callout--danger site-banner" role="alert">
          <span>
            <strong>{fileNameOf(path)} changed on disk</strong> since it was opened or last saved here, so it was not overwritten.
          </span>
          <span className="site-banner__actions">
            <button type="button" className="btn btn--small" onClick={() => void reloadFromDisk()}>
              Reload from disk
            </button>
            <button type="button" className="btn btn--small" onClick={() => void chooseWhereToWrite('saveAs')}>
              Save as…
            </button>
          </span>
        </div>
      ) : null}
      {syntaxError && view === 'form' ? (
        <div className="callout callout--warning site-banner" role="status">
          <span>
            <strong>
              The text is not valid JSON at line {syntaxError.line}, column {syntaxError.column}:
            </strong>{' '}
            {syntaxError.message}. The form shows the last valid version and waits until the text is fixed; nothing is lost.
          </span>
          <button
            type="button"
            className="btn btn--small"
            onClick={() => showTextPosition(syntaxError)}
          >
            Show in JSON
          </button>
        </div>
      ) : null}
    </>
  )
}
