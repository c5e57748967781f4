import { z } from 'zod'

/*
 * Bulk runs: a file of requests planned against a profile's catalog, sent with a concurrency and
 * a rate limit, journaled row by row in the app database so that a run survives a crash and is
 * resumed without creating a group twice or rotating a token twice. Both the app and the CLI
 * (`embed-console groups apply`) speak these shapes.
 */

export const MAX_BULK_ROWS = 100_000
/** The largest input file: 100,000 rows of about 300 characters, within browser mode's call size. */
export const MAX_BULK_FILE_CHARACTERS = 30 * 1024 * 1024
export const DEFAULT_BULK_CONCURRENCY = 4
export const MAX_BULK_CONCURRENCY = 32
/** Requests in a row that found the server down (no connection, a timeout, a 5xx) before a run pauses itself. */
export const BREAKER_FAILURES = 5
/** Requests a minute to a server that is not the local sandbox, unless the operator says otherwise. */
export const DEFAULT_RATE_PER_MINUTE = 120

export const BulkKindSchema = z
  .enum(['apply', 'rotate'])
  .describe('apply: get-or-create and update from a file; rotate: rotate the tokens of listed groups')
export type BulkKind = z.infer<typeof BulkKindSchema>

export const BulkFormatSchema = z.enum(['csv', 'json', 'jsonl'])
export type BulkFormat = z.infer<typeof BulkFormatSchema>

/** What a row will do, decided against the catalog before anything is sent. */
export const BulkActionSchema = z.enum(['create', 'update', 'unchanged', 'rotate'])
export type BulkAction = z.infer<typeof BulkActionSchema>

/** Where a row stands in the journal. `sending` survives a crash only as "it may have been sent". */
export const BulkItemStateSchema = z.enum(['pending', 'sending', 'done', 'failed', 'unknown', 'skipped'])
export type BulkItemState = z.infer<typeof BulkItemStateSchema>

/** What a row came to. */
export const BulkOutcomeSchema = z.enum(['created', 'updated', 'unchanged', 'rotated', 'failed', 'unknown', 'skipped'])
export type BulkOutcome = z.infer<typeof BulkOutcomeSchema>

export const BulkRunStateSchema = z.enum(['planned', 'running', 'paused', 'interrupted', 'cancelled', 'finished'])
export type BulkRunState = z.infer<typeof BulkRunStateSchema>

/** A problem with the input: where it is, and a sentence. Line 1 is a CSV's header. */
export const BulkProblemSchema = z.object({
  line: z.number().int().positive(),
  column: z.string().optional(),
  message: z.string(),
})
export type BulkProblem = z.infer<typeof BulkProblemSchema>

export const BulkCountsSchema = z.object({
  total: z.number().int(),
  create: z.number().int(),
  update: z.number().int(),
  unchanged: z.number().int(),
  rotate: z.number().int(),
})
export type BulkCounts = z.infer<typeof BulkCountsSchema>

export const BulkTalliesSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  rotated: z.number().int(),
  failed: z.number().int(),
  unknown: z.number().int(),
  skipped: z.number().int(),
  pending: z.number().int().describe('Rows not sent yet (or to send again after an interruption)'),
})
export type BulkTallies = z.infer<typeof BulkTalliesSchema>

/** The process sending a run now (the holder of its lease), as another process names it. */
export const BulkRunOwnerSchema = z.object({
  client: z.enum(['app', 'browser', 'cli']).describe('the desktop app, browser mode or the command line'),
  pid: z.number().int(),
  host: z.string(),
  since: z.string(),
})
export type BulkRunOwner = z.infer<typeof BulkRunOwnerSchema>

export const BulkRunSchema = z.object({
  id: z.string(),
  kind: BulkKindSchema,
  profileId: z.string().nullable(),
  profileName: z.string().nullable(),
  baseUrl: z.string(),
  fileName: z.string(),
  state: BulkRunStateSchema,
  sendCreate: z.boolean(),
  sendUpdate: z.boolean(),
  concurrency: z.number().int(),
  ratePerMinute: z.number().int().nullable().describe('null: no limit'),
  bail: z.boolean().describe('Pauses at the first row that fails'),
  planned: BulkCountsSchema,
  tallies: BulkTalliesSchema,
  pausedReason: z
    .string()
    .nullable()
    .describe('Why the run paused itself (the server stopped answering, a row failed with "stop at the first failure")'),
  owner: BulkRunOwnerSchema.nullable().describe('The process sending it now, if any'),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type BulkRun = z.infer<typeof BulkRunSchema>

export const BulkItemSchema = z.object({
  seq: z.number().int(),
  line: z.number().int(),
  groupId: z.string(),
  action: BulkActionSchema,
  state: BulkItemStateSchema,
  outcome: BulkOutcomeSchema.nullable(),
  attempts: z.number().int(),
  httpStatus: z.number().int().nullable(),
  message: z.string().nullable(),
  tokenLast4: z.string().nullable(),
})
export type BulkItem = z.infer<typeof BulkItemSchema>

/** Pushed while a run goes: counts, pace and time left. */
export const BulkProgressSchema = z.object({
  runId: z.string(),
  state: BulkRunStateSchema,
  total: z.number().int().describe('Rows the run sends'),
  done: z.number().int(),
  failed: z.number().int(),
  unknown: z.number().int(),
  retried: z.number().int().describe('Requests sent again after a 429, a 5xx or a network error'),
  ratePerMinute: z.number().describe('Rows finished a minute, over the last seconds'),
  etaSeconds: z.number().nullable(),
  waitingUntil: z.string().nullable().describe('Set while the server asked to wait (429 Retry-After)'),
  pausedReason: z.string().nullable().describe('Why the run paused itself, if it did'),
})
export type BulkProgress = z.infer<typeof BulkProgressSchema>

export const BulkSettingsSchema = z.object({
  concurrency: z.number().int().min(1).max(MAX_BULK_CONCURRENCY).default(DEFAULT_BULK_CONCURRENCY),
  ratePerMinute: z.number().int().min(1).max(100_000).nullable().describe('null: no limit'),
  sendCreate: z.boolean().default(true),
  sendUpdate: z.boolean().default(true),
  bail: z.boolean().default(false).describe('Pause at the first row that fails, not only when the server stops answering'),
})
export type BulkSettings = z.infer<typeof BulkSettingsSchema>

/** The local sandbox takes any pace; a real server gets 120 a minute unless the operator says otherwise. */
export const defaultRateFor = (isLocalSandbox: boolean): number | null => (isLocalSandbox ? null : DEFAULT_RATE_PER_MINUTE)

export const BulkResultsFormatSchema = z.enum(['csv', 'json'])
export type BulkResultsFormat = z.infer<typeof BulkResultsFormatSchema>

/** One row of a results file. The group token appears only when the operator asks for it. */
export const BULK_RESULT_COLUMNS = ['line', 'user_group_id', 'action', 'outcome', 'http_status', 'message', 'token_last4'] as const
