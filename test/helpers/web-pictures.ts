import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

// Servers for the preview's pictures from the web: one that plays a site on the web (a picture, a
// page that says it is a picture, a redirect), and a canary on loopback that only counts: any
// request it sees is one the preview should never have made.

/** A 1×1 PNG. */
export const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

export interface CountingServer {
  server: Server
  port: number
  /** The paths (and queries) asked for, in order. */
  hits: string[]
  close(): Promise<void>
}

async function listen(server: Server, host: string, port: number, hits: string[]): Promise<CountingServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, resolve)
  })
  return {
    server,
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** A loopback server that answers every request with a picture, and counts them. */
export function startCanary(host = '127.0.0.1'): Promise<CountingServer> {
  const hits: string[] = []
  const server = createServer((request, response) => {
    hits.push(request.url ?? '')
    response.writeHead(200, { 'Content-Type': 'image/png' }).end(PIXEL)
  })
  return listen(server, host, 0, hits)
}

/**
 * A picture server as a site on the web has one: `/pixel.png` a picture, `/page.png` a web page
 * that calls itself a PNG, `/redirect?to=<url>` a redirect, `/moved.png` a redirect to
 * `/pixel.png` on the same server.
 */
export function startPictureServer(host = '127.0.0.1', port = 0): Promise<CountingServer> {
  const hits: string[] = []
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://picture.server')
    hits.push(request.url ?? '')
    if (url.pathname === '/pixel.png') return void response.writeHead(200, { 'Content-Type': 'image/png' }).end(PIXEL)
    if (url.pathname === '/page.png')
      return void response.writeHead(200, { 'Content-Type': 'image/png' }).end('<html><script>steal()</script></html>')
    if (url.pathname === '/moved.png') return void response.writeHead(302, { Location: '/pixel.png' }).end()
    if (url.pathname === '/redirect') return void response.writeHead(302, { Location: url.searchParams.get('to') ?? '/' }).end()
    response.writeHead(404).end()
  })
  return listen(server, host, port, hits)
}
