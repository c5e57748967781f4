import { DndContext, type DndContextProps } from '@dnd-kit/core'
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual'
import { type ReactNode, type RefObject, useRef } from 'react'

/**
 * A virtualiser over `count` rows and the scroller it measures: the editor keeps it to scroll a row into view, and hands it
 * to VirtualSortableList to draw the rows in view.
 */
export function useVirtualRows(count: number, rowHeight: number, overscan: number) {
  const scroller = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan,
  })
  return { scroller, virtualizer }
}

/** What reordering by drag and drop takes: the sensors, how the row under the pointer is found, and what a drop does. */
export type DragToReorder = Pick<DndContextProps, 'sensors' | 'collisionDetection' | 'onDragEnd'>

interface VirtualSortableListProps {
  /** From useVirtualRows: the scroller it measures, and the virtualiser. */
  scroller: RefObject<HTMLDivElement | null>
  virtualizer: ReturnType<typeof useVirtualRows>['virtualizer']
  /** The rows' sortable ids, in order: each row calls useSortable with its own. */
  ids: string[]
  drag: DragToReorder
  list: 'ol' | 'ul'
  label: string
  scrollerClassName: string
  listClassName: string
  /** The scroller as tall as its rows (its stylesheet caps it), for a list that stays short. */
  scrollerFitsRows?: boolean
  /** Draws the row at one virtual item: a list item placed at `item.start`. */
  children: (item: VirtualItem) => ReactNode
}

/**
 * A list of rows in a scroller that draws only the rows in view, each sortable by drag and drop: both navigation editors'
 * lists, a 6,000-page file drawn a dozen rows at a time.
 */
export function VirtualSortableList({
  scroller,
  virtualizer,
  ids,
  drag,
  list: List,
  label,
  scrollerClassName,
  listClassName,
  scrollerFitsRows = false,
  children,
}: VirtualSortableListProps) {
  const height = virtualizer.getTotalSize()
  return (
    <DndContext {...drag}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <div ref={scroller} className={scrollerClassName} style={scrollerFitsRows ? { height } : undefined}>
          <List className={listClassName} aria-label={label} style={{ height }}>
            {virtualizer.getVirtualItems().map(children)}
          </List>
        </div>
      </SortableContext>
    </DndContext>
  )
}
