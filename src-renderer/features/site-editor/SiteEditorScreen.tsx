import './site-editor.css'
import './state/draft-autosave'
import './state/unsaved-guard'
import { useEditor } from './state/editor-store'
import { EditorDialogs } from './workspace/EditorDialogs'
import { EditorWorkspace } from './workspace/EditorWorkspace'
import { EmptyEditor } from './workspace/EmptyEditor'
import { useEditorShortcuts } from './workspace/use-editor-shortcuts'

/** The site.json editor: the empty state until a document is open, then the workspace. */
export default function SiteEditorScreen() {
  useEditorShortcuts()
  const hasDocument = useEditor((state) => state.document !== null)
  return (
    <>
      {hasDocument ? <EditorWorkspace /> : <EmptyEditor />}
      <EditorDialogs />
    </>
  )
}
