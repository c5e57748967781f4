import { useInfiniteQuery, useMutation } from '@tanstack/react-query'
import { useDeferredValue, useEffect, useState } from 'react'
import {
  type ActivityExportFormat,
  type ActivityFilter,
  type ActivityOutcome,
  ActivityOutcomeSchema,
  type ApiOperation,
  ApiOperationSchema,
  OPERATION_LABELS,
  OUTCOME_LABELS,
} from '../../../src-shared/activity/schemas'
import { call } from '../../lib/api'
import { saveDownload } from '../../lib/download'
import { countFormat } from '../../lib/format'
import { useHistoryHandoff } from '../../lib/history-handoff'
import { useProfiles } from '../../lib/profiles'
import { queryKeys } from '../../lib/query-keys'
import { useDebouncedValue } from '../../lib/use-debounced-value'
import { EmptyState } from '../../ui/EmptyState'
import { toast } from '../../ui/toasts'
import { CallDetail } from './CallDetail'
import { FilterSelect } from './FilterSelect'

const PAGE_SIZE = 200

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' })

/** A `datetime-local` value (local time, no zone) as the ISO instant the log filters on. */
const instantOf = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined)

interface FilterFields {
  profileId: string
  /** One group's history (from the catalog): its exact id. */
  groupId: string
  /** Words searched in the group ids, names and errors. */
  search: string
  operation: ApiOperation | ''
  outcome: ActivityOutcome | ''
  from: string
  to: string
}

const NO_FILTER: FilterFields = { profileId: '', groupId: '', search: '', operation: '', outcome: '', from: '', to: '' }

function filterOf(fields: FilterFields): ActivityFilter {
  return {
    ...(fields.profileId ? { profileId: fields.profileId } : {}),
    ...(fields.groupId ? { groupId: fields.groupId } : {}),
    ...(fields.search.trim() ? { search: fields.search.trim() } : {}),
    ...(fields.operation ? { operation: fields.operation } : {}),
    ...(fields.outcome ? { outcome: fields.outcome } : {}),
    ...(fields.from ? { from: instantOf(fields.from) } : {}),
    ...(fields.to ? { to: instantOf(fields.to) } : {}),
  }
}

