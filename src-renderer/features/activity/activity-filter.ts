import type { ActivityFilter, ActivityOutcome, ApiOperation } from '../../../src-shared/activity/schemas'

/** The filter form as typed: every field a string, '' meaning "any". */
export interface FilterFields {
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

export const NO_FILTER: FilterFields = { profileId: '', groupId: '', search: '', operation: '', outcome: '', from: '', to: '' }

/** A `datetime-local` value (local time, no zone) as the ISO instant the log filters on. */
const instantOf = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined)

/** The fields as the log's filter: only those that narrow it, so no filter at all is `{}`. */
export function filterOf(fields: FilterFields): ActivityFilter {
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
