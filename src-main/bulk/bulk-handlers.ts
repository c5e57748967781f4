import { stat } from 'node:fs/promises'
import { relative, isAbsolute } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import type { bulkCalls } from '../../src-shared/ipc/bulk-calls'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { DownloadHandlers, HandlersFor } from '../router'
import { resolveUserPath } from '../site-files/file-access'
import type { BulkService } from './bulk-service'

const RESULT_TYPES = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8' } as const

const fileNameOf = (runId: string, format: 'csv' | 'json') => `embed-console-bulk-${runId.slice(0, 8)}.${format}`

export function createBulkHandlers(bulk: BulkService, dataDir: string): HandlersFor<typeof bulkCalls> {
  return {
    'bulk.plan': ({ profileId, ...request }) => bulk.plan({ ...request, target: { profileId } }),
    'bulk.start': ({ runId, settings }) => {
      bulk.launch(runId, settings)
      return bulk.run(runId)
    },
    'bulk.pause': ({ runId }) => (bulk.pause(runId), {}),
    'bulk.resume': ({ runId }) => (bulk.resume(runId), {}),
    'bulk.cancel': ({ runId }) => (bulk.cancel(runId), {}),
    'bulk.runs': ({ limit }) => ({ runs: bulk.runs(limit) }),
    'bulk.run': ({ runId }) => ({ run: bulk.run(runId), progress: bulk.progress(runId) }),
    'bulk.items': ({ runId, filter, offset, limit }) => bulk.items(runId, filter, offset, limit),

    /**
     * Results written by main, owner-only (0600), atomically: the one way to get group tokens
     * out, since a browser download cannot be made owner-only. Never into the data folder.
     */
    async 'bulk.saveResults'({ runId, format, includeTokens, path, overwrite }) {
      const target = resolveUserPath(path)
      const inside = relative(dataDir, target)
      if (!inside.startsWith('..') && !isAbsolute(inside)) {
        throw new AppErrorException('refused', 'Choose a place outside Embed Console’s data folder, which holds its database and tokens.')
      }
      const existing = await stat(target).catch(() => null)
      if (existing?.isDirectory()) throw new AppErrorException('file_io', `${target} is a folder: give a file name.`)
      if (existing && !overwrite) throw new AppErrorException('conflict', `${target} exists already. Replace it?`, { path: target })
      let text = ''
      let rows = 0
      for await (const chunk of bulk.results(runId, format, includeTokens)) text += chunk
      rows = bulk.run(runId).planned.total
      try {
        await writeFileAtomic(target, text, { mode: 0o600, fsync: true })
      } catch (error) {
        throw new AppErrorException('file_io', `${target} could not be written: ${(error as Error).message}`)
      }
      return { path: target, rows }
    },
  }
}

export function createBulkDownload(bulk: BulkService): DownloadHandlers['bulk-results'] {
  return ({ runId, format }) => {
    bulk.run(runId)
    return { fileName: fileNameOf(runId, format), mimeType: RESULT_TYPES[format], chunks: bulk.results(runId, format, false) }
  }
}
