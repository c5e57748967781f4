import type { BulkAction, BulkCounts, BulkKind, BulkProblem } from '../../src-shared/bulk/schemas'
import type { CatalogEntry } from '../../src-shared/catalog/schemas'
import type { BulkRow } from './bulk-input'

export interface PlannedRow extends BulkRow {
  action: BulkAction
}

/** JSON with keys in order, so two values compare by content whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`
  }
  return JSON.stringify(value)
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b)

/**
 * Whether a row asks for something the group does not have yet. Only the fields the row gives
 * count: an empty cell leaves the group's value alone. The API never returns a mapping, so one
 * is compared with the mapping this app last sent; unknown counts as different.
 */
export function rowDiffers(row: BulkRow['request'], known: { name?: string | null; mapping?: unknown; properties?: unknown }): boolean {
  if (row.name !== undefined && row.name !== (known.name ?? '')) return true
  if (row.mapping !== undefined && (known.mapping === undefined || !same(row.mapping, known.mapping))) return true
  if (row.properties !== undefined && !same(row.properties, known.properties ?? null)) return true
  return false
}

export interface CatalogLookup {
  entry(groupId: string): CatalogEntry | undefined
  /** Whether the app keeps this group's token (a rotation needs it). */
  hasToken(groupId: string): boolean
}

/**
 * Decides each row's action against what the profile's catalog knows: an id never seen is a
 * create (get-or-create), a known one whose fields differ an update, the rest unchanged. A
 * rotation needs the group's token kept by the app; a row without one is a problem.
 */
export function planRows(
  kind: BulkKind,
  rows: readonly BulkRow[],
  lookup: CatalogLookup | null,
): { planned: PlannedRow[]; problems: BulkProblem[] } {
  const problems: BulkProblem[] = []
  const planned: PlannedRow[] = []
  for (const row of rows) {
    const id = row.request.user_group_id
    if (kind === 'rotate') {
      if (!lookup?.hasToken(id)) {
        problems.push({
          line: row.line,
          column: 'user_group_id',
          message: `No token is kept for "${id}" in this profile, so it cannot be rotated from here.`,
        })
        continue
      }
      planned.push({ ...row, action: 'rotate' })
      continue
    }
    const known = lookup?.entry(id)
    planned.push({ ...row, action: !known ? 'create' : rowDiffers(row.request, known) ? 'update' : 'unchanged' })
  }
  return { planned, problems }
}

export function countActions(planned: readonly { action: BulkAction }[]): BulkCounts {
  const counts: BulkCounts = { total: planned.length, create: 0, update: 0, unchanged: 0, rotate: 0 }
  for (const row of planned) counts[row.action] += 1
  return counts
}
