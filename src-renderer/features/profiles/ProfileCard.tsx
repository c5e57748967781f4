import type { ConnectionTest } from '../../../src-shared/ipc/connection-calls'
import { type ProfileView, tokenTailHint } from '../../../src-shared/profiles/schemas'
import type { DiagnosisState, TestState } from './connection-checks'
import { DiagnosisPanel } from './DiagnosisPanel'

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

/** What a profile's buttons do; a built-in profile offers only activate, test and diagnose. */
export interface ProfileCardActions {
  activate(profile: ProfileView): void
  test(profile: ProfileView): void
  diagnose(profile: ProfileView): void
  edit(profile: ProfileView): void
  duplicate(profile: ProfileView): void
  delete(profile: ProfileView): void
}

interface ProfileCardProps {
  profile: ProfileView
  active: boolean
  /** Its last connection test, if one was run on this screen. */
  test: TestState | undefined
  /** Its last diagnosis, if one was run on this screen. */
  diagnosis: DiagnosisState | undefined
  actions: ProfileCardActions
}

/** One profile of the list: its kind and address, its token in words, its buttons, and what its checks found. */
export function ProfileCard({ profile, active, test, diagnosis, actions }: ProfileCardProps) {
  return (
    <li className={`card profile${active ? ' profile--active' : ''}`} aria-label={profile.name}>
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
          <button type="button" className="btn btn--small btn--primary" onClick={() => actions.activate(profile)}>
            Use this profile
          </button>
        ) : null}
        <button type="button" className="btn btn--small" disabled={test === 'pending'} onClick={() => actions.test(profile)}>
          {test === 'pending' ? 'Testing…' : 'Test connection'}
        </button>
        <button type="button" className="btn btn--small" disabled={diagnosis === 'pending'} onClick={() => actions.diagnose(profile)}>
          {diagnosis === 'pending' ? 'Diagnosing…' : 'Diagnose connection'}
        </button>
        {!profile.builtin ? (
          <>
            <button type="button" className="btn btn--small" onClick={() => actions.edit(profile)}>
              Edit
            </button>
            <button type="button" className="btn btn--small" onClick={() => actions.duplicate(profile)}>
              Duplicate
            </button>
            <button type="button" className="btn btn--small btn--ghost" onClick={() => actions.delete(profile)}>
              Delete
            </button>
          </>
        ) : null}
      </div>
      {test && test !== 'pending' ? (
        <p className={`test-result badge--${TEST_TONES[test.outcome]}`} role="status">
          {test.message} {test.durationMs ? `(${Math.round(test.durationMs)} ms)` : ''}
          {test.outcome === 'unreachable' ? ' “Diagnose connection” says where it fails.' : ''}
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
}
