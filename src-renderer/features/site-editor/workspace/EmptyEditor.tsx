import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import type { SiteDraftSummary } from '../../../../src-shared/ipc/site-calls'
import { call } from '../../../lib/api'
import { queryKeys } from '../../../lib/query-keys'
import { useFileDialogs } from '../../../lib/uses-file-dialogs'
import { toast } from '../../../ui/toasts'
import { chooseFileToOpen, fileNameOf, openPath, requestAction } from '../state/file-commands'
import { formatWhen } from './format-time'
import { RecentFiles } from './RecentFiles'

/** Nothing open: start from the template, open a path, reopen a recent file, or restore unsaved work. */
export function EmptyEditor() {
  const [path, setPath] = useState('')
  const open = (event: FormEvent) => {
    event.preventDefault()
    if (path.trim()) void openAndSay(path.trim())
  }
  const dialogs = useFileDialogs()
  return (
    <div className="site-empty">
      <DraftsToRestore />
      <div className="site-empty__card card">
        <h2 className="site-empty__title">No docs.json or site.json open</h2>
        <p className="muted">
          Open a Mintlify <code>docs.json</code>, or a <code>site.json</code> or <code>mint.json</code>: every setting gets a field, the
          docs folder beside it is checked, problems show as you type, and only a valid file can be exported.
        </p>
        <div className="site-empty__start">
          <button type="button" className="btn btn--primary" onClick={() => requestAction({ kind: 'new' })}>
            New from template
          </button>
          {dialogs.data ? (
            <button type="button" className="btn" onClick={() => void chooseFileToOpen()}>
              Open…
            </button>
          ) : null}
        </div>
        {dialogs.data ? null : (
          <form className="site-empty__open" onSubmit={open} aria-label="Open a file">
            <label className="field__label" htmlFor="site-open-path">
              Open a file by its path
            </label>
            <div className="row site-empty__open-row">
              <input
                id="site-open-path"
                type="text"
                value={path}
                spellCheck={false}
                autoComplete="off"
                placeholder="/home/you/docs/docs.json"
                onChange={(event) => setPath(event.target.value)}
              />
              <button type="submit" className="btn" disabled={!path.trim()}>
                Open
              </button>
            </div>
          </form>
        )}
        <RecentFiles headingLevel={3} onOpen={(recent) => void openAndSay(recent)} />
      </div>
    </div>
  )
}

/** Opens a path; what went wrong is said in a toast. */
async function openAndSay(path: string) {
  const problem = await openPath(path)
  if (problem) toast.error(problem)
}

/** Unsaved changes autosaved by a session that ended without saving them (a crash, a killed window). */
function DraftsToRestore() {
  const drafts = useQuery({ queryKey: queryKeys.site.drafts, queryFn: () => call('site.draftList', {}) })
  const list = drafts.data?.drafts ?? []
  if (!list.length) return null
  return (
    <ul className="drafts" aria-label="Unsaved changes to restore">
      {list.map((draft) => (
        <DraftOffer key={draft.documentId} draft={draft} onDiscarded={() => void drafts.refetch()} />
      ))}
    </ul>
  )
}

function DraftOffer({ draft, onDiscarded }: { draft: SiteDraftSummary; onDiscarded: () => void }) {
  const discard = async () => {
    await call('site.draftDiscard', { documentId: draft.documentId })
    onDiscarded()
  }
  return (
    <li className="callout callout--warning draft-offer">
      <span>
        Restore unsaved changes to <strong>{fileNameOf(draft.path)}</strong> from {formatWhen(draft.savedAt)}?
        {draft.path ? <span className="draft-offer__path"> {draft.path}</span> : null}
      </span>
      <span className="site-banner__actions">
        <button
          type="button"
          className="btn btn--small btn--primary"
          aria-label={`Restore unsaved changes to ${fileNameOf(draft.path)}`}
          onClick={() => requestAction({ kind: 'restoreDraft', draft })}
        >
          Restore
        </button>
        <button
          type="button"
          className="btn btn--small"
          aria-label={`Discard unsaved changes to ${fileNameOf(draft.path)}`}
          onClick={() => void discard()}
        >
          Discard
        </button>
      </span>
    </li>
  )
}
