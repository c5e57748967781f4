import { parseArgs } from 'node:util'
import type { z } from 'zod'
import { AppErrorException } from '../../src-shared/ipc/result'
import {
  BaseUrlSchema,
  EnvironmentKindSchema,
  EnvironmentLabelSchema,
  ProfileNameSchema,
  TimeoutSecondsSchema,
} from '../../src-shared/profiles/schemas'
import { type TeamActivityEntry, TeamActivityQuerySchema, type TeamStatus } from '../../src-shared/team/schemas'
import { plural } from '../../src-shared/text/plural'
import type { AppServices } from '../app-services'
import { withCliServices } from './cli-services'
import { type CliIo, type Command, folderOptions, printJson, UsageError } from './usage'

/*
 * `embed-console team …`: an admin creates the shared schema and operators' login roles; an
 * operator joins a data folder to the team, leaves, checks the link and reads the shared audit
 * log. The Postgres driver loads only here (and in a joined folder's services), never for
 * `--version` or a single call.
 */

export const PASSWORD_ENV = 'EMBED_CONSOLE_TEAM_PASSWORD'

const PASSWORD_HELP = `The password: in the address, or with --password - (read from standard input, or asked for without echo on a terminal), or in ${PASSWORD_ENV} (never a flag's value: flags show up in process lists).`

interface Subcommand {
  summary: string
  command: Command
}

const exitCodes: Array<[number, string]> = [
  [0, 'done'],
  [1, 'the team database refused it or could not be reached (the sentence says which)'],
  [2, 'bad usage'],
]

/** The password of an address: `--password -` reads it from stdin; else the address's own, else the environment's. */
async function passwordOf(values: { password?: string | undefined }, io: CliIo): Promise<string | undefined> {
  if (values.password !== undefined) {
    if (values.password !== '-') throw new UsageError(`--password takes "-" and reads the password from standard input. ${PASSWORD_HELP}`)
    // A terminal asks without echo; a pipe is read to its end.
    const text = (io.prompt ? await io.prompt('Password (not shown): ') : await io.stdin()).replace(/\r?\n$/, '')
    if (!text) throw new UsageError('Standard input held no password.')
    return text
  }
  return io.env[PASSWORD_ENV] || undefined
}

/** Runs `work` with the data folder's services (no sandbox), closed after (which publishes the outbox). */
const withServices = <T>(dataDir: string | undefined, io: CliIo, work: (services: AppServices) => Promise<T>) =>
  withCliServices(dataDir, io, work)

/** Prints the value (or the error) as the command's one answer; exit 0, 1 or 2. */
async function answer<T>(io: CliIo, json: boolean, work: () => Promise<T>, say: (value: T) => void): Promise<number> {
  try {
    const value = await work()
    if (json) printJson(io, { ok: true, value })
    else say(value)
    return 0
  } catch (error) {
    if (!(error instanceof AppErrorException)) throw error
    if (json) printJson(io, { ok: false, error: error.toAppError() })
    else io.stderr(error.message)
    return error.code === 'invalid_input' ? 2 : 1
  }
}

const at = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'short', timeStyle: 'medium' }) : 'never')

function statusLines(status: TeamStatus): string[] {
  if (!status.joined)
    return ['This data folder has not joined a team (one person’s mode). Join one with `embed-console team join --url …`.']
  const storage = {
    keychain: 'encrypted with the system keychain',
    file: 'unencrypted in the owner-only database (no keychain here)',
    session: 'for this session only',
    none: 'not kept (the address or .pgpass gives it)',
  }[status.passwordStorage]
  return [
    `Team database: ${status.url} as ${status.user}${status.admin ? ' (admin)' : ''}, joined ${at(status.joinedAt)}`,
    `Connected: ${status.connected ? 'yes' : 'no'}${status.schemaVersion !== null ? `, schema version ${status.schemaVersion} (this Embed Console: ${status.supportedVersion})` : ''}`,
    ...(status.problem ? [status.problem] : []),
    `Outbox: ${status.outboxBacklog === 0 ? 'empty' : `${plural(status.outboxBacklog, 'call')} waiting for the audit log`} (last published ${at(status.lastPublishAt)})`,
    ...(status.outboxBacklog > 0 && status.publishError ? [`  The last attempt failed: ${status.publishError}`] : []),
    ...(status.parkedCount > 0
      ? [
          `Parked: ${plural(status.parkedCount, 'call')} the team database refused to store (kept here, out of the queue; the rest went on):`,
          ...status.parked.map(
            (call) => `  ${at(call.calledAt)} ${call.operation ?? 'call'}${call.groupId ? ` of ${call.groupId}` : ''}: ${call.reason}`,
          ),
        ]
      : []),
    `Last pull: ${at(status.lastPullAt)}`,
    `Password: ${storage}`,
    ...status.runs.map((run) => `Running: ${run.label} by ${run.actor} (${run.client} on ${run.host}) since ${at(run.since)}`),
    ...status.warnings.map((warning) => `Warning: ${warning}`),
  ]
}

