import { closestCenter, DndContext, type DragEndEvent, KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core'
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { useVirtualizer } from '@tanstack/react-virtual'
import { type KeyboardEvent, memo, useEffect, useMemo, useRef, useState } from 'react'
import { CONTENT_ORDER, type DivisionKey, DIVISIONS } from '../../../../../src-shared/site-config/docs-schema'
import { isPlainObject } from '../../../../../src-shared/site-config/mint-schema'
import { formatProblemPath } from '../../../../../src-shared/site-config/problem-path'
import { plural } from '../../../../../src-shared/text/plural'
import { useEditor } from '../../state/editor-store'
import { getIn, type Path } from '../../state/json-path'
import { resolvedFor } from '../../state/ref-store'
import { applyResolvedChanges, fileOfPlace, moveResolved, resolvedState, setResolved, useResolvedAt } from '../../state/resolved-edits'
import { fieldId, useEditorView } from '../../state/view-store'
import { FormSection, ProblemsAt } from '../controls/FormSection'
import { useProblemCountsWithin } from '../controls/use-field'
import { DOCS_PAGES_LIST } from './NavigationSection'

// docs.json's navigation as a tree: products, languages, versions, tabs, dropdowns, anchors and
// menus, groups nested to any depth, and pages, as the file and its $ref files hold them. Rows are
// virtualised (a 23,000-page file draws what is in view); a row moves by drag and drop, by the
// keyboard on its handle (Space, arrows, Space: dnd-kit's keyboard sensor), or with Alt+↑ and Alt+↓.
// Every edit is written to the file the place lives in (resolved-edits.ts).

type RowKind = DivisionKey | 'group' | 'page'

interface Row {
  id: string
  path: Path
  kind: RowKind
  depth: number
  /** The list it sits in, and its index there. */
  list: Path
  index: number
  length: number
  hasChildren: boolean
  /** The $ref file this row is written in, when not the docs.json. */
  file: string | null
}

const ROW_HEIGHT = 44
const EXPAND_ALL_UP_TO = 150
const LIST_KEYS = new Set<string>([...Object.keys(DIVISIONS), 'groups', 'pages'])

/** The content lists of a node, in the order Mintlify reads them. */
function contentLists(node: unknown, kind: RowKind | 'navigation'): string[] {
  if (!isPlainObject(node)) return []
  if (kind === 'group') return Array.isArray(node.pages) ? ['pages'] : []
  if (kind === 'page') return []
  const order: readonly string[] = CONTENT_ORDER[kind]
  return order.filter((key) => key !== 'href' && Array.isArray(node[key]))
}

const kindOfList = (key: string, item: unknown): RowKind =>
  key in DIVISIONS ? (key as DivisionKey) : key === 'groups' ? 'group' : isPlainObject(item) ? 'group' : 'page'

function flatten(navigation: unknown, expanded: ReadonlySet<string>): Row[] {
  const rows: Row[] = []
  const visit = (node: unknown, path: Path, kind: RowKind | 'navigation', depth: number) => {
    for (const key of contentLists(node, kind)) {
      const list = (node as Record<string, unknown>)[key] as unknown[]
      const listPath = [...path, key]
      list.forEach((item, index) => {
        const itemPath = [...listPath, index]
        const itemKind = kindOfList(key, item)
        const id = formatProblemPath(itemPath)
        const hasChildren = contentLists(item, itemKind).length > 0
        rows.push({ id, path: itemPath, kind: itemKind, depth, list: listPath, index, length: list.length, hasChildren, file: null })
        if (hasChildren && expanded.has(id)) visit(item, itemPath, itemKind, depth + 1)
      })
    }
  }
  visit(navigation, ['navigation'], 'navigation', 0)
  return rows
}

function allExpandable(navigation: unknown): Set<string> {
  const ids = new Set<string>()
  let rows = 0
  const visit = (node: unknown, path: Path, kind: RowKind | 'navigation') => {
    for (const key of contentLists(node, kind)) {
      ;((node as Record<string, unknown>)[key] as unknown[]).forEach((item, index) => {
        rows++
        const itemPath = [...path, key, index]
        const itemKind = kindOfList(key, item)
        if (contentLists(item, itemKind).length) {
          ids.add(formatProblemPath(itemPath))
          if (rows < EXPAND_ALL_UP_TO) visit(item, itemPath, itemKind)
        }
      })
    }
  }
  visit(navigation, ['navigation'], 'navigation')
  return rows < EXPAND_ALL_UP_TO ? ids : new Set()
}

const labelKey = (kind: RowKind) => (kind === 'group' ? 'group' : kind === 'page' ? null : DIVISIONS[kind])
const kindName = (kind: RowKind) =>
  kind === 'page' ? 'page' : kind === 'group' ? 'group' : DIVISIONS[kind] === 'item' ? 'menu item' : DIVISIONS[kind]

/**
 * Whether a dragged row may be dropped at another row's place: pages and groups among pages, groups among groups, an item
 * among its own kind.
 */
function canDrop(dragged: Row, target: Row): boolean {
  const listKey = String(target.list.at(-1))
  if (dragged.kind === 'page' || dragged.kind === 'group') return listKey === 'pages' || (listKey === 'groups' && dragged.kind === 'group')
  return listKey === String(dragged.list.at(-1))
}

/**
 * The rows open in each document's tree as it was last drawn, kept while the form is away (the JSON view, the docs folder
 * view, another section) so the tree comes back as it was left.
 */
const openRows = new Map<string, ReadonlySet<string>>()
/** The last focus request the tree has answered: one made while it was away is answered when it is drawn again. */
let answeredRequest = 0

/** `open` with the rows above a navigation place added, so the place is drawn. */
function withRowsAbove(open: ReadonlySet<string>, segments: Path): ReadonlySet<string> {
  const next = new Set(open)
  for (let depth = 2; depth < segments.length; depth++)
    if (typeof segments[depth] === 'number') next.add(formatProblemPath(segments.slice(0, depth + 1)))
  return next
}

export function DocsNavigationSection() {
  const navigation = useEditor((state) => resolvedFor(state.value, state.refTexts).value) as Record<string, unknown> | undefined
  const documentId = useEditor((state) => state.document?.documentId ?? '')
  const navigationValue = isPlainObject(navigation) ? navigation.navigation : undefined
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => openRows.get(documentId) ?? allExpandable(navigationValue))
  // Kept from the moment the tree is drawn, not from its first toggle: worked out again on the next mount, the defaults
  // could differ from what was shown (a $ref file read since, rows added past EXPAND_ALL_UP_TO) and unfold rows.
  const drawn = isPlainObject(navigationValue)
  useEffect(() => {
    if (drawn) openRows.set(documentId, expanded)
  }, [documentId, expanded, drawn])
  const rows = useMemo(
    () => flatten(navigationValue, expanded).map((row) => ({ ...row, file: fileOfPlace(row.path) })),
    [navigationValue, expanded],
  )
  const scroller = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
  })
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  )

  // A problem clicked inside the navigation: open the rows above it and scroll to it. Clicked while the tree was away
  // (in the JSON view, say), it is answered as the tree is drawn again; an answered one is not, so rows folded after
  // it stay folded.
  useEffect(() => {
    const answer = (request: { segments: Path; serial: number } | null) => {
      if (!request || request.serial <= answeredRequest) return
      answeredRequest = request.serial
      if (request.segments[0] === 'navigation') setExpanded((open) => withRowsAbove(open, request.segments))
    }
    answer(useEditorView.getState().focusRequest)
    return useEditorView.subscribe((state) => answer(state.focusRequest))
  }, [])
  useEffect(() => {
    const request = useEditorView.getState().focusRequest
    if (!request || request.segments[0] !== 'navigation') return
    const at = rows.findIndex(
      (row) => formatProblemPath(request.segments).startsWith(row.id) && formatProblemPath(request.segments) === row.id,
    )
    if (at >= 0) virtualizer.scrollToIndex(at, { align: 'center' })
  }, [rows, virtualizer])

  const toggle = (id: string) =>
    setExpanded((open) => {
      const next = new Set(open)
      if (!next.delete(id)) next.add(id)
      return next
    })

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return
    const dragged = rows.find((row) => row.id === active.id)
    const target = rows.find((row) => row.id === over.id)
    if (!dragged || !target || !canDrop(dragged, target)) return
    // Dropped below its own place in the same list: it goes after the target.
    const sameList = formatProblemPath(dragged.list) === formatProblemPath(target.list)
    moveResolved(dragged.path, target.list, sameList && dragged.index < target.index ? target.index + 1 : target.index)
  }

  if (!isPlainObject(navigationValue)) {
    return (
      <FormSection id="navigation" title="Navigation">
        <ProblemsAt path={['navigation']} />
        <p className="muted">The navigation is not an object here: edit it in the JSON view.</p>
      </FormSection>
    )
  }

  return (
    <FormSection
      id="navigation"
      title="Navigation"
      description="Tabs, anchors, versions, languages, groups and pages, as readers move through them. Drag a row by its handle (or focus the handle and press Space, the arrows, then Space), or press Alt+↑ and Alt+↓ on a row. Parts kept in other files ($ref) are edited and saved there."
    >
      <div id={fieldId(['navigation'])} tabIndex={-1} className="docs-nav">
        <ProblemsAt path={['navigation']} />
        <p className="navigation__summary">
          {plural(rows.length, 'row')} shown ·{' '}
          <button
            type="button"
            className="link-button"
            onClick={() =>
              setExpanded(
                new Set(
                  rows
                    .filter((row) => row.hasChildren)
                    .map((row) => row.id)
                    .concat([...expanded]),
                ),
              )
            }
          >
            Expand these
          </button>{' '}
          ·{' '}
          <button type="button" className="link-button" onClick={() => setExpanded(new Set())}>
            Collapse all
          </button>
        </p>
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={rows.map((row) => row.id)} strategy={verticalListSortingStrategy}>
            <div ref={scroller} className="docs-nav__scroller">
              {/* A list, not an ARIA tree: a row holds its own controls (a tree item's name would be all their text), so
                  each row is a list item with its level and place, and its expand button says whether it is open. */}
              <ul className="docs-nav__tree" aria-label="Navigation tree" style={{ height: virtualizer.getTotalSize() }}>
                {virtualizer.getVirtualItems().map((item) => {
                  const row = rows[item.index]!
                  return <NavRow key={row.id} row={row} top={item.start} expanded={expanded.has(row.id)} onToggle={toggle} />
                })}
              </ul>
            </div>
          </SortableContext>
        </DndContext>
        <AddAtTop navigation={navigationValue} />
      </div>
    </FormSection>
  )
}

