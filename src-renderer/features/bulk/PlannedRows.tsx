import { useState } from 'react'
import type { BulkAction, BulkCounts } from '../../../src-shared/bulk/schemas'
import { call } from '../../lib/api'
import { countFormat } from '../../lib/count-format'
import { useOffsetPages } from '../../lib/paged-query'
import { queryKeys } from '../../lib/query-keys'
import { MorePagesButton } from '../../ui/MorePagesButton'

const PAGE = 200

const ACTION_LABELS: Record<BulkAction, string> = { create: 'New', update: 'Changed', unchanged: 'Unchanged (not sent)', rotate: 'Rotate' }

/**
 * The rows of a plan, before anything is sent: each row's line, id and what will be done with it,
 * a page at a time (a plan may hold 100,000), narrowed to one action.
 */
export function PlannedRows({ runId, planned }: { runId: string; planned: BulkCounts }) {
  const [action, setAction] = useState<BulkAction | ''>('')
  const rows = useOffsetPages(queryKeys.bulk.planned(runId, action), PAGE, (offset) =>
    call('bulk.items', { runId, filter: action ? { action } : {}, offset, limit: PAGE }),
  )
  const shown = rows.data?.pages.flatMap((page) => page.items) ?? []
  const actions = (Object.keys(ACTION_LABELS) as BulkAction[]).filter((key) => planned[key] > 0)

  return (
    <div className="stack" role="region" aria-label="Planned rows">
      <div className="row">
        <label className="inline-field">
          Rows
          <select value={action} onChange={(event) => setAction(event.target.value as BulkAction | '')}>
            <option value="">All ({countFormat.format(planned.total)})</option>
            {actions.map((key) => (
              <option key={key} value={key}>
                {ACTION_LABELS[key]} ({countFormat.format(planned[key])})
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="table-wrap bulk-rows" tabIndex={0} role="region" aria-label="Planned rows, scrollable">
        <table className="table" aria-label="Planned rows">
          <thead>
            <tr>
              <th scope="col" className="numeric">
                Line
              </th>
              <th scope="col">user_group_id</th>
              <th scope="col">Plan</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((item) => (
              <tr key={item.seq}>
                <td className="numeric">{item.line}</td>
                <td className="bulk-rows__id">
                  <code>{item.groupId}</code>
                </td>
                <td>{ACTION_LABELS[item.action]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.hasNextPage ? <MorePagesButton pages={rows} label={`Show ${PAGE} more rows`} /> : null}
    </div>
  )
}
