import { mkdir, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPreviewFiles, type PreviewFiles } from '../../../src-main/site-files/preview-files'
import { createWebPictures, isPrivateAddress } from '../../../src-main/site-files/web-pictures'
import { closeDispatchers } from '../../../src-main/user-api/dispatchers'
import { FileAccessPolicy } from '../../../src-main/user-files/file-access'
import { networkNamespaceSupport, runInNetworkNamespace } from '../../helpers/network-namespace'
import { nodeScript } from '../../helpers/node-script'
import { type CountingServer, startCanary } from '../../helpers/web-pictures'

// The preview's pictures from the web, as main fetches them once the operator allows them for a
// document: never from this computer or a private network, whatever the name or address says.

describe('which addresses are never fetched', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '::1',
    '[::1]',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::',
    '224.0.0.1',
    '255.255.255.255',
    'not an address',
  ])('%s is private', (address) => expect(isPrivateAddress(address)).toBe(true))

  it.each(['203.0.113.7', '8.8.8.8', '172.32.0.1', '11.0.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is on the web', (address) =>
    expect(isPrivateAddress(address)).toBe(false),
  )
})

describe('a picture from this computer, even once allowed', () => {
  let canary: CountingServer
  let preview: PreviewFiles
  let allowed: string
  const resolved: string[] = []

  beforeAll(async () => {
    canary = await startCanary()
    const base = await mkdtemp(join(tmpdir(), 'ec-web-pictures-'))
    await mkdir(join(base, 'docs'))
    await mkdir(join(base, 'data'))
    preview = createPreviewFiles(new FileAccessPolicy(join(base, 'data')), {
      webPictures: createWebPictures({
        env: {},
        // Every name points at this computer here, as a hostile or rebinding name would.
        resolve: async (hostname) => {
          resolved.push(hostname)
          return [{ address: '127.0.0.1', family: 4 }]
        },
      }),
    })
    allowed = preview.grant('document', join(base, 'docs'), true)
  })
  afterAll(async () => {
    await canary.close()
    await closeDispatchers()
  })

  it.each([
    ['its address', (port: number) => `http://127.0.0.1:${port}/a.png`],
    ['another loopback address', (port: number) => `http://127.1.2.3:${port}/b.png`],
    ['localhost', (port: number) => `http://localhost:${port}/c.png`],
    ['IPv6 loopback', (port: number) => `http://[::1]:${port}/d.png`],
    ['IPv4 inside IPv6', (port: number) => `http://[::ffff:127.0.0.1]:${port}/e.png`],
    ['0.0.0.0', (port: number) => `http://0.0.0.0:${port}/f.png`],
    ['a decimal address', (port: number) => `http://2130706433:${port}/g.png`],
    ['a name that resolves to it', (port: number) => `http://inside.example:${port}/h.png`],
  ])('is refused by %s, and the canary sees no request', async (_case, address) => {
    const answer = await preview.respond(`${allowed}?web=${encodeURIComponent(address(canary.port))}`)
    expect(answer.status).toBe(404)
    expect(answer.headers['Content-Type']).toMatch(/^text\/plain/)
    expect(canary.hits).toEqual([])
  })

  it('says why, for the log: the address it would have connected to', async () => {
    const pictures = createWebPictures({ env: {}, resolve: async () => [{ address: '127.0.0.1', family: 4 }] })
    await expect(pictures.fetch(`http://inside.example:${canary.port}/why.png`)).resolves.toMatchObject({
      status: 403,
      refused: expect.stringContaining('inside.example is 127.0.0.1, this computer or a private network'),
    })
    await expect(pictures.fetch('ftp://example.com/a.png')).resolves.toMatchObject({ refused: 'ftp: is not the web' })
    expect(canary.hits).toEqual([])
  })
})

/*
 * Pictures that must load: a server at an address that is neither loopback nor private, which
 * only a network namespace can give this machine (its loopback interface holds 203.0.113.7).
 * Where no namespace can be made this says why and skips; under CI it fails instead.
 */
const support = networkNamespaceSupport()
const underCi = process.env.CI === 'true'
if (!support.ok && !underCi)
  console.warn(`Skipping the pictures from a public address: ${support.reason}. Run as root on Linux (CI=true makes this a failure).`)
if (!support.ok && underCi) {
  it('needs a network namespace under CI (CI=true)', () => {
    throw new Error(`The web pictures test cannot run: ${support.reason}. CI runs as root on a machine with unshare; fix the runner.`)
  })
}

describe.skipIf(!support.ok)(`pictures from a public address${support.ok ? '' : ` (skipped: ${support.reason})`}`, () => {
  type Answer = { status: number; type: string; bytes: number }
  let report: Record<string, Answer> & { lookups: Record<string, number>; webHits: string[]; canaryHits: string[] }

  beforeAll(async () => {
    const script = await nodeScript(resolve('test/helpers/scripts/web-pictures-scenario.ts'))
    const { code, stdout, stderr } = await runInNetworkNamespace(script, 60_000, ['203.0.113.7/32'])
    expect(code, stderr).toBe(0)
    report = JSON.parse(stdout.trim().split('\n').at(-1)!) as typeof report
  }, 90_000)

  it('load once allowed, by address, by name and through a redirect on the same server, as pictures', () => {
    for (const name of ['publicAddress', 'publicName', 'sameServerRedirect', 'rebinding'])
      expect(report[name], name).toEqual({ status: 200, type: 'image/png', bytes: 70 })
  })

  it('are refused when the document has no leave, or the leave was another document’s', () => {
    expect(report.notAllowed?.status).toBe(404)
    expect(report.otherDocument?.status).toBe(404)
    expect(report.webHits.filter((hit) => /not-allowed|other-document/.test(hit))).toEqual([])
  })

  it('are refused when they are not pictures, whatever the server calls them', () => {
    expect(report.notAPicture?.status).toBe(404)
  })

  it('never reach this computer: not by a redirect, a name, a name with one private address, nor a name that changes its answer', () => {
    for (const name of ['redirectToLoopback', 'nameInside', 'nameMixed', 'loopback']) expect(report[name]?.status, name).toBe(404)
    // The rebinding name was looked up once, and the connection went to that answer.
    expect(report.lookups['rebind.example']).toBe(1)
    expect(report.canaryHits).toEqual([])
    // What reached the web server: the pictures, the page that called itself one, the redirect, and nothing else.
    expect(report.webHits).toEqual([
      '/pixel.png',
      '/pixel.png',
      '/moved.png',
      '/pixel.png',
      '/page.png',
      expect.stringMatching(/^\/redirect\?to=/),
      '/pixel.png?rebind',
    ])
  })
})
