/*
 * The one loopback rule: which addresses are this computer. Every decision that treats "this
 * computer" differently reads it here: plain http allowed without a warning (profiles), never
 * through a proxy (user-api), the team database without verify-full TLS, the CLI's faster default
 * rate, and a site or API reference that must not point its readers at a local address.
 *
 * This computer is 127.0.0.0/8, ::1, `localhost` and any name under `.localhost` (RFC 6761: they
 * resolve to loopback and never to the network), and 0.0.0.0, which a connection reaches as the
 * local machine.
 */

const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/

/** `hostname` as the URL parser gives it (IPv4 normalised, IPv6 in brackets) or bare. */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host === '0.0.0.0' || IPV4_LOOPBACK.test(host)
}

/** Whether a URL points at this computer; false for a text that is not a URL. */
export function isLoopbackUrl(url: string): boolean {
  return URL.canParse(url) && isLoopbackHostname(new URL(url).hostname)
}
