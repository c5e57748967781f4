import { useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { OPERATION_LABELS, type ActivityExportFormat, type ActivityOutcome } from '../../../src-shared/activity/schemas'
import { call } from '../../lib/api'
import { downloadText } from '../../lib/download'
import { EmptyState } from '../../ui/EmptyState'
import { toast } from '../../ui/toasts'

const OUTCOME_LABELS: Record<ActivityOutcome, string> = { success: 'Success', failure: 'Failure', unknown: 'Outcome unknown' }

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' })

export default function ActivityScreen() {
  const [outcome, setOutcome] = useState<ActivityOutcome | 'all'>('all')
  const filter = outcome === 'all' ? {} : { outcome }
  const activity = useQuery({ queryKey: ['activity', outcome], queryFn: () => call('activity.list', filter) })
  const exporter = useMutation({
    mutationFn: (format: ActivityExportFormat) => call('activity.export', { format, ...filter }),
    onSuccess: (file) => {
      downloadText(file.fileName, file.mimeType, file.text)
      toast.success(`Exported ${file.fileName}.`)
    },
    onError: (error) => toast.error(`Export failed: ${error.message}`),
  })

  const entries = activity.data?.entries ?? []
  const neverUsed = activity.isSuccess && entries.length === 0 && outcome === 'all'

  if (neverUsed) {
    return (
      <EmptyState title="No activity yet">
        Every call to the API is listed here with its time, profile, operation, outcome and duration. Tokens are always
        redacted.
      </EmptyState>
    )
  }

  return (
    <div className="stack">
      <div className="toolbar" role="toolbar" aria-label="Activity tools">
        <label className="inline-field">
          Outcome
          <select value={outcome} onChange={(event) => setOutcome(event.target.value as ActivityOutcome | 'all')}>
            <option value="all">All</option>
            <option value="success">Success</option>
            <option value="failure">Failure</option>
            <option value="unknown">Outcome unknown</option>
          </select>
        </label>
        <span className="toolbar__spacer" />
        <button type="button" className="btn" disabled={exporter.isPending || entries.length === 0} onClick={() => exporter.mutate('csv')}>
          Export CSV
        </button>
        <button type="button" className="btn" disabled={exporter.isPending || entries.length === 0} onClick={() => exporter.mutate('jsonl')}>
          Export JSON Lines
        </button>
      </div>
      {activity.isError ? <p role="alert" className="error-text">The activity log could not be read: {activity.error.message}</p> : null}
      {activity.isSuccess && entries.length === 0 ? <p className="muted">No calls with this outcome.</p> : null}
      {activity.data && activity.data.total > entries.length ? (
        <p className="muted">
          Showing the newest {entries.length} of {activity.data.total} calls; the export holds all of them.
        </p>
      ) : null}
      {entries.length > 0 ? (
        <div className="table-wrap">
          <table className="table" aria-label="API calls">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Profile</th>
                <th scope="col">Operation</th>
                <th scope="col">Group</th>
                <th scope="col">Outcome</th>
                <th scope="col" className="numeric">Duration</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td className="nowrap">{timeFormat.format(new Date(entry.time))}</td>
                  <td>{entry.profileName}</td>
                  <td>{OPERATION_LABELS[entry.operation]}</td>
                  <td>{entry.groupId ? <code>{entry.groupId}</code> : '—'}</td>
                  <td>
                    <span className={`badge badge--${entry.outcome}`}>{OUTCOME_LABELS[entry.outcome]}</span>
                  </td>
                  <td className="numeric nowrap">{Math.round(entry.durationMs)} ms</td>
                  <td className="detail">{entry.message ?? (entry.httpStatus ? `HTTP ${entry.httpStatus}` : '')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  )
}
