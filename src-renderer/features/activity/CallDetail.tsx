import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { type ActivityDetail, OPERATION_LABELS } from '../../../src-shared/activity/schemas'
import type { ProfileView } from '../../../src-shared/profiles/schemas'
import type { SampleCall } from '../../../src-shared/user-api/code-samples'
import { GetOrCreateRequestSchema } from '../../../src-shared/user-api/schemas'
import { call } from '../../lib/api'
import { type CallHandoff, useCallHandoff } from '../../lib/call-handoff'
import { queryKeys } from '../../lib/query-keys'
import { CodeSamples } from '../../ui/CodeSamples'
import { RotationCheck, settlementSentence } from '../../ui/RotationCheck'

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

/** What the form can be given back from a logged call, or why it cannot. */
function handoffOf(entry: ActivityDetail, profile: ProfileView | undefined, run: boolean): CallHandoff | string {
  if (!profile) return 'The profile this call went through was deleted.'
  if (entry.operation === 'testConnection') return 'A connection test has no form.'
  if (entry.operation === 'rotateToken')
    return { kind: 'rotation', profileId: profile.id, ...(entry.groupId ? { groupId: entry.groupId } : {}), run }
  if (entry.omitted?.includes('request')) return 'The request was too large to keep.'
  const request = GetOrCreateRequestSchema.safeParse(entry.request)
  if (!request.success) return 'The request was not kept (calls made before this version).'
  return { kind: 'group', profileId: profile.id, operation: entry.operation, request: request.data, run }
}

function sampleOf(entry: ActivityDetail): SampleCall | null {
  if (entry.operation === 'rotateToken') return { operation: 'rotateToken' }
  if (entry.operation === 'testConnection') return null
  const request = GetOrCreateRequestSchema.safeParse(entry.request)
  return request.success ? { operation: entry.operation, request: request.data } : null
}

const json = (value: unknown) => JSON.stringify(value, null, 2)

/**
 * One logged call: its request and its answer (tokens redacted before they were stored), and the
 * way back to the form. A rotation is never run again from here: "Rotate again…" opens its
 * confirmation, with the token kept now (or a pasted one), never the old one.
 */
export function CallDetail({ id, profiles, onClose }: { id: string; profiles: ProfileView[]; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const detail = useQuery({ queryKey: queryKeys.activity.entry(id), queryFn: () => call('activity.get', { id }) })
  const handOff = useCallHandoff((state) => state.handOff)

  useEffect(() => {
    const element = dialog.current
    element?.showModal()
    return () => element?.close()
  }, [])

  const entry = detail.data?.entry ?? null
  const profile = entry ? profiles.find((candidate) => candidate.id === entry.profileId) : undefined
  const open = entry ? handoffOf(entry, profile, false) : null
  const again = entry ? handoffOf(entry, profile, true) : null
  const sample = entry ? sampleOf(entry) : null
  const go = (handoff: CallHandoff | string | null) => {
    if (!handoff || typeof handoff === 'string') return
    dialog.current?.close()
    handOff(handoff)
  }

  return (
    <dialog ref={dialog} className="dialog drawer" aria-labelledby="call-detail-title" onClose={onClose}>
      <div className="drawer__head">
        <h2 id="call-detail-title" className="dialog__title">
          {entry ? `${OPERATION_LABELS[entry.operation]} · ${timeFormat.format(new Date(entry.time))}` : 'Call'}
        </h2>
        <button type="button" className="btn btn--small btn--ghost" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      {detail.isPending ? <p className="muted">Loading…</p> : null}
      {detail.isError ? (
        <p role="alert" className="error-text">
          This call could not be read: {detail.error.message}
        </p>
      ) : null}
      {detail.isSuccess && !entry ? <p className="muted">This call is no longer in the log.</p> : null}
      {entry ? (
        <div className="stack">
          <dl className="facts">
            <dt>Outcome</dt>
            <dd>
              <span className={`badge badge--${entry.outcome}`}>{entry.outcome}</span>
              {entry.httpStatus ? ` HTTP ${entry.httpStatus}` : ''} · {Math.round(entry.durationMs)} ms
            </dd>
            <dt>Profile</dt>
            <dd className="long-value">{entry.profileName}</dd>
            {entry.groupId ? (
              <>
                <dt>Group</dt>
                <dd>
                  <code className="long-value">{entry.groupId}</code>
                  {entry.groupName ? <span className="long-value"> · {entry.groupName}</span> : null}
                </dd>
              </>
            ) : null}
            {entry.message ? (
              <>
                <dt>Message</dt>
                <dd className="long-value">{entry.message}</dd>
              </>
            ) : null}
            {entry.settledOutcome && entry.settledAt ? (
              <>
                <dt>Settled</dt>
                <dd>{settlementSentence(entry.settledOutcome, entry.settledAt)}</dd>
              </>
            ) : null}
            {entry.warnings?.length ? (
              <>
                <dt>Warnings</dt>
                <dd>
                  {entry.warnings.map((warning) => (
                    <p key={warning} className="callout callout--warning">
                      {warning}
                    </p>
                  ))}
                </dd>
              </>
            ) : null}
          </dl>
          {entry.operation === 'rotateToken' && entry.outcome === 'unknown' && !entry.settledOutcome ? (
            <RotationCheck activityId={entry.id} />
          ) : null}
          <div className="row">
            <button type="button" className="btn" disabled={typeof open === 'string'} onClick={() => go(open)}>
              Open in form
            </button>
            <button type="button" className="btn btn--primary" disabled={typeof again === 'string'} onClick={() => go(again)}>
              {entry.operation === 'rotateToken' ? 'Rotate again…' : 'Run again'}
            </button>
            <span className="muted">
              {typeof open === 'string'
                ? open
                : entry.operation === 'rotateToken'
                  ? 'A rotation asks again, with the group’s current token.'
                  : `Through “${profile?.name}”, asked first if it is a Customer profile.`}
            </span>
          </div>
          <section aria-label="Request">
            <h3 className="drawer__section">Request</h3>
            {entry.request !== undefined ? (
              <pre className="raw" tabIndex={0} aria-label="Request body">
                {json(entry.request)}
              </pre>
            ) : (
              <p className="muted">{entry.omitted?.includes('request') ? 'Too large to keep.' : 'None kept.'}</p>
            )}
          </section>
          <section aria-label="Response">
            <h3 className="drawer__section">Response</h3>
            {entry.response !== undefined ? (
              <pre className="raw" tabIndex={0} aria-label="Response body">
                {json(entry.response)}
              </pre>
            ) : (
              <p className="muted">{entry.omitted?.includes('response') ? 'Too large to keep.' : 'None kept.'}</p>
            )}
            <p className="muted">
              Tokens are redacted before a call is stored: the API token, a rotated group’s old token and every token an answer carried.
            </p>
          </section>
          {sample && profile ? <CodeSamples baseUrl={profile.baseUrl} call={sample} /> : null}
        </div>
      ) : null}
    </dialog>
  )
}
