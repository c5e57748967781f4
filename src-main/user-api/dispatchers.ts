import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import type * as Undici from 'undici'
import type { Dispatcher } from 'undici'
import type { ProxyRoute } from './proxy-route'
import type { Trust } from './trust'

// Loaded at the first call, not with the module: undici (with its fetch, WebSocket and cache)
// takes about 45 ms to load here, which a start of the app or `--version` need not pay.
let undici: typeof Undici | undefined
const loadUndici = () => (undici ??= createRequire(import.meta.url)('undici') as typeof Undici)

/**
 * The undici dispatcher for a route and a trust: an Agent straight to the server, or a
 * ProxyAgent (CONNECT for https, a forwarded request for http, as curl does). `fresh` gives a
 * new one the caller closes, so the call has a connection of its own (a rotation); otherwise one
 * is kept per route and trust, so calls reuse their keep-alive connections.
 */
export function dispatcherFor(route: ProxyRoute, trust: Trust, fresh: boolean): Dispatcher {
  if (fresh) return build(route, trust)
  const key = cacheKey(route, trust)
  let dispatcher = kept.get(key)
  if (!dispatcher) {
    dispatcher = build(route, trust)
    kept.set(key, dispatcher)
    // Settings change rarely; a handful kept is plenty, and the oldest's sockets are let go.
    if (kept.size > MAX_KEPT) {
      const [oldestKey, oldest] = kept.entries().next().value!
      kept.delete(oldestKey)
      void oldest.close()
    }
  }
  return dispatcher
}

const MAX_KEPT = 16
const kept = new Map<string, Dispatcher>()
let contextIds = new WeakMap<object, number>()
let nextContextId = 1

function cacheKey(route: ProxyRoute, trust: Trust): string {
  const context = trust.secureContext
  let contextId = 0
  if (context) {
    contextId = contextIds.get(context) ?? nextContextId++
    contextIds.set(context, contextId)
  }
  // Hashed: the key must not keep the proxy's credentials in clear.
  const proxy = route.proxy ? createHash('sha256').update(`${route.proxy.url.href}\n${route.proxy.authorization ?? ''}`).digest('hex') : 'direct'
  return `${proxy}/${contextId}`
}

function build(route: ProxyRoute, trust: Trust): Dispatcher {
  const { Agent, ProxyAgent } = loadUndici()
  const tlsOptions = trust.secureContext ? { secureContext: trust.secureContext } : {}
  if (!route.proxy) return new Agent({ connect: tlsOptions })
  return new ProxyAgent({
    uri: route.proxy.url.href,
    ...(route.proxy.authorization ? { token: route.proxy.authorization } : {}),
    requestTls: tlsOptions,
    proxyTls: tlsOptions,
    // Plain http goes to the proxy as a forwarded request, as curl sends it: most proxies
    // refuse CONNECT to port 80.
    proxyTunnel: false,
  })
}

/** Closes every kept dispatcher (tests, and a process about to exit). */
export async function closeDispatchers(): Promise<void> {
  const all = [...kept.values()]
  kept.clear()
  contextIds = new WeakMap()
  await Promise.all(all.map((dispatcher) => dispatcher.close()))
}
