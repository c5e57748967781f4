import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useDeferredValue, useRef, useState } from 'react'
import type { CatalogQuery, CatalogRow } from '../../../src-shared/catalog/schemas'
import { call } from '../../lib/api'

const ROW_HEIGHT = 52
/** Rows fetched per request: main answers windows, so 100,000 groups cost as much as the rows in view. */
const WINDOW = 100
const countFormat = new Intl.NumberFormat()

export const catalogQueryKey = (profileId: string | undefined) => ['catalog', profileId] as const

export interface CatalogPanelProps {
  profileId: string
  selectedGroupId: string | null
  onOpen(row: CatalogRow): void
}

/** The groups this profile has seen, searched and sorted in main, fetched a window at a time as they scroll into view. */
export function CatalogPanel({ profileId, selectedGroupId, onOpen }: CatalogPanelProps) {
  const [search, setSearch] = useState('')
  const [environment, setEnvironment] = useState<CatalogQuery['environment']>('all')
  const [sort, setSort] = useState<`${CatalogQuery['sortBy']}:${CatalogQuery['sortDirection']}`>('updatedAt:desc')
  const deferredSearch = useDeferredValue(search)
  const [sortBy, sortDirection] = sort.split(':') as [CatalogQuery['sortBy'], CatalogQuery['sortDirection']]

  const windowQuery = (window: number) => ({
    queryKey: [...catalogQueryKey(profileId), deferredSearch, environment, sort, window],
    queryFn: () => call('catalog.list', { profileId, search: deferredSearch, environment, sortBy, sortDirection, offset: window * WINDOW, limit: WINDOW }),
  })
  // The first window always: it carries the counts the list is sized by.
  const head = useQuery({ ...windowQuery(0), placeholderData: keepPreviousData })
  const total = head.data?.total
  const shown = head.data?.matching

  const scroller = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({ count: shown ?? 0, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 8 })
  const items = virtualizer.getVirtualItems()
  // Then every other window a visible row falls in.
  const windows = [...new Set(items.map((item) => Math.floor(item.index / WINDOW)))].filter((window) => window !== 0)
  const rest = useQueries({ queries: windows.map(windowQuery) })
  const rowAt = (index: number): CatalogRow | undefined => {
    const window = Math.floor(index / WINDOW)
    const data = window === 0 ? head.data : rest[windows.indexOf(window)]?.data
    return data?.rows[index % WINDOW]
  }

  return (
    <section className="catalog card" aria-labelledby="catalog-title">
      <div className="catalog__header">
        <h2 id="catalog-title" className="card__title">
          Known groups
        </h2>
        <span className="muted" aria-live="polite">
          {total === undefined || shown === undefined ? '' : shown === total ? countFormat.format(total) : `${countFormat.format(shown)} of ${countFormat.format(total)}`}
        </span>
      </div>
      <div className="catalog__filters">
        <input type="search" aria-label="Search groups by id or name" placeholder="Search id or name" value={search} onChange={(event) => setSearch(event.target.value)} />
        <div className="row">
          <select aria-label="Environment" value={environment} onChange={(event) => setEnvironment(event.target.value as CatalogQuery['environment'])}>
            <option value="all">Any environment</option>
            <option value="Customer">Customer</option>
            <option value="Testing">Testing</option>
            <option value="untagged">Untagged</option>
          </select>
          <select aria-label="Sort by" value={sort} onChange={(event) => setSort(event.target.value as typeof sort)}>
            <option value="updatedAt:desc">Newest first</option>
            <option value="groupId:asc">Id A→Z</option>
            <option value="groupId:desc">Id Z→A</option>
            <option value="name:asc">Name A→Z</option>
            <option value="environmentTag:asc">Environment</option>
            <option value="teamId:asc">team_id</option>
          </select>
        </div>
      </div>
      {head.isError ? <p role="alert" className="error-text">The catalog could not be read: {head.error.message}</p> : null}
      {total === 0 ? (
        <p className="muted catalog__empty">No groups yet. Every group you get, create, update or rotate through this profile appears here.</p>
      ) : shown === 0 ? (
        <p className="muted catalog__empty">No group matches.</p>
      ) : null}
      <div ref={scroller} className="catalog__scroller">
        <ul aria-label="Groups" aria-busy={head.isFetching || rest.some((result) => result.isFetching)} className="catalog__list" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rowAt(item.index)
            return (
              <li key={row?.groupId ?? `pending-${item.index}`} className="catalog__item" style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}>
                {row ? (
                  <button type="button" className="catalog__row" aria-current={row.groupId === selectedGroupId ? 'true' : undefined} onClick={() => onOpen(row)}>
                    <span className="catalog__id">
                      <code>{row.groupId}</code>
                      {row.environmentTag ? <span className="badge badge--accent">{row.environmentTag}</span> : null}
                    </span>
                    <span className="catalog__name muted">{row.name || 'no name'}</span>
                  </button>
                ) : (
                  <span className="catalog__row catalog__row--pending muted">Loading…</span>
                )}
              </li>
            )
          })}
        </ul>
      </div>
    </section>
  )
}
