import type { VirtualItem } from '@tanstack/react-virtual'
import type { CatalogRow } from '../../../src-shared/catalog/schemas'
import { EnvironmentTag } from '../../ui/EnvironmentTag'
import { ROW_HEIGHT } from './catalog-windows'

export const optionId = (index: number) => `catalog-option-${index}`

interface CatalogOptionProps {
  item: VirtualItem
  /** The group at this place in the list, undefined while its window loads. */
  row: CatalogRow | undefined
  /** Options in the whole list, not only those drawn. */
  setSize: number
  active: boolean
  selected: boolean
  sandbox: boolean
  onClick(): void
}

/** One group of the listbox, placed at its offset in the virtualized list. */
export function CatalogOption({ item, row, setSize, active, selected, sandbox, onClick }: CatalogOptionProps) {
  const classes = ['catalog__row', active ? 'catalog__row--active' : '', row ? '' : 'catalog__row--pending muted'].filter(Boolean).join(' ')
  return (
    <li
      id={optionId(item.index)}
      role="option"
      aria-selected={selected}
      aria-setsize={setSize}
      aria-posinset={item.index + 1}
      className={classes}
      style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
      title={row ? `${row.groupId}${row.name ? ` · ${row.name}` : ''}` : undefined}
      onClick={onClick}
    >
      {row ? (
        <>
          <span className="catalog__id">
            <code>{row.groupId}</code>
            {row.environmentTag ? <EnvironmentTag tag={row.environmentTag} sandbox={sandbox} /> : null}
          </span>
          <span className="catalog__name muted">{row.name || 'no name'}</span>
        </>
      ) : (
        'Loading…'
      )}
    </li>
  )
}
