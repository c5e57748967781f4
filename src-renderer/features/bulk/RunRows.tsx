import { useDeferredValue, useState } from 'react'
import type { BulkOutcome } from '../../../src-shared/bulk/schemas'
import { call } from '../../lib/api'
import { countFormat } from '../../lib/count-format'
import { useOffsetPages } from '../../lib/paged-query'
import { queryKeys } from '../../lib/query-keys'
import { MorePagesButton } from '../../ui/MorePagesButton'
import { OUTCOME_LABELS, OUTCOME_TONES } from './run-outcomes'

const PAGE = 200

/**
 * A run's rows, a page at a time, narrowed by outcome and by a search of ids. `done` is in the
 * query's key, so the rows are read again as the run goes.
 */
export function useRunRows({ runId, done }: { runId: string; done: number }) {
  const [outcome, setOutcome] = useState<BulkOutcome | ''>('')
  const [search, setSearch] = useState('')
  const deferredSearch = useDeferredValue(search)
  const items = useOffsetPages(queryKeys.bulk.items(runId, { outcome, search: deferredSearch, done }), PAGE, (offset) =>
    call('bulk.items', {
      runId,
      filter: { ...(outcome ? { outcome } : {}), ...(deferredSearch ? { search: deferredSearch } : {}) },
      offset,
      limit: PAGE,
    }),
  )
  return { outcome, setOutcome, search, setSearch, items }
}

/** The filter, the rows table and the next page's button. */
export function RunRows({ rows: { outcome, setOutcome, search, setSearch, items } }: { rows: ReturnType<typeof useRunRows> }) {
  const rows = items.data?.pages.flatMap((page) => page.items) ?? []
  const matching = items.data?.pages[0]?.matching ?? 0
  return (
    <>
      <div className="row">
        <label className="inline-field">
          Outcome
          <select value={outcome} onChange={(event) => setOutcome(event.target.value as BulkOutcome | '')}>
            <option value="">Any</option>
            {(Object.keys(OUTCOME_LABELS) as BulkOutcome[]).map((key) => (
              <option key={key} value={key}>
                {OUTCOME_LABELS[key]}
              </option>
            ))}
          </select>
        </label>
        <input
          type="search"
          aria-label="Search rows by id"
          placeholder="Search id"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <span className="muted">{countFormat.format(matching)} rows</span>
      </div>
      <div className="table-wrap bulk-rows" tabIndex={0} role="region" aria-label="Rows, scrollable">
        <table className="table" aria-label="Rows of the run">
          <thead>
            <tr>
              <th scope="col" className="numeric">
                Line
              </th>
              <th scope="col">user_group_id</th>
              <th scope="col">Plan</th>
              <th scope="col">Outcome</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((item) => (
              <tr key={item.seq}>
                <td className="numeric">{item.line}</td>
                <td className="bulk-rows__id">
                  <code>{item.groupId}</code>
                </td>
                <td>{item.action}</td>
                <td>
                  {item.outcome ? (
                    <span className={`badge badge--${OUTCOME_TONES[item.outcome]}`}>{OUTCOME_LABELS[item.outcome]}</span>
                  ) : (
                    <span className="muted">{item.state === 'sending' ? 'Sending' : 'Waiting'}</span>
                  )}
                </td>
                <td className="detail">
                  {item.message ?? (item.httpStatus ? `HTTP ${item.httpStatus}` : '')}
                  {item.attempts > 1 ? ` (${item.attempts} attempts)` : ''}
                  {item.tokenLast4 ? ` · token …${item.tokenLast4}` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {items.hasNextPage ? <MorePagesButton pages={items} label={`Show ${PAGE} more rows`} /> : null}
    </>
  )
}
