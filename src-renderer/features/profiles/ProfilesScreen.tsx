import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type ChangeEvent, useRef, useState } from 'react'
import type { ConnectionTest } from '../../../src-shared/ipc/group-calls'
import { type ProfileView, tokenTailHint } from '../../../src-shared/profiles/schemas'
import { plural } from '../../../src-shared/text/plural'
import type { Diagnosis } from '../../../src-shared/user-api/diagnosis'
import { call } from '../../lib/api'
import { downloadText } from '../../lib/download'
import { useProfiles } from '../../lib/profiles'
import { queryKeys } from '../../lib/query-keys'
import { EmptyState } from '../../ui/EmptyState'
import { toast } from '../../ui/toasts'
import { DiagnosisPanel } from './DiagnosisPanel'
import { ProfileForm, type ProfileFormSubmit } from './ProfileForm'

type Editing = { mode: 'closed' } | { mode: 'new' } | { mode: 'edit'; profile: ProfileView }

const TEST_TONES: Record<ConnectionTest['outcome'], string> = {
  ok: 'success',
  token_refused: 'failure',
  unreachable: 'failure',
  unexpected: 'unknown',
}

function tokenSummary(profile: ProfileView): string {
  if (!profile.token.set) return 'No API token'
  const where = { keychain: 'encrypted', session: 'this session only', file: 'unencrypted file', none: '' }[profile.token.storage]
  return `Token set, ${tokenTailHint(profile.token.last4)} (${where})`
}

