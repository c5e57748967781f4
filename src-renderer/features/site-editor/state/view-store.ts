import { create } from 'zustand'
import { formatProblemPath } from '../../../../src-shared/site-config/format'
import type { Path } from './json-path'
import type { Problem } from './problem-index'

export type EditorView = 'form' | 'json'

interface ViewState {
  view: EditorView
  /** A field to bring into view and focus; `serial` makes asking twice for one path count twice. */
  focusRequest: { segments: Path; serial: number } | null
  /** A place in the raw text to show, for a syntax error. */
  revealRequest: { line: number; column: number; serial: number } | null
  previewOpen: boolean
}

export const useEditorView = create<ViewState>(() => ({ view: 'form', focusRequest: null, revealRequest: null, previewOpen: true }))

let serial = 0

export const showView = (view: EditorView) => useEditorView.setState({ view })

export function focusField(segments: Path): void {
  useEditorView.setState({ view: 'form', focusRequest: { segments, serial: ++serial } })
}

/** Where the text stops being JSON, in the raw view: the form cannot show it. */
export function showTextPosition(position: { line: number; column: number }): void {
  useEditorView.setState({ view: 'json', revealRequest: { line: position.line, column: position.column, serial: ++serial } })
}

/** A problem's place: its field in the form, or for broken JSON, its line in the raw view. */
export function showProblem(problem: Problem): void {
  if (problem.position) showTextPosition(problem.position)
  else focusField(problem.segments)
}

/** The id of the control editing `path`; problems find their field by it. */
export const fieldId = (path: Path) => `site-field:${formatProblemPath(path)}`
