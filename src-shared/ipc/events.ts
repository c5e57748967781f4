import { z } from 'zod'
import { BulkProgressSchema } from '../bulk/schemas'

export const SandboxStatusSchema = z.object({
  state: z.enum(['starting', 'running', 'stopped', 'failed', 'disabled']),
  baseUrl: z.string().optional(),
  message: z.string().optional(),
})
export type SandboxStatus = z.infer<typeof SandboxStatusSchema>

/** Events pushed from main to the renderer, on one channel, each validated before it is sent. */
export const events = {
  'sandbox.status': SandboxStatusSchema,
  'bulk.progress': BulkProgressSchema,
  /** A watched docs folder changed (a page or file came, went or changed): the site editor indexes it again. */
  'site.docsChanged': z.object({ root: z.string() }),
  /** Indexing a docs folder (off main's thread): how far it has got. */
  'site.docsProgress': z.object({ root: z.string(), done: z.number().int(), total: z.number().int() }),
}

export type EventName = keyof typeof events
export type EventPayload<N extends EventName> = z.infer<(typeof events)[N]>
export type AnyEvent = { [N in EventName]: { name: N; payload: EventPayload<N> } }[EventName]
