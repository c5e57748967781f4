import { z } from 'zod'
import {
  OperatorNameSchema,
  TeamActivityEntrySchema,
  TeamActivityQuerySchema,
  TeamGroupInfoSchema,
  TeamMigrationSchema,
  TeamPasswordSchema,
  TeamStatusSchema,
  TeamUrlSchema,
} from '../team/schemas'
import { defineCall } from './define'

/** An address and, when it does not carry one, the password of its role (write-only). */
const Connection = { url: TeamUrlSchema, password: TeamPasswordSchema.optional() }

export const teamCalls = {
  'team.status': defineCall({
    summary: 'Whether this data folder is joined to a team, and how its link stands: connected, schema version, outbox backlog, last pull.',
    input: z.object({}).strict(),
    output: TeamStatusSchema,
  }),
  'team.pull': defineCall({
    summary: 'Pulls the team’s changes (catalog and shared profiles) now, then answers the status.',
    input: z.object({}).strict(),
    output: TeamStatusSchema,
  }),
  'team.join': defineCall({
    summary: 'Joins this data folder to the team database as an operator; the password goes to the vault.',
    input: z.object(Connection).strict(),
    output: TeamStatusSchema,
  }),
  'team.leave': defineCall({
    summary: 'Leaves the team: the link, its password and the team cache go; local data stays.',
    input: z.object({ discardUnpublished: z.boolean().default(false) }).strict(),
    output: TeamStatusSchema,
  }),
  'team.migrate': defineCall({
    summary: 'Admin: creates or upgrades the shared schema (idempotent, version-checked).',
    input: z.object(Connection).strict(),
    output: TeamMigrationSchema,
  }),
  'team.addOperator': defineCall({
    summary: 'Admin: creates an operator’s login role and answers its generated password, once.',
    input: z.object({ ...Connection, name: OperatorNameSchema, resetPassword: z.boolean().default(false) }).strict(),
    output: z.object({ name: z.string(), password: z.string() }),
  }),
  'team.activity': defineCall({
    summary: 'The shared audit log, newest first, filtered; each entry names its actor.',
    input: TeamActivityQuerySchema,
    output: z.object({ entries: z.array(TeamActivityEntrySchema), nextCursor: z.number().int().nullable(), actors: z.array(z.string()) }),
  }),
  'team.group': defineCall({
    summary:
      'What the team knows of a group reached through a profile: who last changed and rotated it, and whether the token kept here is current.',
    input: z.object({ profileId: z.string().optional(), groupId: z.string().min(1) }).strict(),
    output: z.object({ info: TeamGroupInfoSchema.nullable() }),
  }),
}
