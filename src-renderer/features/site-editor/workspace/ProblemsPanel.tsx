import { memo } from 'react'
import { useProblemIndex } from '../state/editor-store'
import type { Problem } from '../state/problem-index'
import { showProblem } from '../state/view-store'

/** Drawing thousands of rows on every keystroke would cost more than the validation; the rest are counted. */
const MAX_LISTED = 200

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** Every error and warning, errors first; a click takes the writer to the field. */
export function ProblemsPanel() {
  const { problems, counts } = useProblemIndex()
  const listed = problems.slice(0, MAX_LISTED)
  return (
    <aside className="problems card" aria-labelledby="problems-title">
      <div className="problems__header">
        <h2 id="problems-title" className="problems__title">
          Problems
        </h2>
        <span className="problems__summary" role="status">
          {counts.errors || counts.warnings ? `${plural(counts.errors, 'error')}, ${plural(counts.warnings, 'warning')}` : 'No problems'}
        </span>
      </div>
      {problems.length === 0 ? (
        <p className="problems__none">This file follows the spec: it can be exported.</p>
      ) : (
        <ul className="problems__list">
          {listed.map((problem, index) => (
            <ProblemRow key={`${index}:${problem.path}`} problem={problem} />
          ))}
        </ul>
      )}
      {problems.length > MAX_LISTED ? <p className="problems__more">and {problems.length - MAX_LISTED} more, shown as the first ones are fixed.</p> : null}
    </aside>
  )
}

const ProblemRow = memo(function ProblemRow({ problem }: { problem: Problem }) {
  const error = problem.severity === 'error'
  return (
    <li>
      <button type="button" className={`problem problem--${problem.severity}`} onClick={() => showProblem(problem)}>
        <span className="problem__icon" aria-hidden="true">
          {error ? '✕' : '!'}
        </span>
        <span className="visually-hidden">{error ? 'Error:' : 'Warning:'} </span>
        <code className="problem__path">{problem.path}</code> <span className="problem__message">{problem.message}</span>
      </button>
    </li>
  )
})
