import { keepPreviousData, type QueryKey, useInfiniteQuery } from '@tanstack/react-query'

// Long lists read a page at a time, as the operator asks for more: the activity log (a million
// calls) by cursor, a bulk run's rows (100,000) by offset. While another filter's first page is
// coming, the rows of the last one stay on screen.

/** Pages that each name the cursor of the next (null at the end); the first is read without one. */
export function useCursorPages<Page extends { nextCursor: number | null }>(
  queryKey: QueryKey,
  fetchPage: (cursor: number | undefined, signal: AbortSignal) => Promise<Page>,
) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam || undefined, signal),
    initialPageParam: 0,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  })
}

/** Pages of `pageSize` rows by offset, until the rows read reach the `matching` count the first page says. */
export function useOffsetPages<Page extends { matching: number }>(
  queryKey: QueryKey,
  pageSize: number,
  fetchPage: (offset: number) => Promise<Page>,
) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (pages.length * pageSize < last.matching ? pages.length * pageSize : undefined),
    placeholderData: keepPreviousData,
  })
}
