import Editor, { type OnMount } from '@monaco-editor/react'
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { type monaco, registerJsonSchema } from './monaco-setup'

export interface JsonEditorProps {
  /** Unique per editor on screen: the model's path, which its schema is matched to. */
  path: string
  value: string
  onChange(value: string): void
  /** The JSON Schema derived from the zod schema (z.toJSONSchema), for squiggles, hovers, completion. */
  schema?: object
  ariaLabel: string
  height?: number | string
  /** Ctrl/Cmd+Enter inside the editor: Monaco would otherwise swallow the form's shortcut. */
  onSubmitShortcut?: () => void
  /**
   * Tab moves to the next control instead of typing a tab (Monaco's tab-focus mode): for small
   * editors inside a form, which would otherwise trap the keyboard. Ctrl+M toggles it.
   */
  tabMovesFocus?: boolean
  onMount?: (editor: monaco.editor.IStandaloneCodeEditor) => void
}

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)')

function useSystemDark(): boolean {
  const [dark, setDark] = useState(() => darkQuery().matches)
  useEffect(() => {
    const query = darkQuery()
    const update = () => setDark(query.matches)
    query.addEventListener('change', update)
    return () => query.removeEventListener('change', update)
  }, [])
  return dark
}

export default function JsonEditorImpl({
  path,
  value,
  onChange,
  schema,
  ariaLabel,
  height = 160,
  onSubmitShortcut,
  tabMovesFocus,
  onMount,
}: JsonEditorProps) {
  const dark = useSystemDark()
  // Monaco binds a command once, at mount: it must call the shortcut of the latest render, with
  // the request as it is now, not as it was when the editor appeared.
  const submit = useRef(onSubmitShortcut)
  useEffect(() => {
    submit.current = onSubmitShortcut
  })

  useEffect(() => {
    if (schema) registerJsonSchema(path, schema)
  }, [path, schema])

  // The editor shows the value it is given. The wrapper does not quite: it keeps the model of a
  // path it left and shows that model's old text when the path comes back, and it creates the
  // editor asynchronously with the props of its first render, so a value given meanwhile is
  // lost. A form refilled as a whole (a call from Activity, another profile's workspace) showed,
  // and then sent, what it held before. Keyed by its path below, an editor is one path's (its
  // model goes with it); created, it takes the latest value. After that the wrapper keeps them
  // in step, typing included (an effect here would race the keyboard).
  const latestValue = useRef(value)
  useLayoutEffect(() => {
    latestValue.current = value
  })

  const handleMount: OnMount = (editor, monacoApi) => {
    if (editor.getValue() !== latestValue.current) editor.setValue(latestValue.current)
    editor.addCommand(monacoApi.KeyMod.CtrlCmd | monacoApi.KeyCode.Enter, () => submit.current?.())
    onMount?.(editor)
  }

  return (
    <div className="json-editor" style={{ height }}>
      <Editor
        key={path}
        path={path}
        language="json"
        value={value}
        theme={dark ? 'vs-dark' : 'vs'}
        onChange={(next) => onChange(next ?? '')}
        onMount={handleMount}
        loading={<span className="muted">Loading editor…</span>}
        options={{
          ariaLabel,
          minimap: { enabled: false },
          lineNumbers: 'on',
          scrollBeyondLastLine: false,
          fontSize: 13,
          tabSize: 2,
          automaticLayout: true,
          fixedOverflowWidgets: true,
          wordWrap: 'on',
          renderLineHighlight: 'none',
          accessibilitySupport: 'auto',
          tabFocusMode: tabMovesFocus ?? false,
          // Typed over a selection, a bracket or quote replaces it, as in any text field: Monaco
          // would wrap the selection in it instead, so select-all and typing left text behind.
          autoSurround: 'never',
          // The last line's number drawn like the others: dimmed, it is below the contrast readers need.
          renderFinalNewline: 'on',
        }}
      />
    </div>
  )
}
