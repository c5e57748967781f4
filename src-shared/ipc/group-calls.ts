import { z } from 'zod'
import { RotationSettlementSchema } from '../activity/schemas'
import { EnvironmentKindSchema } from '../profiles/schemas'
import { EnvironmentTagSchema, GetOrCreateRequestSchema, UpdateRequestSchema, UserGroupSchema } from '../user-api/schemas'
import { defineCall } from './define'

/** Which profile a call goes through; omitted means the active one. */
export const ProfileChoice = { profileId: z.string().optional() }

/** What every group operation answers: the group as returned, the raw body, and what to know. */
export const GroupCallResultSchema = z.object({
  profileId: z.string(),
  group: UserGroupSchema,
  newUserGroup: z.boolean().optional(),
  raw: z.unknown().describe('The response body exactly as received'),
  httpStatus: z.number().int(),
  durationMs: z.number(),
  warnings: z.array(z.string()),
  notApplied: z
    .array(z.enum(['name', 'mapping', 'properties']))
    .optional()
    .describe('Get-or-create found the group: these fields were given but not applied (Update applies them)'),
  settledRotations: z
    .array(z.object({ activityId: z.string(), outcome: RotationSettlementSchema, at: z.string() }))
    .optional()
    .describe('Rotations of this group whose outcome was unknown, settled by this fetch'),
  unsaved: z
    .object({ recoveryFile: z.string().nullable() })
    .optional()
    .describe('The rotation happened but could not be recorded (a full disk): the token shown here is the only copy the app has'),
  environmentMismatch: z
    .object({ profileKind: EnvironmentKindSchema.exclude(['unspecified']), serverTag: EnvironmentTagSchema })
    .optional()
    .describe('The profile is marked for one environment and the server put the group in the other (its warning is in warnings)'),
})
export type GroupCallResult = z.infer<typeof GroupCallResultSchema>

export const RotationCheckSchema = z.object({
  outcome: RotationSettlementSchema,
  checkedAt: z.string(),
  tokenLast4: z.string().nullable().describe('The last characters of the token the server holds now (kept in the vault)'),
})
export type RotationCheck = z.infer<typeof RotationCheckSchema>

export const RotationSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('catalog'), groupId: z.string().min(1) }).strict(),
  z.object({ kind: z.literal('token'), currentToken: z.string().min(1, 'Paste the group’s current token.') }).strict(),
])
/** Which group's token a rotation replaces: one kept in the vault for a catalog group, or one pasted. */
export type RotationSource = z.infer<typeof RotationSourceSchema>

export const groupCalls = {
  'groups.getOrCreate': defineCall({
    summary: 'GET /api/user: returns the group with this id, creating it when there is none.',
    input: z.object({ ...ProfileChoice, request: GetOrCreateRequestSchema }).strict(),
    output: GroupCallResultSchema,
  }),
  'groups.update': defineCall({
    summary: 'PUT /api/user: changes the given fields of an existing group.',
    input: z.object({ ...ProfileChoice, request: UpdateRequestSchema }).strict(),
    output: GroupCallResultSchema,
  }),
  'groups.rotateToken': defineCall({
    summary: 'POST /api/user: issues a new group token; the old one stops working. Never retried.',
    input: z.object({ ...ProfileChoice, source: RotationSourceSchema }).strict(),
    output: GroupCallResultSchema,
  }),
  'groups.checkRotation': defineCall({
    summary:
      'Settles a rotation whose answer was lost: fetches the group (get-or-create) and compares its token with the one sent. Another token means it happened (the new one is kept); the same means it did not.',
    input: z.object({ activityId: z.string().min(1).max(64) }).strict(),
    output: RotationCheckSchema,
  }),
  'groups.revealToken': defineCall({
    summary: 'The last known token of a group in the catalog, for copying on request.',
    input: z.object({ ...ProfileChoice, groupId: z.string().min(1) }).strict(),
    output: z.object({ token: z.string() }),
  }),
}
