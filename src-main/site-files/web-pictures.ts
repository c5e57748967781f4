import { lookup as dnsLookup } from 'node:dns/promises'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import { imageSize } from 'image-size'
import { messageOf } from '../../src-shared/ipc/error-message'
import { dispatcherFor } from '../user-api/dispatchers'
import { exchangeJson } from '../user-api/exchange'
import { resolveProxyRoute } from '../user-api/proxy-route'
import { resolveTrust } from '../user-api/trust'

// The site preview's pictures from the web, once the operator allows them for a document (as a
// mail client does). The frame never talks to the web: main fetches each picture through the
// same HTTP client as every call (the company proxy and certificate authorities apply), refuses
// this computer and its private networks by the address it connects to (not by the name, which
// could resolve elsewhere a moment later), and passes on only a picture, of a bounded size.

/** Addresses that are this computer or a network behind it: never fetched for a page. */
const PRIVATE = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches this computer
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT: a provider's private network
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local: cloud metadata services live here
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6')

/** Whether an IP address is this computer's or a private network's (an IPv4 address inside IPv6 counts as itself); not an address: true. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1')
  const family = isIP(bare)
  if (family === 0) return true
  return PRIVATE.check(bare, family === 6 ? 'ipv6' : 'ipv4')
}

export interface ResolvedAddress {
  address: string
  family: number
}

export interface WebPicturesOptions {
  /** The proxy variables (HTTPS_PROXY, NO_PROXY…), process.env unless given. */
  env?: Record<string, string | undefined>
  /** How a name becomes addresses: the system's resolver unless given (tests name their own). */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>
  timeoutMs?: number
  maxBytes?: number
}

export interface WebPictureAnswer {
  status: number
  /** The picture's type, from its bytes; null when there is no picture. */
  contentType: string | null
  body: Buffer
  /** Why there is no picture, for the tests and the log; never sent to the frame. */
  refused: string | null
}

export interface WebPictures {
  /** The picture at `address`, or why not: a picture is fetched once, then kept (a bounded amount) for this run of the app. */
  fetch(address: string): Promise<WebPictureAnswer>
}

/** What a fetched picture is, by image-size's reading of its first bytes; anything else is refused. */
const PICTURE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  cur: 'image/x-icon',
  bmp: 'image/bmp',
  svg: 'image/svg+xml',
}

const MAX_REDIRECTS = 3
const MAX_KEPT_BYTES = 32_000_000

type Resolve = NonNullable<WebPicturesOptions['resolve']>

const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

/**
 * The name's addresses, every one checked: a name with any private address is refused whole.
 * Used before a request goes through a proxy and, for a direct connection, as the connection's
 * own lookup, so the address checked is the address connected to (no rebinding in between).
 */
async function publicAddresses(hostname: string, resolve: Resolve): Promise<ResolvedAddress[]> {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1')
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await resolve(bare)
  if (!addresses.length) throw new Error(`${hostname} has no address`)
  const inside = addresses.find((entry) => isPrivateAddress(entry.address))
  if (inside) throw new Error(`${hostname} is ${inside.address}, this computer or a private network: never fetched for a page`)
  return addresses
}

function guardedLookup(resolve: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    publicAddresses(hostname, resolve).then(
      (addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : null
        const wanted = family ? addresses.filter((entry) => entry.family === family) : addresses
        if (!wanted.length)
          return callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '', 0)
        if (options.all) return (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, wanted)
        callback(null, wanted[0]!.address, wanted[0]!.family)
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    )
  }
}

/** The picture's type from its bytes (a server's word alone is not taken): null for anything that is not one. */
function pictureType(body: Buffer, declared: string): string | null {
  if (!body.length) return null
  try {
    return PICTURE_TYPES[imageSize(body).type ?? ''] ?? null
  } catch (error) {
    // image-size knows an SVG sized only by CSS, but cannot measure it.
    const svg = /^image\/svg\+xml\b/i.test(declared) && /<svg[\s>]/i.test(body.subarray(0, 4096).toString('utf8'))
    return svg && !/unsupported file type/i.test((error as Error).message) ? 'image/svg+xml' : null
  }
}

export function createWebPictures(options: WebPicturesOptions = {}): WebPictures {
  const resolve = options.resolve ?? systemResolve
  const lookup = guardedLookup(resolve)
  const timeoutMs = options.timeoutMs ?? 15_000
  const maxBytes = options.maxBytes ?? 5_000_000
  const kept = new Map<string, Promise<WebPictureAnswer>>()
  let keptBytes = 0

  const refusal = (reason: string): WebPictureAnswer => ({ status: 403, contentType: null, body: Buffer.alloc(0), refused: reason })

  async function fetchOnce(address: string): Promise<WebPictureAnswer> {
    if (!URL.canParse(address)) return refusal('not a URL')
    let url = new URL(address)
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return refusal(`${url.protocol} is not the web`)
      if (url.username || url.password) return refusal('a picture address with credentials is not fetched')
      const route = resolveProxyRoute(url, { mode: 'environment' }, options.env ?? process.env)
      // A proxy connects by the name itself: the name is checked here, as this computer resolves
      // it. Straight to the server, the connection's own lookup checks the address it then uses
      // (an address written as such is never looked up, so it is checked here).
      if (route.proxy || isIP(url.hostname.replace(/^\[(.*)\]$/, '$1'))) await publicAddresses(url.hostname, resolve)
      const answer = await exchangeJson({
        url,
        method: 'GET',
        headers: { Accept: 'image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8', 'Accept-Encoding': 'gzip, deflate, br' },
        body: '',
        timeoutMs,
        maxResponseBytes: maxBytes,
        dispatcher: dispatcherFor(route, resolveTrust(undefined), false, lookup),
        route,
      })
      const location = answer.headers.location
      if (answer.status >= 300 && answer.status < 400 && typeof location === 'string') {
        url = new URL(location, url)
        continue
      }
      if (answer.status !== 200) return refusal(`${url.host} answered HTTP ${answer.status}`)
      const contentType = pictureType(answer.body, String(answer.headers['content-type'] ?? ''))
      if (!contentType) return refusal(`${url.href} is not a picture`)
      return { status: 200, contentType, body: answer.body, refused: null }
    }
    return refusal(`more than ${MAX_REDIRECTS} redirects`)
  }

  return {
    fetch(address) {
      let answer = kept.get(address)
      if (!answer) {
        answer = fetchOnce(address).catch((error: unknown) => refusal(messageOf(error)))
        kept.set(address, answer)
        void answer.then((settled) => {
          // Only pictures are kept (a refusal may be a moment's failure), the oldest going first
          // once the kept ones pass their budget.
          if (settled.status !== 200) return void kept.delete(address)
          keptBytes += settled.body.length
          for (const [key, entry] of kept) {
            if (keptBytes <= MAX_KEPT_BYTES || key === address) break
            kept.delete(key)
            void entry.then((old) => (keptBytes -= old.body.length))
          }
        })
      }
      return answer
    },
  }
}
