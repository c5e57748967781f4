import './site-editor.css'
import './state/draft-autosave'
import './state/unsaved-guard'
import './state/ref-loader'
import { useMainEvent } from '../../lib/api'
import { DocsPagesList } from './form/navigation/DocsPagesList'
import { loadDocs, noteDocsProgress } from './state/docs-store'
import { useEditor } from './state/editor-store'
import { EditorDialogs } from './workspace/EditorDialogs'
import { EditorWorkspace } from './workspace/EditorWorkspace'
import { EmptyEditor } from './workspace/EmptyEditor'
import { useEditorShortcuts } from './workspace/use-editor-shortcuts'

/** The site.json editor: the empty state until a document is open, then the workspace. */
export default function SiteEditorScreen() {
  useEditorShortcuts()
  const hasDocument = useEditor((state) => state.document !== null)
  // Main watches the docs folder: a page added or removed there shows here at once.
  useMainEvent('site.docsChanged', ({ root }) => {
    if (useEditor.getState().docs?.lookup.index.root === root) void loadDocs()
  })
  useMainEvent('site.docsProgress', noteDocsProgress)
  return (
    <>
      {hasDocument ? <EditorWorkspace /> : <EmptyEditor />}
      <DocsPagesList />
      <EditorDialogs />
    </>
  )
}
