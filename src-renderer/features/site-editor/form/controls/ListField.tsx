import { DndContext } from '@dnd-kit/core'
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import type { ReactNode } from 'react'
import { isObject, type Path } from '../../state/json-path'
import { fieldId } from '../../state/view-store'
import { ItemToolbar, type RemovalQuestion } from './ItemToolbar'
import { appendListItem, useDragToReorder } from './list-actions'
import { useLengthAt, useShapeAt, useValueAt } from './use-field'
import { WrongShapeNote } from './WrongShapeNote'

export interface ListFieldProps {
  path: Path
  legend: string
  /** What one item is called: "page" gives "Add page", "Remove page 3". */
  noun: string
  newItem: () => unknown
  /** Optional lists lose their key with their last item; required ones (pages) stay as []. */
  removeWhenEmpty: boolean
  /** The control to focus in a newly added item. */
  focusInNewItem?: (itemPath: Path) => Path
  /** 'row' puts a one-field item on one line; 'card' gives an item of several fields a header. */
  layout: 'row' | 'card'
  /** A card's title from its item, such as the anchor's name. */
  titleOf?: (item: unknown) => string | undefined
  renderItem: (itemPath: Path, index: number) => ReactNode
  hint?: ReactNode
  /** What removing an item asks first, when it takes more with it; null or absent removes at once. */
  removalQuestion?: (item: unknown, itemName: string) => RemovalQuestion | null
  /** Other kinds of item the list takes ("nested group" beside "page"), each with its own Add button. */
  otherItems?: readonly { noun: string; newItem: () => unknown; focusInNewItem?: (itemPath: Path) => Path }[]
}

/** A card's title for items with a name: links, anchors, tabs. */
export const nameOfItem = (item: unknown) => (isObject(item) && typeof item.name === 'string' ? item.name : undefined)

const ids = (length: number) => Array.from({ length }, (_, index) => String(index))

/** A list setting: add, remove, and reorder by dragging the handle or with Move up / Move down. */
export function ListField(props: ListFieldProps) {
  const { path, legend, noun, newItem, focusInNewItem = (itemPath) => itemPath, hint } = props
  const shape = useShapeAt(path)
  const length = useLengthAt(path)
  const drag = useDragToReorder(path)

  if (shape === 'object' || shape === 'other') {
    return (
      <fieldset className="list-field">
        <legend className="list-field__legend">{legend}</legend>
        <WrongShapeNote id={fieldId(path)} what={legend} />
      </fieldset>
    )
  }

  return (
    <fieldset className="list-field" id={fieldId(path)} tabIndex={-1}>
      <legend className="list-field__legend">
        {legend} <span className="list-field__count">({length})</span>
      </legend>
      {hint ? <p className="field__hint">{hint}</p> : null}
      {length > 0 ? (
        <DndContext {...drag}>
          <SortableContext items={ids(length)} strategy={verticalListSortingStrategy}>
            <ol className={`list-field__items list-field__items--${props.layout}`}>
              {Array.from({ length }, (_, index) => (
                <SortableItem key={index} {...props} index={index} length={length} />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
      ) : null}
      <span className="list-field__adds">
        <button
          type="button"
          id={`${fieldId(path)}:add`}
          className="btn btn--small list-field__add"
          onClick={() => appendListItem(path, newItem(), length, focusInNewItem)}
        >
          Add {noun}
        </button>
        {props.otherItems?.map((other) => (
          <button
            key={other.noun}
            type="button"
            className="btn btn--small list-field__add"
            onClick={() => appendListItem(path, other.newItem(), length, other.focusInNewItem ?? ((itemPath) => itemPath))}
          >
            Add {other.noun}
          </button>
        ))}
      </span>
    </fieldset>
  )
}

function SortableItem({
  path,
  noun,
  layout,
  titleOf,
  renderItem,
  removeWhenEmpty,
  removalQuestion,
  index,
  length,
}: ListFieldProps & { index: number; length: number }) {
  const { setNodeRef, setActivatorNodeRef, listeners, transform, transition, isDragging } = useSortable({ id: String(index) })
  const itemPath = [...path, index]
  const itemName = `${noun} ${index + 1}`
  const item = useValueAt(itemPath)
  const removal = removalQuestion?.(item, itemName) ?? null
  const toolbar = (
    <ItemToolbar listPath={path} index={index} length={length} itemName={itemName} removeWhenEmpty={removeWhenEmpty} removal={removal} />
  )
  const handle = (
    // Pointer only: keyboard users have the Move buttons, so the handle is no extra tab stop.
    <span ref={setActivatorNodeRef} className="drag-handle" aria-hidden="true" title="Drag to reorder" {...listeners}>
      ⠿
    </span>
  )
  return (
    <li
      ref={setNodeRef}
      // A row's one field is at the item's own path and carries its id; a card is found by its own.
      id={layout === 'card' ? fieldId(itemPath) : undefined}
      tabIndex={layout === 'card' ? -1 : undefined}
      className={`list-item list-item--${layout}${isDragging ? ' list-item--dragging' : ''}`}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      {layout === 'row' ? (
        <>
          {handle}
          <div className="list-item__body">{renderItem(itemPath, index)}</div>
          {toolbar}
        </>
      ) : (
        <>
          <div className="list-item__header">
            {handle}
            <CardTitle itemPath={itemPath} fallback={itemName} titleOf={titleOf} />
            {toolbar}
          </div>
          <CardBody itemPath={itemPath} itemName={itemName}>
            {renderItem(itemPath, index)}
          </CardBody>
        </>
      )}
    </li>
  )
}

function CardTitle({ itemPath, fallback, titleOf }: { itemPath: Path; fallback: string; titleOf?: (item: unknown) => string | undefined }) {
  const item = useValueAt(itemPath)
  const title = titleOf?.(item)
  const capitalised = fallback.charAt(0).toUpperCase() + fallback.slice(1)
  return (
    <span className="list-item__title">
      {capitalised}
      {title ? <span className="list-item__subtitle"> · {title}</span> : null}
    </span>
  )
}

function CardBody({ itemPath, itemName, children }: { itemPath: Path; itemName: string; children: ReactNode }) {
  const shape = useShapeAt(itemPath)
  return (
    <div className="list-item__body">
      {shape === 'object' ? children : <WrongShapeNote id={`${fieldId(itemPath)}:note`} what={`This ${itemName}`} />}
    </div>
  )
}
