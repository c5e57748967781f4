import { DndContext } from '@dnd-kit/core'
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { pageKey } from '../../../../../src-shared/site-config/docs-files'
import { formatProblemPath } from '../../../../../src-shared/site-config/problem-path'
import { plural } from '../../../../../src-shared/text/plural'
import { toast } from '../../../../ui/toasts'
import { openDialog } from '../../state/dialog-store'
import { editValue, useEditor } from '../../state/editor-store'
import { chooseRules } from '../../state/file-commands'
import { appendItem, getIn, indexAfterMove, type Path } from '../../state/json-path'
import { isObject } from '../../state/json-path'
import { flattenNestedGroup, groupsOf, nestedGroupAt, pagesWithin } from '../../state/navigation-edits'
import { fieldId, focusField, useEditorView } from '../../state/view-store'
import { FieldFrame } from '../controls/FieldFrame'
import { FormSection, ProblemsAt } from '../controls/FormSection'
import { type RemovalQuestion, removeAfterAsking } from '../controls/ItemToolbar'
import { ItemToolbar } from '../controls/ItemToolbar'
import { removeListItem } from '../controls/list-actions'
import { useDragToReorder } from '../controls/list-actions'
import { ListField } from '../controls/ListField'
import { WrongTypeValue } from '../controls/TextField'
import { TextField } from '../controls/TextField'
import { useLengthAt, useProblemCountsWithin, useShapeAt, useValueAt } from '../controls/use-field'
import { WrongShapeNote } from '../controls/WrongShapeNote'

const NAVIGATION: Path = ['navigation']
const COLLAPSED_ROW_HEIGHT = 46
/** A file with this many groups or fewer opens with every group expanded. */
const EXPAND_ALL_UP_TO = 8

const range = (length: number) => Array.from({ length }, (_, index) => index)

/**
 * The navigation: groups and their pages. Groups are collapsed rows in a virtualised list, so a
 * 300-group, 6,000-page file draws the dozen rows in view; a group's pages are drawn only when
 * it is expanded. Problems inside a collapsed group show as a count on its row.
 */
export function NavigationSection() {
  const shape = useShapeAt(NAVIGATION)
  const length = useLengthAt(NAVIGATION)
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set(length <= EXPAND_ALL_UP_TO ? range(length) : []))
  const scroller = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: length,
    getScrollElement: () => scroller.current,
    estimateSize: () => COLLAPSED_ROW_HEIGHT,
    overscan: 4,
  })

  const toggle = useCallback((index: number) => {
    setExpanded((open) => {
      const next = new Set(open)
      if (!next.delete(index)) next.add(index)
      return next
    })
  }, [])
  const followMove = useCallback((from: number, to: number) => {
    setExpanded((open) => new Set([...open].map((index) => indexAfterMove(index, from, to))))
  }, [])
  const followRemoval = useCallback((removed: number) => {
    setExpanded((open) => new Set([...open].filter((index) => index !== removed).map((index) => (index > removed ? index - 1 : index))))
  }, [])
  const drag = useDragToReorder(NAVIGATION, followMove)

  // A problem clicked inside a group: expand it and scroll it into the list's view, so the
  // focus request (handled for the whole form) finds the field drawn.
  useEffect(
    () =>
      useEditorView.subscribe((state, previous) => {
        const request = state.focusRequest
        if (!request || request === previous.focusRequest || request.segments[0] !== 'navigation') return
        const index = request.segments[1]
        if (typeof index !== 'number') return
        if (request.segments.length > 2) setExpanded((open) => new Set(open).add(index))
        virtualizer.scrollToIndex(index, { align: 'center' })
      }),
    [virtualizer],
  )

  const addGroup = () => {
    editValue((value) => appendItem(value, NAVIGATION, { group: '', pages: [] }))
    // The reveal above expands the new group and scrolls to it.
    focusField([...NAVIGATION, length, 'group'])
  }

  return (
    <FormSection
      id="navigation"
      title="Navigation"
      description="Groups of pages in the side navigation, in order. Drag a row by its handle, or use the arrows."
    >
      <div id={fieldId(NAVIGATION)} tabIndex={-1} className="navigation">
        <ProblemsAt path={NAVIGATION} />
        {shape === 'list' ? <NavigationSearch /> : null}
        {shape === 'object' || shape === 'other' ? (
          <WrongShapeNote id={`${fieldId(NAVIGATION)}:note`} what="Navigation" />
        ) : (
          <>
            <p className="navigation__summary">
              {plural(length, 'group')}
              {length > EXPAND_ALL_UP_TO ? ' · expand a group to edit its pages' : ''}
            </p>
            {length > 0 ? (
              <DndContext {...drag}>
                <SortableContext items={range(length).map(String)} strategy={verticalListSortingStrategy}>
                  <div ref={scroller} className="navigation__scroller" style={{ height: virtualizer.getTotalSize() }}>
                    <ol className="navigation__groups" aria-label="Navigation groups" style={{ height: virtualizer.getTotalSize() }}>
                      {virtualizer.getVirtualItems().map((item) => (
                        <GroupRow
                          key={item.key}
                          index={item.index}
                          length={length}
                          top={item.start}
                          expanded={expanded.has(item.index)}
                          measure={virtualizer.measureElement}
                          onToggle={toggle}
                          onMoved={followMove}
                          onRemoved={followRemoval}
                        />
                      ))}
                    </ol>
                  </div>
                </SortableContext>
              </DndContext>
            ) : null}
            <button type="button" id={`${fieldId(NAVIGATION)}:add`} className="btn btn--small" onClick={addGroup}>
              Add group
            </button>
          </>
        )}
      </div>
    </FormSection>
  )
}

