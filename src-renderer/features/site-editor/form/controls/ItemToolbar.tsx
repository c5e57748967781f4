import { openDialog } from '../../state/dialog-store'
import type { Path } from '../../state/json-path'
import { itemButtonId, removeListItem, stepListItem } from './list-actions'

interface ItemToolbarProps {
  listPath: Path
  index: number
  length: number
  /** How the buttons name the item for assistive technology: "page 3". */
  itemName: string
  removeWhenEmpty: boolean
  /** Asked before removing, for an item that takes more with it (a nested group and its pages); null removes at once. */
  removal?: RemovalQuestion | null
  /** Told after a move or a removal, for view state kept per item (a navigation group's expanded flag). */
  onMoved?: (from: number, to: number) => void
  onRemoved?: (index: number) => void
}

/** What Remove asks first, for an item whose removal loses more than itself. */
export interface RemovalQuestion {
  title: string
  body: string
}

/** Removes an item, after its question if it has one (Cancel keeps it). */
export function removeAfterAsking(removal: RemovalQuestion | null | undefined, remove: () => void) {
  if (!removal) return remove()
  openDialog({ kind: 'confirm', title: removal.title, body: removal.body, choices: [{ label: 'Remove', tone: 'danger', run: remove }] })
}

/** Move up, Move down and Remove for one list item: the keyboard's way to reorder. */
export function ItemToolbar({ listPath, index, length, itemName, removeWhenEmpty, removal, onMoved, onRemoved }: ItemToolbarProps) {
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
        aria-label={`Remove ${itemName}${removal ? '…' : ''}`}
        title={removal ? 'Remove… (asks first)' : 'Remove'}
        onClick={() =>
          removeAfterAsking(removal, () => {
            removeListItem(listPath, index, length, removeWhenEmpty)
            onRemoved?.(index)
          })
        }
      >
        ✕
      </button>
    </span>
  )
}