export default function ActivityScreen() {
  const [fields, setFields] = useState<FilterFields>(NO_FILTER)
  const [openId, setOpenId] = useState<string | null>(null)
  const deferredFields = useDeferredValue(fields)
  // The search is asked for once typing pauses; a newer one cancels the request of the one before.
  const search = useDebouncedValue(fields.search.trim())
  const filter = filterOf({ ...deferredFields, search })
  const filtered = Object.keys(filter).length > 0
  const profiles = useProfiles()

  // A group's history asked for from the catalog: its calls through that profile, nothing else.
  useEffect(() => {
    const take = () => {
      const request = useHistoryHandoff.getState().take()
      if (request) setFields({ ...NO_FILTER, profileId: request.profileId, groupId: request.groupId })
    }
    take()
    return useHistoryHandoff.subscribe(take)
  }, [])

  // Pages of 200, newest first, fetched as the operator asks for older ones: a million calls
  // never reach the screen at once.
  const activity = useInfiniteQuery({
    queryKey: queryKeys.activity.pages(filter),
    queryFn: ({ pageParam, signal }) =>
      call('activity.list', { ...filter, limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) }, { signal }),
    initialPageParam: 0,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    placeholderData: (previous) => previous,
  })
  const exporter = useMutation({
    mutationFn: (format: ActivityExportFormat) => saveDownload('activity', { format, ...filter }),
    onSuccess: (fileName) => toast.success(`Exported ${fileName}.`),
    onError: (error) => toast.error(`Export failed: ${error.message}`),
  })

  const entries = activity.data?.pages.flatMap((page) => page.entries) ?? []
  const total = activity.data?.pages[0]?.total ?? 0
  const set = <K extends keyof FilterFields>(key: K, value: FilterFields[K]) => setFields((current) => ({ ...current, [key]: value }))

  if (activity.isSuccess && total === 0 && !filtered) {
    return (
      <EmptyState title="No activity yet">
        Every call to the API is listed here with its time, profile, operation, outcome and duration. Tokens are always redacted.
      </EmptyState>
    )
  }

  return (
    <div className="stack">
      <form className="activity-filters" aria-label="Filter calls" onSubmit={(event) => event.preventDefault()}>
        <label className="inline-field">
          Profile
          <select value={fields.profileId} onChange={(event) => set('profileId', event.target.value)}>
            <option value="">Any</option>
            {profiles.data?.profiles.map((profile) => (
              <option key={profile.id} value={profile.id}>
                {profile.name}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field inline-field--wide">
          Search
          <input
            type="search"
            value={fields.search}
            spellCheck={false}
            placeholder="Group id, name or error"
            aria-describedby="activity-search-hint"
            onChange={(event) => set('search', event.target.value)}
          />
          <span id="activity-search-hint" className="visually-hidden">
            Any part of a group id, a group name or an error message; every word must match.
          </span>
        </label>
        <FilterSelect
          label="Operation"
          value={fields.operation}
          options={ApiOperationSchema.options}
          labels={OPERATION_LABELS}
          onChange={(operation) => set('operation', operation)}
        />
        <FilterSelect
          label="Outcome"
          value={fields.outcome}
          options={ActivityOutcomeSchema.options}
          labels={OUTCOME_LABELS}
          onChange={(outcome) => set('outcome', outcome)}
        />
        <label className="inline-field">
          From
          <input type="datetime-local" value={fields.from} onChange={(event) => set('from', event.target.value)} />
        </label>
        <label className="inline-field">
          Until
          <input type="datetime-local" value={fields.to} onChange={(event) => set('to', event.target.value)} />
        </label>
        <button type="button" className="btn" disabled={!filtered} onClick={() => setFields(NO_FILTER)}>
          Clear filters
        </button>
        {fields.groupId ? (
          <p className="activity-filters__group" role="status">
            History of <code className="long-value">{fields.groupId}</code>
            {fields.profileId
              ? ` through “${profiles.data?.profiles.find((profile) => profile.id === fields.profileId)?.name ?? 'a deleted profile'}”`
              : ''}
            <button type="button" className="btn btn--small" onClick={() => set('groupId', '')}>
              Show every group
            </button>
          </p>
        ) : null}
      </form>
      <div className="toolbar" role="toolbar" aria-label="Activity tools">
        <span className="muted" aria-live="polite">
          {activity.data ? `${countFormat.format(total)} ${total === 1 ? 'call' : 'calls'}${filtered ? ' match' : ''}` : ''}
        </span>
        <span className="toolbar__spacer" />
        <button type="button" className="btn" disabled={exporter.isPending || total === 0} onClick={() => exporter.mutate('csv')}>
          Export CSV
        </button>
        <button type="button" className="btn" disabled={exporter.isPending || total === 0} onClick={() => exporter.mutate('jsonl')}>
          Export JSON Lines
        </button>
      </div>
      {exporter.isPending ? (
        <p className="muted" role="status">
          Exporting {countFormat.format(total)} calls…
        </p>
      ) : null}
      {activity.isError ? (
        <p role="alert" className="error-text">
          The activity log could not be read: {activity.error.message}
        </p>
      ) : null}
      {activity.isSuccess && total === 0 ? <p className="muted">No calls match these filters.</p> : null}
      {entries.length > 0 ? (
        <div className="table-wrap">
          {/* Laid out to the width there is (fixed columns, Group and Detail sharing the rest):
              every column, Open included, fits from 1024 px without a sideways scroll. */}
          <table className="table activity-table" aria-label="API calls">
            <colgroup>
              <col className="activity-table__time" />
              <col className="activity-table__profile" />
              <col className="activity-table__operation" />
              <col />
              <col className="activity-table__outcome" />
              <col className="activity-table__duration" />
              <col />
              <col className="activity-table__open" />
            </colgroup>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Profile</th>
                <th scope="col">Operation</th>
                <th scope="col">Group</th>
                <th scope="col">Outcome</th>
                <th scope="col" className="numeric">
                  Duration
                </th>
                <th scope="col">Detail</th>
                <th scope="col">
                  <span className="visually-hidden">Call</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td>{timeFormat.format(new Date(entry.time))}</td>
                  <td className="truncate" title={entry.profileName}>
                    {entry.profileName}
                  </td>
                  <td>{OPERATION_LABELS[entry.operation]}</td>
                  <td className="truncate" title={[entry.groupId, entry.groupName].filter(Boolean).join(' · ') || undefined}>
                    {entry.groupId ? <code>{entry.groupId}</code> : '—'}
                    {entry.groupName ? <span className="muted"> {entry.groupName}</span> : null}
                  </td>
                  <td>
                    {entry.settledOutcome ? (
                      <span
                        className={`badge badge--${entry.settledOutcome === 'rotated' ? 'success' : 'failure'}`}
                        title={`The answer was lost; settled ${timeFormat.format(new Date(entry.settledAt ?? entry.time))}`}
                      >
                        {entry.settledOutcome === 'rotated' ? 'Rotated (confirmed later)' : 'Not rotated (checked later)'}
                      </span>
                    ) : (
                      <span className={`badge badge--${entry.outcome}`}>{OUTCOME_LABELS[entry.outcome]}</span>
                    )}
                  </td>
                  <td className="numeric nowrap">{Math.round(entry.durationMs)} ms</td>
                  <td className="detail">
                    {entry.warnings?.length ? <span className="badge badge--warning">Warning</span> : null}{' '}
                    {entry.message ?? entry.warnings?.[0] ?? (entry.httpStatus ? `HTTP ${entry.httpStatus}` : '')}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="btn btn--small"
                      aria-label={`Open the call of ${timeFormat.format(new Date(entry.time))}${entry.groupId ? ` for ${entry.groupId}` : ''}`}
                      onClick={() => setOpenId(entry.id)}
                    >
                      Open
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {openId ? <CallDetail key={openId} id={openId} profiles={profiles.data?.profiles ?? []} onClose={() => setOpenId(null)} /> : null}
      {activity.hasNextPage ? (
        <div className="row">
          <button type="button" className="btn" disabled={activity.isFetchingNextPage} onClick={() => void activity.fetchNextPage()}>
            {activity.isFetchingNextPage ? 'Loading…' : `Show ${PAGE_SIZE} older calls`}
          </button>
          <span className="muted">
            Showing {countFormat.format(entries.length)} of {countFormat.format(total)}; the export holds all of them.
          </span>
        </div>
      ) : null}
    </div>
  )
}
