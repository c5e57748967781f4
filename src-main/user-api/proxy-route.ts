import { BlockList, isIP } from 'node:net'
import { AppErrorException } from '../../src-shared/ipc/result'
import { isLoopbackHostname } from '../../src-shared/net/loopback'

/** How a profile (or a CLI call) chooses its proxy; see ProxyModeSchema. */
export type ProxyChoice =
  { mode: 'environment' } | { mode: 'direct' } | { mode: 'custom'; url: string; username?: string; password?: string }

export interface ProxyRoute {
  /** The proxy a call goes through; null: straight to the server. */
  proxy: {
    /** Without credentials: safe to show. */
    url: URL
    /** Where the choice comes from: "the profile", or the variable that named it. */
    source: string
    /** `Basic …` for Proxy-Authorization, when the proxy needs credentials. */
    authorization?: string
    /** The proxy's password, to be redacted from every sentence. */
    password?: string
  } | null
  /** Why, as a sentence for doctor and error messages. */
  reason: string
}

type Env = Record<string, string | undefined>

/** The first of these variables that is set and not empty, curl's way: lower case first. */
function firstSet(env: Env, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim()
    if (value) return { name, value }
  }
  return undefined
}

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`

/** A proxy address from a variable: credentials may ride in it (curl accepts them there). */
function proxyFromVariable(name: string, value: string): NonNullable<ProxyRoute['proxy']> {
  // curl takes "proxy:3128" for http://proxy:3128.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`
  if (!URL.canParse(text))
    throw new AppErrorException('invalid_input', `${name} is not a proxy address: write it like http://proxy.example.com:3128.`)
  const url = new URL(text)
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AppErrorException(
      'invalid_input',
      `${name} names a "${url.protocol}" proxy: Embed Console goes through http:// and https:// proxies only.`,
    )
  const username = decodeURIComponent(url.username)
  const password = decodeURIComponent(url.password)
  url.username = ''
  url.password = ''
  return {
    url,
    source: name,
    ...(username || password ? { authorization: basic(username, password), ...(password ? { password } : {}) } : {}),
  }
}

/**
 * The NO_PROXY entry that keeps `url` off the proxy, as curl reads the list: `*` for every host;
 * a domain (a leading `.` or `*.` is ignored) for itself and every subdomain; an IP address or
 * CIDR range for addresses in it; any of them with `:port` for that port only.
 */
function noProxyMatch(url: URL, noProxy: string): string | undefined {
  const hostname = url.hostname.toLowerCase().replace(/^\[|\]$/g, '')
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80)
  const hostIp = isIP(hostname)
  for (const raw of noProxy.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase()
    if (!entry) continue
    if (entry === '*') return entry
    const withPort = /^(.*?):(\d+)$/.exec(entry)
    // "::1" alone is an address, not host ":" and port 1.
    const [host, entryPort] = withPort && !isIP(entry) ? [withPort[1]!, Number(withPort[2])] : [entry, undefined]
    if (entryPort !== undefined && entryPort !== port) continue
    const bare = host.replace(/^\[|\]$/g, '')
    const [address, prefix] = bare.split('/')
    const family = isIP(address ?? '')
    if (family) {
      if (!hostIp) continue
      if (prefix === undefined ? address === hostname : inRange(hostname, address!, Number(prefix), family)) return raw.trim()
      continue
    }
    const domain = bare.replace(/^\*?\./, '')
    if (domain && (hostname === domain || hostname.endsWith(`.${domain}`))) return raw.trim()
  }
  return undefined
}

function inRange(address: string, network: string, prefix: number, family: number): boolean {
  if (!Number.isInteger(prefix) || isIP(address) !== family) return false
  const range = new BlockList()
  try {
    range.addSubnet(network, prefix, family === 6 ? 'ipv6' : 'ipv4')
  } catch {
    return false
  }
  return range.check(address, family === 6 ? 'ipv6' : 'ipv4')
}

/**
 * The way a call to `endpoint` travels. Loopback never goes through a proxy, whatever is set: the
 * local sandbox must keep working behind any company proxy. A profile's own proxy (or "direct")
 * overrides the environment; otherwise HTTPS_PROXY / HTTP_PROXY (ALL_PROXY as a fallback) and
 * NO_PROXY decide, lower case first, as curl reads them.
 */
export function resolveProxyRoute(endpoint: URL, choice: ProxyChoice, env: Env): ProxyRoute {
  if (isLoopbackHostname(endpoint.hostname))
    return { proxy: null, reason: `${endpoint.hostname} is this computer (loopback): never proxied.` }
  if (choice.mode === 'direct') return { proxy: null, reason: 'The profile connects directly, whatever the proxy variables say.' }
  if (choice.mode === 'custom') {
    const url = new URL(choice.url)
    const { username = '', password } = choice
    const credentials = username || password ? { authorization: basic(username, password ?? ''), ...(password ? { password } : {}) } : {}
    return { proxy: { url, source: 'the profile', ...credentials }, reason: 'The profile names this proxy.' }
  }
  const scheme = endpoint.protocol === 'https:' ? 'https' : 'http'
  const variable = firstSet(env, [`${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`, 'all_proxy', 'ALL_PROXY'])
  if (!variable)
    return {
      proxy: null,
      reason: `No proxy variable is set (${scheme.toUpperCase()}_PROXY, ${scheme}_proxy, ALL_PROXY): straight to the server.`,
    }
  const noProxy = firstSet(env, ['no_proxy', 'NO_PROXY'])
  const matched = noProxy && noProxyMatch(endpoint, noProxy.value)
  if (matched)
    return { proxy: null, reason: `${noProxy.name} lists "${matched}", which matches ${endpoint.hostname}: straight to the server.` }
  return {
    proxy: proxyFromVariable(variable.name, variable.value),
    reason: noProxy ? `${variable.name} is set, and no entry of ${noProxy.name} matches ${endpoint.hostname}.` : `${variable.name} is set.`,
  }
}

/** The proxy as a sentence names it: its address and where it was chosen. */
export const proxyPhrase = (proxy: NonNullable<ProxyRoute['proxy']>) => `the proxy ${proxy.url.host} (from ${proxy.source})`
