import { z } from 'zod'

export const ApiOperationSchema = z.enum(['getOrCreate', 'update', 'rotateToken', 'testConnection'])
export type ApiOperation = z.infer<typeof ApiOperationSchema>

export const OPERATION_LABELS: Record<ApiOperation, string> = {
  getOrCreate: 'Get or create',
  update: 'Update',
  rotateToken: 'Rotate token',
  testConnection: 'Test connection',
}

/** `unknown`: the request may have reached the server but no answer came back (rotation). */
export const ActivityOutcomeSchema = z.enum(['success', 'failure', 'unknown'])
export type ActivityOutcome = z.infer<typeof ActivityOutcomeSchema>

export const OUTCOME_LABELS: Record<ActivityOutcome, string> = { success: 'Success', failure: 'Failure', unknown: 'Outcome unknown' }

/** What a later fetch of the group showed of a rotation whose answer was lost. */
export const RotationSettlementSchema = z.enum(['rotated', 'not_rotated'])
export type RotationSettlement = z.infer<typeof RotationSettlementSchema>

/** One API call as the activity log keeps it. By construction it holds no token of any kind. */
export const ActivityEntrySchema = z.object({
  id: z.string(),
  time: z.string().describe('When the call started, ISO 8601'),
  profileId: z.string(),
  profileName: z.string(),
  operation: ApiOperationSchema,
  groupId: z.string().optional().describe('The user_group_id the call named, when it named one'),
  groupName: z.string().optional().describe('The group’s name as the answer gave it, else as the request sent it'),
  outcome: ActivityOutcomeSchema,
  httpStatus: z.number().int().optional(),
  errorCode: z.string().optional(),
  message: z.string().optional().describe('The error sentence, secrets redacted'),
  warnings: z
    .array(z.string())
    .optional()
    .describe('What a call that succeeded still said, such as a profile marked for another environment'),
  durationMs: z.number().nonnegative(),
  settledOutcome: RotationSettlementSchema.optional().describe(
    'How a rotation of unknown outcome turned out, learned by fetching the group later',
  ),
  settledAt: z.string().optional().describe('When that was learned, ISO 8601 (the call keeps its own time)'),
})
export type ActivityEntry = z.infer<typeof ActivityEntrySchema>

/**
 * One call with what it sent and what came back, for the Activity screen's detail view, "Open in
 * form" and "Run again". Redacted in main before it was stored: the API token, a rotated group's
 * current token and every token the answer carried read `[redacted]`.
 */
export const ActivityDetailSchema = ActivityEntrySchema.extend({
  request: z.json().optional().describe('The body sent; absent when the call had none or it was too large to keep'),
  response: z.json().optional().describe('The body received, or what the failure carried; absent when too large to keep'),
  omitted: z
    .array(z.enum(['request', 'response']))
    .optional()
    .describe('Bodies that were too large to keep'),
})
export type ActivityDetail = z.infer<typeof ActivityDetailSchema>

/** Column order of the CSV export, derived from the schema so a new field cannot be forgotten. */
export const ACTIVITY_COLUMNS = Object.keys(ActivityEntrySchema.shape) as (keyof ActivityEntry)[]

export const ActivityExportFormatSchema = z.enum(['csv', 'jsonl'])
export type ActivityExportFormat = z.infer<typeof ActivityExportFormatSchema>

/** Which entries a page or an export holds; every field narrows, none means all. */
export const ActivityFilterSchema = z
  .object({
    profileId: z.string().max(64).optional(),
    groupId: z.string().max(500).optional().describe('Entries for exactly this group id (a group’s history)'),
    search: z.string().max(500).optional().describe('Words found anywhere in the group id, the group name or the error message, any case'),
    operation: ApiOperationSchema.optional(),
    outcome: ActivityOutcomeSchema.optional(),
    from: z.iso.datetime().optional().describe('Entries at or after this instant'),
    to: z.iso.datetime().optional().describe('Entries before this instant'),
  })
  .strict()
export type ActivityFilter = z.infer<typeof ActivityFilterSchema>
