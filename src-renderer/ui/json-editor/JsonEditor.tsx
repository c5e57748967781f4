import { type ComponentType, useEffect, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
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
/**
 * How long the plain view must be left alone before Monaco takes it over: a hand-over never
 * comes between two keys of a burst of typing, so the operator never sees the editor change
 * under their fingers. (Nothing typed could be lost in one anyway: it is one synchronous step.)
 */
const QUIET_MS = 400

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
  const height = props.height ?? 160
  /** Monaco, mounted (hidden) and waiting for the plain view to be quiet. */
  const waiting = useRef<monaco.editor.IStandaloneCodeEditor | null>(null)
  const lastInputAt = useRef(0)
  const composing = useRef(false)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const handOverNow = useRef<() => void>(() => {})
  useEffect(() => () => clearTimeout(timer.current), [])

  /**
   * Monaco takes over from the plain view in one synchronous step, so no key event can come
   * between: the text and selection are read from the plain view (not from React state, which
   * may be a render behind the keyboard), Monaco gets them, is shown and focused, and the plain
   * view goes. Keys typed after it land in Monaco; keys before it are in the text it took.
   * While the operator is typing (or composing) in the plain view, it waits for a pause.
   */
  const handOver = () => {
    const onMount = props.onMount
    const editor = waiting.current
    if (!editor) return
    const textarea = light.current
    const typing = textarea !== null && document.activeElement === textarea
    const quietFor = performance.now() - lastInputAt.current
    if (typing && (composing.current || quietFor < QUIET_MS)) {
      clearTimeout(timer.current)
      timer.current = setTimeout(() => handOverNow.current(), Math.max(QUIET_MS - quietFor, 50))
      return
    }
    waiting.current = null
    const text = textarea?.value ?? props.value
    const selection = typing ? { start: textarea.selectionStart, end: textarea.selectionEnd } : null
    if (editor.getValue() !== text) editor.setValue(text)
    flushSync(() => setReady(true))
    if (selection) {
      const model = editor.getModel()
      editor.focus()
      if (model) {
        const start = model.getPositionAt(selection.start)
        const end = model.getPositionAt(selection.end)
        editor.setSelection({
          startLineNumber: start.lineNumber,
          startColumn: start.column,
          endLineNumber: end.lineNumber,
          endColumn: end.column,
        })
      }
      // Monaco tells the browser's input (its EditContext, or its hidden textarea) the text and
      // caret only when it next renders, an animation frame away: a key typed before then was
      // placed by the stale state, out of order. Rendered now, the next key lands at the caret.
      editor.render(true)
    }
    onMount?.(editor)
  }
  // Called from timers only, with the props of the latest render.
  useEffect(() => {
    handOverNow.current = handOver
  })

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
          onInput={() => (lastInputAt.current = performance.now())}
          onCompositionStart={() => (composing.current = true)}
          onCompositionEnd={() => {
            composing.current = false
            lastInputAt.current = performance.now()
          }}
          onPointerEnter={want}
          onFocus={want}
          onKeyDown={(event) => {
            lastInputAt.current = performance.now()
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
              waiting.current = editor
              // From a timer of its own: React would not flush the hand-over inside the wrapper's effect.
              timer.current = setTimeout(() => handOverNow.current(), 0)
            }}
          />
        </div>
      ) : null}
    </div>
  )
}

export type { JsonEditorProps }
