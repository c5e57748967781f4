import { useDeferredValue, useState } from 'react'
import { ActivityOutcomeSchema, OPERATION_LABELS, OUTCOME_LABELS } from '../../../src-shared/activity/schemas'
import { type TeamActivityEntry, type TeamActivityQuery, TeamOperationSchema } from '../../../src-shared/team/schemas'
import { call } from '../../lib/api'
import { countFormat } from '../../lib/count-format'
import { useCursorPages } from '../../lib/paged-query'
import { queryKeys } from '../../lib/query-keys'
import { MorePagesButton } from '../../ui/MorePagesButton'
import { FilterSelect } from './FilterSelect'

const PAGE_SIZE = 100

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' })

type Filter = Omit<TeamActivityQuery, 'cursor' | 'limit'>

/**
 * A call is shown at the team database's time (no operator sets it); its machine's time as well
 * when the two are more than a minute apart (it waited in an outbox, or that clock is off).
 */
const madeElsewhen = (entry: TeamActivityEntry) => Math.abs(Date.parse(entry.time) - Date.parse(entry.calledAt)) > 60_000

/**
 * The team's shared audit log: every machine's calls, newest first, each with its actor (the
 * database login that made it, which no client can forge). Read from the team database, a page
 * at a time; it holds no request or answer bodies and no token.
 */
export function TeamActivity() {
  const [filter, setFilter] = useState<Filter>({})
  const deferred = useDeferredValue(filter)
  const log = useCursorPages(queryKeys.team.activity(deferred), (cursor) =>
    call('team.activity', { ...deferred, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
  )
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? []
  const actors = log.data?.pages[0]?.actors ?? []
  const set = <K extends keyof Filter>(key: K, value: Filter[K] | '') =>
    setFilter((current) => {
      const next = { ...current }
      if (value) next[key] = value as Filter[K]
      else delete next[key]
      return next
    })
  const filtered = Object.keys(filter).length > 0

  return (
    <div className="stack">
      <form className="activity-filters" aria-label="Filter the team’s calls" onSubmit={(event) => event.preventDefault()}>
        <label className="inline-field">
          Actor
          <select value={filter.actor ?? ''} onChange={(event) => set('actor', event.target.value)}>
            <option value="">Anyone</option>
            {actors.map((actor) => (
              <option key={actor} value={actor}>
                {actor}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          Group id
          <input
            type="search"
            value={filter.groupId ?? ''}
            spellCheck={false}
            onChange={(event) => set('groupId', event.target.value.trim())}
          />
        </label>
        <FilterSelect
          label="Operation"
          value={filter.operation ?? ''}
          options={TeamOperationSchema.options}
          labels={OPERATION_LABELS}
          onChange={(operation) => set('operation', operation)}
        />
        <FilterSelect
          label="Outcome"
          value={filter.outcome ?? ''}
          options={ActivityOutcomeSchema.options}
          labels={OUTCOME_LABELS}
          onChange={(outcome) => set('outcome', outcome)}
        />
        <button type="button" className="btn" disabled={!filtered} onClick={() => setFilter({})}>
          Clear filters
        </button>
      </form>
      {log.isError ? (
        <p role="alert" className="error-text">
          The team’s audit log cannot be read now: {log.error.message}
        </p>
      ) : null}
      {log.isSuccess && entries.length === 0 ? (
        <p className="muted">
          {filtered
            ? 'No call of the team matches these filters.'
            : 'The team’s audit log is empty: no machine has made a call since it joined.'}
        </p>
      ) : null}
      {entries.length > 0 ? (
        // Focusable: at narrow widths the table scrolls sideways, and the keyboard must reach it too.
        <div className="table-wrap" tabIndex={0} role="group" aria-label="The team’s calls, scrolling">
          <table className="table" aria-label="The team’s calls">
            <thead>
              <tr>
                <th scope="col">Recorded</th>
                <th scope="col">Actor</th>
                <th scope="col">Operation</th>
                <th scope="col">Group</th>
                <th scope="col">Outcome</th>
                <th scope="col">Profile</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td className="nowrap">
                    {timeFormat.format(new Date(entry.time))}
                    {madeElsewhen(entry) ? (
                      <span className="muted"> (made {timeFormat.format(new Date(entry.calledAt))} by its machine’s clock)</span>
                    ) : null}
                  </td>
                  <td className="nowrap">
                    <strong>{entry.actor}</strong>
                  </td>
                  <td className="nowrap">{OPERATION_LABELS[entry.operation]}</td>
                  <td className="truncate" title={entry.groupId ?? undefined}>
                    {entry.groupId ? <code>{entry.groupId}</code> : '—'}
                  </td>
                  <td>
                    {entry.settledOutcome ? (
                      <span className={`badge badge--${entry.settledOutcome === 'rotated' ? 'success' : 'failure'}`}>
                        {entry.settledOutcome === 'rotated' ? 'Rotated (confirmed later)' : 'Not rotated (checked later)'}
                      </span>
                    ) : (
                      <span className={`badge badge--${entry.outcome}`}>{OUTCOME_LABELS[entry.outcome]}</span>
                    )}
                  </td>
                  <td className="truncate" title={`${entry.profileName} · ${entry.server}`}>
                    {entry.profileName}
                  </td>
                  <td className="detail">
                    {entry.message ?? (entry.httpStatus ? `HTTP ${entry.httpStatus}` : '')}
                    {entry.tokenLast4 ? <span className="muted"> token …{entry.tokenLast4}</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {log.hasNextPage ? (
        <div className="row">
          <MorePagesButton pages={log} label={`Show ${PAGE_SIZE} older calls`} />
          <span className="muted">Showing {countFormat.format(entries.length)}.</span>
        </div>
      ) : null}
    </div>
  )
}
