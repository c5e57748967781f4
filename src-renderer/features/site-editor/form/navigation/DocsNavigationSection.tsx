import { closestCenter, type DragEndEvent, KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core'
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable'
import { useCallback, useEffect, useMemo } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { isPlainObject } from '../../../../../src-shared/site-config/mint-schema'
import { formatProblemPath } from '../../../../../src-shared/site-config/problem-path'
import { plural } from '../../../../../src-shared/text/plural'
import { useEditor } from '../../state/editor-store'
import type { Path } from '../../state/json-path'
import { resolvedFor } from '../../state/ref-store'
import { applyResolvedChanges, fileOfPlace, moveResolved } from '../../state/resolved-edits'
import { fieldId, useEditorView } from '../../state/view-store'
import { FormSection, ProblemsAt } from '../controls/FormSection'
import { dropPlace, expandedByDefault, firstItemAtTop, treeRows, withRowsAbove } from './nav-rows'
import { TreeRowItem } from './TreeRowItem'
import { useExpandedRows } from './use-expanded-rows'
import { useRevealFocusRequests } from './use-reveal-focus-requests'
import { useVirtualRows, VirtualSortableList } from './VirtualSortableList'

// docs.json's navigation as a tree: products, languages, versions, tabs, dropdowns, anchors and
// menus, groups nested to any depth, and pages, as the file and its $ref files hold them. Rows: the
// open part of the tree flattened (nav-rows.ts). List: virtualised (a 23,000-page file draws what
// is in view) and sortable; a row moves by drag and drop, by the keyboard on its handle (Space,
// arrows, Space: dnd-kit's keyboard sensor), or with Alt+↑ and Alt+↓. Row: TreeRowItem. Every edit
// is written to the file the place lives in (resolved-edits.ts).

const ROW_HEIGHT = 44

/**
 * The rows open in each document's tree as it was last drawn, kept while the form is away (the JSON view, the docs folder
 * view, another section) so the tree comes back as it was left.
 */
const openRows = new Map<string, ReadonlySet<string>>()

export function DocsNavigationSection() {
  // The navigation alone: a key typed in another setting leaves it as it was, and the tree is not drawn again.
  const navigationValue = useEditor((state) => {
    const resolved = resolvedFor(state.value, state.refTexts).value
    return isPlainObject(resolved) ? resolved.navigation : undefined
  })
  const documentId = useEditor((state) => state.document?.documentId ?? '')
  const { expanded, setExpanded, toggle } = useExpandedRows(() => openRows.get(documentId) ?? expandedByDefault(navigationValue))
  // Kept from the moment the tree is drawn, not from its first toggle: worked out again on the next mount, the defaults
  // could differ from what was shown (a $ref file read since, rows added past EXPAND_ALL_UP_TO) and unfold rows.
  const drawn = isPlainObject(navigationValue)
  useEffect(() => {
    if (drawn) openRows.set(documentId, expanded)
  }, [documentId, expanded, drawn])
  const rows = useMemo(
    () => treeRows(navigationValue, expanded).map((row) => ({ ...row, file: fileOfPlace(row.path) })),
    [navigationValue, expanded],
  )
  // The same array while the ids are the same: the sortable context compares its items by identity, and new items
  // draw every row of the tree again (a key in a group's name rebuilds the rows, not their ids).
  const ids = useShallow((shown: typeof rows) => shown.map((row) => row.id))(rows)
  const { scroller, virtualizer } = useVirtualRows(rows.length, ROW_HEIGHT, 6)
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  )

  // A problem clicked inside the navigation: open the rows above it, then (below, once they are drawn) scroll to it.
  // Clicked while the tree was away (in the JSON view, say), it is answered as the tree is drawn again; an answered one is
  // not, so rows folded after it stay folded.
  const reveal = useCallback((segments: Path) => setExpanded((open) => withRowsAbove(open, segments)), [setExpanded])
  useRevealFocusRequests(reveal, { answerMissed: true })
  useEffect(() => {
    const request = useEditorView.getState().focusRequest
    if (!request || request.segments[0] !== 'navigation') return
    const id = formatProblemPath(request.segments)
    const at = rows.findIndex((row) => row.id === id)
    if (at >= 0) virtualizer.scrollToIndex(at, { align: 'center' })
  }, [rows, virtualizer])

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return
    const dragged = rows.find((row) => row.id === active.id)
    const target = rows.find((row) => row.id === over.id)
    const place = dragged && target ? dropPlace(dragged, target) : null
    if (dragged && place) moveResolved(dragged.path, place.list, place.index)
  }

  if (!isPlainObject(navigationValue)) {
    return (
      <FormSection id="navigation" title="Navigation">
        <ProblemsAt path={['navigation']} />
        <p className="muted">The navigation is not an object here: edit it in the JSON view.</p>
      </FormSection>
    )
  }

  const expandShown = () =>
    setExpanded(
      new Set(
        rows
          .filter((row) => row.hasChildren)
          .map((row) => row.id)
          .concat([...expanded]),
      ),
    )
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
          <button type="button" className="link-button" onClick={expandShown}>
            Expand these
          </button>{' '}
          ·{' '}
          <button type="button" className="link-button" onClick={() => setExpanded(new Set())}>
            Collapse all
          </button>
        </p>
        {/* A list, not an ARIA tree: a row holds its own controls (a tree item's name would be all their text), so each row
            is a list item with its level and place, and its expand button says whether it is open. */}
        <VirtualSortableList
          scroller={scroller}
          virtualizer={virtualizer}
          ids={ids}
          drag={{ sensors, collisionDetection: closestCenter, onDragEnd }}
          list="ul"
          label="Navigation tree"
          scrollerClassName="docs-nav__scroller"
          listClassName="docs-nav__tree"
        >
          {(item) => {
            const row = rows[item.index]!
            return <TreeRowItem key={row.id} row={row} top={item.start} expanded={expanded.has(row.id)} onToggle={toggle} />
          }}
        </VirtualSortableList>
        <AddAtTop navigation={navigationValue} />
      </div>
    </FormSection>
  )
}

/** Adds a first group or page where the navigation holds groups or pages at its top. */
function AddAtTop({ navigation }: { navigation: Record<string, unknown> }) {
  const first = firstItemAtTop(navigation)
  if (!first) return null
  return (
    <button
      type="button"
      className="btn btn--small"
      onClick={() => applyResolvedChanges([{ kind: 'insertItem', path: first.list, index: first.length, value: first.item }])}
    >
      Add {first.noun}
    </button>
  )
}
