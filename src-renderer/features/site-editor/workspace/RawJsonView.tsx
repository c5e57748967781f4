import { useEffect, useRef } from 'react'
import { jsonSchemaFor } from '../../../../src-shared/site-config/json-schema'
import { JsonEditor } from '../../../ui/json-editor/JsonEditor'
import type { monaco } from '../../../ui/json-editor/monaco-setup'
import { LARGE_TEXT_LENGTH, settleTypedText, typeText, useEditor, useFormat } from '../state/editor-store'
import { useEditorView } from '../state/view-store'

type CodeEditor = monaco.editor.IStandaloneCodeEditor

/** One model path for the editor's text, so Monaco matches site.json's JSON Schema to it. */
const MODEL_PATH = 'site-editor/site.json'

/** Puts the cursor where a syntax error is, once: the request is used up. */
function reveal(editor: CodeEditor, position: { line: number; column: number }) {
  const target = { lineNumber: position.line, column: position.column }
  editor.setPosition(target)
  editor.revealPositionInCenter(target)
  editor.focus()
  useEditorView.setState({ revealRequest: null })
}

/**
 * The file as text in Monaco, with the schema's completions and squiggles. Every change goes to
 * the same store as the form's, so undo, the Problems list and the form follow it (a large text's
 * before the next frame: typeText).
 */
export function RawJsonView() {
  const text = useEditor((state) => state.text)
  const rules = useEditor((state) => state.document?.rules ?? 'spec')
  const format = useFormat()
  const editor = useRef<CodeEditor | null>(null)
  const revealRequest = useEditorView((state) => state.revealRequest)

  useEffect(() => {
    if (revealRequest && editor.current) reveal(editor.current, revealRequest)
  }, [revealRequest])

  // Typing in a large text is taken in before the next frame (typeText): leaving the view takes it in at once.
  useEffect(() => settleTypedText, [])

  return (
    <JsonEditor
      path={MODEL_PATH}
      value={text}
      onChange={typeText}
      largeText={text.length >= LARGE_TEXT_LENGTH}
      schema={jsonSchemaFor(rules, format)}
      ariaLabel={format === 'docs' ? 'docs.json text' : 'site.json text'}
      height="max(420px, calc(100vh - 330px))"
      onMount={(mounted) => {
        editor.current = mounted
        mounted.onDidBlurEditorText(settleTypedText)
        // A syntax error clicked before Monaco loaded: show it now.
        const pending = useEditorView.getState().revealRequest
        if (pending) reveal(mounted, pending)
      }}
    />
  )
}
