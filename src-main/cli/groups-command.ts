import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import type { z } from 'zod'
import { AppErrorException } from '../../src-shared/ipc/result'
import { MappingSchema, PropertiesSchema } from '../../src-shared/user-api/schemas'
import { createAppServices } from '../app-services'
import { defaultDataDir } from '../data-dir'
import { createUserApiClient } from '../user-api/client'
import { APPLY_USAGE, runGroupsApply } from './groups-apply-command'
import { UsageError, type CliIo, type Command } from './usage'

const OPERATIONS = ['get-or-create', 'update', 'rotate-token'] as const
type Operation = (typeof OPERATIONS)[number]

export const TOKEN_ENV = 'EMBED_CONSOLE_TOKEN'

const USAGE = [
  'embed-console groups <get-or-create|update|rotate-token> (--profile NAME | --base-url URL) [options]',
  'embed-console groups apply FILE (--profile NAME | --base-url URL) [--dry-run] [--concurrency N] [--rate N] [--resume] [--json]',
  '  (bulk: a CSV, JSON or JSON Lines file of groups; `embed-console groups apply --help` for more)',
  '',
  'Connection:',
  '  --profile NAME        a saved profile (by name or id), from --data-dir',
  `  --base-url URL        with the API token in the ${TOKEN_ENV} environment variable`,
  '  --timeout SECONDS     overrides the profile’s timeout (default 15)',
  '  --data-dir DIR        where profiles are kept',
  'Fields:',
  '  --user-group-id ID    required for get-or-create and update',
  '  --name NAME',
  '  --mapping JSON|@FILE  an object of schema id → data source',
  '  --properties JSON|@FILE',
  '  --current-token -     rotate-token: the group’s current token, read from standard input',
  'Output:',
  '  --json                errors as a JSON object on stdout instead of a sentence on stderr',
].join('\n')

/** `--mapping '{"a":"b"}'` or `--mapping @mapping.json`, checked against the shared schema. */
async function readJsonOption<T>(flag: string, value: string | undefined, schema: z.ZodType<T>): Promise<T | undefined> {
  if (value === undefined) return undefined
  let text = value
  if (value.startsWith('@')) {
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

function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const seconds = Number(value)
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 300) throw new UsageError('--timeout takes a number of seconds from 0 to 300.')
  return seconds * 1000
}

async function runGroups(argv: string[], io: CliIo): Promise<number> {
  const [operation, ...rest] = argv
  if (operation === 'apply') return runGroupsApply(rest, io)
  if (!OPERATIONS.includes(operation as Operation)) throw new UsageError(`Name an operation: ${OPERATIONS.join(', ')}, or apply FILE.`)
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
  const timeoutMs = parseTimeout(values.timeout)

  // A request refused before it was sent is a usage mistake (2); anything after is a failure (1).
  const fail = (error: AppErrorException): number => {
    if (values.json) io.stdout(JSON.stringify({ ok: false, error: error.toAppError() }, null, 2))
    else io.stderr(error.message)
    return error.code === 'invalid_input' ? 2 : 1
  }

  let request: Record<string, unknown>
  if (operation === 'rotate-token') {
    if (values['current-token'] !== '-') throw new UsageError('rotate-token reads the current group token from standard input: pass --current-token -')
    const currentToken = (await io.stdin()).trim()
    if (!currentToken) throw new UsageError('Standard input held no token.')
    request = { current_token: currentToken }
  } else {
    if (values['current-token'] !== undefined) throw new UsageError('--current-token is only for rotate-token.')
    if (!values['user-group-id']?.trim()) throw new UsageError(`${operation} needs --user-group-id.`)
    request = { user_group_id: values['user-group-id'] }
    if (values.name !== undefined) request.name = values.name
    const mapping = await readJsonOption('mapping', values.mapping, MappingSchema)
    const properties = await readJsonOption('properties', values.properties, PropertiesSchema)
    if (mapping) request.mapping = mapping
    if (properties) request.properties = properties
  }

  try {
    if (values['base-url']) {
      const apiToken = io.env[TOKEN_ENV]
      if (!apiToken) throw new UsageError(`--base-url needs the API token in the ${TOKEN_ENV} environment variable (never a flag: flags show up in process lists).`)
      const client = createUserApiClient({ baseUrl: values['base-url'], apiToken, ...(timeoutMs ? { timeoutMs } : {}) })
      const result =
        operation === 'get-or-create'
          ? await client.getOrCreate(request as never)
          : operation === 'update'
            ? await client.update(request as never)
            : await client.rotateToken(request as never)
      io.stdout(JSON.stringify(result.raw, null, 2))
      return 0
    }
    // A saved profile: the call goes through the same service as the app, so it lands in the
    // activity log and the catalog like any other.
    const services = await createAppServices({ dataDir: values['data-dir'] ?? defaultDataDir(io.env), transport: 'browser', sandbox: false })
    try {
      const profile = services.profiles.list().find((candidate) => candidate.id === values.profile || candidate.name === values.profile)
      if (!profile) throw new UsageError(`There is no saved profile named “${values.profile}”.`)
      const overrides = timeoutMs ? { timeoutMs } : {}
      const result =
        operation === 'get-or-create'
          ? await services.groups.getOrCreate(profile.id, request as never, overrides)
          : operation === 'update'
            ? await services.groups.update(profile.id, request as never, overrides)
            : await services.groups.rotateToken(profile.id, { kind: 'token', currentToken: request.current_token as string }, overrides)
      io.stdout(JSON.stringify(result.raw, null, 2))
      return 0
    } finally {
      await services.close()
    }
  } catch (error) {
    if (error instanceof AppErrorException) return fail(error)
    throw error
  }
}

export const groupsCommand: Command = {
  name: 'groups',
  summary: 'Get or create, update or rotate the token of a user group, or apply a file of them, for scripts.',
  usage: USAGE,
  usageFor: ([operation]) => (operation === 'apply' ? APPLY_USAGE : undefined),
  run: runGroups,
}
