import { z } from 'zod'
import {
  BulkActionSchema,
  BulkCountsSchema,
  BulkFormatSchema,
  BulkItemSchema,
  BulkItemStateSchema,
  BulkKindSchema,
  BulkOutcomeSchema,
  BulkProblemSchema,
  BulkProgressSchema,
  BulkResultsFormatSchema,
  BulkRunSchema,
  BulkSettingsSchema,
  MAX_BULK_FILE_CHARACTERS,
} from '../bulk/schemas'
import { defineCall } from './define'

const RunChoice = z.object({ runId: z.string().uuid('Not a bulk run id.') }).strict()

export const BulkPlanSchema = z.object({
  runId: z.string().nullable().describe('The planned run, or null while problems are left to fix or exclude'),
  format: BulkFormatSchema,
  planned: BulkCountsSchema,
  problems: z.array(BulkProblemSchema).describe('The first 500, by line'),
  problemCount: z.number().int(),
})
export type BulkPlan = z.infer<typeof BulkPlanSchema>

export const BulkItemFilterSchema = z
  .object({
    action: BulkActionSchema.optional(),
    state: BulkItemStateSchema.optional(),
    outcome: BulkOutcomeSchema.optional(),
    search: z.string().max(500).optional(),
  })
  .strict()

export const bulkCalls = {
  'bulk.plan': defineCall({
    summary: 'Reads a CSV, JSON or JSON Lines file, checks every row and plans it against the profile’s catalog. Sends nothing.',
    input: z
      .object({
        kind: BulkKindSchema.default('apply'),
        profileId: z.string().min(1),
        fileName: z.string().min(1).max(255),
        text: z.string().max(MAX_BULK_FILE_CHARACTERS, `The file is larger than ${MAX_BULK_FILE_CHARACTERS / 1024 / 1024} MB: split it.`),
        excludeInvalid: z.boolean().default(false),
        settings: BulkSettingsSchema,
      })
      .strict(),
    output: BulkPlanSchema,
  }),
  'bulk.start': defineCall({
    summary: 'Starts (or resumes) a planned run with its concurrency, rate limit and what to send.',
    input: RunChoice.extend({ settings: BulkSettingsSchema }).strict(),
    output: BulkRunSchema,
  }),
  'bulk.pause': defineCall({
    summary: 'Takes no new row; the requests in flight finish.',
    input: RunChoice,
    output: z.object({}),
  }),
  'bulk.resume': defineCall({
    summary: 'Goes on with a paused run.',
    input: RunChoice,
    output: z.object({}),
  }),
  'bulk.cancel': defineCall({
    summary: 'Ends a run: the requests in flight finish, the rows not sent are skipped.',
    input: RunChoice,
    output: z.object({}),
  }),
  'bulk.runs': defineCall({
    summary: 'The newest bulk runs, with their counts; runs a crashed process left are marked interrupted.',
    input: z.object({ limit: z.number().int().min(1).max(200).default(50) }).strict(),
    output: z.object({ runs: z.array(BulkRunSchema) }),
  }),
  'bulk.run': defineCall({
    summary: 'One run, and its live progress while it goes in this process.',
    input: RunChoice,
    output: z.object({ run: BulkRunSchema, progress: BulkProgressSchema.nullable() }),
  }),
  'bulk.items': defineCall({
    summary: 'A window of a run’s rows, filtered.',
    input: RunChoice.extend({
      filter: BulkItemFilterSchema.default({}),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(1000).default(200),
    }).strict(),
    output: z.object({ matching: z.number().int(), items: z.array(BulkItemSchema) }),
  }),
  'bulk.saveResults': defineCall({
    summary:
      'Writes a run’s results file, owner-only; with the group tokens only when asked. The desktop app asks where with the system’s save dialog; browser mode takes a typed path, and asks before replacing a file. Null when the dialog was cancelled.',
    input: RunChoice.extend({
      format: BulkResultsFormatSchema,
      includeTokens: z.boolean(),
      target: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('dialog') }).strict(),
        z
          .object({
            kind: z.literal('path'),
            path: z.string().trim().min(1, 'Give the path of the file.').max(4096),
            replaceToken: z
              .string()
              .max(100)
              .optional()
              .describe('From the refusal that asked "Replace it?": replaces that file as it was then, once'),
          })
          .strict(),
      ]),
    }).strict(),
    output: z.object({ path: z.string(), rows: z.number().int() }).nullable(),
  }),
}
