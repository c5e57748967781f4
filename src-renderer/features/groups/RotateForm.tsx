import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useDeferredValue, useRef, useState, type FormEvent } from 'react'
import type { RotationSource } from '../../../src-shared/ipc/group-calls'
import { call } from '../../lib/api'
import { Field } from '../../ui/Field'
import { catalogQueryKey } from './CatalogPanel'
import { useGroupForm } from './group-form-state'

/** Suggestions shown for the typed id: the catalog may hold 100,000 groups, so it is searched, not listed. */
const SUGGESTIONS = 20

export interface RotateFormProps {
  profileId: string
  blockedReason: string | null
  onRotate(source: RotationSource): void
}

/**
 * Rotation cannot be undone and is never retried, so it goes through a confirmation that says
 * what happens to the old token. The pasted token stays in this form only; main is sent it once.
 */
export function RotateForm({ profileId, blockedReason, onRotate }: RotateFormProps) {
  const { rotateGroupId } = useGroupForm()
  const [mode, setMode] = useState<'catalog' | 'token'>('catalog')
  const [groupId, setGroupId] = useState(rotateGroupId)
  const [currentToken, setCurrentToken] = useState('')
  const dialog = useRef<HTMLDialogElement>(null)
  const typed = useDeferredValue(groupId.trim())

  const suggestions = useQuery({
    queryKey: [...catalogQueryKey(profileId), 'rotation-choices', typed],
    queryFn: () => call('catalog.list', { profileId, search: typed, sortBy: 'groupId', sortDirection: 'asc', limit: SUGGESTIONS }),
    placeholderData: keepPreviousData,
  })
  const chosen = useQuery({
    queryKey: [...catalogQueryKey(profileId), 'entry', typed],
    queryFn: () => call('catalog.get', { profileId, groupId: typed }),
    enabled: mode === 'catalog' && typed.length > 0,
  })
  const known = suggestions.data?.total ?? 0
  const selectedGroup = chosen.data?.entry ?? null
  const source: RotationSource | null =
    mode === 'catalog' ? (selectedGroup ? { kind: 'catalog', groupId: selectedGroup.groupId } : null) : currentToken.trim() ? { kind: 'token', currentToken: currentToken.trim() } : null
  const reason =
    blockedReason ??
    (source
      ? null
      : mode === 'token'
        ? 'Paste the group’s current token.'
        : known === 0
          ? 'No known groups yet: paste a current token instead.'
          : !typed
            ? 'Choose a group.'
            : chosen.isPending
              ? 'Looking the group up…'
              : 'This profile has not seen a group with this id.')

  const ask = (event: FormEvent) => {
    event.preventDefault()
    if (!reason) dialog.current?.showModal()
  }

  const confirm = () => {
    dialog.current?.close()
    if (source) {
      onRotate(source)
      setCurrentToken('')
    }
  }

  return (
    <form className="stack" aria-label="Rotate a group token" onSubmit={ask}>
      <fieldset className="choice">
        <legend>Which group</legend>
        <label>
          <input type="radio" name="rotate-source" checked={mode === 'catalog'} onChange={() => setMode('catalog')} /> A known group
        </label>
        <label>
          <input type="radio" name="rotate-source" checked={mode === 'token'} onChange={() => setMode('token')} /> Paste its current token
        </label>
      </fieldset>
      {mode === 'catalog' ? (
        <>
          <Field label="Group" hint="Type to search the groups this profile has seen; main uses the token it kept for the group.">
            <input list="rotation-choices" spellCheck={false} autoComplete="off" value={groupId} onChange={(event) => setGroupId(event.target.value)} />
          </Field>
          <datalist id="rotation-choices">
            {suggestions.data?.rows.map((row) => (
              <option key={row.groupId} value={row.groupId}>
                {[row.name, row.tokenLast4 ? `token …${row.tokenLast4}` : ''].filter(Boolean).join(' · ')}
              </option>
            ))}
          </datalist>
        </>
      ) : (
        <Field label="Current group token" hint="The token the group has now. It is sent once and not stored here.">
          <input type="password" autoComplete="off" spellCheck={false} value={currentToken} onChange={(event) => setCurrentToken(event.target.value)} />
        </Field>
      )}
      <div className="row">
        <button type="submit" className="btn btn--danger" disabled={reason !== null} aria-describedby="rotate-submit-reason">
          Rotate token…
        </button>
        <span id="rotate-submit-reason" className={reason ? 'submit-reason' : 'muted'}>
          {reason ?? 'You will be asked to confirm.'}
        </span>
      </div>
      <dialog ref={dialog} className="dialog" aria-labelledby="rotate-dialog-title" aria-describedby="rotate-dialog-body">
        <h2 id="rotate-dialog-title" className="dialog__title">
          Rotate this group’s token?
        </h2>
        <p id="rotate-dialog-body">
          {source?.kind === 'catalog' ? (
            <>
              Group <code>{source.groupId}</code> gets a new token.{' '}
            </>
          ) : (
            'The group holding this token gets a new one. '
          )}
          <strong>The old token stops working at once</strong>: dashboards embedded with it stop loading until they use the new
          one. This cannot be undone, and it is never retried automatically.
        </p>
        <div className="row dialog__actions">
          <button type="button" className="btn" autoFocus onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" className="btn btn--danger" onClick={confirm}>
            Rotate token
          </button>
        </div>
      </dialog>
    </form>
  )
}
