import { type BulkKind, type BulkSettings, DEFAULT_BULK_CONCURRENCY } from '../../../src-shared/bulk/schemas'
import type { BulkPlan } from '../../../src-shared/ipc/bulk-calls'

/**
 * What the operator has chosen in a new run's settings, as the form holds it: the rate is kept as
 * typed, so a half-typed number stays in the field and is only judged when Start is pressed.
 */
export interface RunChoices {
  concurrency: number
  /** Requests a minute as typed; empty for no limit. */
  rate: string
  sendCreate: boolean
  sendUpdate: boolean
  bail: boolean
}

/** A new run starts at the profile's last rate (every run to a profile shares its pace). */
export const initialChoices = (initialRate: number | null): RunChoices => ({
  concurrency: DEFAULT_BULK_CONCURRENCY,
  rate: initialRate === null ? '' : String(initialRate),
  sendCreate: true,
  sendUpdate: true,
  bail: false,
})

/** The settings sent with the plan and with Start: a rotation always goes one request at a time. */
export const settingsFor = (kind: BulkKind, choices: RunChoices): BulkSettings => ({
  concurrency: kind === 'rotate' ? 1 : choices.concurrency,
  ratePerMinute: choices.rate.trim() ? Number(choices.rate) : null,
  sendCreate: choices.sendCreate,
  sendUpdate: choices.sendUpdate,
  bail: choices.bail,
})

/** Why the typed rate cannot be sent, or null when it can (empty is no limit). */
export const rateProblem = (rate: string): string | null =>
  rate.trim() && !(Number.isInteger(Number(rate)) && Number(rate) >= 1)
    ? 'A whole number of requests a minute, or empty for no limit.'
    : null

/** The rows Start would send: every rotation, or the new and changed rows the operator kept. */
export const rowsToSend = (plan: BulkPlan | null, kind: BulkKind, choices: RunChoices): number =>
  plan
    ? kind === 'rotate'
      ? plan.planned.rotate
      : (choices.sendCreate ? plan.planned.create : 0) + (choices.sendUpdate ? plan.planned.update : 0)
    : 0

/** Why Start is disabled (said beside it), or null when the run can start. */
export function startBlocker({
  planning,
  rate,
  plan,
  toSend,
}: {
  planning: boolean
  rate: string
  plan: BulkPlan | null
  toSend: number
}): string | null {
  if (planning) return 'Planning…'
  return rateProblem(rate) ?? (plan && toSend === 0 ? 'Nothing to send: choose what to send.' : null)
}
