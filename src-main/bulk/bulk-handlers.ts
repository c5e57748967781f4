import type { bulkCalls } from '../../src-shared/ipc/bulk-calls'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { DownloadHandlers, HandlersFor } from '../router'
import { writeFileAtomically } from '../storage/atomic-write'
import { FileAccessPolicy, resolveUserPath } from '../user-files/file-access'
import type { FileDialogs } from '../user-files/file-dialogs'
import { UserFileWrites } from '../user-files/user-file-writes'
import type { BulkService } from './bulk-service'

const RESULT_TYPES = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8' } as const

/**
 * A run's results are named after its input ("customers.csv" → "customers-results.csv"), so the
 * operator finds them beside what they sent: the input's name without its folder or extension,
 * kept to characters any file system takes.
 */
export function resultsFileName(inputName: string, format: 'csv' | 'json'): string {
  const base = (inputName.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '')
  const safe = base
    .replace(/[^\p{L}\p{N}._ -]+/gu, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 100)
  return `${safe || 'bulk-run'}-results.${format}`
}

export function createBulkHandlers(bulk: BulkService, options: { dataDir: string; dialogs?: FileDialogs }): HandlersFor<typeof bulkCalls> {
  const writes = new UserFileWrites(new FileAccessPolicy(options.dataDir))
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
      let path: string
      if (options.dialogs) {
        if (target.kind !== 'dialog') throw new AppErrorException('refused', 'Choose where to save with the system’s dialog.')
        const chosen = await options.dialogs.chooseFileToSave('results', resultsFileName(run.fileName, format))
        if (chosen === null) return null
        // The system's save dialog asked before replacing; links and the data folder are refused all the same.
        path = (await writes.allow(chosen, 'results', undefined, true)).path
      } else {
        if (target.kind !== 'path') throw new AppErrorException('refused', 'There is no file dialog here: type the path to save to.')
        path = (await writes.allow(resolveUserPath(target.path), 'results', target.replaceToken)).path
      }
      let text = ''
      for await (const chunk of bulk.results(runId, format, includeTokens)) text += chunk
      await writeFileAtomically(path, text, { mode: 0o600, forceMode: true })
      return { path, rows: run.planned.total }
    },
  }
}

export function createBulkDownload(bulk: BulkService): DownloadHandlers['bulk-results'] {
  return ({ runId, format }) => {
    const run = bulk.run(runId)
    return { fileName: resultsFileName(run.fileName, format), mimeType: RESULT_TYPES[format], chunks: bulk.results(runId, format, false) }
  }
}
