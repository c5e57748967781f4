import { z } from 'zod'
import { type CallName, type Contract, contract, isCallName } from '../src-shared/ipc/contract'
import type { CallSpec } from '../src-shared/ipc/define'
import { type DownloadName, type Downloads, downloads, isDownloadName } from '../src-shared/ipc/downloads'
import { messageOf } from '../src-shared/ipc/error-message'
import { AppErrorException, fail, ok, type Result } from '../src-shared/ipc/result'
import { tooDeepMessage, valueTooDeep } from '../src-shared/json/depth'

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

/** A file being produced for the operator: its name, type, and its text in chunks. */
export interface Download {
  fileName: string
  mimeType: string
  chunks: AsyncIterable<string>
}

export type DownloadHandlers = {
  [N in DownloadName]: (query: z.output<Downloads[N]['query']>) => Download
}

export interface Router {
  dispatch(name: string, input: unknown, context: CallContext): Promise<Result<unknown>>
  /** Checks a download's query against its schema and starts producing it. */
  download(name: string, query: unknown): Result<Download>
}

export interface RouterOptions {
  /** Told of handler crashes (the message only: inputs may hold secrets). */
  onInternalError?: (name: string, error: unknown) => void
  downloads?: DownloadHandlers
}

const invalidInput = (name: string, error: z.ZodError) =>
  fail('invalid_input', `The input to ${name} is not valid: ${z.prettifyError(error)}`, {
    issues: error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })),
  })

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
      // Before the schema: zod walks values recursively, and a deep enough one would overflow it.
      if (valueTooDeep(input)) return fail('invalid_input', tooDeepMessage(`The input to ${name}`))
      const parsed = spec.input.safeParse(input)
      if (!parsed.success) return invalidInput(name, parsed.error)
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
        return fail('internal', `${name} failed unexpectedly: ${messageOf(error)}`)
      }
    },

    download(name, query) {
      if (!isDownloadName(name) || !options.downloads)
        return fail('unknown_call', `There is no download named "${String(name).slice(0, 100)}".`)
      if (valueTooDeep(query)) return fail('invalid_input', tooDeepMessage(`The query of the ${name} download`))
      const parsed = downloads[name].query.safeParse(query)
      if (!parsed.success) return invalidInput(`the ${name} download`, parsed.error)
      try {
        const produce = options.downloads[name] as (query: unknown) => Download
        return ok(produce(parsed.data))
      } catch (error) {
        if (error instanceof AppErrorException) return { ok: false, error: error.toAppError() }
        options.onInternalError?.(name, error)
        return fail('internal', `The ${name} download failed unexpectedly.`)
      }
    },
  }
}
