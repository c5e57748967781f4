import { z } from 'zod'
import { BaseUrlSchema } from '../profiles/schemas'
import { MAX_FILES_CHECKED } from '../site-config/diagnose'
import { DocsIndexSchema, ImageCheckSchema, OpenApiCheckSchema } from '../site-config/docs-files'
import { MAX_SITE_FILE_CHARACTERS } from '../site-config/file-limits'
import { OperationSummarySchema, OperationViewSchema } from '../site-config/openapi-operation'
import { RuleSetSchema } from '../site-config/rule-sets'
import { PageFactsSchema } from '../site-config/site-pages'
import { defineCall } from './define'

/**
 * The most folders of a docs folder watched for changes at once, each by one handle of the
 * system's: the largest real docs.json (crewAI's) names 3,251.
 */
export const MAX_WATCHED_FOLDERS = 5000

/** The one file-path schema: every path the renderer names to main, whatever it is for. */
export const SiteFilePathSchema = z.string().trim().min(1, 'Give the path of a file.').max(4096, 'A file path has at most 4096 characters.')

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
  /** The file's text exactly as on disk, less a byte order mark, which `byteOrderMark` records. */
  text: z.string(),
  byteOrderMark: z.boolean(),
  version: FileVersionSchema.nullable(),
  /** Unsaved changes to this document autosaved by an earlier session, to offer back. */
  draft: SiteDraftSchema.nullable(),
  /** The rule set last chosen for this file, or null where none was. */
  rules: RuleSetSchema.nullable(),
  /**
   * What was done, as a sentence, with a save of this file and its $ref files that a stopped process left half done
   * (completed or undone).
   */
  recovered: z.string().optional(),
})
export type SiteDocument = z.infer<typeof SiteDocumentSchema>

/** What a save answers: the text exactly as written (a byte order mark aside), and the file's new version. */
export const SavedSiteFileSchema = z.object({
  documentId: SiteDocumentIdSchema,
  path: z.string(),
  text: z.string(),
  version: FileVersionSchema,
})
export type SavedSiteFile = z.infer<typeof SavedSiteFileSchema>

/**
 * Where a Save as or an Export writes. The desktop app asks with the system's save dialog, in
 * main, so the renderer never names a path to write; browser mode has no such dialog, so the
 * path is typed, and replacing an existing file takes the token of the question that asked
 * (the `conflict` error's details), which is good for that file as it then was, once.
 */
export const SaveTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('dialog') }).strict(),
  z.object({ kind: z.literal('path'), path: SiteFilePathSchema, replaceToken: z.string().max(100).optional() }).strict(),
])
export type SaveTarget = z.infer<typeof SaveTargetSchema>

export const RecentSiteFileSchema = z.object({ path: z.string(), openedAt: z.string() })
export type RecentSiteFile = z.infer<typeof RecentSiteFileSchema>

const recentList = z.object({ files: z.array(RecentSiteFileSchema) })

/**
 * Where "Add the API reference" writes: openapi.json next to the document's file. An existing
 * file is described, with the token that answers "replace it?" for that file as it now is.
 */
export const ApiReferenceTargetSchema = z.object({
  path: z.string(),
  existing: z.object({ size: z.number().int().nonnegative(), modifiedAt: z.string(), replaceToken: z.string() }).nullable(),
})
export type ApiReferenceTarget = z.infer<typeof ApiReferenceTargetSchema>

/** A file a docs.json's `$ref` names, relative to its folder, normalised (no `..`, no leading /). */
export const RefPathSchema = z
  .string()
  .min(1)
  .max(1000)
  .refine(
    (ref) => !ref.startsWith('/') && !ref.split('/').includes('..') && !ref.includes('\\'),
    'A $ref file is named relative to the docs.json, inside its folder.',
  )

/** A `$ref` file as read: its text (null when missing or unreadable, `error` saying why) and version. */
export const RefFileSchema = z.object({
  ref: z.string(),
  text: z.string().nullable(),
  byteOrderMark: z.boolean(),
  version: FileVersionSchema.nullable(),
  error: z.string().nullable(),
})

