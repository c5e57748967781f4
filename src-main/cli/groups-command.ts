import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import type { z } from 'zod'
import type { ApiOperation } from '../../src-shared/activity/schemas'
import { messageOf } from '../../src-shared/ipc/error-message'
import { AppErrorException } from '../../src-shared/ipc/result'
import { BaseUrlSchema } from '../../src-shared/profiles/base-url'
import type { EnvironmentMismatch } from '../../src-shared/profiles/environment'
import { type GetOrCreateRequest, MappingSchema, PropertiesSchema } from '../../src-shared/user-api/schemas'
import { fieldsNotApplied, notAppliedWarning, type SentField } from '../groups/not-applied'
import { createUserApiClient } from '../user-api/client'
import { refuseSystemPath } from '../user-files/system-folders'
import { APPLY_SUMMARY, applyCommand } from './groups-apply-help'
import {
  type CliIo,
  type Command,
  parseTimeoutSeconds,
  printJson,
  profileNamed,
  pullFirst,
  reportLeftBehind,
  TOKEN_ENV,
  UsageError,
} from './usage'

const OPERATIONS = {
  'get-or-create': 'getOrCreate',
  update: 'update',
  'rotate-token': 'rotateToken',
} as const satisfies Record<string, ApiOperation>
type OperationName = keyof typeof OPERATIONS

const USAGE = [
  'embed-console groups <get-or-create|update|rotate-token> (--profile NAME | --base-url URL) [options]',
  'embed-console groups apply FILE (--profile NAME | --base-url URL) [--dry-run] [--concurrency N] [--rate N] [--resume] [--json]',
  '  (bulk: a CSV, JSON or JSON Lines file of groups; `embed-console groups apply --help` for more)',
  '',
  'Connection:',
  '  --profile NAME        a saved profile (by name or id), from --data-dir; the call lands in its activity log',
  `  --base-url URL        with the API token in the ${TOKEN_ENV} environment variable (never a flag)`,
  '  --timeout SECONDS     overrides the profile’s timeout (default 15)',
  '  --data-dir DIR        where profiles are kept',
  'Fields:',
  '  --user-group-id ID    required for get-or-create and update',
  '  --name NAME',
  '  --mapping JSON|@FILE  an object of schema id → data source',
  '  --properties JSON|@FILE',
  '  --current-token -     rotate-token: the group’s current token, read from standard input',
  '                        (with --profile, --user-group-id ID alone rotates the token the profile keeps for it)',
  'Output:',
  '  (default)             the API’s answer as JSON on stdout; errors and warnings as sentences on stderr',
  '  --json                one JSON envelope on stdout, for success and failure alike (usage mistakes too):',
  '                        {"ok": true, "value": {"httpStatus", "durationMs", "response", "warnings", "notApplied"?, "environmentMismatch"?}}',
  '                        {"ok": false, "error": {"code", "message", "details"?}}',
].join('\n')

/** A field's value: `--mapping '{"a":"b"}'` or `--mapping @mapping.json`, checked against the shared schema. */
async function readJsonOption<T>(flag: string, value: string | undefined, schema: z.ZodType<T>): Promise<T | undefined> {
  if (value === undefined) return undefined
  let text = value
  if (value.startsWith('@')) {
    try {
      await refuseSystemPath(value.slice(1))
    } catch (error) {
      throw new UsageError(`--${flag}: ${messageOf(error)}`)
    }
    try {
      text = await readFile(value.slice(1), 'utf8')
    } catch {
      throw new UsageError(`--${flag}: the file ${value.slice(1)} cannot be read.`)
    }
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`--${flag} is not valid JSON: ${(error as Error).message}`)
  }
  const checked = schema.safeParse(parsed)
  if (!checked.success) throw new UsageError(`--${flag}: ${checked.error.issues[0]?.message ?? 'not the expected shape'}.`)
  return checked.data
}

function parseBaseUrl(value: string): string {
  const parsed = BaseUrlSchema.safeParse(value)
  if (!parsed.success) throw new UsageError(`--base-url: ${parsed.error.issues[0]?.message ?? 'not an http(s) address.'}`)
  return parsed.data
}

