import { type FormEvent, useState } from 'react'
import {
  baseUrlWarning,
  type EnvironmentKind,
  type ProfileView,
  type TokenStorage,
  tokenTailHint,
  type VaultStatus,
} from '../../../src-shared/profiles/schemas'
import { Field } from '../../ui/Field'
import { NetworkFields } from './NetworkFields'
import { initialValues, type ProfileFormSubmit, type ProfileFormValues, readProfileForm, storagesFor } from './profile-form-values'

interface ProfileFormProps {
  /** The profile being edited, or null for a new one. */
  editing: ProfileView | null
  vault: VaultStatus
  pending: boolean
  serverError: string | null
  onSubmit(submit: ProfileFormSubmit): void
  onCancel(): void
}

const KINDS: Array<[EnvironmentKind, string]> = [
  ['customer', 'Customer (production): the header turns red and the first write of a session is confirmed'],
  ['testing', 'Testing'],
  ['unspecified', 'Not said'],
]

const STORAGE_LABELS: Record<TokenStorage, string> = {
  keychain: 'Encrypted with the system keychain',
  session: 'For this session only (forgotten when the app quits)',
  file: 'In an owner-only file, unencrypted',
}

interface SecretStorageChoiceProps {
  storages: readonly TokenStorage[]
  selected: TokenStorage
  tokenGiven: boolean
  passwordGiven: boolean
  onSelect(storage: TokenStorage): void
}

/** Where the secrets just typed are kept: asked only when one was typed, named for what was. */
function SecretStorageChoice({ storages, selected, tokenGiven, passwordGiven, onSelect }: SecretStorageChoiceProps) {
  return (
    <fieldset className="choice">
      <legend>
        {tokenGiven && passwordGiven ? 'Keep the token and the proxy password' : tokenGiven ? 'Keep the token' : 'Keep the proxy password'}
      </legend>
      {storages.map((storage) => (
        <label key={storage}>
          <input type="radio" name="token-storage" checked={selected === storage} onChange={() => onSelect(storage)} />
          {STORAGE_LABELS[storage]}
        </label>
      ))}
    </fieldset>
  )
}

/** The API token field's hint: what happens to the saved token if the field stays empty. */
function tokenHintOf(editing: ProfileView | null, movesServer: boolean): string {
  if (movesServer) return 'Enter the API token for the new address.'
  if (editing?.token.set) return `Set, ${tokenTailHint(editing.token.last4)}. Type a new one to replace it; leave empty to keep it.`
  return 'The token goes to the app’s main process and is never shown again.'
}

/**
 * Create and edit. The API token field is write-only: it starts empty, says whether a token is
 * set and how it ends, and an empty field on save keeps the current token.
 */
export function ProfileForm({ editing, vault, pending, serverError, onSubmit, onCancel }: ProfileFormProps) {
  const storages = storagesFor(vault)
  const [values, setValues] = useState<ProfileFormValues>(() => initialValues(editing, storages))
  const set = <K extends keyof ProfileFormValues>(key: K, value: ProfileFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }))
  const { name, baseUrl, environmentLabel, environmentKind, timeoutSeconds, apiToken, clearToken } = values
  const { movesServer, clearing, tokenGiven, passwordGiven, submission, problems } = readProfileForm(values, editing)
  const problemFor = (field: keyof ProfileFormValues) =>
    submission ? null : (problems.find((problem) => problem.field === field)?.message ?? null)
  const reason = pending ? 'Saving…' : submission ? null : (problems[0]?.message ?? 'Check the fields.')

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (pending) return
    if (submission) onSubmit(submission)
  }

  return (
    <form className="card stack" aria-label={editing ? `Edit profile ${editing.name}` : 'New profile'} onSubmit={submit}>
      <h2 className="card__title">{editing ? `Edit “${editing.name}”` : 'New profile'}</h2>
      <div className="form-grid">
        <Field label="Name" required error={name ? problemFor('name') : null}>
          <input type="text" value={name} onChange={(event) => set('name', event.target.value)} autoFocus />
        </Field>
        <Field
          label="Environment label"
          hint="Your word for it, shown in the header: Production, Staging…"
          error={problemFor('environmentLabel')}
        >
          <input type="text" value={environmentLabel} onChange={(event) => set('environmentLabel', event.target.value)} />
        </Field>
      </div>
      <fieldset className="choice">
        <legend>Kind of environment</legend>
        {KINDS.map(([kind, label]) => (
          <label key={kind}>
            <input type="radio" name="environment-kind" checked={environmentKind === kind} onChange={() => set('environmentKind', kind)} />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <Field
        label="Base URL"
        required
        hint="The app calls {base URL}/api/user."
        error={baseUrl.length > 8 ? problemFor('baseUrl') : null}
        warning={baseUrlWarning(baseUrl)}
      >
        <input type="url" spellCheck={false} value={baseUrl} onChange={(event) => set('baseUrl', event.target.value)} />
      </Field>
      {movesServer ? (
        <p className="callout callout--warning" role="status">
          This address is another server (its scheme, host or port changed). Saving removes the saved API token and the group tokens kept
          for this profile, so they are never sent there: enter the API token for the new address.
        </p>
      ) : null}
      <div className="form-grid">
        <Field label="Timeout (seconds)" error={problemFor('timeoutSeconds')}>
          <input type="number" min={1} max={300} value={timeoutSeconds} onChange={(event) => set('timeoutSeconds', event.target.value)} />
        </Field>
        <Field label="API token" hint={tokenHintOf(editing, movesServer)} error={tokenGiven ? problemFor('apiToken') : null}>
          <input
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={apiToken}
            disabled={clearing}
            placeholder={editing?.token.set && !movesServer && editing.token.last4 ? `…${editing.token.last4}` : ''}
            onChange={(event) => set('apiToken', event.target.value)}
          />
        </Field>
      </div>
      <NetworkFields
        values={values}
        proxyPasswordSet={Boolean(editing?.proxyPasswordSet)}
        passwordGiven={passwordGiven}
        problemFor={problemFor}
        onChange={set}
      />
      <p className={vault.encryptionAvailable ? 'muted' : 'callout callout--warning'}>{vault.message}</p>
      {tokenGiven || passwordGiven ? (
        <SecretStorageChoice
          storages={storages}
          selected={values.tokenStorage}
          tokenGiven={tokenGiven}
          passwordGiven={passwordGiven}
          onSelect={(storage) => set('tokenStorage', storage)}
        />
      ) : null}
      {editing?.token.set && !movesServer ? (
        <label className="inline-field">
          <input type="checkbox" checked={clearToken} onChange={(event) => set('clearToken', event.target.checked)} /> Remove the saved API
          token
        </label>
      ) : null}
      {serverError ? (
        <p role="alert" className="callout callout--danger">
          {serverError}
        </p>
      ) : null}
      <div className="row">
        <button type="submit" className="btn btn--primary" disabled={reason !== null}>
          {editing ? 'Save changes' : 'Create profile'}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        {reason && reason !== 'Saving…' && (name || baseUrl !== 'https://') ? <span className="submit-reason">{reason}</span> : null}
      </div>
    </form>
  )
}
