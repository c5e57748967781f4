import { forwardRef, useState } from 'react'
import { maskedToken } from '../../../src-shared/profiles/schemas'
import { copySecret } from '../../lib/clipboard'
import { CodeSamples } from '../../ui/CodeSamples'
import { EnvironmentTag } from '../../ui/EnvironmentTag'
import { RotationCheck } from '../../ui/RotationCheck'
import { toast } from '../../ui/toasts'
import type { GroupOperation, GroupOutcome } from './group-form-state'

/** The raw body is shown as received, except that tokens stay masked like everywhere else. */
function maskTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskTokens)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === 'token' && typeof inner === 'string' ? maskedToken(inner) : maskTokens(inner),
      ]),
    )
  }
  return value
}

/** A rotation whose answer was lost names its activity entry: the one "Check now" settles. */
const activityIdOf = (details: unknown): string | undefined => {
  const id = (details as { activityId?: unknown } | undefined)?.activityId
  return typeof id === 'string' ? id : undefined
}

const TITLES: Record<GroupOperation, string> = { getOrCreate: 'Get or create', update: 'Update', rotateToken: 'Token rotation' }

function TokenValue({ token, prominent }: { token: string; prominent: boolean }) {
  const [revealed, setRevealed] = useState(prominent)
  const copy = () =>
    copySecret(token).then(
      () => toast.success('Token copied. It is cleared from the clipboard in 60 seconds.'),
      () => toast.error('The clipboard is not available here.'),
    )
  return (
    <div className={prominent ? 'token token--prominent' : 'token'}>
      <code className="token__value" aria-label={revealed ? 'Group token' : 'Group token (hidden)'}>
        {revealed ? token : maskedToken(token)}
      </code>
      <button type="button" className="btn btn--small" aria-pressed={revealed} onClick={() => setRevealed(!revealed)}>
        {revealed ? 'Hide token' : 'Reveal token'}
      </button>
      <button type="button" className="btn btn--small" onClick={() => void copy()}>
        Copy token
      </button>
    </div>
  )
}

export interface ResultPanelProps {
  outcome: GroupOutcome
  /** The profile the call went through, as it was named then: every result says whose it is. */
  profileName: string
  /** Where the call went (the profile's base URL then), for the code samples. */
  baseUrl: string
  /** The call went to the built-in sandbox: its group is a sandbox group, whatever its tag. */
  sandbox: boolean
  /** The server put the group in another environment than the profile says: mark the profile as the server says. */
  correction: { label: string; pending: boolean; run(): void } | null
  /** Get-or-create found the group and did not apply what was given: send it as an update. */
  onUpdateInstead(): void
}

/**
 * What the last call did. Its heading takes focus when it appears (screen readers read it; the
 * screen scrolls it into view), so the result is where the eye is, not below the fold.
 */
export const ResultPanel = forwardRef<HTMLHeadingElement, ResultPanelProps>(function ResultPanel(
  { outcome, profileName, baseUrl, sandbox, correction, onUpdateInstead },
  heading,
) {
  const where = <span className="result__profile">in “{profileName}”</span>
  if (outcome.kind === 'error') {
    return (
      <section className="result result--error" aria-label="Result">
        <h2 ref={heading} id="result-title" tabIndex={-1} className="result__title">
          {TITLES[outcome.operation]} failed {where}{' '}
          <span className={`badge badge--${outcome.code === 'outcome_unknown' ? 'unknown' : 'failure'}`}>{outcome.code}</span>
        </h2>
        <p className="result__message" role="alert">
          {outcome.message}
        </p>
        {outcome.code === 'outcome_unknown' && activityIdOf(outcome.details) ? (
          <RotationCheck activityId={activityIdOf(outcome.details)!} />
        ) : null}
        {outcome.details !== undefined ? (
          <details>
            <summary>Raw detail</summary>
            <pre className="raw">{JSON.stringify(outcome.details, null, 2)}</pre>
          </details>
        ) : null}
        <CodeSamples baseUrl={baseUrl} call={outcome.call} />
      </section>
    )
  }

  const { result, operation } = outcome
  const group = result.group
  return (
    <section className="result result--success" aria-label="Result">
      <h2 ref={heading} id="result-title" tabIndex={-1} className="result__title">
        {TITLES[operation]} succeeded {where}{' '}
        {result.newUserGroup !== undefined ? (
          <span className={result.newUserGroup ? 'badge badge--new' : 'badge'}>{result.newUserGroup ? 'New group' : 'Existing group'}</span>
        ) : null}
        <span className="muted result__timing">
          HTTP {result.httpStatus} · {Math.round(result.durationMs)} ms
        </span>
      </h2>
      {result.warnings.map((warning, index) => {
        // The warnings come in this order: the environment's (when the server disagreed), then the fields not applied.
        const environment = result.environmentMismatch !== undefined && index === 0
        const notApplied = result.notApplied !== undefined && index === (result.environmentMismatch ? 1 : 0)
        return (
          <div
            key={warning}
            className={
              environment && result.environmentMismatch?.serverTag === 'Customer' ? 'callout callout--danger' : 'callout callout--warning'
            }
            role="alert"
          >
            <span>{warning}</span>
            {environment && correction ? (
              <button type="button" className="btn btn--small" disabled={correction.pending} onClick={correction.run}>
                {correction.label}
              </button>
            ) : null}
            {notApplied ? (
              <button type="button" className="btn btn--small" onClick={onUpdateInstead}>
                Update with the values given
              </button>
            ) : null}
          </div>
        )
      })}
      {operation === 'rotateToken' ? (
        <div className="new-token">
          <h3 className="new-token__title">New token</h3>
          <p className="muted">
            {result.unsaved
              ? 'The app could not save it: this is the only copy it has. Copy it now.'
              : 'Shown once here. Save it where your app renders dashboards: the old token no longer works.'}
          </p>
          <TokenValue token={group.token} prominent />
        </div>
      ) : null}
      <dl className="facts">
        <dt>provided_id</dt>
        <dd>
          <code className="long-value">{group.provided_id}</code>
        </dd>
        <dt>name</dt>
        <dd className="long-value">{group.name ?? <span className="muted">none</span>}</dd>
        <dt>team_id</dt>
        <dd>{group.team_id}</dd>
        <dt>Environment</dt>
        <dd>
          {group.api_environment_tag ? (
            <EnvironmentTag tag={group.api_environment_tag} sandbox={sandbox} />
          ) : (
            <span className="muted">not given</span>
          )}
        </dd>
        {operation !== 'rotateToken' ? (
          <>
            <dt>token</dt>
            <dd>
              <TokenValue token={group.token} prominent={false} />
            </dd>
          </>
        ) : null}
        <dt>properties</dt>
        <dd>
          {group.properties === undefined || group.properties === null ? (
            <span className="muted">none</span>
          ) : (
            <pre className="raw">{JSON.stringify(group.properties, null, 2)}</pre>
          )}
        </dd>
      </dl>
      <details>
        <summary>Raw response</summary>
        <pre className="raw">{JSON.stringify(maskTokens(result.raw), null, 2)}</pre>
      </details>
      <CodeSamples baseUrl={baseUrl} call={outcome.call} />
    </section>
  )
})
