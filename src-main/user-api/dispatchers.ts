import type * as Crypto from 'node:crypto'
import { createRequire } from 'node:module'
import type { LookupFunction } from 'node:net'
import type * as Undici from 'undici'
import { type ExchangeDispatcher, NodeHttpDispatcher } from './node-dispatcher'
import type { ProxyRoute } from './proxy-route'
import type { Trust } from './trust'

/*
 * A call straight to its server goes over node:http (NodeHttpDispatcher): loading undici's Agent
 * cost every CLI call about 50 ms, twice what the bare request takes. undici's ProxyAgent (and
 * the CONNECT it tunnels with) is loaded, without the rest of undici (fetch, WebSocket, the HTTP
 * cache), only when a proxy is configured. undici 7 has no exports map. Its index.js adds the request APIs to
 * Dispatcher.prototype; ProxyAgent uses one of them, `connect` (a tunnel's CONNECT), added here
 * the same way. company-network.test.ts would fail at once if a newer undici moved these files.
 */
const load = createRequire(import.meta.url)
let proxyAgent: typeof Undici.ProxyAgent | undefined
let beforeUndiciLoads: (() => void) | undefined

/**
 * Runs `prepare` once, just before undici is first loaded: the CLI tunes V8 for undici's
 * WebAssembly parser there, so a call that never meets a proxy does not load node:v8 for it.
 */
export function whenUndiciLoads(prepare: () => void): void {
  if (proxyAgent) prepare()
  else beforeUndiciLoads = prepare
}

function loadProxyAgent(): typeof Undici.ProxyAgent {
  if (!proxyAgent) {
    const prepare = beforeUndiciLoads
    beforeUndiciLoads = undefined
    prepare?.()
    const dispatcherPrototype = (load('undici/lib/dispatcher/dispatcher.js') as { prototype: { connect?: unknown } }).prototype
    dispatcherPrototype.connect ??= load('undici/lib/api/api-connect.js')
    proxyAgent = load('undici/lib/dispatcher/proxy-agent.js') as typeof Undici.ProxyAgent
  }
  return proxyAgent
}

/**
 * The dispatcher for a route and a trust: node:http(s) straight to the server, or undici's
 * ProxyAgent (CONNECT for https, a forwarded request for http, as curl does). `fresh` gives a
 * new one the caller closes, so the call has a connection of its own (a rotation); otherwise one
 * is kept per route and trust, so calls reuse their keep-alive connections. `lookup` resolves
 * the server's name for a direct connection (the preview's web pictures check the address they
 * connect to there); a proxy resolves names itself.
 */
export function dispatcherFor(route: ProxyRoute, trust: Trust, fresh: boolean, lookup?: LookupFunction): ExchangeDispatcher {
  if (fresh) return build(route, trust, lookup, false)
  const key = cacheKey(route, trust, lookup)
  let dispatcher = kept.get(key)
  if (!dispatcher) {
    dispatcher = build(route, trust, lookup, true)
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
const kept = new Map<string, ExchangeDispatcher>()
let contextIds = new WeakMap<object, number>()
let nextContextId = 1

/** A number per object (a TLS context, a lookup function), for the kept dispatchers' keys. */
function idOf(value: object | undefined): number {
  if (!value) return 0
  const id = contextIds.get(value) ?? nextContextId++
  contextIds.set(value, id)
  return id
}

function cacheKey(route: ProxyRoute, trust: Trust, lookup: LookupFunction | undefined): string {
  const contextId = idOf(trust.secureContext)
  // Hashed: the key must not keep the proxy's credentials in clear.
  const proxy = route.proxy
    ? (load('node:crypto') as typeof Crypto)
        .createHash('sha256')
        .update(`${route.proxy.url.href}\n${route.proxy.authorization ?? ''}`)
        .digest('hex')
    : 'direct'
  return `${proxy}/${contextId}/${idOf(lookup)}`
}

function build(route: ProxyRoute, trust: Trust, lookup: LookupFunction | undefined, keepAlive: boolean): ExchangeDispatcher {
  const tlsOptions = trust.secureContext ? { secureContext: trust.secureContext } : {}
  if (!route.proxy) return new NodeHttpDispatcher({ ...tlsOptions, ...(lookup ? { lookup } : {}), keepAlive })
  const ProxyAgent = loadProxyAgent()
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
  await Promise.all(all.map((dispatcher) => dispatcher.destroy()))
}
