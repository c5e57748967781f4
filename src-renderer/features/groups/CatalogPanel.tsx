import { useQuery } from '@tanstack/react-query'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useDeferredValue, useRef, useState } from 'react'
import type { CatalogQuery, CatalogRow } from '../../../src-shared/catalog/schemas'
import { call } from '../../lib/api'

const ROW_HEIGHT = 52

export const catalogQueryKey = (profileId: string | undefined) => ['catalog', profileId] as const

export interface CatalogPanelProps {
  profileId: string
  selectedGroupId: string | null
  onOpen(row: CatalogRow): void
}

/** Every group this profile has seen, virtualised: 10,000 rows cost as much as the visible 15. */
export function CatalogPanel({ profileId, selectedGroupId, onOpen }: CatalogPanelProps) {
  const [search, setSearch] = useState('')
  const [environment, setEnvironment] = useState<CatalogQuery['environment']>('all')
  const [sort, setSort] = useState<`${CatalogQuery['sortBy']}:${CatalogQuery['sortDirection']}`>('updatedAt:desc')
  const deferredSearch = useDeferredValue(search)
  const [sortBy, sortDirection] = sort.split(':') as [CatalogQuery['sortBy'], CatalogQuery['sortDirection']]

  const catalog = useQuery({
    queryKey: [...catalogQueryKey(profileId), deferredSearch, environment, sort],
    queryFn: () => call('catalog.list', { profileId, search: deferredSearch, environment, sortBy, sortDirection }),
    placeholderData: (previous) => previous,
  })
  const rows = catalog.data?.rows ?? []
  const scroller = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 8 })

  return (
    <section className="catalog card" aria-labelledby="catalog-title">
      <div className="catalog__header">
        <h2 id="catalog-title" className="card__title">
          Known groups
        </h2>
        <span className="muted" aria-live="polite">
          {catalog.data ? (rows.length === catalog.data.total ? `${rows.length}` : `${rows.length} of ${catalog.data.total}`) : ''}
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
      {catalog.isError ? <p role="alert" className="error-text">The catalog could not be read: {catalog.error.message}</p> : null}
      {catalog.data && catalog.data.total === 0 ? (
        <p className="muted catalog__empty">No groups yet. Every group you get, create, update or rotate through this profile appears here.</p>
      ) : catalog.data && rows.length === 0 ? (
        <p className="muted catalog__empty">No group matches.</p>
      ) : null}
      <div ref={scroller} className="catalog__scroller">
        <ul aria-label="Groups" className="catalog__list" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!
            return (
              <li key={row.groupId} className="catalog__item" style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}>
                <button type="button" className="catalog__row" aria-current={row.groupId === selectedGroupId ? 'true' : undefined} onClick={() => onOpen(row)}>
                  <span className="catalog__id">
                    <code>{row.groupId}</code>
                    {row.environmentTag ? <span className="badge badge--accent">{row.environmentTag}</span> : null}
                  </span>
                  <span className="catalog__name muted">{row.name || 'no name'}</span>
                </button>
              </li>
            )
          })}
        </ul>
      </div>
    </section>
  )
}
