import { ActivityOutcomeSchema, ApiOperationSchema, OPERATION_LABELS, OUTCOME_LABELS } from '../../../src-shared/activity/schemas'
import type { ProfileView } from '../../../src-shared/profiles/schemas'
import type { FilterFields } from './activity-filter'
import { FilterSelect } from './FilterSelect'

interface ActivityFiltersProps {
  fields: FilterFields
  profiles: readonly ProfileView[]
  /** Whether any filter narrows the log: "Clear filters" has something to clear. */
  filtered: boolean
  onChange<K extends keyof FilterFields>(key: K, value: FilterFields[K]): void
  onClear(): void
}

/** The filters over this machine's calls, and the group whose history is shown when one is. */
export function ActivityFilters({ fields, profiles, filtered, onChange, onClear }: ActivityFiltersProps) {
  return (
    <form className="activity-filters" aria-label="Filter calls" onSubmit={(event) => event.preventDefault()}>
      <label className="inline-field">
        Profile
        <select value={fields.profileId} onChange={(event) => onChange('profileId', event.target.value)}>
          <option value="">Any</option>
          {profiles.map((profile) => (
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
          onChange={(event) => onChange('search', event.target.value)}
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
        onChange={(operation) => onChange('operation', operation)}
      />
      <FilterSelect
        label="Outcome"
        value={fields.outcome}
        options={ActivityOutcomeSchema.options}
        labels={OUTCOME_LABELS}
        onChange={(outcome) => onChange('outcome', outcome)}
      />
      <label className="inline-field">
        From
        <input type="datetime-local" value={fields.from} onChange={(event) => onChange('from', event.target.value)} />
      </label>
      <label className="inline-field">
        Until
        <input type="datetime-local" value={fields.to} onChange={(event) => onChange('to', event.target.value)} />
      </label>
      <button type="button" className="btn" disabled={!filtered} onClick={onClear}>
        Clear filters
      </button>
      {fields.groupId ? (
        <p className="activity-filters__group" role="status">
          History of <code className="long-value">{fields.groupId}</code>
          {fields.profileId ? ` through “${profiles.find((profile) => profile.id === fields.profileId)?.name ?? 'a deleted profile'}”` : ''}
          <button type="button" className="btn btn--small" onClick={() => onChange('groupId', '')}>
            Show every group
          </button>
        </p>
      ) : null}
    </form>
  )
}
