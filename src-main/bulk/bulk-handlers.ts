import { stat } from 'node:fs/promises'
import type { bulkCalls } from '../../src-shared/ipc/bulk-calls'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { DownloadHandlers, HandlersFor } from '../router'
import { FileAccessPolicy, resolveUserPath } from '../site-files/file-access'
import { writeFileAtomically } from '../storage/atomic-write'
import type { SiteFileDialogs } from '../site-files/file-dialogs'
import type { BulkService } from './bulk-service'

const RESULT_TYPES = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8' } as const

const fileNameOf = (runId: string, format: 'csv' | 'json') => `embed-console-bulk-${runId.slice(0, 8)}.${format}`

export function createBulkHandlers(bulk: BulkService, options: { dataDir: string; dialogs?: SiteFileDialogs }): HandlersFor<typeof bulkCalls> {
  const policy = new FileAccessPolicy(options.dataDir)
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
     * out, since a browser download cannot be made owner-only. Where the system's dialogs exist
     * (the desktop app), the person picks the file there and the renderer never names a path.
     * Never into the data folder, however the path is spelled.
     */
    async 'bulk.saveResults'({ runId, format, includeTokens, target }) {
      const run = bulk.run(runId)
      let chosen: string | null
      if (options.dialogs) {
        if (target.kind !== 'dialog') throw new AppErrorException('refused', 'Choose where to save with the system’s dialog.')
        chosen = await options.dialogs.chooseFileToSave('results', `${fileNameOf(runId, format)}`)
        if (chosen === null) return null
      } else {
        if (target.kind !== 'path') throw new AppErrorException('refused', 'There is no file dialog here: type the path to save to.')
        chosen = resolveUserPath(target.path)
      }
      const path = await policy.resolve(chosen)
      const existing = await stat(path).catch(() => null)
      if (existing && !existing.isFile()) throw new AppErrorException('file_io', `${path} is not a regular file: give a file name.`)
      // The system's save dialog asked already; a typed path is asked about here.
      if (existing && target.kind === 'path' && !target.overwrite) throw new AppErrorException('conflict', `${path} exists already. Replace it?`, { path })
      let text = ''
      for await (const chunk of bulk.results(runId, format, includeTokens)) text += chunk
      await writeFileAtomically(path, text, { mode: 0o600, forceMode: true })
      return { path, rows: run.planned.total }
    },
  }
}

export function createBulkDownload(bulk: BulkService): DownloadHandlers['bulk-results'] {
  return ({ runId, format }) => {
    bulk.run(runId)
    return { fileName: fileNameOf(runId, format), mimeType: RESULT_TYPES[format], chunks: bulk.results(runId, format, false) }
  }
}
