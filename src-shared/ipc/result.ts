import { z } from 'zod'

/**
 * Every failure that crosses the renderer ↔ main boundary has one of these codes. The message is a
 * sentence for the operator; `details` holds the raw material behind it (never a secret).
 */
export const ErrorCodeSchema = z.enum([
  // raised by the router itself
  'unknown_call',
  'invalid_input',
  'internal',
  // raised by handlers
  'not_found',
  'conflict',
  'refused',
  // the /api/user client
  'connect_failed',
  'dns_failed',
  'tls_failed',
  'timeout',
  'http_status',
  'bad_response',
  'api_failure',
  'response_too_large',
  'outcome_unknown',
  // bulk runs
  'paused',
  'lease_lost',
  // the app's databases
  'storage',
  // team mode: the team's Postgres did not answer
  'team_offline',
  // site.json files
  'file_changed_on_disk',
  'file_io',
  'invalid_config',
])
export type ErrorCode = z.infer<typeof ErrorCodeSchema>

export const AppErrorSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  details: z.unknown().optional(),
})
export type AppError = z.infer<typeof AppErrorSchema>

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError }

export function resultSchema<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), value }), z.object({ ok: z.literal(false), error: AppErrorSchema })])
}

export const ok = <T>(value: T): Result<T> => ({ ok: true, value })
export const fail = (code: ErrorCode, message: string, details?: unknown): Result<never> => ({
  ok: false,
  error: details === undefined ? { code, message } : { code, message, details },
})

/**
 * Handlers throw this to answer with a typed error; anything else thrown becomes `internal`.
 */
export class AppErrorException extends Error {
  readonly code: ErrorCode
  readonly details: unknown
  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message)
    this.name = 'AppErrorException'
    this.code = code
    this.details = details
  }
  toAppError(): AppError {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details }
  }
}
