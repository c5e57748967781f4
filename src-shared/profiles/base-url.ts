import { z } from 'zod'

/**
 * The one base-URL rule, for profiles, the client, the CLI's --base-url and --server: why a text
 * is not an API root, or undefined. The messages never quote the address itself: a pasted URL
 * may carry a password.
 */
export function baseUrlProblem(text: string): string | undefined {
  if (!URL.canParse(text)) return 'The base URL is not a full address: write it like https://example.com.'
  const url = new URL(text)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `The base URL must start with https:// (or http://); "${url.protocol}" addresses are not accepted.`
  }
  if (url.username || url.password) {
    return 'Leave the user name and password out of the base URL: the API token has its own field.'
  }
  if (url.search || url.hash) {
    return 'The base URL cannot have a query (?…) or a fragment (#…): the app adds /api/user to it.'
  }
  return undefined
}

/**
 * An http(s) address; trailing slashes are dropped because the client appends `/api/user`.
 */
export const BaseUrlSchema = z
  .string()
  .trim()
  .max(2048, 'The base URL has at most 2048 characters.')
  .overwrite((url) => url.replace(/\/+$/, ''))
  .check((ctx) => {
    const problem = baseUrlProblem(ctx.value)
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value })
  })
