import { type ActivityEntry, OPERATION_LABELS, OUTCOME_LABELS } from '../../../src-shared/activity/schemas'

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' })

/** A call's outcome; a rotation whose answer was lost shows what the later check settled instead. */
function OutcomeBadge({ entry }: { entry: ActivityEntry }) {
  if (entry.settledOutcome) {
    return (
      <span
        className={`badge badge--${entry.settledOutcome === 'rotated' ? 'success' : 'failure'}`}
        title={`The answer was lost; settled ${timeFormat.format(new Date(entry.settledAt ?? entry.time))}`}
      >
        {entry.settledOutcome === 'rotated' ? 'Rotated (confirmed later)' : 'Not rotated (checked later)'}
      </span>
    )
  }
  return <span className={`badge badge--${entry.outcome}`}>{OUTCOME_LABELS[entry.outcome]}</span>
}

function ActivityRow({ entry, onOpen }: { entry: ActivityEntry; onOpen(id: string): void }) {
  return (
    <tr>
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
        <OutcomeBadge entry={entry} />
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
          onClick={() => onOpen(entry.id)}
        >
          Open
        </button>
      </td>
    </tr>
  )
}

/** The calls fetched so far, newest first, each with the button that opens its detail. */
export function ActivityTable({ entries, onOpen }: { entries: readonly ActivityEntry[]; onOpen(id: string): void }) {
  return (
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
            <ActivityRow key={entry.id} entry={entry} onOpen={onOpen} />
          ))}
        </tbody>
      </table>
    </div>
  )
}
