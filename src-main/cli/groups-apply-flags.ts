import { parseArgs } from 'node:util'
import { INPUT_ENCODINGS, type InputEncoding } from '../../src-shared/bulk/decode'
import { type BulkKind, DEFAULT_BULK_CONCURRENCY, MAX_BULK_CONCURRENCY } from '../../src-shared/bulk/schemas'
import { BaseUrlSchema } from '../../src-shared/profiles/schemas'
import { TOKEN_ENV, UsageError } from './usage'

/** What `groups apply` was asked to do, checked: every mistake is a UsageError before the file is read. */
export interface ApplyFlags {
  file: string
  /** `--rotate` plans a rotation; anything else get-or-creates and updates. */
  kind: BulkKind
  /** A saved profile's name or id; exactly one of `profile` and `baseUrl` is given. */
  profile?: string
  baseUrl?: string
  /** With `baseUrl`: the token from the environment, never from a flag. */
  apiToken?: string
  dryRun: boolean
  concurrency: number
  /** Requests a minute, when the operator gave one. */
  rate?: number
  resume: boolean
  excludeInvalid: boolean
  fetch: boolean
  bail: boolean
  encoding: InputEncoding
  json: boolean
  dataDir?: string
}

function positiveInteger(flag: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1 || number > max)
    throw new UsageError(`--${flag} takes a whole number from 1 to ${max.toLocaleString('en')}.`)
  return number
}

export function readApplyFlags(argv: string[], env: NodeJS.ProcessEnv): ApplyFlags {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      profile: { type: 'string' },
      'base-url': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      concurrency: { type: 'string' },
      rate: { type: 'string' },
      resume: { type: 'boolean', default: false },
      'exclude-invalid': { type: 'boolean', default: false },
      rotate: { type: 'boolean', default: false },
      fetch: { type: 'boolean', default: false },
      bail: { type: 'boolean', default: false },
      encoding: { type: 'string', default: 'utf-8' },
      json: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  })
  if (positionals.length !== 1) throw new UsageError('Name one file to apply: embed-console groups apply FILE …')
  if (Boolean(values.profile) === Boolean(values['base-url'])) throw new UsageError('Give either --profile or --base-url.')
  if (values.rotate && !values.profile)
    throw new UsageError('--rotate needs --profile: the tokens it rotates are the ones kept for that profile.')
  if (values.fetch && (!values.profile || values.rotate || values['dry-run'] || values.resume))
    throw new UsageError(
      '--fetch needs --profile (the tokens it fetches are kept for that profile), and goes alone: not with --rotate, --dry-run or --resume.',
    )
  const kind: BulkKind = values.rotate ? 'rotate' : 'apply'
  const concurrency =
    kind === 'rotate' ? 1 : (positiveInteger('concurrency', values.concurrency, MAX_BULK_CONCURRENCY) ?? DEFAULT_BULK_CONCURRENCY)
  const rate = positiveInteger('rate', values.rate, 100_000)
  let baseUrl: string | undefined
  if (values['base-url']) {
    const parsed = BaseUrlSchema.safeParse(values['base-url'])
    if (!parsed.success) throw new UsageError(`--base-url: ${parsed.error.issues[0]?.message ?? 'not an address'}`)
    baseUrl = parsed.data
  }
  const apiToken = env[TOKEN_ENV]
  if (baseUrl && !apiToken)
    throw new UsageError(
      `--base-url needs the API token in the ${TOKEN_ENV} environment variable (never a flag: flags show up in process lists).`,
    )
  if (!(INPUT_ENCODINGS as readonly string[]).includes(values.encoding))
    throw new UsageError(`--encoding takes ${INPUT_ENCODINGS.join(' or ')}.`)
  return {
    file: positionals[0]!,
    kind,
    profile: values.profile,
    baseUrl,
    apiToken,
    dryRun: values['dry-run'],
    concurrency,
    rate,
    resume: values.resume,
    excludeInvalid: values['exclude-invalid'],
    fetch: values.fetch,
    bail: values.bail,
    encoding: values.encoding as InputEncoding,
    json: values.json,
    dataDir: values['data-dir'],
  }
}