const NavRow = memo(function NavRow({
  row,
  top,
  expanded,
  onToggle,
}: {
  row: Row
  top: number
  expanded: boolean
  onToggle: (id: string) => void
}) {
  const { setNodeRef, setActivatorNodeRef, listeners, attributes, transform, transition, isDragging } = useSortable({ id: row.id })
  const value = useResolvedAt(row.path)
  const counts = useProblemCountsWithin(row.path)
  const key = labelKey(row.kind)
  const name =
    row.kind === 'page'
      ? typeof value === 'string'
        ? value
        : ''
      : isPlainObject(value) && key && typeof value[key] === 'string'
        ? (value[key] as string)
        : ''
  const noun = kindName(row.kind)
  const title = name || `${noun} ${row.index + 1} (no name)`

  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return
    event.preventDefault()
    const to = event.key === 'ArrowUp' ? row.index - 1 : row.index + 2
    if (to < 0 || to > row.length) return
    moveResolved(row.path, row.list, to)
    requestAnimationFrame(() =>
      document
        .getElementById(`nav-row:${formatProblemPath([...row.list, event.key === 'ArrowUp' ? row.index - 1 : row.index + 1])}`)
        ?.focus(),
    )
  }
  const lists = contentLists(value, row.kind)
  const childList =
    row.kind === 'group' ? 'pages' : (lists.find((list) => list === 'pages' || list === 'groups') ?? (lists.length ? null : 'pages'))
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
        <button
          type="button"
          className="docs-nav__toggle"
          aria-label={`${expanded ? 'Collapse' : 'Expand'} ${noun} ${title}`}
          aria-expanded={expanded}
          onClick={() => onToggle(row.id)}
        >
          {expanded ? '▾' : '▸'}
        </button>
      ) : (
        <span className="docs-nav__toggle" aria-hidden="true" />
      )}
      <span className={`docs-nav__kind docs-nav__kind--${row.kind}`}>{noun}</span>
      <NameInput
        row={row}
        value={name}
        noun={noun}
        editable={row.kind === 'page' ? typeof value === 'string' : isPlainObject(value) && key !== null}
      />
      {row.file ? (
        <span className="badge docs-nav__file" title={`Written in ${row.file}: edits are saved there`}>
          {row.file}
        </span>
      ) : null}
      {counts.errors ? <span className="badge badge--failure">{plural(counts.errors, 'error')}</span> : null}
      {counts.warnings ? <span className="badge badge--warning">{plural(counts.warnings, 'warning')}</span> : null}
      <span className="docs-nav__actions">
        {row.kind !== 'page' && childList === 'pages' ? (
          <button
            type="button"
            className="btn btn--small btn--ghost"
            aria-label={`Add a page to ${noun} ${title}`}
            onClick={() => addChild('page')}
          >
            + Page
          </button>
        ) : null}
        {row.kind !== 'page' && childList ? (
          <button
            type="button"
            className="btn btn--small btn--ghost"
            aria-label={`Add a group to ${noun} ${title}`}
            onClick={() => addChild('group')}
          >
            + Group
          </button>
        ) : null}
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

function NameInput({ row, value, noun, editable }: { row: Row; value: string; noun: string; editable: boolean }) {
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

/** Adds a first group or page where the navigation holds groups or pages at its top. */
function AddAtTop({ navigation }: { navigation: Record<string, unknown> }) {
  const lists = contentLists(navigation, 'navigation')
  const target = lists.find((key) => LIST_KEYS.has(key))
  if (!target) return null
  const list = ['navigation', target]
  const length = (navigation[target] as unknown[]).length
  const kind = kindOfList(target, undefined)
  const item =
    target === 'pages'
      ? ''
      : target === 'groups'
        ? { group: 'New group', pages: [] }
        : { [DIVISIONS[target as DivisionKey]]: `New ${kindName(kind)}`, pages: [] }
  return (
    <button
      type="button"
      className="btn btn--small"
      onClick={() => applyResolvedChanges([{ kind: 'insertItem', path: list, index: length, value: item }])}
    >
      Add {target === 'pages' ? 'page' : kindName(kind)}
    </button>
  )
}
