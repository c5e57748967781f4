import { type Diagnosis, DIAGNOSIS_STEP_LABELS, type DiagnosisStep } from '../../../src-shared/user-api/diagnosis'

const OUTCOME: Record<DiagnosisStep['outcome'], { mark: string; word: string; tone: string }> = {
  ok: { mark: '✓', word: 'passed', tone: 'success' },
  failed: { mark: '✕', word: 'failed', tone: 'failure' },
  skipped: { mark: '–', word: 'not taken', tone: 'muted' },
}

/**
 * What "Diagnose connection" found: the way a call travels (proxy, certificate authorities, TLS),
 * then each step with its outcome, the failing one marked. Text only: it can be copied into a
 * ticket as it is.
 */
export function DiagnosisPanel({ profileName, diagnosis }: { profileName: string; diagnosis: Diagnosis }) {
  return (
    <section className={`diagnosis diagnosis--${diagnosis.ok ? 'ok' : 'failed'}`} aria-label={`Diagnosis of ${profileName}`}>
      <p className="diagnosis__summary" role="status">
        {/* The failing step below says why; the summary only says where. */}
        {diagnosis.failedAt ? `It fails at the ${DIAGNOSIS_STEP_LABELS[diagnosis.failedAt]} step.` : diagnosis.summary}
      </p>
      <dl className="facts diagnosis__route">
        <dt>Endpoint</dt>
        <dd className="long-value">{diagnosis.endpoint}</dd>
        <dt>Proxy</dt>
        <dd className="long-value">
          {diagnosis.proxy.url ? (
            <>
              <code>{diagnosis.proxy.url}</code> (from {diagnosis.proxy.source}).{' '}
            </>
          ) : (
            'None. '
          )}
          {diagnosis.proxy.reason}
        </dd>
        <dt>Trust</dt>
        <dd>
          <ul className="diagnosis__trust">
            {diagnosis.trust.map((source) => (
              <li key={source} className="long-value">
                {source}
              </li>
            ))}
          </ul>
        </dd>
        {diagnosis.tls ? (
          <>
            <dt>TLS</dt>
            <dd className="long-value">
              {diagnosis.tls.version}, {diagnosis.tls.cipher}. Certificate “{diagnosis.tls.certificate.subject}”, issued by “
              {diagnosis.tls.certificate.issuer}”, valid until {diagnosis.tls.certificate.validTo.slice(0, 10)}.
            </dd>
          </>
        ) : null}
      </dl>
      <ol className="diagnosis__steps" aria-label="Steps">
        {diagnosis.steps.map((step) => {
          const outcome = OUTCOME[step.outcome]
          return (
            <li key={step.step} className={`diagnosis__step diagnosis__step--${step.outcome}`}>
              <span className={`badge badge--${outcome.tone}`}>
                <span aria-hidden="true">{outcome.mark}</span> {DIAGNOSIS_STEP_LABELS[step.step]}
                <span className="visually-hidden"> {outcome.word}:</span>
              </span>
              <span className="long-value">{step.message}</span>
              {step.durationMs !== undefined ? <span className="muted diagnosis__time">{Math.round(step.durationMs)} ms</span> : null}
            </li>
          )
        })}
      </ol>
    </section>
  )
}
