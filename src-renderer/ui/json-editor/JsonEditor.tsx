import { lazy, Suspense } from 'react'
import type { JsonEditorProps } from './JsonEditorImpl'

const JsonEditorImpl = lazy(() => import('./JsonEditorImpl'))

/** Monaco's chunk (about 1 MB gzip) loads on the first editor shown, never on the first screen. */
export function JsonEditor(props: JsonEditorProps) {
  return (
    <Suspense fallback={<div className="json-editor json-editor--loading" style={{ height: props.height ?? 160 }}>Loading editor…</div>}>
      <JsonEditorImpl {...props} />
    </Suspense>
  )
}

export type { JsonEditorProps }
