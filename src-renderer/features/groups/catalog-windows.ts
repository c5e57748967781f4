import { keepPreviousData, type QueryFunctionContext, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { RefObject } from 'react'
import type { CatalogQuery, CatalogRow, CatalogWindowStart } from '../../../src-shared/catalog/schemas'
import type { CallOutput } from '../../../src-shared/ipc/contract'
import { call } from '../../lib/api'
import { queryKeys } from '../../lib/query-keys'

export const ROW_HEIGHT = 52
/**
 * Rows fetched per request. Main answers a window by a seek on an index, after (or before) a row
 * it was given, or at a position through the counts it keeps: a window costs the same at a
 * million groups as at a thousand (bench/scale.bench.ts), and only the rows in view are fetched.
 */
const WINDOW = 100

type CatalogAnswer = CallOutput<'catalog.list'>

/** One list of a profile's catalog: its settled search, its environment and its order. */
export type CatalogList = Pick<CatalogQuery, 'search' | 'environment' | 'sortBy' | 'sortDirection'>

interface CatalogWindowsOptions {
  profileId: string
  list: CatalogList
  /** The element the list scrolls in: the virtualizer measures what is in view through it. */
  scroller: RefObject<HTMLDivElement | null>
}

/**
 * The list as a virtualized scroll of `matching` rows, fetched a window of 100 at a time: the
 * first window always (it carries the counts the list is sized by), then every other window a
 * visible row falls in. `rowAt` is a row once its window has arrived, undefined until then.
 */
export function useCatalogWindows({ profileId, list, scroller }: CatalogWindowsOptions) {
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
  const head = useQuery({ ...windowQuery(0), placeholderData: keepPreviousData })
  const shown = head.data?.matching ?? 0

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: shown,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  })
  const items = virtualizer.getVirtualItems()
  const windows = [...new Set(items.map((item) => Math.floor(item.index / WINDOW)))].filter((window) => window !== 0)
  const rest = useQueries({ queries: windows.map(windowQuery) })
  const rowAt = (index: number): CatalogRow | undefined => {
    const window = Math.floor(index / WINDOW)
    const data = window === 0 ? head.data : rest[windows.indexOf(window)]?.data
    return data?.rows[index % WINDOW]
  }
  return {
    /** The first window's query: its counts, its error, whether the list is capped (`more`). */
    head,
    shown,
    virtualizer,
    items,
    rowAt,
    fetching: head.isFetching || rest.some((result) => result.isFetching),
  }
}
