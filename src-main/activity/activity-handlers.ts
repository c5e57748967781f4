import type { activityCalls } from '../../src-shared/ipc/activity-calls'
import type { DownloadHandlers, HandlersFor } from '../router'
import type { ActivityLog } from './activity-log'

const EXPORT_TYPES = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson; charset=utf-8' } as const

export function createActivityHandlers(activity: ActivityLog): HandlersFor<typeof activityCalls> {
  return {
    'activity.list': ({ cursor, limit, ...filter }) => activity.page(filter, limit, cursor),
    'activity.get': ({ id }) => ({ entry: activity.get(id) ?? null }),
  }
}

export function createActivityDownload(activity: ActivityLog): DownloadHandlers['activity'] {
  return ({ format, ...filter }) => ({
    fileName: `embed-console-activity-${new Date().toISOString().slice(0, 10)}.${format}`,
    mimeType: EXPORT_TYPES[format],
    chunks: activity.export(format, filter),
  })
}
