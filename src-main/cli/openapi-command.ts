import { parseArgs } from 'node:util'
import { messageOf } from '../../src-shared/ipc/error-message'
import { BaseUrlSchema } from '../../src-shared/profiles/schemas'
import { buildOpenApiDocument, openApiFileText, type OpenApiOptions } from '../../src-shared/user-api/openapi'
import { writeFileAtomically } from '../storage/atomic-write'
import { type CliIo, type Command, UsageError } from './usage'

function writeFailure(error: unknown): string {
  switch ((error as { details?: { errno?: string } }).details?.errno) {
    case 'ENOENT':
      return 'its folder does not exist'
    case 'EISDIR':
      return 'it is a folder'
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    default:
      return messageOf(error)
  }
}

/** `--contact`: the support address readers of the document are sent to, a URL or an e-mail address. */
function parseContact(value: string | undefined): OpenApiOptions['contact'] {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) return { email: text }
  if (URL.canParse(text) && /^https?:$/.test(new URL(text).protocol)) return { url: text }
  throw new UsageError('--contact takes the API’s support address: an https:// URL or an e-mail address.')
}

/**
 * `embed-console openapi [--out FILE] [--server URL] [--contact URL|EMAIL]`: the OpenAPI 3.1 document of /api/user, to
 * stdout or written atomically to FILE (a temporary file renamed over it, so a reader never sees
 * half a document). Exit 0 written, 1 the file could not be written, 2 bad usage.
 */
export async function runOpenApi(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { out: { type: 'string' }, server: { type: 'string' }, contact: { type: 'string' } },
    strict: true,
  })
  if (values.out === '') throw new UsageError('--out takes a file name, such as docs/openapi.json.')
  let serverUrl: string | undefined
  if (values.server !== undefined) {
    const parsed = BaseUrlSchema.safeParse(values.server)
    if (!parsed.success) throw new UsageError(`--server: ${parsed.error.issues[0]?.message ?? 'not a base URL.'}`)
    serverUrl = parsed.data
  }

  const contact = parseContact(values.contact)
  const text = openApiFileText(buildOpenApiDocument({ serverUrl, ...(contact ? { contact } : {}) }))
  if (values.out === undefined) {
    io.stdout(text.trimEnd())
    return 0
  }
  try {
    await writeFileAtomically(values.out, text)
  } catch (error) {
    io.stderr(`${values.out} could not be written: ${writeFailure(error)}. Nothing was changed.`)
    return 1
  }
  io.stdout(`Wrote the OpenAPI 3.1 document of /api/user to ${values.out}.`)
  return 0
}

export const openApiCommand: Command = {
  name: 'openapi',
  usage: 'embed-console openapi [--out FILE] [--server URL] [--contact URL|EMAIL]',
  examples: [
    'embed-console openapi > openapi.json',
    'embed-console openapi --out docs-site/openapi.json --server https://api.example.com --contact support@example.com',
  ],
  exitCodes: [
    [0, 'printed or written'],
    [1, 'the file could not be written (nothing was changed)'],
    [2, 'bad usage'],
  ],
  run: runOpenApi,
}
