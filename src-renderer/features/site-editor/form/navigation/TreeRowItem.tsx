import { useSortable } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { type KeyboardEvent, memo } from 'react'
import { isPlainObject } from '../../../../../src-shared/site-config/mint-schema'
import { formatProblemPath } from '../../../../../src-shared/site-config/problem-path'
import { getIn } from '../../state/json-path'
import { applyResolvedChanges, moveResolved, resolvedState, setResolved, useResolvedAt } from '../../state/resolved-edits'
import { fieldId } from '../../state/view-store'
import { DOCS_PAGES_LIST } from './DocsPagesList'
import { childListOf, keyboardMove, kindName, labelKey, rowName, type TreeRow } from './nav-rows'
import { chevron, ExpandButton, ProblemCountBadges } from './RowHeaderParts'

interface TreeRowItemProps {
  row: TreeRow
  /** Its place in the virtual list, in pixels from the top. */
  top: number
  expanded: boolean
  onToggle: (id: string) => void
}

/**
 * One row of the docs.json tree: its drag handle, expand button, kind, name field, $ref file, problem counts, and the
 * buttons that add a page or a group under it or remove it. Alt+↑ and Alt+↓ move it within its list.
 */
export const TreeRowItem = memo(function TreeRowItem({ row, top, expanded, onToggle }: TreeRowItemProps) {
  const { setNodeRef, setActivatorNodeRef, listeners, attributes, transform, transition, isDragging } = useSortable({ id: row.id })
  const value = useResolvedAt(row.path)
  const name = rowName(value, row.kind)
  const noun = kindName(row.kind)
  const title = name || `${noun} ${row.index + 1} (no name)`

  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return
    event.preventDefault()
    const move = keyboardMove(row, event.key === 'ArrowUp' ? 'up' : 'down')
    if (!move) return
    moveResolved(row.path, row.list, move.to)
    requestAnimationFrame(() => document.getElementById(`nav-row:${formatProblemPath([...row.list, move.landsAt])}`)?.focus())
  }
  const childList = childListOf(value, row.kind)
  const addChild = (kind: 'page' | 'group') => {
    if (!childList) return
    const list = [...row.path, childList]
    const current = getIn(resolvedState().value, list)
    const item = kind === 'page' ? '' : { group: 'New group', pages: [] }
    if (Array.isArray(current)) applyResolvedChanges([{ kind: 'insertItem', path: list, index: current.length, value: item }])
    else applyResolvedChanges([{ kind: 'set', path: list, value: [item], added: true }])
    if (!expanded) onToggle(row.id)
    const added = [...list, Array.isArray(current) ? current.length : 0]
    requestAnimationFrame(() =>
      requestAnimationFrame(() => document.getElementById(fieldId(kind === 'page' ? added : [...added, 'group']))?.focus()),
    )
  }

  return (
    <li
      ref={setNodeRef}
      id={`nav-row:${row.id}`}
      aria-level={row.depth + 1}
      aria-setsize={row.length}
      aria-posinset={row.index + 1}
      aria-label={`${noun} ${title}`}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      className={`docs-nav__row docs-nav__row--${row.kind}${isDragging ? ' docs-nav__row--dragging' : ''}`}
      style={{ top, paddingInlineStart: `${row.depth * 20 + 4}px`, transform: CSS.Translate.toString(transform), transition }}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="drag-handle docs-nav__handle"
        aria-label={`Move ${noun} ${title}`}
        title="Drag, or press Space then the arrows"
        {...attributes}
        {...listeners}
      >
        ⠿
      </button>
      {row.hasChildren ? (
        <ExpandButton
          className="docs-nav__toggle"
          label={`${expanded ? 'Collapse' : 'Expand'} ${noun} ${title}`}
          expanded={expanded}
          onToggle={() => onToggle(row.id)}
        >
          {chevron(expanded)}
        </ExpandButton>
      ) : (
        <span className="docs-nav__toggle" aria-hidden="true" />
      )}
      <span className={`docs-nav__kind docs-nav__kind--${row.kind}`}>{noun}</span>
      <NameInput
        row={row}
        value={name}
        noun={noun}
        editable={row.kind === 'page' ? typeof value === 'string' : isPlainObject(value) && labelKey(row.kind) !== null}
      />
      {row.file ? (
        <span className="badge docs-nav__file" title={`Written in ${row.file}: edits are saved there`}>
          {row.file}
        </span>
      ) : null}
      <ProblemCountBadges path={row.path} />
      <span className="docs-nav__actions">
        {/* A page goes only where pages are listed; a group wherever this row has a child list. */}
        {row.kind !== 'page' && childList === 'pages' ? <AddChildButton kind="page" to={`${noun} ${title}`} onAdd={addChild} /> : null}
        {row.kind !== 'page' && childList ? <AddChildButton kind="group" to={`${noun} ${title}`} onAdd={addChild} /> : null}
        <button
          type="button"
          className="icon-button"
          aria-label={`Remove ${noun} ${title}`}
          title="Remove (Undo brings it back)"
          onClick={() => applyResolvedChanges([{ kind: 'remove', path: row.path }])}
        >
          ×
        </button>
      </span>
    </li>
  )
})

/** "+ Page" or "+ Group" on a row, named for the row it adds to. */
function AddChildButton({ kind, to, onAdd }: { kind: 'page' | 'group'; to: string; onAdd: (kind: 'page' | 'group') => void }) {
  return (
    <button type="button" className="btn btn--small btn--ghost" aria-label={`Add a ${kind} to ${to}`} onClick={() => onAdd(kind)}>
      + {kind === 'page' ? 'Page' : 'Group'}
    </button>
  )
}

/** A row's name as a field: a page's path, or the text under its kind's label key; read-only where the JSON view must edit it. */
function NameInput({ row, value, noun, editable }: { row: TreeRow; value: string; noun: string; editable: boolean }) {
  const key = labelKey(row.kind)
  const path = row.kind === 'page' ? row.path : [...row.path, key!]
  if (!editable) return <span className="docs-nav__name muted">{value || 'not editable here: see the JSON view'}</span>
  return (
    <input
      id={fieldId(path)}
      className="docs-nav__name"
      type="text"
      value={value}
      aria-label={`${noun.charAt(0).toUpperCase()}${noun.slice(1)} ${row.index + 1} ${row.kind === 'page' ? 'path' : 'name'}`}
      placeholder={row.kind === 'page' ? 'guides/setup' : `${noun} name`}
      list={row.kind === 'page' ? DOCS_PAGES_LIST : undefined}
      autoComplete="off"
      onChange={(event) => setResolved(path, event.target.value, formatProblemPath(path))}
    />
  )
}
