import type { BulkOutcome } from '../../../src-shared/bulk/schemas'

/** Each row outcome as the tallies, the outcome filter and the rows table name it. */
export const OUTCOME_LABELS: Record<BulkOutcome, string> = {
  created: 'Created',
  updated: 'Updated',
  unchanged: 'Unchanged',
  rotated: 'Rotated',
  failed: 'Failed',
  unknown: 'Outcome unknown',
  skipped: 'Skipped',
}

/** The badge tone of each outcome in the rows table. */
export const OUTCOME_TONES: Record<BulkOutcome, string> = {
  created: 'success',
  updated: 'success',
  unchanged: 'accent',
  rotated: 'success',
  failed: 'failure',
  unknown: 'unknown',
  skipped: 'warning',
}
