import { useEffect } from 'react'
import { useEditor } from '../state/editor-store'
import { useEditorView } from '../state/view-store'
import { LivePreview } from './LivePreview'
import { DOCUMENT_STATE, usePreview } from './preview-store'

// The site preview beside the form, and full window on demand: its controls, and the live
// preview (LivePreview) while it is shown. Another document starts with the reader's place, and
// the leave for pictures from the web, forgotten.

export function SitePreview() {
  const open = useEditorView((state) => state.previewOpen)
  const mode = usePreview((state) => state.mode)
  const full = usePreview((state) => state.full)
  const documentId = useEditor((state) => state.document?.documentId)
  useEffect(() => usePreview.setState(DOCUMENT_STATE), [documentId])

  useEffect(() => {
    if (!full) return
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && usePreview.setState({ full: false })
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [full])

  return (
    <section className={`site-preview card${full && open ? ' site-preview--full' : ''}`} aria-labelledby="site-preview-title">
      <div className="site-preview__header">
        <h2 id="site-preview-title" className="theme-preview__title">
          Site preview
        </h2>
        {open ? (
          <>
            <div className="site-preview__modes" role="group" aria-label="Appearance">
              {(['light', 'dark'] as const).map((choice) => (
                <button
                  key={choice}
                  type="button"
                  className="btn btn--small btn--ghost"
                  aria-pressed={mode === choice}
                  onClick={() => usePreview.setState({ mode: choice })}
                >
                  {choice === 'light' ? 'Light' : 'Dark'}
                </button>
              ))}
            </div>
            <button
              type="button"
              className="btn btn--small btn--ghost"
              aria-pressed={full}
              onClick={() => usePreview.setState({ full: !full })}
            >
              {full ? 'Exit full window' : 'Full window'}
            </button>
          </>
        ) : null}
        <button
          type="button"
          className="btn btn--small btn--ghost"
          aria-expanded={open}
          aria-controls="site-preview-frame"
          onClick={() => useEditorView.setState({ previewOpen: !open })}
        >
          {open ? 'Hide' : 'Show'}
        </button>
      </div>
      {open ? <LivePreview /> : null}
    </section>
  )
}
