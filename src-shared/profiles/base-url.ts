import { z } from 'zod'

const LOOPBACK_HOSTNAMES = new Set(['localhost', '[::1]'])
const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/

/** `hostname` as the URL parser gives it (IPv4 normalised, IPv6 in brackets). */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase()
  return LOOPBACK_HOSTNAMES.has(host) || IPV4_LOOPBACK.test(host)
}

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
