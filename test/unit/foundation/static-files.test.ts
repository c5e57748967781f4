import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppServices, createAppServices } from '../../../src-main/app-services'
import { acceptedEncodings, PRECOMPRESSED } from '../../../src-main/static-files'
import { startWebServer, type WebServer } from '../../../src-main/web/web-server'

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('browser mode serves the renderer compressed and cached', () => {
  let services: AppServices
  let server: WebServer
  const script = Buffer.from(`export const app = ${JSON.stringify('x'.repeat(5000))}\n`)

  beforeAll(async () => {
    const root = await mkdtemp(join(tmpdir(), 'ec-static-'))
    const rendererDir = join(root, 'renderer')
    await mkdir(join(rendererDir, 'assets'), { recursive: true })
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Embed Console</title>')
    await writeFile(join(rendererDir, 'assets', 'index-AbCd1234.js'), script)
    await writeFile(join(rendererDir, 'assets', 'index-AbCd1234.js.br'), brotliCompressSync(script))
    await writeFile(join(rendererDir, 'assets', 'index-AbCd1234.js.gz'), gzipSync(script))
    services = await createAppServices({ dataDir: join(root, 'data'), transport: 'browser', sandbox: false })
    server = await startWebServer({ services, rendererDir, port: 0 })
  })
  afterAll(async () => {
    await server.close()
    await services.close()
  })

  it('sends the brotli copy to a browser that takes brotli, gzip to one that takes only gzip, the file to others', async () => {
    const brotli = await get(server.port, '/assets/index-AbCd1234.js', { 'accept-encoding': 'gzip, deflate, br, zstd' })
    expect(brotli.headers).toMatchObject({
      'content-encoding': 'br',
      vary: 'Accept-Encoding',
      'content-type': 'text/javascript; charset=utf-8',
    })
    expect(brotliDecompressSync(brotli.body)).toEqual(script)
    expect(brotli.body.length).toBeLessThan(script.length / 10)

    const gzip = await get(server.port, '/assets/index-AbCd1234.js', { 'accept-encoding': 'gzip;q=1, br;q=0' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.body)).toEqual(script)

    const plain = await get(server.port, '/assets/index-AbCd1234.js')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toEqual(script)
  })

  it('lets a browser keep hashed assets for a year, and revalidate index.html', async () => {
    expect((await get(server.port, '/assets/index-AbCd1234.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const page = await get(server.port, '/', { 'accept-encoding': 'br' })
    expect(page.headers['cache-control']).toBe('no-cache')
    expect(page.headers['content-encoding']).toBeUndefined()
    expect(page.body.toString()).toContain('<title>Embed Console</title>')
  })

  it('reads Accept-Encoding as RFC 9110 writes it', () => {
    expect(acceptedEncodings('gzip, deflate, br')).toEqual(['br', 'gzip'])
    expect(acceptedEncodings('GZIP')).toEqual(['gzip'])
    expect(acceptedEncodings('br;q=0, gzip;q=0.5')).toEqual(['gzip'])
    expect(acceptedEncodings('*')).toEqual(['br', 'gzip'])
    expect(acceptedEncodings(undefined)).toEqual([])
    expect(acceptedEncodings('identity')).toEqual([])
  })
})

// `npm test` builds before the unit tests run: the build must have made the copies.
describe.runIf(existsSync('out/renderer/index.html'))('the built renderer', () => {
  it('has a brotli and a gzip copy of every text asset over 1 kB, each the same bytes unpacked', () => {
    const dir = 'out/renderer/assets'
    const assets = readdirSync(dir).filter((name) => PRECOMPRESSED.test(name) && readFileSync(join(dir, name)).length >= 1024)
    expect(assets.length).toBeGreaterThan(5)
    for (const name of assets) {
      const original = readFileSync(join(dir, name))
      expect(brotliDecompressSync(readFileSync(join(dir, `${name}.br`))).equals(original), name).toBe(true)
      expect(gunzipSync(readFileSync(join(dir, `${name}.gz`))).equals(original), name).toBe(true)
    }
  })
})
