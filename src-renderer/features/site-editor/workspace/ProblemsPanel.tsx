import { memo, useState } from 'react'
import { plural } from '../../../../src-shared/text/plural'
import { useEditor, useFormat, useProblemIndex } from '../state/editor-store'
import { rememberedLabelOf } from '../state/field-labels'
import type { Problem, ProblemIndex } from '../state/problem-index'
import { showProblem } from '../state/view-store'

/**
 * The rows drawn at first, and how many more each "Show more" adds. Every row drawn is laid out
 * and painted again when the list changes: 200 rows cost a 2.3 MB docs.json's key about 15 ms of
 * its frame, and the rest are counted (F8 goes through them all).
 */
const ROWS_AT_FIRST = 50

const ICONS = { error: '✕', warning: '!', info: 'i' } as const
const SPOKEN = { error: 'Error:', warning: 'Warning:', info: 'Information:' } as const

/** Every error and warning, errors first, each named by its field; the settings kept as written follow, folded. */
export function ProblemsPanel() {
  const index = useProblemIndex()
  const { counts } = index
  const rules = useEditor((state) => state.document?.rules ?? 'spec')
  const format = useFormat()
  const [infoOpen, setInfoOpen] = useState(false)
  const [shown, setShown] = useState(ROWS_AT_FIRST)
  const toFixCount = counts.errors + counts.warnings
  const listed = index.listed(shown)
  const more = Math.min(ROWS_AT_FIRST, toFixCount - shown)
  const kept = useKeptRows(index, shown)
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
      {toFixCount === 0 ? (
        <p className="problems__none">
          {format === 'docs'
            ? 'This docs.json follows Mintlify’s rules: it can be exported.'
            : rules === 'spec'
              ? 'This file follows the spec: it can be exported.'
              : 'This file follows the Mintlify-compatible rules: it can be exported.'}
        </p>
      ) : kept ? (
        <ProblemList problems={listed.toFix} />
      ) : null}
      {/* The rows of the text now, or, while it does not parse, the last rows of a text that did (hidden). */}
      {toFixCount > 0 || kept ? <ProblemList problems={kept ?? listed.toFix} hidden={kept !== null} /> : null}
      {toFixCount > shown ? (
        <p className="problems__more">
          and {toFixCount - shown} more, shown as the first ones are fixed.{' '}
          <button type="button" className="link-button" onClick={() => setShown(shown + ROWS_AT_FIRST)}>
            Show {more} more
          </button>
        </p>
      ) : null}
      {counts.info ? (
        <div className="problems__info">
          <button type="button" className="btn btn--small btn--ghost" aria-expanded={infoOpen} onClick={() => setInfoOpen(!infoOpen)}>
            {infoOpen ? '▾' : '▸'} {plural(counts.info, 'Mintlify setting')} kept as written
          </button>
          {infoOpen ? <ProblemList problems={listed.info} label="Settings kept as written" /> : null}
        </div>
      ) : null}
    </aside>
  )
}

/**
 * While the text does not parse (its syntax error is then listed alone), the rows of the last
 * text that did, to keep in the page hidden; null while it parses. Typing in the raw view passes
 * through text that does not parse at nearly every token: each such key took away a large file's
 * 50 rows and the next key drew and laid them out anew, about 15 ms of that key in a 2.3 MB
 * docs.json. Hidden with `content-visibility: hidden`, they keep their layout for their return.
 */
function useKeptRows(index: ProblemIndex, shown: number): readonly Problem[] | null {
  const parses = useEditor((state) => state.syntaxError === null)
  const [lastParsed, setLastParsed] = useState<ProblemIndex | null>(null)
  // Remembered from render to render, as React keeps a value from a previous render.
  if (parses && lastParsed !== index) setLastParsed(index)
  return parses || !lastParsed ? null : lastParsed.listed(shown).toFix
}

/** Rows of problems; `hidden` keeps them in the page, laid out, but out of sight and out of reach. */
function ProblemList({ problems, label, hidden = false }: { problems: readonly Problem[]; label?: string; hidden?: boolean }) {
  return (
    <ul className="problems__list" aria-label={label} data-kept={hidden ? '' : undefined} aria-hidden={hidden || undefined} inert={hidden}>
      {withKeys(problems).map(([key, problem]) => (
        <ProblemRow key={key} problem={problem} />
      ))}
    </ul>
  )
}

/**
 * Each problem keyed by what it says and where, not by its place in the list: a problem that comes
 * or goes at the top (errors come first) would otherwise give every row below a new key, and the
 * 200 rows of a large file's list were drawn, laid out and shaped anew on every key (about 100 ms).
 */
function withKeys(problems: readonly Problem[]): [string, Problem][] {
  const seen = new Map<string, number>()
  return problems.map((problem) => {
    const said = `${problem.severity}\0${problem.path}\0${problem.message}`
    const count = seen.get(said) ?? 0
    seen.set(said, count + 1)
    return [`${said}\0${count}`, problem]
  })
}

const ProblemRow = memo(function ProblemRow({ problem }: { problem: Problem }) {
  // Read once per row drawn: the label names list items and groups by their current names.
  const label = useEditor((state) => rememberedLabelOf(problem.segments, state.value))
  return (
    <li>
      <button type="button" className={`problem problem--${problem.severity}`} onClick={() => showProblem(problem)}>
        <span className="problem__icon" aria-hidden="true">
          {ICONS[problem.severity]}
        </span>
        <span className="visually-hidden">{SPOKEN[problem.severity]} </span>
        <span className="problem__text">
          {label ? <span className="problem__label">{label}</span> : null} <span className="problem__message">{problem.message}</span>
          {/* A page's problem names its file and line; the document's, its place in the file. */}
          <code className="problem__path">{problem.file !== undefined ? `${problem.file}:${problem.line ?? 1}` : problem.path}</code>
        </span>
      </button>
    </li>
  )
})
