import type { Path } from '../../state/json-path'
import { itemButtonId, removeListItem, stepListItem } from './list-actions'

interface ItemToolbarProps {
  listPath: Path
  index: number
  length: number
  /** How the buttons name the item for assistive technology: "page 3". */
  itemName: string
  removeWhenEmpty: boolean
  /** Told after a move or a removal, for view state kept per item (a navigation group's expanded flag). */
  onMoved?: (from: number, to: number) => void
  onRemoved?: (index: number) => void
}

/** Move up, Move down and Remove for one list item: the keyboard's way to reorder. */
export function ItemToolbar({ listPath, index, length, itemName, removeWhenEmpty, onMoved, onRemoved }: ItemToolbarProps) {
  const step = (direction: 'up' | 'down') => {
    stepListItem(listPath, index, length, direction)
    onMoved?.(index, direction === 'up' ? index - 1 : index + 1)
  }
  const itemPath = [...listPath, index]
  return (
    <span className="item-toolbar">
      <button
        type="button"
        id={itemButtonId(itemPath, 'up')}
        className="icon-button"
        aria-label={`Move ${itemName} up`}
        title="Move up"
        disabled={index === 0}
        onClick={() => step('up')}
      >
        ↑
      </button>
      <button
        type="button"
        id={itemButtonId(itemPath, 'down')}
        className="icon-button"
        aria-label={`Move ${itemName} down`}
        title="Move down"
        disabled={index === length - 1}
        onClick={() => step('down')}
      >
        ↓
      </button>
      <button
        type="button"
        id={itemButtonId(itemPath, 'remove')}
        className="icon-button icon-button--danger"
        aria-label={`Remove ${itemName}`}
        title="Remove"
        onClick={() => {
          removeListItem(listPath, index, length, removeWhenEmpty)
          onRemoved?.(index)
        }}
      >
        ✕
      </button>
    </span>
  )
}