/** One call, whichever way it goes: what it printed and what the operator should know. */
interface Outcome {
  httpStatus: number
  durationMs: number
  response: unknown
  warnings: string[]
  notApplied?: SentField[]
  /** The profile is marked for one environment and the server put the group in the other. */
  environmentMismatch?: EnvironmentMismatch
}

type Call =
  | { operation: 'getOrCreate' | 'update'; request: GetOrCreateRequest }
  | { operation: 'rotateToken'; currentToken: string }
  | { operation: 'rotateToken'; keptFor: string }

async function readCall(operation: OperationName, values: Record<string, string | boolean | undefined>, io: CliIo): Promise<Call> {
  if (operation === 'rotate-token') {
    // The kept token of a group the profile knows: journaled by group, so a lost answer can be settled by a fetch.
    if (values['current-token'] === undefined && typeof values['user-group-id'] === 'string' && values.profile) {
      return { operation: 'rotateToken', keptFor: values['user-group-id'] }
    }
    if (values['current-token'] !== '-')
      throw new UsageError(
        'rotate-token reads the current group token from standard input: pass --current-token - (or, with --profile, --user-group-id ID for the token it keeps)',
      )
    const currentToken = (await io.stdin()).trim()
    if (!currentToken) throw new UsageError('Standard input held no token.')
    return { operation: 'rotateToken', currentToken }
  }
  if (values['current-token'] !== undefined) throw new UsageError('--current-token is only for rotate-token.')
  const userGroupId = values['user-group-id'] as string | undefined
  if (!userGroupId?.trim()) throw new UsageError(`${operation} needs --user-group-id.`)
  const request: GetOrCreateRequest = { user_group_id: userGroupId }
  if (typeof values.name === 'string') request.name = values.name
  const mapping = await readJsonOption('mapping', values.mapping as string | undefined, MappingSchema)
  const properties = await readJsonOption('properties', values.properties as string | undefined, PropertiesSchema)
  if (mapping) request.mapping = mapping
  if (properties) request.properties = properties
  return { operation: OPERATIONS[operation], request }
}

/** Straight to a base URL: nothing is stored, and only the client (and zod) is loaded. */
async function callBaseUrl(baseUrl: string, call: Call, io: CliIo, timeoutMs: number | undefined): Promise<Outcome> {
  const apiToken = io.env[TOKEN_ENV]
  if (!apiToken)
    throw new UsageError(
      `--base-url needs the API token in the ${TOKEN_ENV} environment variable (never a flag: flags show up in process lists).`,
    )
  const client = createUserApiClient({ baseUrl, apiToken, env: io.env, ...(timeoutMs ? { timeoutMs } : {}) })
  if (call.operation === 'rotateToken') {
    if (!('currentToken' in call)) throw new UsageError('--base-url keeps no tokens: pass the current token with --current-token -')
    const result = await client.rotateToken({ current_token: call.currentToken })
    return { httpStatus: result.status, durationMs: result.durationMs, response: result.raw, warnings: [] }
  }
  const result = call.operation === 'getOrCreate' ? await client.getOrCreate(call.request) : await client.update(call.request)
  const notApplied =
    'new_user_group' in result.value && result.value.new_user_group === false
      ? fieldsNotApplied(call.request, result.value.user_group, undefined)
      : []
  return {
    httpStatus: result.status,
    durationMs: result.durationMs,
    response: result.raw,
    warnings: notApplied.length ? [notAppliedWarning(call.request.user_group_id, notApplied)] : [],
    ...(notApplied.length ? { notApplied } : {}),
  }
}

/**
 * Through a saved profile: the same group service as the app, so the call lands in its activity
 * log and catalog; only that part of the app is loaded (openAppCore), not the docs site, bulk runs
 * or the router.
 */
