import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { ProfileView } from '../../../src-shared/profiles/schemas'
import { call } from '../../lib/api'
import { useProfiles } from '../../lib/profiles'
import { queryKeys } from '../../lib/query-keys'
import { EmptyState } from '../../ui/EmptyState'
import { toast } from '../../ui/toasts'
import { useConnectionChecks } from './connection-checks'
import type { ProfileFormSubmit } from './profile-form-values'
import { ProfileCard, type ProfileCardActions } from './ProfileCard'
import { ProfileForm } from './ProfileForm'
import { ProfilesToolbar } from './ProfilesToolbar'

/** The form's one state: closed, a new profile, or one profile being edited. */
type Editing = { mode: 'closed' } | { mode: 'new' } | { mode: 'edit'; profile: ProfileView }

type ProfileAction = 'activate' | 'duplicate' | 'delete'

const ACTION_DONE: Record<ProfileAction, string> = { activate: 'is now active', duplicate: 'was duplicated', delete: 'was deleted' }

/** Activate, duplicate or delete a profile, each said in a toast once done. */
function useProfileAction(refresh: () => void) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ action, profile }: { action: ProfileAction; profile: ProfileView }) => {
      if (action === 'activate') await call('profiles.setActive', { id: profile.id })
      if (action === 'duplicate') await call('profiles.duplicate', { id: profile.id })
      if (action === 'delete') await call('profiles.delete', { id: profile.id })
      return { action, profile }
    },
    onSuccess: ({ action, profile }) => {
      toast.success(`“${profile.name}” ${ACTION_DONE[action]}.`)
      refresh()
      void queryClient.invalidateQueries({ queryKey: queryKeys.catalog.all })
    },
    onError: (error) => toast.error(error.message),
  })
}

export default function ProfilesScreen() {
  const profiles = useProfiles({ asked: 'on open' })
  const queryClient = useQueryClient()
  const [editing, setEditing] = useState<Editing>({ mode: 'closed' })
  const checks = useConnectionChecks()
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.profiles })

  const save = useMutation({
    mutationFn: (submit: ProfileFormSubmit) =>
      submit.kind === 'create'
        ? call('profiles.create', submit.draft)
        : call('profiles.update', { id: submit.id, changes: submit.changes }),
    onSuccess: (profile) => {
      toast.success(`Saved profile “${profile.name}”.`)
      setEditing({ mode: 'closed' })
      refresh()
    },
  })
  const act = useProfileAction(refresh)
  const actions: ProfileCardActions = {
    activate: (profile) => act.mutate({ action: 'activate', profile }),
    test: (profile) => void checks.test(profile),
    diagnose: (profile) => void checks.diagnose(profile),
    edit: (profile) => setEditing({ mode: 'edit', profile }),
    duplicate: (profile) => act.mutate({ action: 'duplicate', profile }),
    delete: (profile) => {
      if (window.confirm(`Delete the profile “${profile.name}” and its saved API token? Its catalog of groups is removed too.`))
        act.mutate({ action: 'delete', profile })
    },
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
      <ProfilesToolbar canExport={saved.length > 0} onNew={() => setEditing({ mode: 'new' })} onImported={refresh} />
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
          {data.profiles.map((profile) => (
            <ProfileCard
              key={profile.id}
              profile={profile}
              active={profile.id === data.activeId}
              test={checks.tests[profile.id]}
              diagnosis={checks.diagnoses[profile.id]}
              actions={actions}
            />
          ))}
        </ul>
      )}
    </div>
  )
}
