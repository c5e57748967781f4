import { useEffect, useRef } from 'react'
import type { Bridge } from '../../src-shared/ipc/bridge'
import type { CallInput, CallName, CallOutput, InvokeOptions } from '../../src-shared/ipc/contract'
import { type DownloadName, downloadPath, type DownloadQuery } from '../../src-shared/ipc/downloads'
import type { EventName, EventPayload } from '../../src-shared/ipc/events'
import type { AppError } from '../../src-shared/ipc/result'

let bridge: Bridge | null = null

export function installBridge(value: Bridge): void {
  bridge = value
}

function requireBridge(): Bridge {
  if (!bridge) throw new Error('The bridge to Embed Console is not connected.')
  return bridge
}

/** A failed call, thrown for react-query; carries the typed error from main unchanged. */
export class CallError extends Error {
  readonly code: AppError['code']
  readonly details: unknown
  constructor(readonly error: AppError) {
    super(error.message)
    this.name = 'CallError'
    this.code = error.code
    this.details = error.details
  }
}

/**
 * Calls main and returns the value, or throws a CallError with main's sentence. With a signal
 * (react-query's, when a newer search replaces the query), an answer no longer wanted is not
 * waited for: it throws the signal's reason.
 */
export async function call<N extends CallName>(name: N, input: CallInput<N>, options: InvokeOptions = {}): Promise<CallOutput<N>> {
  const { signal } = options
  signal?.throwIfAborted()
  const answer = requireBridge().invoke(name, input, signal ? { signal } : undefined)
  const result = signal
    ? await Promise.race([
        answer,
        new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
      ])
    : await answer
  if (!result.ok) throw new CallError(result.error)
  return result.value
}

/**
 * Fetches a download from main (streamed: an export can be large), or throws a CallError with
 * main's sentence when the query was refused. Same-origin, so browser mode's session cookie
 * goes with it; under app:// in Electron nothing needs to.
 */
export async function fetchDownload<N extends DownloadName>(name: N, query: DownloadQuery<N>): Promise<Response> {
  requireBridge()
  let response: Response
  try {
    response = await fetch(downloadPath(name, query))
  } catch (error) {
    throw new CallError({ code: 'connect_failed', message: 'Embed Console is not answering.', details: String(error) })
  }
  if (response.ok) return response
  const refusal = (await response.json().catch(() => null)) as { error?: AppError } | null
  throw new CallError(refusal?.error ?? { code: 'internal', message: `The download failed (HTTP ${response.status}).` })
}

/** Subscribes to one event from main for the life of the component. */
export function useMainEvent<N extends EventName>(name: N, listener: (payload: EventPayload<N>) => void): void {
  const latest = useRef(listener)
  useEffect(() => {
    latest.current = listener
  })
  useEffect(
    () =>
      requireBridge().onEvent((event) => {
        if (event.name === name) latest.current(event.payload as EventPayload<N>)
      }),
    [name],
  )
}
