import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import type { RotationSource } from '../../../src-shared/ipc/group-calls'
import { call } from '../../lib/api'
import { countFormat } from '../../lib/count-format'
import { queryKeys } from '../../lib/query-keys'
import { useDebouncedValue } from '../../lib/use-debounced-value'
import { Field } from '../../ui/Field'

/** Suggestions shown for the typed id: the catalog may hold 100,000 groups, so it is searched, not listed. */
const SUGGESTIONS = 20

export interface RotateFormProps {
  profileId: string
  /** Where the rotation goes, as the button says. */
  profileName: string
  /** The group picked from the catalog, if any. */
  rotateGroupId: string
  blockedReason: string | null
  /** Said in the confirmation when the profile is a Customer (production) one not yet confirmed this session. */
  customerNotice: string | null
  /** Open the confirmation as soon as the group is known ("Run again" from Activity): never rotate without it. */
  askOnOpen: boolean
  onRotate(source: RotationSource): void
}

/**
 * Rotation cannot be undone and is never retried, so it goes through a confirmation that says
 * what happens to the old token. The picker offers only groups whose token main still keeps;
 * for the others, the current token is pasted. The pasted token stays in this form only; main
 * is sent it once.
 */
export function RotateForm({ profileId, profileName, rotateGroupId, blockedReason, customerNotice, askOnOpen, onRotate }: RotateFormProps) {
  const [chosenMode, setMode] = useState<'catalog' | 'token' | null>(null)
  const [groupId, setGroupId] = useState(rotateGroupId)
  const [currentToken, setCurrentToken] = useState('')
  const asked = useRef(!askOnOpen)
  const dialog = useRef<HTMLDialogElement>(null)
  const tokenField = useRef<HTMLInputElement>(null)
  const typed = useDebouncedValue(groupId.trim())

  const suggestionQuery = { search: typed, sortBy: 'groupId', sortDirection: 'asc', limit: SUGGESTIONS, tokenKept: true } as const
  const suggestions = useQuery({
    queryKey: queryKeys.catalog.window(profileId, suggestionQuery),
    queryFn: ({ signal }) => call('catalog.list', { profileId, ...suggestionQuery }, { signal }),
    placeholderData: keepPreviousData,
  })
  const chosen = useQuery({
    queryKey: queryKeys.catalog.entry(profileId, typed),
    queryFn: () => call('catalog.get', { profileId, groupId: typed }),
    enabled: chosenMode !== 'token' && typed.length > 0,
  })
  // Asked to rotate a group whose token is not kept: the token must be pasted.
  const mode = chosenMode ?? (askOnOpen && (!typed || (chosen.data && !chosen.data.tokenKept)) ? 'token' : 'catalog')
  const known = suggestions.data?.total ?? 0
  const rotatable = typed ? null : (suggestions.data?.matching ?? null)
  const withoutToken = rotatable === null ? 0 : known - rotatable
  const selectedGroup = chosen.data?.tokenKept ? chosen.data.entry : null
  const source: RotationSource | null =
    mode === 'catalog'
      ? selectedGroup
        ? { kind: 'catalog', groupId: selectedGroup.groupId }
        : null
      : currentToken.trim()
        ? { kind: 'token', currentToken: currentToken.trim() }
        : null
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
              : chosen.data?.entry
                ? `No token is kept for “${chosen.data.entry.groupId}” (it was kept for a session that ended, or removed): paste its current token instead.`
                : 'This profile has not seen a group with this id.')

  // "Run again" from Activity: ask at once when the group's token is kept, else ask for the token.
  const ready = source !== null && !blockedReason
  useEffect(() => {
    if (asked.current || (chosen.isPending && typed)) return
    asked.current = true
    if (ready) dialog.current?.showModal()
    else tokenField.current?.focus()
  }, [chosen.isPending, typed, ready])

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
          <Field
            label="Group"
            hint={
              <>
                Type to search the groups whose token this profile keeps; main uses that token.
                {withoutToken > 0
                  ? ` ${countFormat.format(withoutToken)} known ${withoutToken === 1 ? 'group has' : 'groups have'} no kept token and ${withoutToken === 1 ? 'is' : 'are'} not offered: paste ${withoutToken === 1 ? 'its' : 'their'} current token instead.`
                  : ''}
              </>
            }
          >
            <input
              list="rotation-choices"
              spellCheck={false}
              autoComplete="off"
              value={groupId}
              onChange={(event) => setGroupId(event.target.value)}
            />
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
          <input
            ref={tokenField}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={currentToken}
            onChange={(event) => setCurrentToken(event.target.value)}
          />
        </Field>
      )}
      <div className="row">
        <button type="submit" className="btn btn--danger" disabled={reason !== null} aria-describedby="rotate-submit-reason">
          Rotate token in {profileName}…
        </button>
        <span id="rotate-submit-reason" className={reason ? 'submit-reason' : 'muted'}>
          {reason ?? 'You will be asked to confirm.'}
        </span>
      </div>
      <dialog ref={dialog} className="dialog" aria-labelledby="rotate-dialog-title" aria-describedby="rotate-dialog-body">
        <h2 id="rotate-dialog-title" className="dialog__title">
          Rotate this group’s token?
        </h2>
        {customerNotice ? <p className="callout callout--danger">Through {customerNotice}</p> : null}
        <p id="rotate-dialog-body">
          {source?.kind === 'catalog' ? (
            <>
              Group <code className="long-value">{source.groupId}</code> gets a new token.{' '}
            </>
          ) : (
            'The group holding this token gets a new one. '
          )}
          <strong>The old token stops working at once</strong>: dashboards embedded with it stop loading until they use the new one. This
          cannot be undone, and it is never retried automatically.
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