const OUTCOME_WORDS: Record<TeamActivityEntry['outcome'], string> = { success: 'success', failure: 'failure', unknown: 'unknown' }

function activityLine(entry: TeamActivityEntry): string {
  const settled = entry.settledOutcome ? ` (${entry.settledOutcome === 'rotated' ? 'rotated, confirmed later' : 'not rotated'})` : ''
  return [
    at(entry.time),
    entry.actor,
    entry.operation,
    entry.groupId ?? '-',
    `${OUTCOME_WORDS[entry.outcome]}${settled}`,
    entry.profileName,
    entry.message ?? '',
  ]
    .join('\t')
    .trimEnd()
}

const migrate: Command = {
  name: 'team migrate',
  usage: [
    'embed-console team migrate --url URL [--password -] [--json]',
    '',
    'Admin: creates or upgrades the Embed Console schema in the team database (idempotent, version-checked).',
    PASSWORD_HELP,
  ].join('\n'),
  examples: [
    'EMBED_CONSOLE_TEAM_PASSWORD=… embed-console team migrate --url "postgres://admin@db.example.com/embed_team?sslmode=verify-full"',
  ],
  exitCodes,
  async run(argv, io) {
    const { values } = parseArgs({
      args: argv,
      options: { url: { type: 'string' }, password: { type: 'string' }, json: { type: 'boolean', default: false } },
      strict: true,
    })
    if (!values.url) throw new UsageError('team migrate needs --url (the team database’s address, as an admin).')
    const password = await passwordOf(values, io)
    return answer(
      io,
      values.json,
      async () => {
        const { migrateTeam } = await import('../team/team-admin')
        return migrateTeam(values.url!, password)
      },
      (outcome) => {
        io.stdout(
          outcome.applied.length
            ? `The team schema is at version ${outcome.to} (was ${outcome.from}): applied ${outcome.applied.map((step) => `${step.version} (${step.name})`).join(', ')}.`
            : `The team schema is at version ${outcome.to} already: nothing to do.`,
        )
        for (const note of outcome.notes) io.stderr(`Note: ${note}`)
      },
    )
  },
}

const addOperator: Command = {
  name: 'team add-operator',
  usage: [
    'embed-console team add-operator NAME --url ADMIN_URL [--reset-password] [--password -] [--json]',
    '',
    'Admin: creates the login role NAME (an Embed Console operator: it reads the team tables and writes',
    'only through the schema’s functions) with a generated password, printed once on standard output.',
    '--reset-password gives an existing operator a new one. The server is sent the password’s SCRAM',
    'verifier, never the password.',
    PASSWORD_HELP,
    '--json: {"ok": true, "value": {"name", "password"}}',
  ].join('\n'),
  examples: ['embed-console team add-operator ops-2 --url "postgres://admin@db.example.com/embed_team?sslmode=verify-full" --json'],
  exitCodes,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        url: { type: 'string' },
        password: { type: 'string' },
        'reset-password': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
      allowPositionals: true,
      strict: true,
    })
    if (positionals.length !== 1) throw new UsageError('Name one operator: embed-console team add-operator NAME --url ADMIN_URL')
    if (!values.url) throw new UsageError('team add-operator needs --url (the team database’s address, as an admin).')
    const password = await passwordOf(values, io)
    return answer(
      io,
      values.json,
      async () => {
        const { addOperator: add } = await import('../team/team-admin')
        return add({ url: values.url!, password, name: positionals[0]!, resetPassword: values['reset-password'] })
      },
      (operator) => {
        const joinUrl = new URL(values.url!)
        joinUrl.username = encodeURIComponent(operator.name)
        joinUrl.password = ''
        io.stderr(
          `${values['reset-password'] ? 'A new password for' : 'Created the operator'} ${operator.name}. Its password is below, shown this once: give it to them privately. They join with:`,
        )
        io.stderr(`  embed-console team join --url "${joinUrl.toString()}" --password -`)
        io.stdout(operator.password)
      },
    )
  },
}

