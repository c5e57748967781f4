import { z } from 'zod'
import { CatalogEntrySchema, CatalogQuerySchema, CatalogRowSchema } from '../catalog/schemas'
import { defineCall } from './define'
import { ProfileChoice } from './group-calls'

/** The catalog: the groups this app has seen, per profile, kept in main's database. */
export const catalogCalls = {
  'catalog.list': defineCall({
    summary:
      'A window of the groups this app has seen through a profile, searched, filtered and sorted: after or before a row (by its key), or at a position.',
    input: CatalogQuerySchema.partial({ profileId: true }),
    output: z.object({
      profileId: z.string(),
      total: z.number().int().describe('Groups of this profile'),
      matching: z.number().int().describe('Groups that match the search and filter: at most CATALOG_SEARCH_LISTED when `more`'),
      more: z.boolean().describe('A search matched more groups than are listed: the first of them, in order'),
      position: z.number().int().nullable().describe('The first row’s position in the list, when the window was asked by position'),
      rows: z.array(CatalogRowSchema),
    }),
  }),
  'catalog.get': defineCall({
    summary: 'Everything the catalog knows of one group (its token stays in the vault), and whether its token is kept.',
    input: z.object({ ...ProfileChoice, groupId: z.string().min(1) }).strict(),
    output: z.object({ entry: CatalogEntrySchema.nullable(), tokenKept: z.boolean() }),
  }),
}