interface GroupRowProps {
  index: number
  length: number
  top: number
  expanded: boolean
  measure: (element: Element | null) => void
  onToggle: (index: number) => void
  onMoved: (from: number, to: number) => void
  onRemoved: (index: number) => void
}

const GroupRow = memo(function GroupRow({ index, length, top, expanded, measure, onToggle, onMoved, onRemoved }: GroupRowProps) {
  const path = [...NAVIGATION, index]
  const { setNodeRef, setActivatorNodeRef, listeners, transform, transition, isDragging } = useSortable({ id: String(index) })
  const name = useValueAt([...path, 'group'])
  const pageCount = useLengthAt([...path, 'pages'])
  const shape = useShapeAt(path)
  const counts = useProblemCountsWithin(path)
  const bodyId = `${fieldId(path)}:pages`
  const ref = useCallback(
    (element: HTMLLIElement | null) => {
      setNodeRef(element)
      measure(element)
    },
    [setNodeRef, measure],
  )
  const title = typeof name === 'string' && name.trim() ? name : `Group ${index + 1} (no name)`

  return (
    <li
      ref={ref}
      data-index={index}
      id={fieldId(path)}
      tabIndex={-1}
      aria-setsize={length}
      aria-posinset={index + 1}
      className={`nav-group${expanded ? ' nav-group--expanded' : ''}${isDragging ? ' nav-group--dragging' : ''}`}
      style={{ top, transform: CSS.Translate.toString(transform), transition }}
    >
      <div className="nav-group__header">
        <span ref={setActivatorNodeRef} className="drag-handle" aria-hidden="true" title="Drag to reorder" {...listeners}>
          ⠿
        </span>
        <button
          type="button"
          className="nav-group__toggle"
          aria-expanded={expanded}
          aria-controls={expanded ? bodyId : undefined}
          onClick={() => onToggle(index)}
        >
          <span className="nav-group__chevron" aria-hidden="true">
            {expanded ? '▾' : '▸'}
          </span>
          <span className="nav-group__name">{title}</span>
          <span className="nav-group__count">{plural(pageCount, 'page')}</span>
        </button>
        {counts.errors ? <span className="badge badge--failure">{plural(counts.errors, 'error')}</span> : null}
        {counts.warnings ? <span className="badge badge--warning">{plural(counts.warnings, 'warning')}</span> : null}
        <ItemToolbar
          listPath={NAVIGATION}
          index={index}
          length={length}
          itemName={`group ${index + 1}`}
          removeWhenEmpty={false}
          onMoved={onMoved}
          onRemoved={onRemoved}
        />
      </div>
      {expanded ? (
        <div id={bodyId} className="nav-group__body">
          {shape === 'object' ? <GroupFields path={path} /> : <WrongShapeNote id={`${fieldId(path)}:note`} what={`Group ${index + 1}`} />}
        </div>
      ) : null}
    </li>
  )
})

