import { useMutation } from '@tanstack/react-query'
import { type Dispatch, type SetStateAction, useDeferredValue, useEffect, useState } from 'react'
import type { ActivityExportFormat, ActivityFilter } from '../../../src-shared/activity/schemas'
import { call } from '../../lib/api'
import { countFormat } from '../../lib/count-format'
import { saveDownload } from '../../lib/download'
import { useHistoryHandoff } from '../../lib/history-handoff'
import { useCursorPages } from '../../lib/paged-query'
import { useProfiles } from '../../lib/profiles'
import { queryKeys } from '../../lib/query-keys'
import { useDebouncedValue } from '../../lib/use-debounced-value'
import { EmptyState } from '../../ui/EmptyState'
import { MorePagesButton } from '../../ui/MorePagesButton'
import { toast } from '../../ui/toasts'
import { type FilterFields, filterOf, NO_FILTER } from './activity-filter'
import { ActivityFilters } from './ActivityFilters'
import { ActivityTable } from './ActivityTable'
import { CallDetail } from './CallDetail'

const PAGE_SIZE = 200

/** A group's history asked for from the catalog: its calls through that profile, nothing else. */
function useGroupHistoryRequests(setFields: Dispatch<SetStateAction<FilterFields>>) {
  useEffect(() => {
    const take = () => {
      const request = useHistoryHandoff.getState().take()
      if (request) setFields({ ...NO_FILTER, profileId: request.profileId, groupId: request.groupId })
    }
    take()
    return useHistoryHandoff.subscribe(take)
  }, [setFields])
}

/**
 * Pages of 200, newest first, fetched as the operator asks for older ones: a million calls
 * never reach the screen at once.
 */
function useActivityPages(filter: ActivityFilter) {
  return useCursorPages(queryKeys.activity.pages(filter), (cursor, signal) =>
    call('activity.list', { ...filter, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }, { signal }),
  )
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
  useGroupHistoryRequests(setFields)
  const activity = useActivityPages(filter)
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
      <ActivityFilters
        fields={fields}
        profiles={profiles.data?.profiles ?? []}
        filtered={filtered}
        onChange={set}
        onClear={() => setFields(NO_FILTER)}
      />
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
      {entries.length > 0 ? <ActivityTable entries={entries} onOpen={setOpenId} /> : null}
      {openId ? <CallDetail key={openId} id={openId} profiles={profiles.data?.profiles ?? []} onClose={() => setOpenId(null)} /> : null}
      {activity.hasNextPage ? (
        <div className="row">
          <MorePagesButton pages={activity} label={`Show ${PAGE_SIZE} older calls`} />
          <span className="muted">
            Showing {countFormat.format(entries.length)} of {countFormat.format(total)}; the export holds all of them.
          </span>
        </div>
      ) : null}
    </div>
  )
}
