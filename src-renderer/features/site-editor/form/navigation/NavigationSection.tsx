import { useCallback } from 'react'
import { plural } from '../../../../../src-shared/text/plural'
import { editValue } from '../../state/editor-store'
import { appendItem, indexAfterMove, type Path } from '../../state/json-path'
import { fieldId, focusField } from '../../state/view-store'
import { FormSection, ProblemsAt } from '../controls/FormSection'
import { useDragToReorder } from '../controls/list-actions'
import { useLengthAt, useShapeAt } from '../controls/use-field'
import { WrongShapeNote } from '../controls/WrongShapeNote'
import { GroupRow } from './GroupRow'
import { NavigationSearch } from './NavigationSearch'
import { useExpandedRows } from './use-expanded-rows'
import { useRevealFocusRequests } from './use-reveal-focus-requests'
import { useVirtualRows, VirtualSortableList } from './VirtualSortableList'

// site.json's and mint.json's navigation: a list of groups of pages. Rows: one a group, by its index. List: the groups in
// a virtualised, sortable list. Row: GroupRow, whose pages (GroupPages.tsx) are drawn only while it is expanded.

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
  const { expanded, setExpanded, toggle } = useExpandedRows(() => new Set(length <= EXPAND_ALL_UP_TO ? range(length) : []))
  const { scroller, virtualizer } = useVirtualRows(length, COLLAPSED_ROW_HEIGHT, 4)

  // Open groups follow their group when it moves, and close when it goes.
  const followMove = useCallback(
    (from: number, to: number) => setExpanded((open) => new Set([...open].map((index) => indexAfterMove(index, from, to)))),
    [setExpanded],
  )
  const followRemoval = useCallback(
    (removed: number) =>
      setExpanded((open) => new Set([...open].filter((index) => index !== removed).map((index) => (index > removed ? index - 1 : index)))),
    [setExpanded],
  )
  const drag = useDragToReorder(NAVIGATION, followMove)

  // A place inside a group: expand the group. Any place in it: scroll the group into the list's view. Requests made
  // before this list was drawn are not answered.
  const reveal = useCallback(
    (segments: Path) => {
      const index = segments[1]
      if (typeof index !== 'number') return
      if (segments.length > 2) setExpanded((open) => new Set(open).add(index))
      virtualizer.scrollToIndex(index, { align: 'center' })
    },
    [setExpanded, virtualizer],
  )
  useRevealFocusRequests(reveal, { answerMissed: false })

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
              <VirtualSortableList
                scroller={scroller}
                virtualizer={virtualizer}
                ids={range(length).map(String)}
                drag={drag}
                list="ol"
                label="Navigation groups"
                scrollerClassName="navigation__scroller"
                listClassName="navigation__groups"
                scrollerFitsRows
              >
                {(item) => (
                  <GroupRow
                    key={item.key}
                    listPath={NAVIGATION}
                    index={item.index}
                    length={length}
                    top={item.start}
                    expanded={expanded.has(item.index)}
                    measure={virtualizer.measureElement}
                    onToggle={toggle}
                    onMoved={followMove}
                    onRemoved={followRemoval}
                  />
                )}
              </VirtualSortableList>
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
