import { useEffect, useRef, useState, type ComponentType } from 'react'
import type { JsonEditorProps } from './JsonEditorImpl'
import type { monaco } from './monaco-setup'

type Impl = ComponentType<JsonEditorProps>

// Monaco's chunk (about 1 MB compressed) is fetched once, on the first editor that needs it.
let loaded: Impl | null = null
let loading: Promise<Impl> | null = null
function loadMonaco(): Promise<Impl> {
  loading ??= import('./JsonEditorImpl').then((module) => (loaded = module.default))
  return loading
}

export interface LazyJsonEditorProps extends JsonEditorProps {
  /**
   * Show a plain text view (same value, same label, same problems below it) until the editor is
   * about to be used: pointed at, or focused. Monaco then loads and takes over where the caret
   * was. Small form editors use it, so the first screen never pays for Monaco.
   */
  deferUntilUsed?: boolean
  /** Given by Field: the label's target and the hint and problem it describes. */
  id?: string
  'aria-describedby'?: string
  'aria-invalid'?: boolean
}

/**
 * A JSON editor: Monaco with the schema's squiggles, hovers and completion. Eager by default
 * (the site editor's JSON view); deferred until used where `deferUntilUsed` is set.
 */
export function JsonEditor({
  deferUntilUsed = false,
  id,
  'aria-describedby': describedBy,
  'aria-invalid': invalid,
  ...props
}: LazyJsonEditorProps) {
  const [Editor, setEditor] = useState<Impl | null>(() => loaded)
  const [ready, setReady] = useState(false)
  const [wanted, setWanted] = useState(!deferUntilUsed)
  const light = useRef<HTMLTextAreaElement>(null)
  const takeOver = useRef<{ editor: monaco.editor.IStandaloneCodeEditor; caret: number | null } | null>(null)
  const height = props.height ?? 160

  // Monaco is hidden until ready and can take focus (or be revealed by the caller) only once shown.
  const onMount = props.onMount
  useEffect(() => {
    const pending = takeOver.current
    if (!ready || !pending) return
    takeOver.current = null
    if (pending.caret !== null) {
      const position = pending.editor.getModel()?.getPositionAt(pending.caret)
      pending.editor.focus()
      if (position) pending.editor.setPosition(position)
    }
    onMount?.(pending.editor)
  }, [ready, onMount])

  useEffect(() => {
    if (!wanted || Editor) return
    let current = true
    void loadMonaco().then((impl) => current && setEditor(() => impl))
    return () => {
      current = false
    }
  }, [wanted, Editor])

  const want = () => setWanted(true)

  return (
    <div className="json-field" style={{ height }}>
      {!ready ? (
        <textarea
          ref={light}
          id={id}
          className="json-editor json-editor--light"
          aria-label={props.ariaLabel}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          spellCheck={false}
          value={props.value}
          placeholder={wanted && !deferUntilUsed ? 'Loading editor…' : undefined}
          onChange={(event) => props.onChange(event.target.value)}
          onPointerEnter={want}
          onFocus={want}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault()
              props.onSubmitShortcut?.()
            }
          }}
        />
      ) : null}
      {Editor ? (
        <div
          className={ready ? 'json-field__monaco' : 'json-field__monaco json-field__monaco--pending'}
          aria-hidden={ready ? undefined : true}
        >
          <Editor
            {...props}
            height={height}
            onMount={(editor) => {
              // Take over from the text view where the operator is: focus and caret included.
              const textarea = light.current
              takeOver.current = { editor, caret: textarea && document.activeElement === textarea ? textarea.selectionStart : null }
              setReady(true)
            }}
          />
        </div>
      ) : null}
    </div>
  )
}

export type { JsonEditorProps }
