import type { Virtualizer } from '@tanstack/react-virtual'
import { type KeyboardEvent, type RefObject, useState } from 'react'
import type { CatalogRow } from '../../../src-shared/catalog/schemas'

/** Rows PageUp and PageDown move by. */
const PAGE = 8

/** The option a key moves the highlight to (before it is kept inside the list), or null for a key that does not move it. */
function moveTargetOf(key: string, { activeIndex, count }: { activeIndex: number; count: number }): number | null {
  switch (key) {
    case 'ArrowDown':
      return activeIndex + 1
    case 'ArrowUp':
      return activeIndex - 1
    case 'Home':
      return 0
    case 'End':
      return count - 1
    case 'PageDown':
      return activeIndex + PAGE
    case 'PageUp':
      return activeIndex - PAGE
    default:
      return null
  }
}

interface CatalogCursorOptions {
  /** How many options the list has. */
  shown: number
  virtualizer: Virtualizer<HTMLDivElement, Element>
  scroller: RefObject<HTMLDivElement | null>
  rowAt(index: number): CatalogRow | undefined
  onOpen(row: CatalogRow): void
}

/**
 * The listbox's highlighted option (its `aria-activedescendant`): moved by the arrow keys, Home,
 * End, PageUp and PageDown and kept in view; Enter or Space opens its group once its row arrived.
 */
export function useCatalogCursor({ shown, virtualizer, scroller, rowAt, onOpen }: CatalogCursorOptions) {
  const [active, setActive] = useState(0)
  // Kept inside the list as it shrinks under a narrower search.
  const activeIndex = Math.min(active, Math.max(shown - 1, 0))

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(shown - 1, index))
    setActive(next)
    virtualizer.scrollToIndex(next, { align: 'auto' })
  }
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const target = moveTargetOf(event.key, { activeIndex, count: shown })
    if (target !== null) {
      event.preventDefault()
      moveTo(target)
      return
    }
    if (event.key === 'Enter' || event.key === ' ') {
      const row = rowAt(activeIndex)
      if (row) {
        event.preventDefault()
        onOpen(row)
      }
    }
  }
  /** Back to the first option, scrolled to the top: the list changed under new filters. */
  const reset = () => {
    setActive(0)
    scroller.current?.scrollTo(0, 0)
  }
  return { activeIndex, setActive, onKeyDown, reset }
}
