// The preview's pictures from the web, fetched by main's real code in a network namespace (started
// by test/unit/site-files/preview-web-pictures.test.ts through `unshare -n`) whose loopback
// interface also holds 203.0.113.7: an address that is neither loopback nor private, where a
// picture server plays a site on the web. A canary on 127.0.0.1 counts what should never come.
// Prints one JSON report on stdout; the test judges it.
import { mkdir, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPreviewFiles } from '../../../src-main/site-files/preview-files'
import { createWebPictures, type ResolvedAddress } from '../../../src-main/site-files/web-pictures'
import { closeDispatchers } from '../../../src-main/user-api/dispatchers'
import { FileAccessPolicy } from '../../../src-main/user-files/file-access'
import { startCanary, startPictureServer } from '../web-pictures'

const PUBLIC = '203.0.113.7'

const base = await mkdtemp(join(tmpdir(), 'ec-web-pictures-'))
const root = join(base, 'docs')
await mkdir(root)
await mkdir(join(base, 'data'))
// Both on one port: a request that went to the wrong address would reach the canary.
const canary = await startCanary()
const web = await startPictureServer(PUBLIC, canary.port)
const port = canary.port

// The test's own names: one on the web, one that points at this computer, and one that answers
// the web once and this computer afterwards (a rebinding name).
const lookups: Record<string, number> = {}
const names: Record<string, (count: number) => ResolvedAddress[]> = {
  'cdn.example': () => [{ address: PUBLIC, family: 4 }],
  'inside.example': () => [{ address: '127.0.0.1', family: 4 }],
  'mixed.example': () => [
    { address: PUBLIC, family: 4 },
    { address: '10.1.2.3', family: 4 },
  ],
  'rebind.example': (count) => [{ address: count === 1 ? PUBLIC : '127.0.0.1', family: 4 }],
}
const resolve = async (hostname: string) => {
  lookups[hostname] = (lookups[hostname] ?? 0) + 1
  const answer = names[hostname]
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
  return answer(lookups[hostname])
}

const preview = createPreviewFiles(new FileAccessPolicy(join(base, 'data')), {
  webPictures: createWebPictures({ env: {}, resolve, timeoutMs: 5000 }),
})
const allowed = preview.grant('document-a', root, true)
const notAllowed = preview.grant('document-a', root, false)
const otherDocument = preview.grant('document-b', root, false)

const at = `http://${PUBLIC}:${port}`
const loop = `http://127.0.0.1:${canary.port}`
const ask = async (grant: string, address: string) => {
  const answer = await preview.respond(`${grant}?web=${encodeURIComponent(address)}`)
  return { status: answer.status, type: answer.headers['Content-Type'], bytes: answer.body.length }
}

const report = {
  publicAddress: await ask(allowed, `${at}/pixel.png`),
  publicName: await ask(allowed, `http://cdn.example:${port}/pixel.png`),
  sameServerRedirect: await ask(allowed, `${at}/moved.png`),
  notAPicture: await ask(allowed, `${at}/page.png`),
  redirectToLoopback: await ask(allowed, `${at}/redirect?to=${encodeURIComponent(`${loop}/redirected.png`)}`),
  nameInside: await ask(allowed, `http://inside.example:${port}/named.png`),
  nameMixed: await ask(allowed, `http://mixed.example:${port}/pixel.png`),
  rebinding: await ask(allowed, `http://rebind.example:${port}/pixel.png?rebind`),
  loopback: await ask(allowed, `${loop}/direct.png`),
  notAllowed: await ask(notAllowed, `${at}/pixel.png?not-allowed`),
  otherDocument: await ask(otherDocument, `${at}/pixel.png?other-document`),
  lookups,
  webHits: web.hits,
  canaryHits: canary.hits,
}
await Promise.all([web.close(), canary.close(), closeDispatchers()])
process.stdout.write(`${JSON.stringify(report)}\n`)
