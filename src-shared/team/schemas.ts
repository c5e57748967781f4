import { z } from 'zod'
import { ActivityOutcomeSchema, RotationSettlementSchema } from '../activity/schemas'

/*
 * Team mode as both sides see it: a data folder joined to the team's Postgres, the shared audit
 * log and what the team knows of a group. No schema here has a place for a token or a password
 * that main sends back; passwords only travel in (join, migrate, add an operator).
 */

/** A login role in the team database: what `team add-operator NAME` creates and the audit log's actor. */
export const OperatorNameSchema = z
  .string()
  .trim()
  .regex(
    /^[a-z_][a-z0-9_-]{0,62}$/,
    'An operator name is 1 to 63 lower-case letters, digits, "-" or "_", starting with a letter: it becomes the login role in the team database.',
  )

/** postgres://ROLE@HOST:PORT/DATABASE?sslmode=verify-full (checked in main: TLS off loopback). */
export const TeamUrlSchema = z
  .string()
  .trim()
  .min(1, 'Enter the team database address.')
  .max(2048, 'The address has at most 2048 characters.')

export const TeamPasswordSchema = z.string().max(1024, 'A password has at most 1024 characters.')

/** The operations the team's audit log records (a connection test stays on its machine). */
export const TeamOperationSchema = z.enum(['getOrCreate', 'update', 'rotateToken'])

export const TeamActivityEntrySchema = z.object({
  id: z.string(),
  actor: z.string().describe('The login role that made the call: the database’s session_user, never a value a client sends'),
  time: z
    .string()
    .describe(
      'When the team database recorded the call, by its own clock (ISO 8601): what the log is shown and ordered by, since no operator sets it',
    ),
  calledAt: z.string().describe('When the call started, by its machine’s clock (never later than the team database’s)'),
  server: z.string().describe('The API server the call went to (the profile’s base URL, normalised)'),
  profileName: z.string(),
  operation: TeamOperationSchema,
  groupId: z.string().nullable(),
  outcome: ActivityOutcomeSchema,
  httpStatus: z.number().int().nullable(),
  errorCode: z.string().nullable(),
  message: z.string().nullable(),
  durationMs: z.number(),
  tokenLast4: z
    .string()
    .nullable()
    .describe('The last 4 characters of the group token after the call: the team database never holds a token'),
  settledOutcome: RotationSettlementSchema.nullable(),
  settledAt: z.string().nullable(),
})
export type TeamActivityEntry = z.infer<typeof TeamActivityEntrySchema>

export const TeamActivityQuerySchema = z
  .object({
    actor: z.string().max(63).optional(),
    groupId: z.string().max(500).optional(),
    operation: TeamOperationSchema.optional(),
    outcome: ActivityOutcomeSchema.optional(),
    cursor: z.number().int().positive().optional().describe('From the previous page: the entries older than it'),
    limit: z.number().int().min(1).max(1000).default(100),
  })
  .strict()
export type TeamActivityQuery = z.output<typeof TeamActivityQuerySchema>

export const TeamRunSchema = z.object({ label: z.string(), actor: z.string(), host: z.string(), client: z.string(), since: z.string() })

/** A call the team database refused to store: kept here, out of the queue, with the database's sentence. */
export const ParkedCallSchema = z.object({
  id: z.string(),
  operation: z.string().nullable(),
  groupId: z.string().nullable(),
  calledAt: z.string().nullable().describe('When the call was made here'),
  parkedAt: z.string(),
  reason: z.string().describe('Why the team database refused it, as it said'),
})

export const TeamStatusSchema = z.object({
  joined: z.boolean(),
  url: z.string().nullable().describe('The team database’s address, without its password'),
  user: z.string().nullable().describe('This machine’s login role in it'),
  joinedAt: z.string().nullable(),
  connected: z.boolean(),
  schemaVersion: z.number().int().nullable(),
  supportedVersion: z.number().int(),
  readOnly: z.boolean().describe('The database is newer than this Embed Console: nothing is written to it'),
  problem: z.string().nullable().describe('Why team mode cannot work fully now, as a sentence'),
  admin: z.boolean(),
  outboxBacklog: z.number().int().describe('Calls recorded here that the audit log has not received yet (parked ones included)'),
  publishError: z.string().nullable().describe('Why the oldest call waiting could not be published at its last attempt'),
  parkedCount: z.number().int().describe('Calls the team database refused to store: the rest went on without them'),
  parked: z.array(ParkedCallSchema).describe('The newest parked calls (at most 20), each with the database’s sentence'),
  warnings: z
    .array(z.string())
    .describe('What may keep team mode from working as expected here (two profiles reaching one server by two names)'),
  lastPublishAt: z.string().nullable(),
  lastPullAt: z.string().nullable(),
  passwordStorage: z.enum(['keychain', 'file', 'session', 'none']).describe('Where this machine keeps its team password'),
  runs: z.array(TeamRunSchema).describe('Bulk runs being sent anywhere in the team now'),
})
export type TeamStatus = z.infer<typeof TeamStatusSchema>

/** Whether the token this machine keeps for a group is the one the team knows as current. */
export const TeamTokenStateSchema = z.enum(['current', 'stale', 'not_kept', 'unknown'])

export const TeamGroupInfoSchema = z.object({
  changedBy: z.string(),
  changedAt: z.string(),
  rotatedBy: z.string().nullable(),
  rotatedAt: z.string().nullable(),
  tokenLast4: z.string().nullable().describe('The last 4 characters of the group’s current token, as the team knows it'),
  token: TeamTokenStateSchema,
})
export type TeamGroupInfo = z.infer<typeof TeamGroupInfoSchema>

export const TeamMigrationSchema = z.object({
  from: z.number().int(),
  to: z.number().int(),
  applied: z.array(z.object({ version: z.number().int(), name: z.string() })),
  notes: z.array(z.string()).describe('What the admin should know: an operator not carried over, another team on the cluster'),
})