async function callProfile(profileName: string, dataDir: string, call: Call, timeoutMs: number | undefined, io: CliIo): Promise<Outcome> {
  const { openAppCore } = await import('../app-core')
  const services = await openAppCore({ dataDir, client: 'cli', log: () => {} })
  try {
    await pullFirst(services.team, io)
    const profile = profileNamed(services.profiles, profileName)
    const overrides = timeoutMs ? { timeoutMs } : {}
    const result =
      call.operation === 'rotateToken'
        ? await services.groups.rotateToken(
            profile.id,
            'keptFor' in call ? { kind: 'catalog', groupId: call.keptFor } : { kind: 'token', currentToken: call.currentToken },
            overrides,
          )
        : call.operation === 'getOrCreate'
          ? await services.groups.getOrCreate(profile.id, call.request, overrides)
          : await services.groups.update(profile.id, call.request, overrides)
    return {
      httpStatus: result.httpStatus,
      durationMs: result.durationMs,
      response: result.raw,
      warnings: result.warnings,
      ...(result.notApplied ? { notApplied: result.notApplied } : {}),
      ...(result.environmentMismatch ? { environmentMismatch: result.environmentMismatch } : {}),
    }
  } finally {
    await services.close()
    reportLeftBehind(services.team, io)
  }
}

async function runGroups(argv: string[], io: CliIo): Promise<number> {
  const [operation, ...rest] = argv
  if (operation === 'apply') return applyCommand.run(rest, io)
  if (!operation || !Object.hasOwn(OPERATIONS, operation))
    throw new UsageError(`Name an operation: ${Object.keys(OPERATIONS).join(', ')}, or apply FILE.`)
  const { values } = parseArgs({
    args: rest,
    options: {
      profile: { type: 'string' },
      'base-url': { type: 'string' },
      timeout: { type: 'string' },
      'data-dir': { type: 'string' },
      'user-group-id': { type: 'string' },
      name: { type: 'string' },
      mapping: { type: 'string' },
      properties: { type: 'string' },
      'current-token': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  })
  if (Boolean(values.profile) === Boolean(values['base-url'])) throw new UsageError('Give either --profile or --base-url.')
  const timeoutMs = parseTimeoutSeconds(values.timeout)
  const baseUrl = values['base-url'] === undefined ? undefined : parseBaseUrl(values['base-url'])
  const call = await readCall(operation as OperationName, values, io)

  let outcome: Outcome
  try {
    outcome = baseUrl
      ? await callBaseUrl(baseUrl, call, io, timeoutMs)
      : await callProfile(values.profile!, values['data-dir'] ?? (await import('../data-dir')).defaultDataDir(io.env), call, timeoutMs, io)
  } catch (error) {
    if (!(error instanceof AppErrorException)) throw error
    if (values.json) printJson(io, { ok: false, error: error.toAppError() })
    else io.stderr(error.message)
    // A lost answer to a rotation of a known group is settled by fetching it: say how.
    if (error.code === 'outcome_unknown' && 'keptFor' in call && !values.json) {
      io.stderr(
        `Fetch the group to learn whether it happened (nothing is rotated again): embed-console groups get-or-create --profile ${JSON.stringify(values.profile)} --user-group-id ${JSON.stringify(call.keptFor)}`,
      )
    }
    // A request refused before it was sent is a usage mistake (2); anything after is a failure (1).
    return error.code === 'invalid_input' ? 2 : 1
  }
  if (values.json) {
    printJson(io, { ok: true, value: outcome })
  } else {
    io.stdout(JSON.stringify(outcome.response, null, 2))
    for (const warning of outcome.warnings) io.stderr(`Warning: ${warning}`)
  }
  return 0
}

export const groupsCommand: Command = {
  name: 'groups',
  usage: USAGE,
  examples: [
    `EMBED_CONSOLE_TOKEN=… embed-console groups get-or-create --base-url https://api.example.com --user-group-id acme --name "Acme" --properties '{"plan":"pro"}'`,
    'embed-console groups update --profile Production --user-group-id acme --mapping @mapping.json --json',
    'printf %s "$CURRENT_GROUP_TOKEN" | embed-console groups rotate-token --profile Production --current-token -',
    'embed-console groups rotate-token --profile Production --user-group-id acme',
  ],
  exitCodes: [
    [
      0,
      'the API answered success: 1 (a warning may still be on stderr, e.g. fields get-or-create did not apply, or a profile marked for another environment than the server put the group in)',
    ],
    [1, 'the API refused the call or failed, the network failed, or the outcome of a rotation is unknown'],
    [2, 'bad usage, or a request refused before it was sent (a missing id, an id with hidden spaces, bad JSON)'],
  ],
  subcommand: ([operation]) => (operation === 'apply' ? { summary: APPLY_SUMMARY, command: applyCommand } : undefined),
  run: runGroups,
}
