import { type FormEvent, useState } from 'react'
import {
  baseUrlWarning,
  type EnvironmentKind,
  type ProfileChanges,
  ProfileChangesSchema,
  type ProfileDraft,
  ProfileDraftSchema,
  type ProfileView,
  type ProxyMode,
  sameOrigin,
  type TokenStorage,
  tokenTailHint,
  type VaultStatus,
} from '../../../src-shared/profiles/schemas'
import { Field } from '../../ui/Field'

export type ProfileFormSubmit = { kind: 'create'; draft: ProfileDraft } | { kind: 'update'; id: string; changes: ProfileChanges }

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

const PROXY_MODES: Array<[ProxyMode, string]> = [
  ['environment', 'As this computer says (HTTPS_PROXY, HTTP_PROXY, NO_PROXY)'],
  ['direct', 'No proxy'],
  ['custom', 'This proxy'],
]

const STORAGE_LABELS: Record<TokenStorage, string> = {
  keychain: 'Encrypted with the system keychain',
  session: 'For this session only (forgotten when the app quits)',
  file: 'In an owner-only file, unencrypted',
}

/**
 * Create and edit. The API token field is write-only: it starts empty, says whether a token is
 * set and how it ends, and an empty field on save keeps the current token.
 */
export function ProfileForm({ editing, vault, pending, serverError, onSubmit, onCancel }: ProfileFormProps) {
  const [name, setName] = useState(editing?.name ?? '')
  const [baseUrl, setBaseUrl] = useState(editing?.baseUrl ?? 'https://')
  const [environmentLabel, setEnvironmentLabel] = useState(editing?.environmentLabel ?? '')
  // A new profile is taken for production until said otherwise: the cost is one question a session.
  const [environmentKind, setEnvironmentKind] = useState<EnvironmentKind>(editing?.environmentKind ?? 'customer')
  const [timeoutSeconds, setTimeoutSeconds] = useState(String(editing?.timeoutSeconds ?? 15))
  const [apiToken, setApiToken] = useState('')
  const [clearToken, setClearToken] = useState(false)
  const [proxyMode, setProxyMode] = useState<ProxyMode>(editing?.proxyMode ?? 'environment')
  const [proxyUrl, setProxyUrl] = useState(editing?.proxyUrl ?? '')
  const [proxyUsername, setProxyUsername] = useState(editing?.proxyUsername ?? '')
  const [proxyPassword, setProxyPassword] = useState('')
  const [clearProxyPassword, setClearProxyPassword] = useState(false)
  const [caBundlePath, setCaBundlePath] = useState(editing?.caBundlePath ?? '')
  const storages: TokenStorage[] = vault.encryptionAvailable ? ['keychain', 'session', 'file'] : ['session', 'file']
  const [tokenStorage, setTokenStorage] = useState<TokenStorage>(
    editing && editing.token.storage !== 'none' && storages.includes(editing.token.storage) ? editing.token.storage : storages[0]!,
  )

  // Tokens belong to the server that issued them: main drops them when the address moves to
  // another scheme, host or port, so the form says so before saving and asks for the new one.
  const movesServer = editing !== null && editing.token.set && URL.canParse(baseUrl) && !sameOrigin(baseUrl, editing.baseUrl)
  // Removing the token is moot when the move removes it anyway.
  const clearing = clearToken && !movesServer
  const tokenGiven = apiToken.trim() !== ''
  const passwordGiven = proxyMode === 'custom' && proxyPassword !== '' && !clearProxyPassword
  const fields = {
    name,
    baseUrl,
    environmentLabel,
    environmentKind,
    timeoutSeconds: Number(timeoutSeconds),
    proxyMode,
    proxyUrl,
    proxyUsername,
    // Sent when it changes: main reads the file then, and an unrelated edit must not fail on it.
    ...(editing && caBundlePath.trim() === editing.caBundlePath ? {} : { caBundlePath }),
    ...(passwordGiven ? { proxyPassword } : {}),
    ...(tokenGiven || passwordGiven ? { tokenStorage } : {}),
    ...(tokenGiven ? { apiToken } : {}),
  }
  const clearingPassword = clearProxyPassword && editing?.proxyPasswordSet ? { clearProxyPassword: true as const } : {}
  // Parsed apart, so each submission keeps its own type.
  const changes = editing
    ? ProfileChangesSchema.safeParse(
        clearing
          ? { ...fields, ...clearingPassword, apiToken: undefined, tokenStorage: undefined, clearToken: true }
          : { ...fields, ...clearingPassword },
      )
    : null
  const draft = editing ? null : ProfileDraftSchema.safeParse(fields)
  const parsed = (changes ?? draft)!
  const problemFor = (key: string) =>
    parsed.success ? null : (parsed.error.issues.find((issue) => issue.path[0] === key)?.message ?? null)
  const warning = baseUrlWarning(baseUrl)
  const reason = pending ? 'Saving…' : parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Check the fields.')

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (pending) return
    if (editing && changes?.success) onSubmit({ kind: 'update', id: editing.id, changes: changes.data })
    else if (draft?.success) onSubmit({ kind: 'create', draft: draft.data })
  }

  const tokenHint = movesServer
    ? 'Enter the API token for the new address.'
    : editing?.token.set
      ? `Set, ${tokenTailHint(editing.token.last4)}. Type a new one to replace it; leave empty to keep it.`
      : 'The token goes to the app’s main process and is never shown again.'

  return (
    <form className="card stack" aria-label={editing ? `Edit profile ${editing.name}` : 'New profile'} onSubmit={submit}>
      <h2 className="card__title">{editing ? `Edit “${editing.name}”` : 'New profile'}</h2>
      <div className="form-grid">
        <Field label="Name" required error={name ? problemFor('name') : null}>
          <input type="text" value={name} onChange={(event) => setName(event.target.value)} autoFocus />
        </Field>
        <Field
          label="Environment label"
          hint="Your word for it, shown in the header: Production, Staging…"
          error={problemFor('environmentLabel')}
        >
          <input type="text" value={environmentLabel} onChange={(event) => setEnvironmentLabel(event.target.value)} />
        </Field>
      </div>
      <fieldset className="choice">
        <legend>Kind of environment</legend>
        {KINDS.map(([kind, label]) => (
          <label key={kind}>
            <input type="radio" name="environment-kind" checked={environmentKind === kind} onChange={() => setEnvironmentKind(kind)} />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <Field
        label="Base URL"
        required
        hint="The app calls {base URL}/api/user."
        error={baseUrl.length > 8 ? problemFor('baseUrl') : null}
        warning={warning}
      >
        <input type="url" spellCheck={false} value={baseUrl} onChange={(event) => setBaseUrl(event.target.value)} />
      </Field>
      {movesServer ? (
        <p className="callout callout--warning" role="status">
          This address is another server (its scheme, host or port changed). Saving removes the saved API token and the group tokens kept
          for this profile, so they are never sent there: enter the API token for the new address.
        </p>
      ) : null}
      <div className="form-grid">
        <Field label="Timeout (seconds)" error={problemFor('timeoutSeconds')}>
          <input type="number" min={1} max={300} value={timeoutSeconds} onChange={(event) => setTimeoutSeconds(event.target.value)} />
        </Field>
        <Field label="API token" hint={tokenHint} error={tokenGiven ? problemFor('apiToken') : null}>
          <input
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={apiToken}
            disabled={clearing}
            placeholder={editing?.token.set && !movesServer && editing.token.last4 ? `…${editing.token.last4}` : ''}
            onChange={(event) => setApiToken(event.target.value)}
          />
        </Field>
      </div>
      <details className="network" open={proxyMode !== 'environment' || caBundlePath !== ''}>
        <summary>Network: proxy and certificates</summary>
        <div className="stack network__body">
          <fieldset className="choice">
            <legend>Proxy</legend>
            {PROXY_MODES.map(([mode, label]) => (
              <label key={mode}>
                <input type="radio" name="proxy-mode" checked={proxyMode === mode} onChange={() => setProxyMode(mode)} /> {label}
              </label>
            ))}
          </fieldset>
          <p className="muted network__note">The local sandbox and other loopback addresses never go through a proxy.</p>
          {proxyMode === 'custom' ? (
            <>
              <Field
                label="Proxy address"
                required
                hint="http://host:port, or https://. Overrides the proxy variables for this profile."
                error={proxyUrl ? problemFor('proxyUrl') : null}
              >
                <input
                  type="url"
                  spellCheck={false}
                  placeholder="http://proxy.example.com:3128"
                  value={proxyUrl}
                  onChange={(event) => setProxyUrl(event.target.value)}
                />
              </Field>
              <div className="form-grid">
                <Field label="Proxy user name" hint="Only if the proxy asks for one." error={problemFor('proxyUsername')}>
                  <input
                    type="text"
                    autoComplete="off"
                    spellCheck={false}
                    value={proxyUsername}
                    onChange={(event) => setProxyUsername(event.target.value)}
                  />
                </Field>
                <Field
                  label="Proxy password"
                  hint={
                    editing?.proxyPasswordSet
                      ? 'Set. Type a new one to replace it; leave empty to keep it.'
                      : 'Kept where the API token is, and never shown again.'
                  }
                  error={passwordGiven ? problemFor('proxyPassword') : null}
                >
                  <input
                    type="password"
                    autoComplete="off"
                    value={proxyPassword}
                    disabled={clearProxyPassword}
                    onChange={(event) => setProxyPassword(event.target.value)}
                  />
                </Field>
              </div>
              {editing?.proxyPasswordSet ? (
                <label className="inline-field">
                  <input type="checkbox" checked={clearProxyPassword} onChange={(event) => setClearProxyPassword(event.target.checked)} />{' '}
                  Remove the saved proxy password
                </label>
              ) : null}
            </>
          ) : null}
          <Field
            label="CA bundle file"
            hint="A PEM file of certificate authorities to trust besides this computer's, such as your company's TLS-inspection CA: its full path. Checked when you save."
            error={caBundlePath ? problemFor('caBundlePath') : null}
          >
            <input
              type="text"
              spellCheck={false}
              placeholder="/etc/ssl/certs/company-ca.pem"
              value={caBundlePath}
              onChange={(event) => setCaBundlePath(event.target.value)}
            />
          </Field>
        </div>
      </details>
      <p className={vault.encryptionAvailable ? 'muted' : 'callout callout--warning'}>{vault.message}</p>
      {tokenGiven || passwordGiven ? (
        <fieldset className="choice">
          <legend>
            {tokenGiven && passwordGiven
              ? 'Keep the token and the proxy password'
              : tokenGiven
                ? 'Keep the token'
                : 'Keep the proxy password'}
          </legend>
          {storages.map((storage) => (
            <label key={storage}>
              <input type="radio" name="token-storage" checked={tokenStorage === storage} onChange={() => setTokenStorage(storage)} />
              {STORAGE_LABELS[storage]}
            </label>
          ))}
        </fieldset>
      ) : null}
      {editing?.token.set && !movesServer ? (
        <label className="inline-field">
          <input type="checkbox" checked={clearToken} onChange={(event) => setClearToken(event.target.checked)} /> Remove the saved API
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
