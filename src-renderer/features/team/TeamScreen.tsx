import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import type { TeamStatus } from '../../../src-shared/team/schemas'
import { plural } from '../../../src-shared/text/plural'
import { call, CallError } from '../../lib/api'
import { copySecret } from '../../lib/clipboard'
import { queryKeys } from '../../lib/query-keys'
import { teamTime, useTeamStatus } from '../../lib/team'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import { Field } from '../../ui/Field'
import { toast } from '../../ui/toasts'

const ADDRESS_EXAMPLE = 'postgres://ops-2@db.example.com:5432/embed_team?sslmode=verify-full'

const PASSWORD_PLACES: Record<TeamStatus['passwordStorage'], string> = {
  keychain: 'encrypted with the system keychain',
  file: 'unencrypted in this machine’s owner-only database (no keychain here)',
  session: 'for this session only',
  none: 'not kept (the address or the system’s .pgpass gives it)',
}

/** Everything team mode changes on other screens: the catalog (pulled), profiles (shared), activity. */
function useInvalidateTeam() {
  const queryClient = useQueryClient()
  return () => {
    for (const queryKey of [queryKeys.team.all, queryKeys.profiles, queryKeys.catalog.all, queryKeys.activity.all])
      void queryClient.invalidateQueries({ queryKey })
  }
}

