import { keepPreviousData, type QueryFunctionContext, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { useVirtualizer } from '@tanstack/react-virtual'
import { type KeyboardEvent, useRef, useState } from 'react'
import { CATALOG_SEARCH_LISTED, type CatalogQuery, type CatalogRow, type CatalogWindowStart } from '../../../src-shared/catalog/schemas'
import type { CallOutput } from '../../../src-shared/ipc/contract'
import { call } from '../../lib/api'
import { countFormat } from '../../lib/format'
import { useHistoryHandoff } from '../../lib/history-handoff'
import { queryKeys } from '../../lib/query-keys'
import { useDebouncedValue } from '../../lib/use-debounced-value'
import { EnvironmentTag } from '../../ui/EnvironmentTag'

const ROW_HEIGHT = 52
/**
 * Rows fetched per request. Main answers a window by a seek on an index, after (or before) a row
 * it was given, or at a position through the counts it keeps: a window costs the same at a
 * million groups as at a thousand (bench/scale.bench.ts), and only the rows in view are fetched.
 */
const WINDOW = 100
/** Rows PageUp and PageDown move by. */
const PAGE = 8

type CatalogAnswer = CallOutput<'catalog.list'>

export interface CatalogPanelProps {
  profileId: string
  selectedGroupId: string | null
  /** The built-in sandbox's catalog: its groups are sandbox groups, whatever their tag. */
  sandbox: boolean
  onOpen(row: CatalogRow): void
}

const optionId = (index: number) => `catalog-option-${index}`

/**
 * The groups this profile has seen, searched and sorted in main, fetched a window at a time as
 * they scroll into view. One Tab stop: the list is a listbox, the arrow keys (Home, End,
 * PageUp, PageDown) move inside it and Enter opens the group.
 */
export function CatalogPanel({ profileId, selectedGroupId, sandbox, onOpen }: CatalogPanelProps) {
  const [search, setSearch] = useState('')
  const [environment, setEnvironment] = useState<CatalogQuery['environment']>('all')
  const [sort, setSort] = useState<`${CatalogQuery['sortBy']}:${CatalogQuery['sortDirection']}`>('updatedAt:desc')
  const [active, setActive] = useState(0)
  // Asked for once typing pauses; a newer search cancels the request of the one before.
  const settledSearch = useDebouncedValue(search.trim())
  const [sortBy, sortDirection] = sort.split(':') as [CatalogQuery['sortBy'], CatalogQuery['sortDirection']]
  const list = { search: settledSearch, environment, sortBy, sortDirection }
  const queryClient = useQueryClient()

  /**
   * Where window `window` starts, asked by key when a neighbour is loaded (right after the last
   * row of the window before it, or right before the first row of the one after), by position
   * otherwise (the scrollbar was dragged far).
   */
  const startOf = (window: number): CatalogWindowStart => {
    if (window === 0) return { position: 0 }
    const previous = queryClient.getQueryData<CatalogAnswer>(queryKeys.catalog.window(profileId, list, window - 1))
    if (previous?.rows.length === WINDOW) return { after: previous.rows.at(-1)!.key }
    const following = queryClient.getQueryData<CatalogAnswer>(queryKeys.catalog.window(profileId, list, window + 1))
    if (following?.rows[0]) return { before: following.rows[0].key }
    return { position: window * WINDOW }
  }
  const windowQuery = (window: number) => ({
    queryKey: queryKeys.catalog.window(profileId, list, window),
    queryFn: ({ signal }: QueryFunctionContext) =>
      call('catalog.list', { profileId, ...list, at: startOf(window), limit: WINDOW }, { signal }),
  })
  // The first window always: it carries the counts the list is sized by.
  const head = useQuery({ ...windowQuery(0), placeholderData: keepPreviousData })
  const total = head.data?.total
  const shown = head.data?.matching ?? 0

  const scroller = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: shown,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  })
  const items = virtualizer.getVirtualItems()
  // Then every other window a visible row falls in.
  const windows = [...new Set(items.map((item) => Math.floor(item.index / WINDOW)))].filter((window) => window !== 0)
  const rest = useQueries({ queries: windows.map(windowQuery) })
  const rowAt = (index: number): CatalogRow | undefined => {
    const window = Math.floor(index / WINDOW)
    const data = window === 0 ? head.data : rest[windows.indexOf(window)]?.data
    return data?.rows[index % WINDOW]
  }
  const activeIndex = Math.min(active, Math.max(shown - 1, 0))
  const activeRow = shown > 0 ? rowAt(activeIndex) : undefined
  const showHistory = useHistoryHandoff((state) => state.handOff)

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(shown - 1, index))
    setActive(next)
    virtualizer.scrollToIndex(next, { align: 'auto' })
  }
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const target =
      event.key === 'ArrowDown'
        ? activeIndex + 1
        : event.key === 'ArrowUp'
          ? activeIndex - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? shown - 1
              : event.key === 'PageDown'
                ? activeIndex + PAGE
                : event.key === 'PageUp'
                  ? activeIndex - PAGE
                  : null
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
  const resetActive = () => {
    setActive(0)
    scroller.current?.scrollTo(0, 0)
  }

  return (
    <section className="catalog card" aria-labelledby="catalog-title">
      <div className="catalog__header">
        <h2 id="catalog-title" className="card__title">
          Known groups
        </h2>
        <span className="muted" aria-live="polite">
          {total === undefined
            ? ''
            : head.data?.more
              ? `first ${countFormat.format(shown)} of more`
              : shown === total
                ? countFormat.format(total)
                : `${countFormat.format(shown)} of ${countFormat.format(total)}`}
        </span>
      </div>
      <div className="catalog__filters">
        <input
          type="search"
          aria-label="Search groups by id or name"
          placeholder="Search id or name"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value)
            resetActive()
          }}
        />
        <div className="row">
          <select
            aria-label="Environment"
            value={environment}
            onChange={(event) => {
              setEnvironment(event.target.value as CatalogQuery['environment'])
              resetActive()
            }}
          >
            <option value="all">Any environment</option>
            <option value="Customer">{sandbox ? 'Sandbox (tagged Customer)' : 'Customer'}</option>
            <option value="Testing">{sandbox ? 'Sandbox (tagged Testing)' : 'Testing'}</option>
            <option value="untagged">Untagged</option>
          </select>
          <select
            aria-label="Sort by"
            value={sort}
            onChange={(event) => {
              setSort(event.target.value as typeof sort)
              resetActive()
            }}
          >
            <option value="updatedAt:desc">Newest first</option>
            <option value="groupId:asc">Id A→Z</option>
            <option value="groupId:desc">Id Z→A</option>
            <option value="name:asc">Name A→Z</option>
            <option value="environmentTag:asc">Environment</option>
            <option value="teamId:asc">team_id</option>
          </select>
        </div>
      </div>
      {head.isError ? (
        <p role="alert" className="error-text">
          The catalog could not be read: {head.error.message}
        </p>
      ) : null}
      {total === 0 ? (
        <p className="muted catalog__empty">
          No groups yet. Every group you get, create, update or rotate through this profile appears here.
        </p>
      ) : total !== undefined && shown === 0 ? (
        <p className="muted catalog__empty">No group matches.</p>
      ) : head.data?.more ? (
        <p className="muted catalog__more">
          More than {countFormat.format(CATALOG_SEARCH_LISTED)} groups match: the first are listed. Type more to narrow the search.
        </p>
      ) : null}
      <div ref={scroller} className="catalog__scroller">
        <ul
          role="listbox"
          aria-label="Groups"
          aria-busy={head.isFetching || rest.some((result) => result.isFetching)}
          aria-activedescendant={shown > 0 && rowAt(activeIndex) ? optionId(activeIndex) : undefined}
          tabIndex={shown > 0 ? 0 : -1}
          className="catalog__list"
          style={{ height: virtualizer.getTotalSize() }}
          onKeyDown={onKeyDown}
        >
          {items.map((item) => {
            const row = rowAt(item.index)
            const classes = [
              'catalog__row',
              item.index === activeIndex ? 'catalog__row--active' : '',
              row ? '' : 'catalog__row--pending muted',
            ]
              .filter(Boolean)
              .join(' ')
            return (
              <li
                key={item.key}
                id={optionId(item.index)}
                role="option"
                aria-selected={row ? row.groupId === selectedGroupId : false}
                aria-setsize={shown}
                aria-posinset={item.index + 1}
                className={classes}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                title={row ? `${row.groupId}${row.name ? ` · ${row.name}` : ''}` : undefined}
                onClick={() => {
                  setActive(item.index)
                  if (row) onOpen(row)
                }}
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