/** A value checked with the profile schema's own rule, or a usage mistake naming the flag. */
function checked<T>(flag: string, schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value)
  if (!result.success) throw new UsageError(`--${flag}: ${result.error.issues[0]?.message ?? 'not valid'}`)
  return result.data
}

const shareProfile: Command = {
  name: 'team share-profile',
  usage: [
    'embed-console team share-profile NAME --base-url URL --url ADMIN_URL [--environment customer|testing|unspecified] [--label TEXT] [--timeout SECONDS] [--json]',
    'embed-console team share-profile NAME --remove --url ADMIN_URL',
    '',
    'Admin: shares a connection profile’s settings with the team (never a token): every joined machine',
    'pulls it as a profile of its own, and each operator enters their own API token in it. Sharing a',
    'name again updates it; --remove withdraws it (machines keep their copy).',
    PASSWORD_HELP,
  ].join('\n'),
  examples: [
    'embed-console team share-profile Production --base-url https://api.example.com --environment customer --url "postgres://admin@db.example.com/embed_team?sslmode=verify-full"',
  ],
  exitCodes,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        url: { type: 'string' },
        password: { type: 'string' },
        'base-url': { type: 'string' },
        environment: { type: 'string', default: 'customer' },
        label: { type: 'string', default: '' },
        timeout: { type: 'string', default: '15' },
        remove: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
      allowPositionals: true,
      strict: true,
    })
    if (positionals.length !== 1)
      throw new UsageError('Name one profile: embed-console team share-profile NAME --base-url URL --url ADMIN_URL')
    if (!values.url) throw new UsageError('team share-profile needs --url (the team database’s address, as an admin).')
    if (!values.remove && !values['base-url']) throw new UsageError('team share-profile needs --base-url (the API’s address), or --remove.')
    const profile = {
      name: checked('name', ProfileNameSchema, positionals[0]),
      baseUrl: values.remove ? 'https://removed.invalid' : checked('base-url', BaseUrlSchema, values['base-url']),
      timeoutSeconds: checked('timeout', TimeoutSecondsSchema, Number(values.timeout)),
      environmentLabel: checked('label', EnvironmentLabelSchema, values.label),
      environmentKind: checked('environment', EnvironmentKindSchema, values.environment),
    }
    const password = await passwordOf(values, io)
    return answer(
      io,
      values.json,
      async () => {
        const { shareProfile: share } = await import('../team/team-admin')
        return share(values.url!, password, profile, values.remove)
      },
      (shared) =>
        io.stdout(
          shared.removed
            ? `The shared profile “${shared.name}” is withdrawn: machines keep their copy.`
            : `“${shared.name}” is shared: every joined machine pulls it, and each operator enters their own API token in it.`,
        ),
    )
  },
}