export default function ProfilesScreen() {
  const profiles = useProfiles({ asked: 'on open' })
  const queryClient = useQueryClient()
  const [editing, setEditing] = useState<Editing>({ mode: 'closed' })
  const [tests, setTests] = useState<Record<string, ConnectionTest | 'pending'>>({})
  const [diagnoses, setDiagnoses] = useState<Record<string, Diagnosis | 'pending' | { error: string }>>({})
  const importInput = useRef<HTMLInputElement>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.profiles })

  const save = useMutation({
    mutationFn: (submit: ProfileFormSubmit) =>
      submit.kind === 'create'
        ? call('profiles.create', submit.draft)
        : call('profiles.update', { id: submit.id, changes: submit.changes }),
    onSuccess: (profile) => {
      toast.success(`Saved profile “${profile.name}”.`)
      setEditing({ mode: 'closed' })
      void refresh()
    },
  })
  const act = useMutation({
    mutationFn: async ({ action, profile }: { action: 'activate' | 'duplicate' | 'delete'; profile: ProfileView }) => {
      if (action === 'activate') await call('profiles.setActive', { id: profile.id })
      if (action === 'duplicate') await call('profiles.duplicate', { id: profile.id })
      if (action === 'delete') await call('profiles.delete', { id: profile.id })
      return { action, profile }
    },
    onSuccess: ({ action, profile }) => {
      const verbs = { activate: 'is now active', duplicate: 'was duplicated', delete: 'was deleted' }
      toast.success(`“${profile.name}” ${verbs[action]}.`)
      void refresh()
      void queryClient.invalidateQueries({ queryKey: queryKeys.catalog.all })
    },
    onError: (error) => toast.error(error.message),
  })

  const test = async (profile: ProfileView) => {
    setTests((current) => ({ ...current, [profile.id]: 'pending' }))
    try {
      const result = await call('profiles.testConnection', { id: profile.id })
      setTests((current) => ({ ...current, [profile.id]: result }))
    } catch (error) {
      setTests((current) => ({ ...current, [profile.id]: { outcome: 'unexpected', message: (error as Error).message, durationMs: 0 } }))
    } finally {
      void queryClient.invalidateQueries({ queryKey: queryKeys.activity.all })
    }
  }

  const diagnose = async (profile: ProfileView) => {
    setDiagnoses((current) => ({ ...current, [profile.id]: 'pending' }))
    try {
      const diagnosis = await call('profiles.diagnose', { id: profile.id })
      setDiagnoses((current) => ({ ...current, [profile.id]: diagnosis }))
    } catch (error) {
      setDiagnoses((current) => ({ ...current, [profile.id]: { error: (error as Error).message } }))
    }
  }

  const exportProfiles = async () => {
    try {
      const file = await call('profiles.export', {})
      downloadText('embed-console-profiles.json', 'application/json', file.text)
      toast.success(`Exported ${plural(file.count, 'profile')}, without tokens.`)
    } catch (error) {
      toast.error((error as Error).message)
    }
  }

  const importProfiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    try {
      const result = await call('profiles.import', { text: await file.text() })
      toast.success(`Imported ${plural(result.imported, 'profile')}: ${result.names.join(', ')}. Add their API tokens to use them.`)
      void refresh()
    } catch (error) {
      toast.error(`Import failed: ${(error as Error).message}`)
    }
  }

  const confirmDelete = (profile: ProfileView) => {
    if (window.confirm(`Delete the profile “${profile.name}” and its saved API token? Its catalog of groups is removed too.`))
      act.mutate({ action: 'delete', profile })
  }

  if (profiles.isLoading) return <p className="loading">Loading profiles…</p>
  if (profiles.isError)
    return (
      <p role="alert" className="error-text">
        Profiles could not be read: {profiles.error.message}
      </p>
    )
  const data = profiles.data!
  const saved = data.profiles.filter((profile) => !profile.builtin)

  return (
    <div className="stack">
      {data.notices.map((notice) => (
        <p key={notice} className="callout callout--warning" role="alert">
          {notice}
        </p>
      ))}
      <div className="toolbar" role="toolbar" aria-label="Profile tools">
        <button type="button" className="btn btn--primary" onClick={() => setEditing({ mode: 'new' })}>
          New profile
        </button>
        <span className="toolbar__spacer" />
        <button type="button" className="btn" onClick={() => importInput.current?.click()}>
          Import…
        </button>
        <input
          ref={importInput}
          type="file"
          accept="application/json,.json"
          hidden
          aria-label="Profiles file to import"
          onChange={(event) => void importProfiles(event)}
        />
        <button type="button" className="btn" onClick={() => void exportProfiles()} disabled={saved.length === 0}>
          Export
        </button>
      </div>
      {/* Said once: the open form says it beside the choice of where the token is kept. */}
      {editing.mode === 'closed' ? <p className="muted vault-status">{data.vault.message}</p> : null}
      {editing.mode !== 'closed' ? (
        <ProfileForm
          key={editing.mode === 'edit' ? editing.profile.id : 'new'}
          editing={editing.mode === 'edit' ? editing.profile : null}
          vault={data.vault}
          pending={save.isPending}
          serverError={save.error?.message ?? null}
          onSubmit={(submit) => save.mutate(submit)}
          onCancel={() => {
            save.reset()
            setEditing({ mode: 'closed' })
          }}
        />
      ) : null}
      {data.profiles.length === 0 ? (
        <EmptyState title="No connection profiles yet">
          A profile is a base URL and an API token. The token stays in the app’s main process, encrypted at rest where the system allows,
          and is never shown again once saved.
        </EmptyState>
      ) : (
        <ul className="profile-list" aria-label="Profiles">
          {data.profiles.map((profile) => {
            const active = profile.id === data.activeId
            const result = tests[profile.id]
            const diagnosis = diagnoses[profile.id]
            return (
              <li key={profile.id} className={`card profile${active ? ' profile--active' : ''}`} aria-label={profile.name}>
                <div className="profile__head">
                  <h2 className="profile__name">{profile.name}</h2>
                  {profile.environmentLabel ? <span className="badge badge--accent">{profile.environmentLabel}</span> : null}
                  {profile.environmentKind === 'customer' ? <span className="badge badge--customer">Customer · production</span> : null}
                  {profile.environmentKind === 'testing' ? <span className="badge">Testing</span> : null}
                  {profile.builtin ? <span className="badge">Built in</span> : null}
                  {active ? <span className="badge badge--success">Active</span> : null}
                </div>
                <p className="profile__url">
                  <code>{profile.baseUrl}</code>
                </p>
                <p className="muted profile__token">
                  {tokenSummary(profile)} · timeout {profile.timeoutSeconds} s
                </p>
                <div className="row">
                  {!active ? (
                    <button
                      type="button"
                      className="btn btn--small btn--primary"
                      onClick={() => act.mutate({ action: 'activate', profile })}
                    >
                      Use this profile
                    </button>
                  ) : null}
                  <button type="button" className="btn btn--small" disabled={result === 'pending'} onClick={() => void test(profile)}>
                    {result === 'pending' ? 'Testing…' : 'Test connection'}
                  </button>
                  <button
                    type="button"
                    className="btn btn--small"
                    disabled={diagnosis === 'pending'}
                    onClick={() => void diagnose(profile)}
                  >
                    {diagnosis === 'pending' ? 'Diagnosing…' : 'Diagnose connection'}
                  </button>
                  {!profile.builtin ? (
                    <>
                      <button type="button" className="btn btn--small" onClick={() => setEditing({ mode: 'edit', profile })}>
                        Edit
                      </button>
                      <button type="button" className="btn btn--small" onClick={() => act.mutate({ action: 'duplicate', profile })}>
                        Duplicate
                      </button>
                      <button type="button" className="btn btn--small btn--ghost" onClick={() => confirmDelete(profile)}>
                        Delete
                      </button>
                    </>
                  ) : null}
                </div>
                {result && result !== 'pending' ? (
                  <p className={`test-result badge--${TEST_TONES[result.outcome]}`} role="status">
                    {result.message} {result.durationMs ? `(${Math.round(result.durationMs)} ms)` : ''}
                    {result.outcome === 'unreachable' ? ' “Diagnose connection” says where it fails.' : ''}
                  </p>
                ) : null}
                {diagnosis && diagnosis !== 'pending' ? (
                  'error' in diagnosis ? (
                    <p className="test-result badge--failure" role="alert">
                      The diagnosis could not run: {diagnosis.error}
                    </p>
                  ) : (
                    <DiagnosisPanel profileName={profile.name} diagnosis={diagnosis} />
                  )
                ) : null}
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}
