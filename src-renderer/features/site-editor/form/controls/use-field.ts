import { formatProblemPath } from '../../../../../src-shared/site-config/problem-path'
import { selectProblemIndex, useEditor } from '../../state/editor-store'
import { getIn, type Path } from '../../state/json-path'
import { NO_COUNTS, NO_PROBLEMS } from '../../state/problem-index'

/** The value at `path`; the component re-renders only when that value changes. */
export const useValueAt = (path: Path) => useEditor((state) => getIn(state.value, path))

/** The problems reported exactly at `path`. */
export function useProblemsAt(path: Path) {
  const key = formatProblemPath(path)
  return useEditor((state) => selectProblemIndex(state).at.get(key) ?? NO_PROBLEMS)
}

/** How many errors and warnings are at `path` or below it. */
export function useProblemCountsWithin(path: Path) {
  const key = formatProblemPath(path)
  return useEditor((state) => selectProblemIndex(state).within.get(key) ?? NO_COUNTS)
}

export type ValueShape = 'missing' | 'list' | 'object' | 'other'

const shapeOf = (value: unknown): ValueShape =>
  value === undefined ? 'missing' : Array.isArray(value) ? 'list' : typeof value === 'object' && value !== null ? 'object' : 'other'

/** What kind of JSON value is at `path`, so a section can say when the file holds something the form cannot show. */
export const useShapeAt = (path: Path) => useEditor((state) => shapeOf(getIn(state.value, path)))

/** The length of the list at `path` (0 when there is none): a list re-renders when items come or go, not on every keystroke in one. */
export const useLengthAt = (path: Path) =>
  useEditor((state) => {
    const value = getIn(state.value, path)
    return Array.isArray(value) ? value.length : 0
  })

/** Moves focus to the element with this id once React has drawn it (after an add, a move, a removal). */
export function focusSoon(id: string) {
  requestAnimationFrame(() => document.getElementById(id)?.focus())
}
