import { useSortable } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { memo, useCallback } from 'react'
import { plural } from '../../../../../src-shared/text/plural'
import type { Path } from '../../state/json-path'
import { fieldId } from '../../state/view-store'
import { ItemToolbar } from '../controls/ItemToolbar'
import { useLengthAt, useShapeAt, useValueAt } from '../controls/use-field'
import { WrongShapeNote } from '../controls/WrongShapeNote'
import { GroupFields } from './GroupPages'
import { chevron, ExpandButton, ProblemCountBadges } from './RowHeaderParts'

interface GroupRowProps {
  /** The navigation list the group is in. */
  listPath: Path
  index: number
  length: number
  /** Its place in the virtual list, in pixels from the top. */
  top: number
  expanded: boolean
  /** The virtualiser's measure: an expanded group is taller than the estimate. */
  measure: (element: Element | null) => void
  onToggle: (index: number) => void
  onMoved: (from: number, to: number) => void
  onRemoved: (index: number) => void
}

/**
 * One group of a site.json or mint.json navigation: a header (drag handle, expand button with its name and page count,
 * problem counts, move and remove buttons) and, while expanded, its name and pages.
 */
export const GroupRow = memo(function GroupRow({
  listPath,
  index,
  length,
  top,
  expanded,
  measure,
  onToggle,
  onMoved,
  onRemoved,
}: GroupRowProps) {
  const path = [...listPath, index]
  const { setNodeRef, setActivatorNodeRef, listeners, transform, transition, isDragging } = useSortable({ id: String(index) })
  const name = useValueAt([...path, 'group'])
  const pageCount = useLengthAt([...path, 'pages'])
  const shape = useShapeAt(path)
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
        <ExpandButton
          className="nav-group__toggle"
          expanded={expanded}
          controls={expanded ? bodyId : undefined}
          onToggle={() => onToggle(index)}
        >
          <span className="nav-group__chevron" aria-hidden="true">
            {chevron(expanded)}
          </span>
          <span className="nav-group__name">{title}</span>
          <span className="nav-group__count">{plural(pageCount, 'page')}</span>
        </ExpandButton>
        <ProblemCountBadges path={path} />
        <ItemToolbar
          listPath={listPath}
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
