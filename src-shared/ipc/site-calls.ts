import { z } from 'zod'
import { defineCall } from './define'

/**
 * The largest site.json the editor opens or writes. The 6,000-page benchmark file is about
 * 0.2 MB; this leaves room for far larger sites while keeping a stray binary file out.
 */
export const MAX_SITE_FILE_CHARACTERS = 10_000_000

/** The one file-path schema: every path the renderer names to main, whatever it is for. */
export const SiteFilePathSchema = z
  .string()
  .trim()
  .min(1, 'Give the path of a file.')
  .max(4096, 'A file path has at most 4096 characters.')

const SiteTextSchema = z.string().max(MAX_SITE_FILE_CHARACTERS, 'This text is too large to be a site.json file.')

/**
 * Which open document a draft belongs to: derived from the file's path by main, or made up for
 * an untitled document. Also a file name in the drafts folder, hence the narrow alphabet.
 */
export const SiteDocumentIdSchema = z.string().regex(/^[a-z0-9-]{1,64}$/, 'Not a document id.')

/**
 * What the file on disk was when the editor last read or wrote it. A save compares it with the
 * file as it is now and refuses to overwrite a change made elsewhere.
 */
export const FileVersionSchema = z
  .object({
    mtimeMs: z.number(),
    size: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict()
export type FileVersion = z.infer<typeof FileVersionSchema>

/** An autosaved copy of a document's unsaved text, kept in the data folder until saved or discarded. */
export const SiteDraftSchema = z.object({
  documentId: SiteDocumentIdSchema,
  path: z.string().nullable(),
  text: z.string(),
  savedAt: z.string(),
  /** The file version the unsaved changes were made on; null for an untitled document. */
  baseVersion: FileVersionSchema.nullable(),
})
export type SiteDraft = z.infer<typeof SiteDraftSchema>

export const SiteDraftSummarySchema = SiteDraftSchema.omit({ text: true })
export type SiteDraftSummary = z.infer<typeof SiteDraftSummarySchema>

export const SiteDocumentSchema = z.object({
  documentId: SiteDocumentIdSchema,
  /** Null for an untitled document, which is saved with Save As. */
  path: z.string().nullable(),
  text: z.string(),
  version: FileVersionSchema.nullable(),
  /** Unsaved changes to this document autosaved by an earlier session, to offer back. */
  draft: SiteDraftSchema.nullable(),
})
export type SiteDocument = z.infer<typeof SiteDocumentSchema>

/** What a save answers: the text exactly as written (normalised), and the file's new version. */
export const SavedSiteFileSchema = z.object({
  documentId: SiteDocumentIdSchema,
  path: z.string(),
  text: z.string(),
  version: FileVersionSchema,
})
export type SavedSiteFile = z.infer<typeof SavedSiteFileSchema>

export const RecentSiteFileSchema = z.object({ path: z.string(), openedAt: z.string() })
export type RecentSiteFile = z.infer<typeof RecentSiteFileSchema>

const recentList = z.object({ files: z.array(RecentSiteFileSchema) })

export const siteCalls = {
  'site.new': defineCall({
    summary: 'An untitled document holding the smallest valid site.json.',
    input: z.object({}).strict(),
    output: SiteDocumentSchema,
  }),
  'site.open': defineCall({
    summary: 'Reads a site.json file as text (JSON or not), with its version and any autosaved draft of it.',
    input: z.object({ path: SiteFilePathSchema }).strict(),
    output: SiteDocumentSchema,
  }),
  'site.save': defineCall({
    summary:
      'Writes the document back to its file, formatted as 2-space JSON, unless the file changed on disk since the version given.',
    input: z
      .object({ documentId: SiteDocumentIdSchema, path: SiteFilePathSchema, text: SiteTextSchema, expectedVersion: FileVersionSchema })
      .strict(),
    output: SavedSiteFileSchema,
  }),
  'site.saveAs': defineCall({
    summary: 'Writes the document to a new path, which it then belongs to; an existing file is replaced only with overwrite.',
    input: z
      .object({ documentId: SiteDocumentIdSchema, path: SiteFilePathSchema, text: SiteTextSchema, overwrite: z.boolean() })
      .strict(),
    output: SavedSiteFileSchema,
  }),
  'site.export': defineCall({
    summary: 'Writes a validated copy of the document to a path; refused while the document has errors.',
    input: z.object({ path: SiteFilePathSchema, text: SiteTextSchema, overwrite: z.boolean() }).strict(),
    output: z.object({ path: z.string(), warnings: z.number().int().nonnegative() }),
  }),
  'site.recent': defineCall({
    summary: 'The site.json files opened or saved lately, newest first (at most 10).',
    input: z.object({}).strict(),
    output: recentList,
  }),
  'site.forgetRecent': defineCall({
    summary: 'Removes one path from the recent files.',
    input: z.object({ path: SiteFilePathSchema }).strict(),
    output: recentList,
  }),
  'site.draftList': defineCall({
    summary: 'Every autosaved draft of unsaved changes, newest first: offered back after a crash.',
    input: z.object({}).strict(),
    output: z.object({ drafts: z.array(SiteDraftSummarySchema) }),
  }),
  'site.draftGet': defineCall({
    summary: 'One autosaved draft with its text.',
    input: z.object({ documentId: SiteDocumentIdSchema }).strict(),
    output: SiteDraftSchema,
  }),
  'site.draftSave': defineCall({
    summary: 'Autosaves the unsaved text of an open document.',
    input: z
      .object({
        documentId: SiteDocumentIdSchema,
        path: SiteFilePathSchema.nullable(),
        text: SiteTextSchema,
        baseVersion: FileVersionSchema.nullable(),
      })
      .strict(),
    output: z.object({ savedAt: z.string() }),
  }),
  'site.draftDiscard': defineCall({
    summary: 'Deletes the autosaved draft of a document, if there is one.',
    input: z.object({ documentId: SiteDocumentIdSchema }).strict(),
    output: z.object({}),
  }),
}
