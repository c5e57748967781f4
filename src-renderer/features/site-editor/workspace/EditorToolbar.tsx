import { openDialog, useEditorDialogs } from '../state/dialog-store'
import { fileNameOf, requestAction, save } from '../state/file-commands'
import { redo, undo, useCanRedo, useCanUndo, useEditor, useIsUnsaved } from '../state/editor-store'
import { showView, useEditorView, type EditorView } from '../state/view-store'
import { TabList } from '../../../ui/TabList'

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform)
const shortcut = (key: string) => (isMac ? `⌘${key}` : `Ctrl+${key}`)

const VIEWS: { id: EditorView; label: string }[] = [
  { id: 'form', label: 'Form' },
  { id: 'json', label: 'JSON' },
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
        {unsaved ? <span className="badge badge--warning">Unsaved changes</span> : <span className="badge">{path ? 'Saved' : 'Not saved yet'}</span>}
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
        <button type="button" className="btn btn--small" onClick={() => openDialog({ kind: 'path', purpose: 'open', then: null })}>
          Open…
        </button>
        <button type="button" className="btn btn--small btn--primary" disabled={busy} aria-keyshortcuts={isMac ? 'Meta+S' : 'Control+S'} title={shortcut('S')} onClick={() => void save()}>
          Save
        </button>
        <button type="button" className="btn btn--small" disabled={busy} onClick={() => openDialog({ kind: 'path', purpose: 'saveAs', then: null })}>
          Save as…
        </button>
        <button type="button" className="btn btn--small" disabled={busy} onClick={() => openDialog({ kind: 'path', purpose: 'export', then: null })}>
          Export…
        </button>
        <button type="button" className="btn btn--small btn--ghost" onClick={() => requestAction({ kind: 'close' })}>
          Close
        </button>
        <span className="site-toolbar__divider" aria-hidden="true" />
        <button type="button" className="btn btn--small" disabled={!canUndo} aria-keyshortcuts={isMac ? 'Meta+Z' : 'Control+Z'} title={shortcut('Z')} onClick={undo}>
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
      <TabList className="site-toolbar__views" label="View" tabs={VIEWS} selected={view} onSelect={showView} idPrefix="site-view" panelId="site-view-panel" />
    </div>
  )
}