/** The datalist every page field offers: the docs folder's pages. */
export const DOCS_PAGES_LIST = 'site-docs-pages'

function GroupFields({ path }: { path: Path }) {
  return (
    <>
      <TextField path={[...path, 'group']} label="Group name" required placeholder="Get started" />
      <PagesList path={[...path, 'pages']} />
    </>
  )
}

/** What removing a nested group asks: it takes its pages with it. Null for a page, which goes at once. */
function nestedGroupRemoval(item: unknown): RemovalQuestion | null {
  if (!isObject(item) || !Array.isArray(item.pages)) return null
  const name = typeof item.group === 'string' && item.group.trim() ? `“${item.group}”` : 'without a name'
  const pages = pagesWithin(item.pages).length
  return {
    title: 'Remove this nested group?',
    body: `The nested group ${name} goes with the ${plural(pages, 'page')} it lists. To keep the pages, flatten it into the parent instead. Undo (Ctrl+Z) brings it back.`,
  }
}

/**
 * A group's pages. Under the Mintlify-compatible rules a page may be a group in turn, edited by
 * the same fields, as deep as the file goes; under the site.json spec (docs/site-json.md,
 * navigation items) such a group is shown as it is, with the ways to settle it (see
 * NestedGroupUnderSpec). Removing a nested group asks first.
 */
function PagesList({ path }: { path: Path }) {
  const nested = useEditor((state) => state.document?.rules === 'mintlify')
  return (
    <ListField
      path={path}
      legend="Pages"
      noun="page"
      layout="row"
      removeWhenEmpty={false}
      removalQuestion={nestedGroupRemoval}
      newItem={() => ''}
      otherItems={
        nested
          ? [{ noun: 'nested group', newItem: () => ({ group: '', pages: [] }), focusInNewItem: (itemPath) => [...itemPath, 'group'] }]
          : undefined
      }
      renderItem={(itemPath, index) => <PageItem path={itemPath} index={index} nested={nested} />}
    />
  )
}

const PageItem = memo(function PageItem({ path, index, nested }: { path: Path; index: number; nested: boolean }) {
  const shape = useShapeAt(path)
  if (shape === 'object' && nested) {
    return (
      <fieldset className="nested-group" id={fieldId(path)} tabIndex={-1}>
        <legend className="object-fieldset__legend">Nested group</legend>
        <ProblemsAt path={path} />
        <GroupFields path={path} />
      </fieldset>
    )
  }
  if (shape === 'object') return <NestedGroupUnderSpec path={path} index={index} />
  return (
    <div className="page-row">
      <TextField path={path} label={`Page ${index + 1}`} labelHidden placeholder="introduction" list={DOCS_PAGES_LIST} />
      {shape === 'other' ? <MovePageButton path={path} index={index} /> : null}
    </div>
  )
})

/**
 * A nested group where the site.json spec (docs/site-json.md) wants a page: shown as it is, never typed over, with the three
 * ways to settle it. Flatten puts its pages in its place; the Mintlify-compatible rules accept it
 * as it is; Remove asks, since its pages go with it.
 */
