import type { z } from 'zod'
import { appCalls } from './app-calls'
import { bulkCalls } from './bulk-calls'
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
  ...groupCalls,
  ...siteCalls,
  ...bulkCalls,
  ...teamCalls,
}

export type Contract = typeof contract
export type CallName = keyof Contract
export type CallInput<N extends CallName> = z.input<Contract[N]['input']>
export type CallOutput<N extends CallName> = z.output<Contract[N]['output']>

export const isCallName = (name: string): name is CallName => Object.hasOwn(contract, name)

/** The one function the transports expose to the renderer (`window.api.invoke`). */
export type Invoke = <N extends CallName>(name: N, input: CallInput<N>) => Promise<Result<CallOutput<N>>>
