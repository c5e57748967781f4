import { z } from 'zod'
import { EnvironmentTagSchema, MappingSchema, PropertiesSchema } from '../user-api/schemas'

/**
 * What the app remembers of a group it has seen through one profile (the API has no list call).
 * The group's token is not here: it lives in the vault, and only its last 4 characters are kept.
 */
export const CatalogEntrySchema = z.object({
  profileId: z.string(),
  groupId: z.string().describe('The user_group_id (provided_id in responses)'),
  name: z.string().optional(),
  environmentTag: EnvironmentTagSchema.nullable().optional(),
  teamId: z.number().optional(),
  mapping: MappingSchema.optional(),
  properties: PropertiesSchema.nullable().optional(),
  tokenLast4: z.string().optional(),
  createdAt: z.string().describe('When this app first saw the group'),
  updatedAt: z.string().describe('When a call last changed or confirmed its fields'),
  rotatedAt: z.string().optional(),
})
export type CatalogEntry = z.infer<typeof CatalogEntrySchema>

export const CatalogSortKeySchema = z.enum(['groupId', 'name', 'environmentTag', 'teamId', 'updatedAt'])
export const CatalogEnvironmentFilterSchema = z.enum(['all', 'Customer', 'Testing', 'untagged'])

const CatalogKeySchema = z.string().max(4096)
export const CatalogWindowStartSchema = z.union([
  z.object({ position: z.number().int().min(0) }).strict(),
  z.object({ after: CatalogKeySchema }).strict(),
  z.object({ before: CatalogKeySchema }).strict(),
])
export type CatalogWindowStart = z.infer<typeof CatalogWindowStartSchema>

export const CatalogQuerySchema = z
  .object({
    profileId: z.string(),
    search: z.string().max(500).default(''),
    environment: CatalogEnvironmentFilterSchema.default('all'),
    sortBy: CatalogSortKeySchema.default('updatedAt'),
    sortDirection: z.enum(['asc', 'desc']).default('desc'),
    /** Only the groups whose token the vault still holds (the ones a rotation can pick). */
    tokenKept: z.boolean().optional(),
    /**
     * Where the window starts: right after a row (its `key`) or right before one, in the list's
     * order, or at a position (from 0) when no row near it is known yet (a scrollbar dragged far).
     */
    at: CatalogWindowStartSchema.default({ position: 0 }),
    limit: z.number().int().min(1).max(1000).default(200),
  })
  .strict()
export type CatalogQuery = z.infer<typeof CatalogQuerySchema>

/** A search matching more groups than this lists the first of them, in order (and says so). */
export const CATALOG_SEARCH_LISTED = 1000

/** A row of the list: enough to show, search and sort without shipping every group's JSON. */
export const CatalogRowSchema = CatalogEntrySchema.pick({
  groupId: true,
  name: true,
  environmentTag: true,
  teamId: true,
  tokenLast4: true,
  updatedAt: true,
  rotatedAt: true,
}).extend({
  tokenKept: z.boolean().describe('Whether the vault still holds the group’s token (session tokens go when the app quits)'),
  key: CatalogKeySchema.describe('The row’s place in the list’s order: ask for the window after (or before) it by this'),
})
export type CatalogRow = z.infer<typeof CatalogRowSchema>