function NestedGroupUnderSpec({ path, index }: { path: Path; index: number }) {
  const value = useValueAt(path)
  const label = `Page ${index + 1}`
  if (!isObject(value) || !Array.isArray(value.pages)) {
    // Another object: only its Replace button turns it into text.
    return <TextField path={path} label={label} labelHidden />
  }
  const flatten = () => {
    const group = nestedGroupAt(useEditor.getState().value, path)
    if (!group) return
    editValue((current) => flattenNestedGroup(current, path))
    const pages = pagesWithin(group.pages).length
    toast.success(
      `Flattened ${group.name ? `“${group.name}”` : 'the nested group'}: its ${plural(pages, 'page')} now stand${pages === 1 ? 's' : ''} in its place. Undo (Ctrl+Z) brings the group back.`,
    )
  }
  const remove = () => {
    const list = useEditor.getState().value
    const length = (getIn(list, path.slice(0, -1)) as unknown[] | undefined)?.length ?? 0
    removeAfterAsking(nestedGroupRemoval(value), () => removeListItem(path.slice(0, -1), index, length, false))
  }
  return (
    <FieldFrame path={path} label={label} labelHidden>
      {(control) => (
        <div className="wrong-type wrong-type--nested">
          <WrongTypeValue control={control} value={value} />
          <span className="wrong-type__actions">
            <button type="button" className="btn btn--small" aria-describedby={control.id} onClick={flatten}>
              Flatten into the parent
            </button>
            <button type="button" className="btn btn--small" aria-describedby={control.id} onClick={() => void chooseRules('mintlify')}>
              Use Mintlify rules for this file
            </button>
            <button type="button" className="btn btn--small btn--danger" aria-describedby={control.id} onClick={remove}>
              Remove…
            </button>
          </span>
        </div>
      )}
    </FieldFrame>
  )
}

function MovePageButton({ path, index }: { path: Path; index: number }) {
  const page = useValueAt(path)
  if (typeof page !== 'string' || !page) return null
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={`Move page ${index + 1} to another group`}
      title="Move to another group"
      onClick={() => openDialog({ kind: 'placePage', page, from: path })}
    >
      ⇄
    </button>
  )
}

/** The docs folder's pages, for every page field to offer as it is typed into. */
export function DocsPagesList() {
  const pages = useEditor((state) => state.docs?.lookup.index.pages)
  if (!pages) return null
  return (
    <datalist id={DOCS_PAGES_LIST}>
      {pages.map((page) => (
        <option key={page.path} value={page.path}>
          {page.title ?? undefined}
        </option>
      ))}
    </datalist>
  )
}

const MAX_MATCHES = 50

/** Finds groups and pages by name, path or page title, across the whole navigation; a match opens its field. */
function NavigationSearch() {
  const [query, setQuery] = useState('')
  const value = useEditor((state) => (query.trim() ? state.value : null))
  const titles = useEditor((state) => state.docs?.lookup.index.pages)
  const matches = useMemo(() => {
    const needle = query.trim().toLowerCase()
    if (!needle || value === null) return []
    const titleOf = new Map((titles ?? []).map((page) => [page.path, page.title]))
    const found: { path: Path; label: string; detail: string }[] = []
    for (const group of groupsOf(value)) {
      const node = getIn(value, group.path) as Record<string, unknown>
      if (group.label.toLowerCase().includes(needle)) found.push({ path: [...group.path, 'group'], label: group.label, detail: 'group' })
      const pages = Array.isArray(node.pages) ? node.pages : []
      pages.forEach((page, index) => {
        if (typeof page !== 'string') return
        const title = titleOf.get(pageKey(page)) ?? null
        if (page.toLowerCase().includes(needle) || title?.toLowerCase().includes(needle)) {
          found.push({ path: [...group.path, 'pages', index], label: title ? `${title} (${page})` : page, detail: group.label })
        }
      })
      if (found.length > MAX_MATCHES) break
    }
    return found
  }, [query, value, titles])

  return (
    <div className="nav-search" role="search">
      <label className="field__label" htmlFor="site-navigation-search">
        Search the navigation
      </label>
      <input
        id="site-navigation-search"
        type="search"
        value={query}
        placeholder="A group, a page path or a page title"
        autoComplete="off"
        onChange={(event) => setQuery(event.target.value)}
      />
      {query.trim() ? (
        <ul className="nav-search__results" aria-label="Navigation matches">
          {matches.length === 0 ? <li className="muted">Nothing in the navigation matches “{query.trim()}”.</li> : null}
          {matches.slice(0, MAX_MATCHES).map((match) => (
            <li key={formatProblemPath(match.path)}>
              <button type="button" className="nav-search__match" onClick={() => focusField(match.path)}>
                <span>{match.label}</span> <span className="muted">{match.detail}</span>
              </button>
            </li>
          ))}
          {matches.length > MAX_MATCHES ? <li className="muted">More matches: type more of the name.</li> : null}
        </ul>
      ) : null}
    </div>
  )
}