function JoinCard() {
  const invalidate = useInvalidateTeam()
  const [url, setUrl] = useState('')
  const [password, setPassword] = useState('')
  const join = useMutation({
    mutationFn: () => call('team.join', { url, ...(password ? { password } : {}) }),
    onSuccess: (status) => {
      setPassword('')
      toast.success(`This data folder joined the team as ${status.user}.`)
      invalidate()
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!join.isPending) join.mutate()
  }
  return (
    <section className="card stack" aria-labelledby="team-join-title">
      <h2 id="team-join-title" className="card__title">
        Join a team
      </h2>
      <p className="muted">
        One person’s mode: this data folder’s catalog, activity and runs are its own. Joining shares the audit log and the catalog with the
        team through its Postgres database, and no two machines rotate the same group at once. Tokens never leave this machine: the team
        database holds none.
      </p>
      <form className="stack" aria-label="Join a team" onSubmit={submit}>
        <div className="form-grid">
          <Field
            label="Team database address"
            required
            hint={
              <>
                From your admin (<code>team add-operator</code>). Off this computer it ends with <code>?sslmode=verify-full</code>.
              </>
            }
          >
            <input
              type="text"
              value={url}
              placeholder={ADDRESS_EXAMPLE}
              spellCheck={false}
              autoComplete="off"
              onChange={(event) => setUrl(event.target.value)}
            />
          </Field>
          <Field label="Password" hint="Kept in this machine’s vault, never in a plain file.">
            <input type="password" value={password} autoComplete="off" onChange={(event) => setPassword(event.target.value)} />
          </Field>
        </div>
        <div className="row">
          <button type="submit" className="btn btn--primary" disabled={join.isPending || !url.trim()}>
            {join.isPending ? 'Joining…' : 'Join the team'}
          </button>
          {join.isError ? (
            <p role="alert" className="error-text">
              {join.error.message}
            </p>
          ) : null}
        </div>
      </form>
    </section>
  )
}

/**
 * Calls the team database refused to store, each with its sentence: out of the queue, so every
 * call after them was published; kept here (this machine's activity log has them too).
 */
function ParkedCalls({ status }: { status: TeamStatus }) {
  if (status.parkedCount === 0) return null
  return (
    <section className="stack" aria-labelledby="team-parked-title">
      <div>
        <h3 id="team-parked-title" className="team-parked__title">
          {plural(status.parkedCount, 'call')} the team database refused
        </h3>
        <p className="muted">
          Parked here, out of the queue: every call after {status.parkedCount === 1 ? 'it' : 'them'} reached the audit log. This machine’s
          own activity log keeps {status.parkedCount === 1 ? 'it' : 'them'}; another Embed Console version tries{' '}
          {status.parkedCount === 1 ? 'it' : 'them'} again.
        </p>
      </div>
      <div className="table-wrap" tabIndex={0} role="group" aria-label="Parked calls, scrolling">
        <table className="table" aria-label="Calls the team database refused">
          <thead>
            <tr>
              <th scope="col">Made</th>
              <th scope="col">Call</th>
              <th scope="col">Why the team database refused it</th>
            </tr>
          </thead>
          <tbody>
            {status.parked.map((call) => (
              <tr key={call.id}>
                <td className="nowrap">{teamTime(call.calledAt)}</td>
                <td className="nowrap">
                  {call.operation ?? 'call'}
                  {call.groupId ? (
                    <>
                      {' '}
                      <code>{call.groupId}</code>
                    </>
                  ) : null}
                </td>
                <td className="detail">{call.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}

function LinkCard({ status }: { status: TeamStatus }) {
  const invalidate = useInvalidateTeam()
  const queryClient = useQueryClient()
  // Pulls the team's changes now (they arrive every 15 s anyway) and reads the link again.
  const pull = useMutation({
    mutationFn: () => call('team.pull', {}),
    onSuccess: (fresh) => {
      queryClient.setQueryData(queryKeys.team.status, fresh)
      invalidate()
    },
    onError: (error) => toast.error(`The team’s changes could not be pulled: ${error.message}`),
  })
  const [asking, setAsking] = useState<'leave' | 'discard' | null>(null)
  const leave = useMutation({
    mutationFn: (discardUnpublished: boolean) => call('team.leave', { discardUnpublished }),
    onSuccess: () => {
      setAsking(null)
      toast.success('This data folder has left the team: one person’s mode again.')
      invalidate()
    },
    onError: (error) => {
      // Calls not yet in the audit log: the operator decides whether to drop them.
      if (error instanceof CallError && (error.details as { outboxBacklog?: number } | undefined)?.outboxBacklog) setAsking('discard')
      else {
        setAsking(null)
        toast.error(error.message)
      }
    },
  })
  const backlog = status.outboxBacklog
  return (
    <section className="card stack" aria-labelledby="team-link-title">
      <h2 id="team-link-title" className="card__title">
        This machine in the team
      </h2>
      <dl className="facts">
        <dt>Database</dt>
        <dd>
          <code className="long-value">{status.url}</code>
        </dd>
        <dt>Operator</dt>
        <dd>
          {status.user}
          {status.admin ? <span className="badge badge--accent team-admin-badge">admin</span> : null}
        </dd>
        <dt>Connection</dt>
        <dd>
          <span className={`badge badge--${status.connected ? 'success' : 'failure'}`}>
            {status.connected ? 'Connected' : 'Not connected'}
          </span>
        </dd>
        <dt>Schema</dt>
        <dd>
          {status.schemaVersion === null
            ? 'unknown until connected'
            : `version ${status.schemaVersion} (this Embed Console writes ${status.supportedVersion})`}
        </dd>
        <dt>Outbox</dt>
        <dd>
          {backlog > 0
            ? `${plural(backlog, 'call')} waiting for the audit log`
            : status.parkedCount > 0
              ? 'nothing waiting (the calls the team database refused are below)'
              : 'empty: the audit log has every call made here'}
        </dd>
        <dt>Last published</dt>
        <dd>{teamTime(status.lastPublishAt)}</dd>
        <dt>Last pull</dt>
        <dd>{teamTime(status.lastPullAt)}</dd>
        <dt>Password</dt>
        <dd>{PASSWORD_PLACES[status.passwordStorage]}</dd>
        <dt>Joined</dt>
        <dd>{teamTime(status.joinedAt)}</dd>
      </dl>
      {status.problem ? (
        <p className="callout callout--warning" role="status">
          {status.problem}
        </p>
      ) : null}
      {backlog > 0 && status.publishError ? (
        <p className="callout callout--warning" role="status">
          The last attempt to publish failed: {status.publishError}
        </p>
      ) : null}
      {status.warnings.map((warning) => (
        <p key={warning} className="callout callout--warning" role="status">
          {warning}
        </p>
      ))}
      <ParkedCalls status={status} />
      {status.runs.length > 0 ? (
        <div className="table-wrap">
          <table className="table" aria-label="Bulk runs being sent in the team">
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Operator</th>
                <th scope="col">Where</th>
                <th scope="col">Since</th>
              </tr>
            </thead>
            <tbody>
              {status.runs.map((run) => (
                <tr key={`${run.label}-${run.since}`}>
                  <td>{run.label}</td>
                  <td>{run.actor}</td>
                  <td>
                    {run.client} on {run.host}
                  </td>
                  <td className="nowrap">{teamTime(run.since)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">No bulk run is being sent anywhere in the team.</p>
      )}
      <div className="row">
        <button type="button" className="btn" disabled={pull.isPending} onClick={() => pull.mutate()}>
          {pull.isPending ? 'Pulling…' : 'Pull the team’s changes now'}
        </button>
        <span className="toolbar__spacer" />
        <button type="button" className="btn btn--danger" onClick={() => setAsking('leave')}>
          Leave the team…
        </button>
      </div>
      <ConfirmDialog
        open={asking === 'leave'}
        title="Leave the team?"
        confirmLabel={leave.isPending ? 'Leaving…' : 'Leave the team'}
        onCancel={() => setAsking(null)}
        onConfirm={() => leave.mutate(false)}
      >
        <p>
          This data folder stops sharing its calls and receiving the team’s catalog. Its profiles, catalog and activity log stay here; the
          team password is removed from the vault. Calls not yet in the audit log are sent first.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'discard'}
        title="Leave without sending every call?"
        confirmLabel="Leave and discard them"
        onCancel={() => setAsking(null)}
        onConfirm={() => leave.mutate(true)}
      >
        <p>{leave.error?.message}</p>
        <p>
          Leaving now drops them from the outbox: the team’s audit log will never have them (this machine’s own activity log keeps them).
        </p>
      </ConfirmDialog>
    </section>
  )
}

function AdminCard() {
  const [url, setUrl] = useState('')
  const [password, setPassword] = useState('')
  const [name, setName] = useState('')
  const [reset, setReset] = useState(false)
  const connection = { url, ...(password ? { password } : {}) }
  const migrate = useMutation({ mutationFn: () => call('team.migrate', connection) })
  const add = useMutation({ mutationFn: () => call('team.addOperator', { ...connection, name, resetPassword: reset }) })
  const joinAddress = (() => {
    if (!add.data) return null
    try {
      const address = new URL(url)
      address.username = encodeURIComponent(add.data.name)
      address.password = ''
      return address.toString()
    } catch {
      return null
    }
  })()
  return (
    <details className="card team-admin">
      <summary className="card__title">Administer the team database (admins)</summary>
      <div className="stack">
        <p className="muted">
          An admin’s address and password, used for these two steps and kept nowhere. The DBA’s steps (roles, TLS, backups) are in{' '}
          <code>docs/team-mode.md</code>.
        </p>
        <div className="form-grid">
          <Field label="Admin address" hint="A role that may create schemas and roles (CREATEROLE).">
            <input
              type="text"
              value={url}
              placeholder="postgres://admin@db.example.com/embed_team?sslmode=verify-full"
              spellCheck={false}
              autoComplete="off"
              onChange={(event) => setUrl(event.target.value)}
            />
          </Field>
          <Field label="Admin password">
            <input type="password" value={password} autoComplete="off" onChange={(event) => setPassword(event.target.value)} />
          </Field>
        </div>
        <div className="row">
          <button type="button" className="btn" disabled={!url.trim() || migrate.isPending} onClick={() => migrate.mutate()}>
            {migrate.isPending ? 'Migrating…' : 'Create or upgrade the schema'}
          </button>
          {migrate.isSuccess ? (
            <div role="status" className="stack">
              <p className="muted">
                {migrate.data.applied.length
                  ? `The team schema is at version ${migrate.data.to} (was ${migrate.data.from}).`
                  : `The team schema is at version ${migrate.data.to} already: nothing to do.`}
              </p>
              {migrate.data.notes.map((note) => (
                <p key={note} className="callout callout--warning">
                  {note}
                </p>
              ))}
            </div>
          ) : null}
          {migrate.isError ? (
            <p role="alert" className="error-text">
              {migrate.error.message}
            </p>
          ) : null}
        </div>
        <form
          className="stack"
          aria-label="Add an operator"
          onSubmit={(event) => {
            event.preventDefault()
            if (!add.isPending) add.mutate()
          }}
        >
          <div className="row">
            <Field label="Operator name" hint="Their login role and the actor of their calls in the audit log.">
              <input
                type="text"
                value={name}
                placeholder="ops-2"
                spellCheck={false}
                autoComplete="off"
                onChange={(event) => setName(event.target.value)}
              />
            </Field>
            <label className="inline-field">
              <input type="checkbox" checked={reset} onChange={(event) => setReset(event.target.checked)} /> Give an existing operator a new
              password
            </label>
            <button type="submit" className="btn" disabled={!url.trim() || !name.trim() || add.isPending}>
              {add.isPending ? 'Adding…' : reset ? 'Reset password' : 'Add operator'}
            </button>
          </div>
          {add.isError ? (
            <p role="alert" className="error-text">
              {add.error.message}
            </p>
          ) : null}
        </form>
        {add.isSuccess ? (
          <div className="new-token stack" role="status">
            <p className="new-token__title">Password of {add.data.name}, shown this once: give it to them privately.</p>
            <div className="token token--prominent">
              <code className="token__value" aria-label={`Password of ${add.data.name}`}>
                {add.data.password}
              </code>
              <button
                type="button"
                className="btn btn--small"
                onClick={() =>
                  void copySecret(add.data.password).then(
                    () => toast.success('Password copied. It is cleared from the clipboard in 60 seconds.'),
                    () => toast.error('The clipboard is not available here.'),
                  )
                }
              >
                Copy password
              </button>
            </div>
            {joinAddress ? (
              <p className="muted">
                They join with the address <code className="long-value">{joinAddress}</code> and this password.
              </p>
            ) : null}
          </div>
        ) : null}
      </div>
    </details>
  )
}

export default function TeamScreen() {
  const status = useTeamStatus({ refetchInterval: 5_000 })
  if (status.isLoading) return <p className="loading">Reading the team link…</p>
  if (status.isError)
    return (
      <p role="alert" className="error-text">
        The team link could not be read: {status.error.message}
      </p>
    )
  return (
    <div className="stack team-screen">
      {status.data?.joined ? <LinkCard status={status.data} /> : <JoinCard />}
      <AdminCard />
    </div>
  )
}