/** A `$ref` file saved in place with its docs.json: refused, like the docs.json, when it changed on disk. */
const RefSaveSchema = z
  .object({ ref: RefPathSchema, text: SiteTextSchema, byteOrderMark: z.boolean(), expectedVersion: FileVersionSchema.nullable() })
  .strict()

export const siteCalls = {
  'site.new': defineCall({
    summary: 'An untitled document holding the smallest valid site.json.',
    input: z.object({}).strict(),
    output: SiteDocumentSchema,
  }),
  'site.open': defineCall({
    summary:
      'Reads a site.json file as text (JSON or not), with its version and any autosaved draft of it. Regular files only, never in the data folder.',
    input: z.object({ path: SiteFilePathSchema }).strict(),
    output: SiteDocumentSchema,
  }),
  'site.openWithDialog': defineCall({
    summary: 'Asks for a file with the system’s open dialog and reads it as site.open does; null when the dialog was cancelled.',
    input: z.object({}).strict(),
    output: z.object({ document: SiteDocumentSchema.nullable() }),
  }),
  'site.save': defineCall({
    summary:
      'Writes the text, exactly as given, back to the file the document was opened from or saved to, unless the file changed on disk since the version given.',
    input: z
      .object({
        documentId: SiteDocumentIdSchema,
        text: SiteTextSchema,
        byteOrderMark: z.boolean(),
        expectedVersion: FileVersionSchema,
        /** docs.json `$ref` files edited with it: every file is checked against the disk before any is written. */
        refs: z.array(RefSaveSchema).max(200).optional(),
      })
      .strict(),
    output: SavedSiteFileSchema.extend({
      refs: z.array(z.object({ ref: z.string(), text: z.string(), version: FileVersionSchema })).optional(),
    }),
  }),
  'site.readRefs': defineCall({
    summary: 'Reads the files a docs.json’s $ref objects name, from its own folder (never outside it, never the data folder).',
    input: z.object({ documentId: SiteDocumentIdSchema, refs: z.array(RefPathSchema).max(200) }).strict(),
    output: z.object({ files: z.array(RefFileSchema) }),
  }),
  'site.saveAs': defineCall({
    summary: 'Writes the document to a new file, which it then belongs to; null when the dialog was cancelled.',
    input: z
      .object({ documentId: SiteDocumentIdSchema, text: SiteTextSchema, byteOrderMark: z.boolean(), target: SaveTargetSchema })
      .strict(),
    output: z.object({ saved: SavedSiteFileSchema.nullable() }),
  }),
  'site.export': defineCall({
    summary:
      'Writes a copy of the document to another file, refused while it has errors under the rule set given; null when the dialog was cancelled.',
    input: z
      .object({
        documentId: SiteDocumentIdSchema,
        text: SiteTextSchema,
        byteOrderMark: z.boolean(),
        rules: RuleSetSchema,
        target: SaveTargetSchema,
      })
      .strict(),
    output: z.object({ exported: z.object({ path: z.string(), warnings: z.number().int().nonnegative() }).nullable() }),
  }),
  'site.setRules': defineCall({
    summary: 'Remembers the rule set chosen for the document’s file, for the next time it opens.',
    input: z.object({ documentId: SiteDocumentIdSchema, rules: RuleSetSchema }).strict(),
    output: z.object({}),
  }),
  'site.docsIndex': defineCall({
    summary:
      'Indexes the docs folder of a document (its file’s folder, or one chosen: with the system’s dialog, or a typed path) and watches it; null when the dialog was cancelled or the document has no folder yet.',
    input: z
      .object({
        documentId: SiteDocumentIdSchema,
        folder: z
          .discriminatedUnion('kind', [
            z.object({ kind: z.literal('dialog') }).strict(),
            z.object({ kind: z.literal('path'), path: SiteFilePathSchema }).strict(),
          ])
          .optional(),
        watch: z
          .array(z.string().max(1000))
          .max(MAX_WATCHED_FOLDERS)
          .default([''])
          .describe(
            'The folders the document can name (relative, "" for the folder itself): only these are watched, each without its subfolders, and never through a link out of the folder. Absent: the folder itself.',
          ),
      })
      .strict(),
    output: z.object({ index: DocsIndexSchema.nullable() }),
  }),
  'site.docsPages': defineCall({
    summary:
      'Reads the pages of the document’s docs folder as last indexed (the first 10,000): the anchors, links and images in each, and what is wrong with its front matter or MDX; null when the document has no folder yet.',
    input: z.object({ documentId: SiteDocumentIdSchema }).strict(),
    output: z.object({ facts: PageFactsSchema.nullable() }),
  }),
  'site.checkOpenApi': defineCall({
    summary: 'Parses and validates OpenAPI files of the document’s docs folder, as the site.json names them.',
    input: z.object({ documentId: SiteDocumentIdSchema, files: z.array(z.string().min(1).max(1000)).max(MAX_FILES_CHECKED) }).strict(),
    output: z.object({ checks: z.array(OpenApiCheckSchema) }),
  }),
  'site.checkImages': defineCall({
    summary: 'Reads the images a config names (logo, favicon, background) from the document’s docs folder: there, and an image?',
    input: z.object({ documentId: SiteDocumentIdSchema, files: z.array(z.string().min(1).max(1000)).max(MAX_FILES_CHECKED) }).strict(),
    output: z.object({ checks: z.array(ImageCheckSchema) }),
  }),
  'site.previewFiles': defineCall({
    summary:
      'Where the site preview’s frame finds the document’s docs folder: a URL path with a random token, serving its pictures read-only, and with `webPictures` (the operator’s leave, for this document) pictures from the web, fetched by main.',
    input: z.object({ documentId: SiteDocumentIdSchema, webPictures: z.boolean().optional() }).strict(),
    output: z.object({ base: z.string().nullable() }),
  }),
  'site.previewText': defineCall({
    summary:
      'A page or snippet of the document’s docs folder (.md or .mdx), as text, for the site preview: never a file outside the folder.',
    input: z.object({ documentId: SiteDocumentIdSchema, file: z.string().min(1).max(1000) }).strict(),
    output: z.object({ text: z.string() }),
  }),
  'site.previewOpenApi': defineCall({
    summary: 'An OpenAPI file of the docs folder as the site preview shows it: its operations, and one of them in full.',
    input: z
      .object({ documentId: SiteDocumentIdSchema, file: z.string().min(1).max(1000), operation: z.string().max(2000).optional() })
      .strict(),
    output: z.object({ title: z.string().nullable(), operations: z.array(OperationSummarySchema), detail: OperationViewSchema.nullable() }),
  }),
  'site.apiReferenceTarget': defineCall({
    summary: 'Where the API reference of a document goes (openapi.json next to its file), and whether a file is there already.',
    input: z.object({ documentId: SiteDocumentIdSchema }).strict(),
    output: ApiReferenceTargetSchema,
  }),
  'site.writeApiReference': defineCall({
    summary:
      'Writes the OpenAPI document of /api/user as openapi.json next to the document’s file, atomically (an existing file only with the token of the question that asked), and an MDX page per operation under api-reference/ where there is none. The server URL is the profile’s base URL, or null for none (never a loopback address).',
    input: z
      .object({ documentId: SiteDocumentIdSchema, serverUrl: BaseUrlSchema.nullable(), replaceToken: z.string().max(100).optional() })
      .strict(),
    output: z.object({
      path: z.string(),
      replaced: z.boolean(),
      serverUrl: z.string().nullable(),
      pagesWritten: z.array(z.string()).describe('The endpoint pages written (relative to the docs folder), one per operation'),
      pagesKept: z.array(z.string()).describe('Endpoint pages that were there already: left as they are'),
    }),
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
