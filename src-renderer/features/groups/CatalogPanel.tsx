import { useRef, useState } from 'react'
import { CATALOG_SEARCH_LISTED, type CatalogRow } from '../../../src-shared/catalog/schemas'
import type { CallOutput } from '../../../src-shared/ipc/contract'
import { countFormat } from '../../lib/count-format'
import { useHistoryHandoff } from '../../lib/history-handoff'
import { useDebouncedValue } from '../../lib/use-debounced-value'
import { useCatalogCursor } from './catalog-cursor'
import { useCatalogWindows } from './catalog-windows'
import { CatalogFilters, type CatalogFilterValues, FIRST_FILTERS, sortOf } from './CatalogFilters'
import { CatalogOption, optionId } from './CatalogOption'

export interface CatalogPanelProps {
  profileId: string
  selectedGroupId: string | null
  /** The built-in sandbox's catalog: its groups are sandbox groups, whatever their tag. */
  sandbox: boolean
  onOpen(row: CatalogRow): void
}

/** The count beside the title: all of them, those matching of all, or the first of a capped search. */
function countLabel(head: CallOutput<'catalog.list'> | undefined, shown: number): string {
  if (head === undefined) return ''
  if (head.more) return `first ${countFormat.format(shown)} of more`
  return shown === head.total ? countFormat.format(head.total) : `${countFormat.format(shown)} of ${countFormat.format(head.total)}`
}

/** Why the list is empty (no group yet, none matching), or that a search lists only its first groups. */
function CatalogNotice({ total, shown, more }: { total: number | undefined; shown: number; more: boolean }) {
  if (total === 0) {
    return (
      <p className="muted catalog__empty">
        No groups yet. Every group you get, create, update or rotate through this profile appears here.
      </p>
    )
  }
  if (total !== undefined && shown === 0) return <p className="muted catalog__empty">No group matches.</p>
  if (more) {
    return (
      <p className="muted catalog__more">
        More than {countFormat.format(CATALOG_SEARCH_LISTED)} groups match: the first are listed. Type more to narrow the search.
      </p>
    )
  }
  return null
}

/**
 * The groups this profile has seen, searched and sorted in main, fetched a window at a time as
 * they scroll into view. One Tab stop: the list is a listbox, the arrow keys (Home, End,
 * PageUp, PageDown) move inside it and Enter opens the group.
 */
export function CatalogPanel({ profileId, selectedGroupId, sandbox, onOpen }: CatalogPanelProps) {
  const [filters, setFilters] = useState<CatalogFilterValues>(FIRST_FILTERS)
  // Asked for once typing pauses; a newer search cancels the request of the one before.
  const settledSearch = useDebouncedValue(filters.search.trim())
  const [sortBy, sortDirection] = sortOf(filters.sort)
  const scroller = useRef<HTMLDivElement>(null)
  const list = { search: settledSearch, environment: filters.environment, sortBy, sortDirection }
  const { head, shown, virtualizer, items, rowAt, fetching } = useCatalogWindows({ profileId, list, scroller })
  const cursor = useCatalogCursor({ shown, virtualizer, scroller, rowAt, onOpen })
  const activeRow = shown > 0 ? rowAt(cursor.activeIndex) : undefined
  const showHistory = useHistoryHandoff((state) => state.handOff)

  const changeFilter = <K extends keyof CatalogFilterValues>(key: K, value: CatalogFilterValues[K]) => {
    setFilters((current) => ({ ...current, [key]: value }))
    cursor.reset()
  }

  return (
    <section className="catalog card" aria-labelledby="catalog-title">
      <div className="catalog__header">
        <h2 id="catalog-title" className="card__title">
          Known groups
        </h2>
        <span className="muted" aria-live="polite">
          {countLabel(head.data, shown)}
        </span>
      </div>
      <CatalogFilters values={filters} sandbox={sandbox} onChange={changeFilter} />
      {head.isError ? (
        <p role="alert" className="error-text">
          The catalog could not be read: {head.error.message}
        </p>
      ) : null}
      <CatalogNotice total={head.data?.total} shown={shown} more={Boolean(head.data?.more)} />
      <div ref={scroller} className="catalog__scroller">
        <ul
          role="listbox"
          aria-label="Groups"
          aria-busy={fetching}
          aria-activedescendant={activeRow ? optionId(cursor.activeIndex) : undefined}
          tabIndex={shown > 0 ? 0 : -1}
          className="catalog__list"
          style={{ height: virtualizer.getTotalSize() }}
          onKeyDown={cursor.onKeyDown}
        >
          {items.map((item) => {
            const row = rowAt(item.index)
            return (
              <CatalogOption
                key={item.key}
                item={item}
                row={row}
                setSize={shown}
                active={item.index === cursor.activeIndex}
                selected={row ? row.groupId === selectedGroupId : false}
                sandbox={sandbox}
                onClick={() => {
                  cursor.setActive(item.index)
                  if (row) onOpen(row)
                }}
              />
            )
          })}
        </ul>
      </div>
      {activeRow ? (
        <div className="catalog__footer">
          {/* The list's highlighted group: its calls through this profile, in Activity. */}
          <button
            type="button"
            className="btn btn--small catalog__history"
            title={`Every call for ${activeRow.groupId} through this profile`}
            onClick={() => showHistory({ profileId, groupId: activeRow.groupId })}
          >
            History of <code className="catalog__history-id">{activeRow.groupId}</code>
          </button>
        </div>
      ) : null}
    </section>
  )
}
