import { z } from 'zod'
import { contract, isCallName, type CallName, type Contract } from '../src-shared/ipc/contract'
import type { CallSpec } from '../src-shared/ipc/define'
import { AppErrorException, fail, ok, type Result } from '../src-shared/ipc/result'

/** Who is calling; handlers may use it (the activity log names the transport). */
export interface CallContext {
  transport: 'electron' | 'browser' | 'test'
}

/** The handlers of one call map; each feature types its own against its map. */
export type HandlersFor<Calls extends Record<string, CallSpec>> = {
  [N in keyof Calls]: (
    input: z.output<Calls[N]['input']>,
    context: CallContext,
  ) => Promise<z.output<Calls[N]['output']>> | z.output<Calls[N]['output']>
}

export type Handlers = HandlersFor<Contract>
type AnyHandler = (input: unknown, context: CallContext) => unknown

export interface Router {
  dispatch(name: string, input: unknown, context: CallContext): Promise<Result<unknown>>
}

export interface RouterOptions {
  /** Told of handler crashes (the message only: inputs may hold secrets). */
  onInternalError?: (name: string, error: unknown) => void
}

/**
 * Turns the contract and a handler table into one `dispatch` that never throws: an unknown call,
 * an input that fails its schema, a handler that throws and an output that breaks its schema all
 * come back as `{ ok: false, error }`. Outputs are parsed too, so a field a handler should not
 * have returned (a token, say) is stripped before it crosses the boundary.
 */
export function createRouter(handlers: Handlers, options: RouterOptions = {}): Router {
  return {
    async dispatch(name, input, context) {
      if (typeof name !== 'string' || !isCallName(name)) {
        return fail('unknown_call', `There is no call named "${String(name).slice(0, 100)}".`)
      }
      const spec = contract[name]
      const parsed = spec.input.safeParse(input)
      if (!parsed.success) {
        return fail('invalid_input', `The input to ${name} is not valid: ${z.prettifyError(parsed.error)}`, {
          issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })),
        })
      }
      try {
        const handler = handlers[name as CallName] as AnyHandler
        const value = await handler(parsed.data, context)
        const checked = spec.output.safeParse(value)
        if (!checked.success) {
          options.onInternalError?.(name, checked.error)
          return fail('internal', `${name} produced an answer that does not match its contract.`)
        }
        return ok(checked.data)
      } catch (error) {
        if (error instanceof AppErrorException) return { ok: false, error: error.toAppError() }
        options.onInternalError?.(name, error)
        return fail('internal', `${name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`)
      }
    },
  }
}
