import { z } from 'zod'
import { BulkProgressSchema } from '../bulk/schemas'

export const SandboxStatusSchema = z.object({
  state: z.enum(['starting', 'running', 'stopped', 'failed', 'disabled']),
  baseUrl: z.string().optional(),
  message: z.string().optional(),
})
export type SandboxStatus = z.infer<typeof SandboxStatusSchema>

/**
 * The most files one `site.docsChanged` names: a checkout touching more says `more` instead, and
 * a reader indexes the whole folder again.
 */
export const MAX_CHANGED_FILES = 100

/** Events pushed from main to the renderer, on one channel, each validated before it is sent. */
export const events = {
  'sandbox.status': SandboxStatusSchema,
  'bulk.progress': BulkProgressSchema,
  /**
   * A watched docs folder changed (a page or file came, went or changed): the site editor indexes
   * it again. `changed`: the burst's files (and folders the document names, as they come),
   * relative to `root` with '/' between folders, in the order first seen; `more`: the burst held
   * changes not named (past the cap, or the system gave no file name), so only a whole read of
   * the folder sees all of it.
   */
  'site.docsChanged': z.object({ root: z.string(), changed: z.array(z.string()).max(MAX_CHANGED_FILES), more: z.boolean() }),
  /** Indexing a docs folder (off main's thread): how far it has got. */
  'site.docsProgress': z.object({ root: z.string(), done: z.number().int(), total: z.number().int() }),
}

export type EventName = keyof typeof events
export type EventPayload<N extends EventName> = z.infer<(typeof events)[N]>
export type AnyEvent = { [N in EventName]: { name: N; payload: EventPayload<N> } }[EventName]
