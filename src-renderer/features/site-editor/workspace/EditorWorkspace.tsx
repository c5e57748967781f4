import { DocsForm } from '../form/DocsForm'
import { MintForm } from '../form/MintForm'
import { useFocusRequests } from '../form/use-focus-requests'
import { SitePreview } from '../preview/SitePreview'
import { useFormat } from '../state/editor-store'
import { useEditorView } from '../state/view-store'
import { DocsFolderView } from './DocsFolderView'
import { DocumentBanners } from './DocumentBanners'
import { EditorToolbar } from './EditorToolbar'
import { ProblemsPanel } from './ProblemsPanel'
import { RawJsonView } from './RawJsonView'

/** An open document: toolbar, banners, the theme preview, the form, the JSON or the docs folder, and the Problems list beside them. */
export function EditorWorkspace() {
  // Here, not in the form: a problem clicked in the JSON view asks for its field before the form is drawn.
  useFocusRequests()
  const view = useEditorView((state) => state.view)
  const format = useFormat()
  return (
    <div className="site-editor">
      <EditorToolbar />
      <DocumentBanners />
      <div className="site-editor__main site-editor__main--with-preview">
        <div id="site-view-panel" className="site-editor__view" role="tabpanel" aria-labelledby={`site-view-${view}`}>
          {view === 'form' ? format === 'docs' ? <DocsForm /> : <MintForm /> : view === 'json' ? <RawJsonView /> : <DocsFolderView />}
        </div>
        <div className="site-editor__side">
          <SitePreview />
          <ProblemsPanel />
        </div>
      </div>
    </div>
  )
}
