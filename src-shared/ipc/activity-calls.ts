import { z } from 'zod'
import { ActivityDetailSchema, ActivityEntrySchema, ActivityFilterSchema } from '../activity/schemas'
import { defineCall } from './define'

/** The activity log: every API call made from this app, redacted. */
export const activityCalls = {
  'activity.list': defineCall({
    summary: 'A page of the API calls made from this app, newest first, filtered; tokens redacted.',
    input: ActivityFilterSchema.extend({
      cursor: z.number().int().positive().optional().describe('From the previous page: the entries older than it'),
      limit: z.number().int().min(1).max(1000).default(200),
    }).strict(),
    output: z.object({
      entries: z.array(ActivityEntrySchema),
      total: z.number().int().nullable().describe('Matching entries, counted on the first page only'),
      nextCursor: z.number().int().nullable(),
    }),
  }),
  'activity.get': defineCall({
    summary: 'One call of the activity log with the request it sent and the response it got, redacted.',
    input: z.object({ id: z.string().min(1).max(64) }).strict(),
    output: z.object({ entry: ActivityDetailSchema.nullable() }),
  }),
}