const join: Command = {
  name: 'team join',
  usage: [
    'embed-console team join --url URL [--password -] [--data-dir DIR] [--json]',
    '',
    'Joins this data folder to the team database as the operator the address names. The password goes',
    'to the vault (encrypted with the system keychain where there is one), never to a plain file; the',
    'address is kept without it. Off this computer the address must say ?sslmode=verify-full.',
    PASSWORD_HELP,
  ].join('\n'),
  examples: [
    'printf %s "$TEAM_PASSWORD" | embed-console team join --url "postgres://ops-2@db.example.com/embed_team?sslmode=verify-full" --password -',
  ],
  exitCodes,
  async run(argv, io) {
    const { values } = parseArgs({
      args: argv,
      options: {
        url: { type: 'string' },
        password: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    })
    if (!values.url) throw new UsageError('team join needs --url (the address an admin gave you).')
    const password = await passwordOf(values, io)
    return withServices(values['data-dir'], io, (services) =>
      answer(
        io,
        values.json,
        () => services.team.join(values.url!, password),
        (status) => {
          io.stdout(`This data folder joined the team database at ${status.url} as ${status.user}.`)
          for (const line of statusLines(status).slice(1)) io.stdout(line)
        },
      ),
    )
  },
}

const leave: Command = {
  name: 'team leave',
  usage: [
    'embed-console team leave [--discard-unpublished] [--data-dir DIR] [--json]',
    '',
    'Leaves the team: the link, its password and the team cache go; profiles, the catalog and the local',
    'activity log stay. Calls not yet in the team’s audit log are published first; leaving is refused',
    'while some cannot be, unless --discard-unpublished.',
  ].join('\n'),
  examples: ['embed-console team leave'],
  exitCodes,
  async run(argv, io) {
    const { values } = parseArgs({
      args: argv,
      options: {
        'discard-unpublished': { type: 'boolean', default: false },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    })
    return withServices(values['data-dir'], io, (services) =>
      answer(
        io,
        values.json,
        () => services.team.leave(values['discard-unpublished']),
        () => io.stdout('This data folder has left the team: one person’s mode again.'),
      ),
    )
  },
}

/** `team status` publishes what it can first: the backlog it shows is what could not be. */
const STATUS_FLUSH_MS = 3_000

const status: Command = {
  name: 'team status',
  usage: [
    'embed-console team status [--data-dir DIR] [--json]',
    '',
    'Whether this data folder has joined a team: connected, schema version, outbox backlog (after',
    'publishing what it can), calls the team database refused (parked, with its sentence), last pull.',
    '--json: {"ok": true, "value": {"joined", "connected", "outboxBacklog", "parked", …}} (connected or not).',
  ].join('\n'),
  examples: ['embed-console team status --json'],
  exitCodes: [
    [0, 'the status was read, and the folder is not joined or its team database answered'],
    [1, 'the folder is joined, and its team database could not be reached or refused it (the sentence says why)'],
    [2, 'bad usage'],
  ],
  async run(argv, io) {
    const values = folderOptions(argv)
    return withServices(values['data-dir'], io, async (services) => {
      await services.team.flush(STATUS_FLUSH_MS)
      const value = await services.team.status()
      if (values.json) printJson(io, { ok: true, value })
      else statusLines(value).forEach((line) => io.stdout(line))
      return value.joined && !value.connected ? 1 : 0
    })
  },
}

const pull: Command = {
  name: 'team pull',
  usage: [
    'embed-console team pull [--data-dir DIR] [--json]',
    '',
    'Pulls the team’s changes now: the catalog (into every profile that reaches a server the team',
    'knows) and the admin’s shared profiles (each arrives without a token: enter yours with',
    '`embed-console profiles set-token NAME`). The app pulls every 15 s, and `groups` commands on a',
    'joined folder pull first; this is for a script that wants them at once.',
  ].join('\n'),
  examples: ['embed-console team pull', 'embed-console team pull --json'],
  exitCodes,
  async run(argv, io) {
    const values = folderOptions(argv)
    return withServices(values['data-dir'], io, (services) =>
      answer(
        io,
        values.json,
        () => services.team.pull(),
        (pulled) =>
          io.stdout(
            pulled.groups === 0 && pulled.profiles === 0
              ? 'Nothing new from the team.'
              : `Pulled ${plural(pulled.groups, 'group change')} and ${plural(pulled.profiles, 'shared profile change')} from the team.`,
          ),
      ),
    )
  },
}

const activity: Command = {
  name: 'team activity',
  usage: [
    'embed-console team activity [--actor NAME] [--group ID] [--operation OP] [--outcome OUTCOME] [--limit N] [--cursor N] [--data-dir DIR] [--json]',
    '',
    'The team’s shared audit log, newest first: time, actor (the database login that made the call),',
    'operation, group, outcome, profile. --json: {"ok": true, "value": {"entries": […], "nextCursor"}}.',
    'Older entries: --cursor with the number the previous page gave (on stderr, or as nextCursor).',
  ].join('\n'),
  examples: ['embed-console team activity --actor ops-2 --json', 'embed-console team activity --limit 100 --cursor 81234'],
  exitCodes,
  async run(argv, io) {
    const { values } = parseArgs({
      args: argv,
      options: {
        actor: { type: 'string' },
        group: { type: 'string' },
        operation: { type: 'string' },
        outcome: { type: 'string' },
        limit: { type: 'string' },
        cursor: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    })
    const query = TeamActivityQuerySchema.safeParse({
      ...(values.actor ? { actor: values.actor } : {}),
      ...(values.group ? { groupId: values.group } : {}),
      ...(values.operation ? { operation: values.operation } : {}),
      ...(values.outcome ? { outcome: values.outcome } : {}),
      ...(values.limit ? { limit: Number(values.limit) } : {}),
      ...(values.cursor ? { cursor: Number(values.cursor) } : {}),
    })
    if (!query.success)
      throw new UsageError(`${query.error.issues[0]?.path.join('.') ?? 'option'}: ${query.error.issues[0]?.message ?? 'not valid'}`)
    return withServices(values['data-dir'], io, (services) =>
      answer(
        io,
        values.json,
        async () => {
          const { entries, nextCursor } = await services.team.activity(query.data)
          return { entries, nextCursor }
        },
        ({ entries, nextCursor }) => {
          if (entries.length === 0) io.stdout('The team’s audit log has no entry that matches.')
          for (const entry of entries) io.stdout(activityLine(entry))
          if (nextCursor !== null) io.stderr(`More: add --cursor ${nextCursor}`)
        },
      ),
    )
  },
}

const SUBCOMMANDS: Record<string, Subcommand> = {
  migrate: { summary: 'Admin: create or upgrade the shared schema in the team database.', command: migrate },
  'add-operator': { summary: 'Admin: create an operator’s login role and print its password once.', command: addOperator },
  'share-profile': { summary: 'Admin: share a connection profile’s settings (never a token) with every machine.', command: shareProfile },
  join: { summary: 'Join this data folder to the team database.', command: join },
  leave: { summary: 'Leave the team (local data stays).', command: leave },
  status: { summary: 'How this data folder’s link to the team stands.', command: status },
  pull: { summary: 'Pull the team’s catalog and shared profiles now.', command: pull },
  activity: { summary: 'The team’s shared audit log, with each call’s actor.', command: activity },
}

const USAGE = [
  'embed-console team <migrate|add-operator|share-profile|join|leave|status|pull|activity> [options]',
  '',
  'Team mode: data folders on many machines share one audit log and catalog in a Postgres database,',
  'and never rotate a group twice. Secrets stay on each machine: the team database holds no token.',
  '',
  ...Object.entries(SUBCOMMANDS).map(([name, sub]) => `  ${name.padEnd(13)} ${sub.summary}`),
  '',
  '`embed-console team <subcommand> --help` for each one’s options.',
].join('\n')

export const teamCommand: Command = {
  name: 'team',
  usage: USAGE,
  examples: [
    'embed-console team migrate --url "postgres://admin@db.example.com/embed_team?sslmode=verify-full"',
    'embed-console team add-operator ops-2 --url "postgres://admin@db.example.com/embed_team?sslmode=verify-full"',
    'embed-console team join --url "postgres://ops-2@db.example.com/embed_team?sslmode=verify-full" --password -',
    'embed-console team activity --json',
  ],
  exitCodes,
  subcommand: ([name]) => (name && Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined),
  async run(argv, io) {
    const [name, ...rest] = argv
    if (!name || !Object.hasOwn(SUBCOMMANDS, name)) throw new UsageError(`Name what to do: ${Object.keys(SUBCOMMANDS).join(', ')}.`)
    return SUBCOMMANDS[name]!.command.run(rest, io)
  },
}
