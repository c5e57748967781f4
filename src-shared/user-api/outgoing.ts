import type { z } from 'zod'
import { GetOrCreateRequestSchema, RotateTokenRequestSchema, UpdateRequestSchema, userGroupIdProblem } from './schemas'

/*
 * The one check a request passes before it may leave the app: the API's own request schema, then
 * the app's user_group_id rule (a space at either end, a hidden character), which the API and the
 * sandbox accept but the app will not send. The client applies it at send (so the screens, bulk
 * runs and the CLI alike), and a bulk plan applies it to each row so a row refused at send is
 * refused in the plan. The router's input check is the other boundary: it guards the shape of
 * what the renderer asks for, not what goes on the wire.
 */

const OUTGOING_SCHEMAS = { getOrCreate: GetOrCreateRequestSchema, update: UpdateRequestSchema, rotateToken: RotateTokenRequestSchema }

export type OutgoingOperation = keyof typeof OUTGOING_SCHEMAS

/** One reason a request may not be sent: a schema issue (message about `path`), or a whole sentence of the app's id rule. */
export type OutgoingIssue =
  | { kind: 'schema'; path: string[]; message: string; unknownKeys?: string[] }
  | { kind: 'user_group_id'; path: ['user_group_id']; message: string }

export type OutgoingCheck<Op extends OutgoingOperation> =
  { ok: true; value: z.infer<(typeof OUTGOING_SCHEMAS)[Op]> } | { ok: false; issues: OutgoingIssue[] }

export function checkOutgoing<Op extends OutgoingOperation>(operation: Op, request: unknown): OutgoingCheck<Op> {
  const parsed = OUTGOING_SCHEMAS[operation].safeParse(request)
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((issue) => ({
        kind: 'schema' as const,
        path: issue.path.map(String),
        message: issue.message,
        ...(issue.code === 'unrecognized_keys' ? { unknownKeys: issue.keys } : {}),
      })),
    }
  }
  const value = parsed.data as z.infer<(typeof OUTGOING_SCHEMAS)[Op]>
  const id = 'user_group_id' in value ? value.user_group_id : undefined
  const idProblem = id === undefined ? undefined : userGroupIdProblem(id)
  if (idProblem) return { ok: false, issues: [{ kind: 'user_group_id', path: ['user_group_id'], message: idProblem }] }
  return { ok: true, value }
}
