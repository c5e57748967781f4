import { userApiUrl } from './schemas'

const METHODS = { getOrCreate: 'GET', update: 'PUT', rotateToken: 'POST' } as const

/** Single-quotes a word for a POSIX shell. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`

/**
 * The same request as a curl command, for support tickets and scripts. The API token is never
 * in it: the command reads `$EMBED_CONSOLE_TOKEN`, which the operator sets in their own shell.
 */
export function buildCurlCommand(operation: keyof typeof METHODS, baseUrl: string, body: unknown): string {
  const url = userApiUrl(baseUrl)
  return [
    `curl -X ${METHODS[operation]} ${shellQuote(url)}`,
    `  -H 'Content-Type: application/json'`,
    `  -H "Authorization: Token $EMBED_CONSOLE_TOKEN"`,
    `  --data ${shellQuote(JSON.stringify(body))}`,
  ].join(' \\\n')
}
