import { z } from 'zod'
import { ActivityExportFormatSchema, ActivityFilterSchema } from '../activity/schemas'
import { BulkResultsFormatSchema } from '../bulk/schemas'

/**
 * Files main writes for the operator to save, streamed rather than answered as one string: an
 * export can hold a million rows. Each download is named here with the schema of its query,
 * which main checks before anything is read. The renderer fetches `/download/<name>?query=<JSON>`
 * from its own origin (app:// in Electron, the loopback host in browser mode) and saves the body.
 */
export interface DownloadSpec<Q extends z.ZodType = z.ZodType> {
  readonly query: Q
  readonly summary: string
}

const defineDownload = <Q extends z.ZodType>(spec: DownloadSpec<Q>) => spec

export const downloads = {
  activity: defineDownload({
    summary: 'The activity log, filtered, as CSV or JSON Lines.',
    query: ActivityFilterSchema.extend({ format: ActivityExportFormatSchema }).strict(),
  }),
  'bulk-results': defineDownload({
    summary: 'A bulk run’s results, row by row, without group tokens (bulk.saveResults writes them, owner-only).',
    query: z.object({ runId: z.string().uuid(), format: BulkResultsFormatSchema }).strict(),
  }),
}

export type Downloads = typeof downloads
export type DownloadName = keyof Downloads
export type DownloadQuery<N extends DownloadName> = z.input<Downloads[N]['query']>

export const isDownloadName = (name: string): name is DownloadName => Object.hasOwn(downloads, name)

export const DOWNLOAD_PATH_PREFIX = '/download/'

export const downloadPath = <N extends DownloadName>(name: N, query: DownloadQuery<N>) =>
  `${DOWNLOAD_PATH_PREFIX}${name}?query=${encodeURIComponent(JSON.stringify(query))}`
