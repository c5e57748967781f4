import { closestCenter, type DragEndEvent, PointerSensor, useSensor, useSensors } from '@dnd-kit/core'
import { editValue } from '../../state/editor-store'
import { appendItem, moveItem, type Path, removeItem } from '../../state/json-path'
import { fieldId } from '../../state/view-store'
import { focusSoon } from './use-field'

/** Ids of an item's buttons, so focus can follow an item to its new place. */
export const itemButtonId = (itemPath: Path, action: 'up' | 'down' | 'remove') => `${fieldId(itemPath)}:${action}`

/** Moves an item one place by its button; focus follows the item, to the button still enabled. */
export function stepListItem(path: Path, index: number, length: number, direction: 'up' | 'down') {
  const to = direction === 'up' ? index - 1 : index + 1
  editValue((value) => moveItem(value, path, index, to))
  const atEnd = direction === 'up' ? to === 0 : to === length - 1
  const button = atEnd ? (direction === 'up' ? 'down' : 'up') : direction
  focusSoon(itemButtonId([...path, to], button))
}

export function removeListItem(path: Path, index: number, length: number, removeWhenEmpty: boolean) {
  editValue((value) => removeItem(value, path, index, removeWhenEmpty))
  const remaining = length - 1
  if (remaining === 0) focusSoon(`${fieldId(path)}:add`)
  else focusSoon(itemButtonId([...path, Math.min(index, remaining - 1)], 'remove'))
}

export function appendListItem(path: Path, item: unknown, length: number, focusPath: (itemPath: Path) => Path) {
  editValue((value) => appendItem(value, path, item))
  focusSoon(fieldId(focusPath([...path, length])))
}

/** Pointer dragging by the handle; the keyboard reorders with the Move up and Move down buttons. */
export function useDragToReorder(path: Path, onMoved?: (from: number, to: number) => void) {
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }))
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return
    const from = Number(active.id)
    const to = Number(over.id)
    editValue((value) => moveItem(value, path, from, to))
    onMoved?.(from, to)
  }
  return { sensors, collisionDetection: closestCenter, onDragEnd }
}
