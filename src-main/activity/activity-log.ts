import { appendFile, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import Papa from 'papaparse'
import {
  ACTIVITY_COLUMNS,
  ActivityEntrySchema,
  type ActivityEntry,
  type ActivityExportFormat,
  type ActivityOutcome,
} from '../../src-shared/activity/schemas'

export const ACTIVITY_FILE = 'activity.jsonl'

/**
 * The activity log: one JSON line per API call, appended as it happens and kept across restarts.
 * Appending a line is one small write, so a crash can cost at most a torn last line, which the
 * loader skips. Entries are redacted before they get here (see GroupService) and checked again
 * against the schema, so nothing undeclared is ever written.
 */
export class ActivityLog {
  private constructor(
    private readonly file: string,
    private readonly entries: ActivityEntry[],
  ) {}

  static async open(dataDir: string): Promise<ActivityLog> {
    const file = join(dataDir, ACTIVITY_FILE)
    const entries: ActivityEntry[] = []
    let text = ''
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue
      try {
        const parsed = ActivityEntrySchema.safeParse(JSON.parse(line))
        if (parsed.success) entries.push(parsed.data)
      } catch {
        // A torn line from a crash mid-append: the rest of the log is still good.
      }
    }
    return new ActivityLog(file, entries)
  }

  async append(entry: ActivityEntry): Promise<void> {
    const checked = ActivityEntrySchema.parse(entry)
    this.entries.push(checked)
    await appendFile(this.file, `${JSON.stringify(checked)}\n`, { mode: 0o600 })
  }

  /** Newest first. */
  list(filter: { outcome?: ActivityOutcome } = {}): ActivityEntry[] {
    const matching = filter.outcome ? this.entries.filter((entry) => entry.outcome === filter.outcome) : this.entries
    return matching.slice().reverse()
  }

  export(format: ActivityExportFormat, filter: { outcome?: ActivityOutcome } = {}): string {
    const entries = this.list(filter)
    if (format === 'jsonl') return entries.map((entry) => JSON.stringify(entry)).join('\n') + (entries.length ? '\n' : '')
    return `${Papa.unparse({ fields: ACTIVITY_COLUMNS, data: entries.map((entry) => ACTIVITY_COLUMNS.map((column) => entry[column] ?? '')) }, { newline: '\n' })}\n`
  }
}
