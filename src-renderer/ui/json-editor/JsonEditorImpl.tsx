import Editor, { type OnChange, type OnMount } from '@monaco-editor/react'
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { TextChange } from '../../../src-shared/site-config/json-text'
import { type monaco, registerJsonSchema } from './monaco-setup'

export interface JsonEditorProps {
  /** Unique per editor on screen: the model's path, which its schema is matched to. */
  path: string
  value: string
  /**
   * The text after a change; and with it, from Monaco, what the change was, in the terms of the
   * text before it (none when the whole text was replaced). It may answer with a string equal to
   * `value` that it already holds: the editor then holds that one, and knows it when it comes back
   * as `value` without comparing the two (a 2.3 MB text is compared whole otherwise).
   */
  onChange(value: string, changes?: readonly TextChange[]): string | void
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
  /**
   * A text of megabytes (a docs.json of 23,000 pages). Monaco's JSON worker would send the whole
   * document's outline (for sticky scroll), its folding ranges and its colours back to the window
   * after every change, and the window spent about 300 ms a key taking them in. Off for such a text,
   * with folding (by indentation, the window would work out the ranges of 50,000 lines on every key);
   * squiggles, hovers and completion stay.
   */
  largeText?: boolean
}

/**
 * Bracket pair colours are the model's option, not the editor's. Monaco keeps a tree of a text's
 * brackets for them and parses its changed part again before drawing: a key near the start of a
 * 2.3 MB docs.json cost about 12 ms of the next frame there. Off for a large text, with matching.
 */
function colourBrackets(editor: monaco.editor.IStandaloneCodeEditor | null, enabled: boolean) {
  editor?.getModel()?.updateOptions({ bracketColorizationOptions: { enabled, independentColorPoolPerBracketType: false } })
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
  largeText = false,
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
  // model goes with it); created, it takes the latest value.
  const mounted = useRef<monaco.editor.IStandaloneCodeEditor | null>(null)
  // The text the editor holds (as last reported or given), or is to be given when it is created.
  // The wrapper compared every value it was given with the editor's whole text, which Monaco
  // builds anew for each ask (a 2.3 MB string on every key of a large docs.json); a value that is
  // this very text needs no ask.
  const held = useRef(value)
  const giving = useRef(false)
  // In the commit, not after it: a key typed before a later effect would be overwritten by it.
  useLayoutEffect(() => {
    if (value === held.current) return
    held.current = value
    const editor = mounted.current
    if (!editor || value === editor.getValue()) return
    giving.current = true
    editor.executeEdits('', [{ range: editor.getModel()!.getFullModelRange(), text: value, forceMoveMarkers: true }])
    editor.pushUndoStop()
    giving.current = false
  }, [value])

  useEffect(() => colourBrackets(mounted.current, !largeText), [largeText])

  const handleMount: OnMount = (editor, monacoApi) => {
    mounted.current = editor
    if (editor.getValue() !== held.current) editor.setValue(held.current)
    colourBrackets(editor, !largeText)
    editor.addCommand(monacoApi.KeyMod.CtrlCmd | monacoApi.KeyCode.Enter, () => submit.current?.())
    onMount?.(editor)
  }

  const handleChange: OnChange = (next = '', event) => {
    // A value given above is the caller's already: it is not reported back.
    if (giving.current) return
    held.current = next
    const kept = onChange(
      next,
      event.isFlush
        ? undefined
        : event.changes.map((change) => ({ offset: change.rangeOffset, removed: change.rangeLength, inserted: change.text })),
    )
    if (typeof kept === 'string') held.current = kept
  }

  // One object while they stay the same: the wrapper passes a new one to Monaco's updateOptions.
  const options = useMemo(() => editorOptions({ ariaLabel, tabMovesFocus, largeText }), [ariaLabel, tabMovesFocus, largeText])

  return (
    <div className="json-editor" style={{ height }}>
      <Editor
        key={path}
        path={path}
        language="json"
        defaultValue={value}
        theme={dark ? 'vs-dark' : 'vs'}
        onChange={handleChange}
        onMount={handleMount}
        loading={<span className="muted">Loading editor…</span>}
        options={options}
      />
    </div>
  )
}

function editorOptions({
  ariaLabel,
  tabMovesFocus,
  largeText,
}: Pick<JsonEditorProps, 'ariaLabel' | 'tabMovesFocus' | 'largeText'>): monaco.editor.IStandaloneEditorConstructionOptions {
  return {
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
    stickyScroll: { enabled: !largeText },
    folding: !largeText,
    colorDecorators: !largeText,
    // Bracket matching reads the same bracket tree as the colours (colourBrackets).
    matchBrackets: largeText ? 'never' : 'always',
  }
}
