import { jsonErrorSentence } from '../../../../src-shared/site-config/json-text'
import { useEditorDialogs } from '../state/dialog-store'
import { useEditor, useProblemIndex } from '../state/editor-store'
import { chooseRules, chooseWhereToWrite, fileNameOf, reloadFromDisk } from '../state/file-commands'
import { showTextPosition, useEditorView } from '../state/view-store'

/**
 * What the writer must know before going on: a refused save, a text the form cannot follow (broken
 * JSON, a key written twice), or a file written for Mintlify that the rules of docs/site-json.md
 * call broken.
 */
export function DocumentBanners() {
  const changedOnDisk = useEditorDialogs((state) => state.changedOnDisk)
  const path = useEditor((state) => state.document?.path ?? null)
  const syntaxError = useEditor((state) => state.syntaxError)
  const duplicate = useEditor((state) => state.duplicates[0] ?? null)
  const suggestion = useProblemIndex().mintlifySuggestion
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
      {suggestion ? (
        <div className="callout site-banner" role="status">
          <span>{suggestion}</span>
          <button type="button" className="btn btn--small btn--primary" onClick={() => void chooseRules('mintlify')}>
            Use the Mintlify-compatible rules
          </button>
        </div>
      ) : null}
      {duplicate && view !== 'json' ? (
        <div className="callout callout--warning site-banner" role="status">
          <span>
            <strong>
              “{String(duplicate.segments.at(-1))}” is written twice in one object (lines {Math.min(duplicate.line, duplicate.otherLine)}{' '}
              and {Math.max(duplicate.line, duplicate.otherLine)}).
            </strong>{' '}
            JSON keeps only the last one, so the form waits until one of them goes; nothing is lost meanwhile.
          </span>
          <button
            type="button"
            className="btn btn--small"
            onClick={() => showTextPosition({ line: duplicate.line, column: duplicate.column })}
          >
            Show in JSON
          </button>
        </div>
      ) : null}
      {syntaxError && view === 'form' ? (
        <div className="callout callout--warning site-banner" role="status">
          <span>
            {syntaxError.tooDeep ? (
              <strong>The text {jsonErrorSentence(syntaxError)}.</strong>
            ) : (
              <>
                <strong>
                  The text is not valid JSON at line {syntaxError.line}, column {syntaxError.column}:
                </strong>{' '}
                {syntaxError.message}.
              </>
            )}{' '}
            The form shows the last valid version and waits until the text is fixed; nothing is lost.
          </span>
          <button type="button" className="btn btn--small" onClick={() => showTextPosition(syntaxError)}>
            Show in JSON
          </button>
        </div>
      ) : null}
    </>
  )
}
