import { z } from 'zod'
import { defineCall } from './define'

export const ConnectionTestSchema = z.object({
  outcome: z.enum(['ok', 'token_refused', 'unreachable', 'unexpected']),
  message: z.string(),
  httpStatus: z.number().int().optional(),
  durationMs: z.number(),
})
export type ConnectionTest = z.infer<typeof ConnectionTestSchema>

/** The connection test: named for the profile it tests, answered by the group service, which makes the call. */
export const connectionCalls = {
  'profiles.testConnection': defineCall({
    summary: 'Checks that a profile reaches the API and that its token is accepted, without changing any group.',
    input: z.object({ id: z.string().min(1) }).strict(),
    output: ConnectionTestSchema,
  }),
}
