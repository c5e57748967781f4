import type { z } from 'zod'
import { activityCalls } from './activity-calls'
import { appCalls } from './app-calls'
import { bulkCalls } from './bulk-calls'
import { catalogCalls } from './catalog-calls'
import { connectionCalls } from './connection-calls'
import { groupCalls } from './group-calls'
import { profileCalls } from './profile-calls'
import type { Result } from './result'
import { siteCalls } from './site-calls'
import { teamCalls } from './team-calls'

/**
 * The contract: every call between the renderer and main, by name. The preload bridge, the
 * router and the renderer's client are all typed from this one object, and the router checks
 * every input against it before a handler runs. Add a call here (or in a feature's call map) and
 * TypeScript asks for its handler.
 */
export const contract = {
  ...appCalls,
  ...profileCalls,
  ...connectionCalls,
  ...groupCalls,
  ...catalogCalls,
  ...activityCalls,
  ...siteCalls,
  ...bulkCalls,
  ...teamCalls,
}

export type Contract = typeof contract
export type CallName = keyof Contract
export type CallInput<N extends CallName> = z.input<Contract[N]['input']>
export type CallOutput<N extends CallName> = z.output<Contract[N]['output']>

export const isCallName = (name: string): name is CallName => Object.hasOwn(contract, name)

/** What a caller may add to a call: a signal that says its answer is no longer wanted. */
export interface InvokeOptions {
  signal?: AbortSignal
}

/**
 * The one function the transports expose to the renderer (`window.api.invoke`). Browser mode
 * cancels a call whose signal aborts (main does not run it if it has not started); Electron's
 * IPC cannot, and its answer is dropped.
 */
export type Invoke = <N extends CallName>(name: N, input: CallInput<N>, options?: InvokeOptions) => Promise<Result<CallOutput<N>>>
