/** The next page of a long list (lib/paged-query.ts), on request; it says so while the page comes. */
export function MorePagesButton({ pages, label }: { pages: { isFetchingNextPage: boolean; fetchNextPage(): unknown }; label: string }) {
  return (
    <button type="button" className="btn" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
      {pages.isFetchingNextPage ? 'Loading…' : label}
    </button>
  )
}
