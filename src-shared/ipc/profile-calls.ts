import { z } from 'zod'
import { ProfileChangesSchema, ProfileDraftSchema, ProfileIdSchema, ProfileViewSchema, VaultStatusSchema } from '../profiles/schemas'
import { DiagnosisSchema } from '../user-api/diagnosis'
import { defineCall } from './define'

const byId = z.object({ id: ProfileIdSchema }).strict()
const activeIdSchema = ProfileIdSchema.nullable()

/** One profile export file, read as text: generous for hundreds of profiles, bounded all the same. */
const MAX_IMPORT_CHARACTERS = 1_000_000

export const profileCalls = {
  'profiles.list': defineCall({
    summary: 'Every profile (built-in ones first) with its token described, never given, the active one, and what the vault can do here.',
    input: z.object({}).strict(),
    output: z.object({
      profiles: z.array(ProfileViewSchema),
      activeId: activeIdSchema,
      vault: VaultStatusSchema,
      /** Sentences for the operator about this launch, e.g. an unreadable file moved aside. */
      notices: z.array(z.string()),
    }),
  }),
  'profiles.create': defineCall({
    summary: 'Saves a new profile; its API token, if given, goes into the vault where the operator chose.',
    input: ProfileDraftSchema,
    output: ProfileViewSchema,
  }),
  'profiles.update': defineCall({
    summary:
      'Changes the fields given and keeps the others; the token is replaced only when a new one is given, removed with clearToken or when the base URL moves to another scheme, host or port (with the group tokens kept for the profile).',
    input: z.object({ id: ProfileIdSchema, changes: ProfileChangesSchema }).strict(),
    output: ProfileViewSchema,
  }),
  'profiles.duplicate': defineCall({
    summary: 'Copies a profile under a new name, its API token included (copied inside main).',
    input: byId,
    output: ProfileViewSchema,
  }),
  'profiles.delete': defineCall({
    summary: 'Deletes a saved profile and every secret kept for it; answers which profile is now active.',
    input: byId,
    output: z.object({ activeId: activeIdSchema }),
  }),
  'profiles.setActive': defineCall({
    summary: 'Makes a profile the one the app works with, and remembers it across launches.',
    input: byId,
    output: z.object({ activeId: ProfileIdSchema }),
  }),
  'profiles.export': defineCall({
    summary: 'The saved profiles as the text of an export file: settings only, never a token.',
    input: z.object({}).strict(),
    output: z.object({ text: z.string(), count: z.number().int().nonnegative() }),
  }),
  'profiles.import': defineCall({
    summary: 'Adds the profiles of an export file under new ids, renaming any whose name is taken.',
    input: z.object({ text: z.string().max(MAX_IMPORT_CHARACTERS, 'This file is too large to be a profile export.') }).strict(),
    output: z.object({ imported: z.number().int().nonnegative(), names: z.array(z.string()) }),
  }),
  'profiles.diagnose': defineCall({
    summary:
      'How a call through this profile travels (proxy, certificate authorities, TLS version) and, step by step (DNS, TCP, proxy CONNECT, TLS, HTTP), where it fails. Changes nothing.',
    input: byId,
    output: DiagnosisSchema,
  }),
  'profiles.vaultStatus': defineCall({
    summary: 'Whether tokens can be encrypted here, by which keychain, as a sentence for the profile form.',
    input: z.object({}).strict(),
    output: VaultStatusSchema,
  }),
}
