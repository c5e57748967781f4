import { API_REFERENCE_FILE } from '../../../../src-shared/site-config/api-reference'
import { RULE_SET_LABELS, RULE_SETS, type RuleSet } from '../../../../src-shared/site-config/rule-sets'
import { plural } from '../../../../src-shared/text/plural'
import { TabList } from '../../../ui/TabList'
import { startApiReference } from '../state/api-reference'
import { useEditorDialogs } from '../state/dialog-store'
import { formCanEdit, redo, undo, useCanRedo, useCanUndo, useEditor, useFormat, useIsUnsaved, useProblemIndex } from '../state/editor-store'
import { chooseFileToOpen, chooseRules, chooseWhereToWrite, fileNameOf, requestAction, save } from '../state/file-commands'
import { type EditorView, showView, stepProblem, useEditorView } from '../state/view-store'
import { UpgradeButton } from './UpgradeDialog'

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform)
const shortcut = (key: string) => (isMac ? `⌘${key}` : `Ctrl+${key}`)

const VIEWS: { id: EditorView; label: string }[] = [
  { id: 'form', label: 'Form' },
  { id: 'json', label: 'JSON' },
  { id: 'docs', label: 'Docs folder' },
]

/** The document's name and state, the File commands, undo and redo, and the Form / JSON switch. */
export function EditorToolbar() {
  const path = useEditor((state) => state.document?.path ?? null)
  const unsaved = useIsUnsaved()
  const busy = useEditorDialogs((state) => state.busy)
  const canUndo = useCanUndo()
  const canRedo = useCanRedo()
  const view = useEditorView((state) => state.view)

  return (
    <div className="site-toolbar">
      <div className="site-toolbar__document">
        <span className="site-toolbar__name">{fileNameOf(path)}</span>
        {unsaved ? (
          <span className="badge badge--warning">Unsaved changes</span>
        ) : (
          <span className="badge">{path ? 'Saved' : 'Not saved yet'}</span>
        )}
        {path ? (
          <span className="site-toolbar__path" title={path}>
            {path}
          </span>
        ) : null}
      </div>
      <div className="site-toolbar__actions" role="toolbar" aria-label="File">
        <button type="button" className="btn btn--small" onClick={() => requestAction({ kind: 'new' })}>
          New
        </button>
        <button type="button" className="btn btn--small" onClick={() => void chooseFileToOpen()}>
          Open…
        </button>
        <button
          type="button"
          className="btn btn--small btn--primary"
          disabled={busy}
          aria-keyshortcuts={isMac ? 'Meta+S' : 'Control+S'}
          title={shortcut('S')}
          onClick={() => void save()}
        >
          Save
        </button>
        <button type="button" className="btn btn--small" disabled={busy} onClick={() => void chooseWhereToWrite('saveAs')}>
          Save as…
        </button>
        <button type="button" className="btn btn--small" disabled={busy} onClick={() => void chooseWhereToWrite('export')}>
          Export…
        </button>
        <button type="button" className="btn btn--small btn--ghost" onClick={() => requestAction({ kind: 'close' })}>
          Close
        </button>
        <span className="site-toolbar__divider" aria-hidden="true" />
        <button
          type="button"
          className="btn btn--small"
          disabled={!canUndo}
          aria-keyshortcuts={isMac ? 'Meta+Z' : 'Control+Z'}
          title={shortcut('Z')}
          onClick={undo}
        >
          Undo
        </button>
        <button
          type="button"
          className="btn btn--small"
          disabled={!canRedo}
          aria-keyshortcuts={isMac ? 'Meta+Shift+Z' : 'Control+Shift+Z Control+Y'}
          title={isMac ? '⇧⌘Z' : 'Ctrl+Shift+Z or Ctrl+Y'}
          onClick={redo}
        >
          Redo
        </button>
      </div>
      <DocumentTools />
      <TabList
        className="site-toolbar__views"
        label="View"
        tabs={VIEWS}
        selected={view}
        onSelect={showView}
        idPrefix="site-view"
        panelId="site-view-panel"
      />
    </div>
  )
}

/**
 * What the document is checked against and how it stands: the rule set (remembered per file),
 * the error and warning counts, and the way through the problems (F8, Shift+F8). Actions that
 * change the document as a whole belong in this group too, and edit through editDocument: Add the
 * API reference is one.
 */
function DocumentTools() {
  const rules = useEditor((state) => state.document?.rules ?? 'spec')
  const format = useFormat()
  const index = useProblemIndex()
  const { counts } = index
  const total = counts.errors + counts.warnings + counts.info
  const cursor = useEditorView((state) => state.problemCursor)
  const none = total === 0
  const editable = useEditor(formCanEdit)
  const busy = useEditorDialogs((state) => state.busy)
  return (
    <div className="site-toolbar__tools" role="toolbar" aria-label="Document">
      {format === 'docs' ? (
        <span className="badge site-toolbar__format" title="Detected by its $schema, its name or its shape; checked by Mintlify’s rules">
          docs.json
        </span>
      ) : (
        <label className="site-toolbar__rules">
          <span>Rules</span>
          <select value={rules} onChange={(event) => void chooseRules(event.target.value as RuleSet)}>
            {RULE_SETS.map((option) => (
              <option key={option} value={option}>
                {RULE_SET_LABELS[option]}
              </option>
            ))}
          </select>
        </label>
      )}
      <UpgradeButton />
      <span className="site-toolbar__divider" aria-hidden="true" />
      <span className="site-toolbar__counts" role="status" aria-label="Problem counts">
        <span className={counts.errors ? 'count count--error' : 'count'}>{plural(counts.errors, 'error')}</span>
        <span className={counts.warnings ? 'count count--warning' : 'count'}>{plural(counts.warnings, 'warning')}</span>
        {cursor !== null && !none ? (
          <span className="count">
            · {Math.min(cursor, total - 1) + 1} of {total}
          </span>
        ) : null}
      </span>
      <button
        type="button"
        className="btn btn--small"
        disabled={none}
        aria-keyshortcuts="Shift+F8"
        title="Shift+F8"
        onClick={() => stepProblem(index.problems, -1)}
      >
        Previous problem
      </button>
      <button
        type="button"
        className="btn btn--small"
        disabled={none}
        aria-keyshortcuts="F8"
        title="F8"
        onClick={() => stepProblem(index.problems, 1)}
      >
        Next problem
      </button>
      <button
        type="button"
        className="btn btn--small site-toolbar__document-action"
        disabled={!editable || busy}
        title={editable ? `Writes ${API_REFERENCE_FILE} beside site.json and points the site at it; asks first` : 'Fix the JSON text first'}
        onClick={() => void startApiReference()}
      >
        Add the API reference…
      </button>
    </div>
  )
}
