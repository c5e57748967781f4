import { create } from 'zustand'
import { formatProblemPath } from '../../../../src-shared/site-config/problem-path'
import type { Path } from './json-path'
import type { Problem } from './problem-index'

export type EditorView = 'form' | 'json' | 'docs'

interface ViewState {
  view: EditorView
  /** A field to bring into view and focus; `serial` makes asking twice for one path count twice. */
  focusRequest: { segments: Path; serial: number } | null
  /** A place in the raw text to show, for a syntax error. */
  revealRequest: { line: number; column: number; serial: number } | null
  previewOpen: boolean
  /** The problem Next and Previous last went to. */
  problemCursor: number | null
}

export const useEditorView = create<ViewState>(() => ({
  view: 'form',
  focusRequest: null,
  revealRequest: null,
  // On a short window the preview starts folded, so the form's first fields are on the first screen.
  previewOpen: typeof window === 'undefined' || typeof window.matchMedia !== 'function' || window.matchMedia('(min-height: 800px)').matches,
  problemCursor: null,
}))

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

/** Goes to the next (1) or previous (-1) problem, round the list. */
export function stepProblem(problems: readonly Problem[], step: 1 | -1): void {
  if (!problems.length) return
  const cursor = useEditorView.getState().problemCursor
  const next =
    cursor === null
      ? step === 1
        ? 0
        : problems.length - 1
      : (Math.min(cursor, problems.length - 1) + step + problems.length) % problems.length
  useEditorView.setState({ problemCursor: next })
  showProblem(problems[next]!)
}
