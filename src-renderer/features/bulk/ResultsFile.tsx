import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import type { BulkResultsFormat } from '../../../src-shared/bulk/schemas'
import { call, CallError } from '../../lib/api'
import { countFormat } from '../../lib/count-format'
import { saveDownload } from '../../lib/download'
import { useFileDialogs } from '../../lib/uses-file-dialogs'
import { toast } from '../../ui/toasts'

/**
 * A run's results file: downloaded without tokens, or saved by main to a file of the operator's,
 * with the tokens if asked. Held by the run's panel, so what was typed outlives the section while
 * the run goes again.
 */
export function useResultsFile(runId: string) {
  const [includeTokens, setIncludeTokens] = useState(false)
  const [path, setPath] = useState('')
  const [format, setFormat] = useState<BulkResultsFormat>('csv')
  // The desktop app picks the file with the system's dialog; browser mode takes a typed path.
  const dialogs = useFileDialogs().data ?? false
  const saver = useMutation({
    mutationFn: (replaceToken: string | undefined) =>
      call('bulk.saveResults', {
        runId,
        format,
        includeTokens,
        target: dialogs ? { kind: 'dialog' } : { kind: 'path', path, ...(replaceToken ? { replaceToken } : {}) },
      }),
    onSuccess: (saved) => {
      if (saved)
        toast.success(
          `Saved ${countFormat.format(saved.rows)} rows to ${saved.path}${includeTokens ? ', owner-only: it holds group tokens.' : '.'}`,
        )
    },
    onError: (error) => {
      // Main asks "Replace it?" with a token for that file as it is: answering yes sends it back, once.
      const replaceToken =
        error instanceof CallError && error.code === 'conflict'
          ? (error.details as { replaceToken?: string } | undefined)?.replaceToken
          : undefined
      if (replaceToken) {
        if (window.confirm(error.message)) saver.mutate(replaceToken)
      } else toast.error(error.message)
    },
  })
  const downloader = useMutation({
    mutationFn: (as: BulkResultsFormat) => saveDownload('bulk-results', { runId, format: as }),
    onSuccess: (fileName) => toast.success(`Downloaded ${fileName}, without tokens.`),
    onError: (error) => toast.error(error.message),
  })
  return { includeTokens, setIncludeTokens, path, setPath, format, setFormat, dialogs, saver, downloader }
}

interface ResultsFileProps {
  results: ReturnType<typeof useResultsFile>
  /** The run's profile still exists: main can read the tokens to save. */
  canSaveWithTokens: boolean
}

/** Download without tokens, or save with them (owner-only, said in a warning first). */
export function ResultsFile({ results, canSaveWithTokens }: ResultsFileProps) {
  const { includeTokens, setIncludeTokens, path, setPath, format, setFormat, dialogs, saver, downloader } = results
  return (
    <div className="stack bulk-results" role="region" aria-label="Results">
      <h3 className="bulk-results__title">Results file</h3>
      <div className="row">
        <button type="button" className="btn" disabled={downloader.isPending} onClick={() => downloader.mutate('csv')}>
          Download CSV
        </button>
        <button type="button" className="btn" disabled={downloader.isPending} onClick={() => downloader.mutate('json')}>
          Download JSON
        </button>
        <span className="muted">Every row’s line, id, outcome, status and message; no tokens.</span>
      </div>
      {canSaveWithTokens ? (
        <form
          className="row"
          aria-label="Save results with tokens"
          onSubmit={(event) => {
            event.preventDefault()
            if (dialogs || path.trim()) saver.mutate(undefined)
          }}
        >
          {dialogs ? null : (
            <label className="inline-field">
              Save to
              <input
                type="text"
                spellCheck={false}
                placeholder="/home/you/results.csv"
                value={path}
                onChange={(event) => setPath(event.target.value)}
              />
            </label>
          )}
          <select aria-label="Results format" value={format} onChange={(event) => setFormat(event.target.value as BulkResultsFormat)}>
            <option value="csv">CSV</option>
            <option value="json">JSON</option>
          </select>
          <label>
            <input type="checkbox" checked={includeTokens} onChange={(event) => setIncludeTokens(event.target.checked)} /> Include group
            tokens
          </label>
          <button type="submit" className="btn" disabled={(!dialogs && !path.trim()) || saver.isPending}>
            {dialogs ? 'Save…' : 'Save'}
          </button>
        </form>
      ) : null}
      {includeTokens ? (
        <p className="callout callout--warning" role="alert">
          This file will hold the group tokens in clear: anyone who reads it can open those dashboards. It is written owner-only (0600);
          keep it out of shared folders and version control.
        </p>
      ) : null}
    </div>
  )
}
