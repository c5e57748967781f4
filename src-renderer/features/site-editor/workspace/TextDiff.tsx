import { structuredPatch } from 'diff'
import { useMemo } from 'react'

/** Lines of context around each change, as a review tool shows them. */
const CONTEXT_LINES = 2

/**
 * Two versions of a text as a line diff (jsdiff's hunks): what is removed, what is added, with a
 * little context, each hunk under the line numbers it covers. For a change shown before it is
 * made: the diff is of the text itself, so what it shows is what is saved.
 */
export function TextDiff({ before, after, label }: { before: string; after: string; label: string }) {
  const hunks = useMemo(
    () => structuredPatch('before', 'after', before, after, undefined, undefined, { context: CONTEXT_LINES }).hunks,
    [before, after],
  )
  return (
    <figure className="text-diff">
      <figcaption className="text-diff__caption">{label}</figcaption>
      {hunks.length === 0 ? <p className="muted">No line changes.</p> : null}
      {hunks.map((hunk) => (
        <div key={`${hunk.oldStart}:${hunk.newStart}`} className="text-diff__hunk">
          <p className="text-diff__where">
            Lines {hunk.newStart}–{hunk.newStart + Math.max(hunk.newLines, 1) - 1}
          </p>
          <pre className="text-diff__lines">
            {hunk.lines.map((line, index) => {
              const text = line.slice(1)
              if (line.startsWith('+')) {
                return (
                  <ins key={index} className="text-diff__line text-diff__line--added">
                    <span className="visually-hidden">Added: </span>+ {text}
                  </ins>
                )
              }
              if (line.startsWith('-')) {
                return (
                  <del key={index} className="text-diff__line text-diff__line--removed">
                    <span className="visually-hidden">Removed: </span>- {text}
                  </del>
                )
              }
              if (line.startsWith('\\')) return null
              return (
                <span key={index} className="text-diff__line">
                  {'  '}
                  {text}
                </span>
              )
            })}
          </pre>
        </div>
      ))}
    </figure>
  )
}
