import { chmod, link, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { validate } from '@readme/openapi-parser'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createRouter, type Handlers } from '../../../src-main/router'
import { checkOpenApiFile, indexDocsFolder } from '../../../src-main/site-files/docs-folder'
import { createDocsFolderService } from '../../../src-main/site-files/docs-folder-service'
import { createSiteFileHandlers } from '../../../src-main/site-files/site-file-handlers'
import { serializeSiteConfig } from '../../../src-shared/site-config/serialize'
import { buildOpenApiDocument, openApiFileText } from '../../../src-shared/user-api/openapi'
import { failureOf } from '../../helpers/failure-of'
import { siteFiles, tempDir } from './helpers'

// site.writeApiReference: openapi.json written by main next to a document main itself opened or
// saved, never anywhere the renderer names, never in the data folder, atomically, readable by all.

const SITE = serializeSiteConfig({ name: 'Acme', navigation: [{ group: 'Start', pages: ['intro'] }] })
const SERVER = 'https://api.example.com'

let dataDir: string
let workDir: string
let sitePath: string
let referencePath: string

// The app's own files are owner-only; a strict umask must not make the public reference so too.
let umaskBefore: number
beforeAll(() => {
  umaskBefore = process.umask(0o077)
})
afterAll(() => {
  process.umask(umaskBefore)
})

beforeEach(async () => {
  dataDir = await tempDir('ec-apiref-data-')
  workDir = await tempDir('ec-apiref-work-')
  sitePath = join(workDir, 'site.json')
  referencePath = join(workDir, 'openapi.json')
  await writeFile(sitePath, SITE)
})

const ENDPOINT_PAGES = [
  'api-reference/user-groups/get-or-create-a-user-group.mdx',
  'api-reference/user-groups/update-a-user-group.mdx',
  'api-reference/user-groups/rotate-a-user-groups-token.mdx',
]

async function opened() {
  const service = siteFiles(dataDir)
  const document = await service.open(sitePath)
  return { service, documentId: document.documentId }
}

describe('writing the API reference next to site.json', () => {
  it('writes the document of the one schema, pointed at the server given, valid, and readable by all', async () => {
    const { service, documentId } = await opened()
    expect(await service.apiReferenceTarget(documentId)).toEqual({ path: referencePath, existing: null })
    const written = await service.writeApiReference({ documentId, serverUrl: SERVER })
    expect(written).toEqual({ path: referencePath, replaced: false, serverUrl: SERVER, pagesWritten: ENDPOINT_PAGES, pagesKept: [] })

    const text = await readFile(referencePath, 'utf8')
    expect(text).toBe(openApiFileText(buildOpenApiDocument({ serverUrl: SERVER })))
    const document = JSON.parse(text)
    expect(document.servers).toEqual([{ url: SERVER }])
    expect((await validate(structuredClone(document))).valid).toBe(true)
    expect((await stat(referencePath)).mode & 0o777).toBe(0o644)
    // The docs-folder check the editor runs finds it valid.
    expect(await checkOpenApiFile(workDir, 'openapi.json')).toMatchObject({ state: 'valid', title: 'User groups API' })
    expect((await readdir(workDir)).sort()).toEqual(['api-reference', 'openapi.json', 'site.json'])
    // One page per operation, as Mintlify's scraper files them, each naming its endpoint; the docs folder indexes them with their titles.
    expect(await readFile(join(workDir, ENDPOINT_PAGES[1]!), 'utf8')).toBe(
      '---\ntitle: "Update a user group"\nopenapi: "PUT /api/user"\n---\n',
    )
    expect((await stat(join(workDir, ENDPOINT_PAGES[0]!))).mode & 0o777).toBe(0o644)
    const index = await indexDocsFolder(workDir, dataDir)
    expect(index.pages.filter((page) => page.path.startsWith('api-reference/'))).toEqual([
      { path: 'api-reference/user-groups/get-or-create-a-user-group', file: ENDPOINT_PAGES[0], title: 'Get or create a user group' },
      { path: 'api-reference/user-groups/rotate-a-user-groups-token', file: ENDPOINT_PAGES[2], title: "Rotate a user group's token" },
      { path: 'api-reference/user-groups/update-a-user-group', file: ENDPOINT_PAGES[1], title: 'Update a user group' },
    ])
  })

  it('keeps an endpoint page that is there already, as the writer left it', async () => {
    const edited = join(workDir, ENDPOINT_PAGES[2]!)
    await mkdir(dirname(edited), { recursive: true })
    await writeFile(edited, '---\ntitle: Rotation, explained\n---\nOur own words.\n')
    const { service, documentId } = await opened()
    expect(await service.writeApiReference({ documentId, serverUrl: SERVER })).toMatchObject({
      pagesWritten: ENDPOINT_PAGES.slice(0, 2),
      pagesKept: [ENDPOINT_PAGES[2]],
    })
    expect(await readFile(edited, 'utf8')).toBe('---\ntitle: Rotation, explained\n---\nOur own words.\n')
  })

  it('names no server without one: the document keeps its {base_url} variable', async () => {
    const { service, documentId } = await opened()
    await service.writeApiReference({ documentId, serverUrl: null })
    const document = JSON.parse(await readFile(referencePath, 'utf8'))
    expect(document.servers[0].url).toBe('{base_url}')
    expect(document).toEqual(buildOpenApiDocument())
  })

  it('refuses a loopback server: a published reference must not send readers to their own computer', async () => {
    const { service, documentId } = await opened()
    for (const serverUrl of ['http://127.0.0.1:8765', 'http://localhost:3000', 'http://[::1]:8080']) {
      const error = await failureOf(service.writeApiReference({ documentId, serverUrl }))
      expect(error).toMatchObject({ code: 'refused', message: expect.stringContaining('only this computer can reach') })
    }
    expect(await readdir(workDir)).toEqual(['site.json'])
  })

  it('refuses an untitled document, and one main never opened: save it first', async () => {
    const service = siteFiles(dataDir)
    const untitled = service.create()
    for (const documentId of [untitled.documentId, 'file-0123456789abcdef']) {
      const error = await failureOf(service.writeApiReference({ documentId, serverUrl: SERVER }))
      expect(error).toMatchObject({ code: 'not_found', message: expect.stringMatching(/save it first.*openapi\.json/) })
      expect((await failureOf(service.apiReferenceTarget(documentId))).code).toBe('not_found')
    }
    expect(await readdir(workDir)).toEqual(['site.json'])
  })

  it('writes next to the file the document belongs to now: after Save as, the new folder', async () => {
    const service = siteFiles(dataDir)
    const elsewhere = join(workDir, 'site-b')
    await mkdir(elsewhere)
    const untitled = service.create()
    const saved = await service.saveAs({
      documentId: untitled.documentId,
      text: untitled.text,
      byteOrderMark: false,
      target: { kind: 'path', path: join(elsewhere, 'site.json') },
    })
    await service.writeApiReference({ documentId: saved!.documentId, serverUrl: SERVER })
    expect((await readdir(elsewhere)).sort()).toEqual(['api-reference', 'openapi.json', 'site.json'])
    expect(await readdir(workDir)).not.toContain('openapi.json')
  })

  it('refuses the data folder: an openapi.json that links into it is never written through', async () => {
    const vault = join(dataDir, 'vault.plain.json')
    await writeFile(vault, '{"tokens": {"p": "secret-token"}}')
    await symlink(vault, referencePath)
    const { service, documentId } = await opened()
    expect((await failureOf(service.apiReferenceTarget(documentId))).code).toBe('refused')
    const error = await failureOf(service.writeApiReference({ documentId, serverUrl: SERVER }))
    expect(error).toMatchObject({ code: 'refused', message: expect.stringContaining('own data folder') })
    expect(await readFile(vault, 'utf8')).toBe('{"tokens": {"p": "secret-token"}}')
  })

  it('refuses endpoint pages that would land in the data folder, before writing anything', async () => {
    await symlink(dataDir, join(workDir, 'api-reference'))
    const { service, documentId } = await opened()
    const error = await failureOf(service.writeApiReference({ documentId, serverUrl: SERVER }))
    expect(error).toMatchObject({ code: 'refused', message: expect.stringContaining('own data folder') })
    expect((await readdir(workDir)).sort()).toEqual(['api-reference', 'site.json'])
    expect(await readdir(dataDir)).not.toContain('user-groups')
  })

  it('replaces an existing file only with the token of the question that asked, for that file as it was, once', async () => {
    await writeFile(referencePath, '{"openapi": "3.0.0", "old": true}')
    const { service, documentId } = await opened()
    const target = await service.apiReferenceTarget(documentId)
    expect(target.existing).toMatchObject({ size: 33, modifiedAt: expect.stringMatching(/^\d{4}-/), replaceToken: expect.any(String) })

    const unasked = await failureOf(service.writeApiReference({ documentId, serverUrl: SERVER }))
    expect(unasked).toMatchObject({ code: 'conflict', message: 'A file named openapi.json already exists there. Replace it?' })
    expect((await failureOf(service.writeApiReference({ documentId, serverUrl: SERVER, replaceToken: 'made-up' }))).code).toBe('conflict')
    // A Save as question's answer is not this question's.
    const saveAsAnswer = (
      await failureOf(service.saveAs({ documentId, text: SITE, byteOrderMark: false, target: { kind: 'path', path: referencePath } }))
    ).details as {
      replaceToken: string
    }
    expect(
      (await failureOf(service.writeApiReference({ documentId, serverUrl: SERVER, replaceToken: saveAsAnswer.replaceToken }))).code,
    ).toBe('conflict')
    expect(await readFile(referencePath, 'utf8')).toBe('{"openapi": "3.0.0", "old": true}')

    // Changed after the question: the answer was about another file.
    await writeFile(referencePath, '{"openapi": "3.0.0", "old": 2}')
    const stale = await failureOf(service.writeApiReference({ documentId, serverUrl: SERVER, replaceToken: target.existing!.replaceToken }))
    expect(stale.message).toMatch(/not the file you agreed to replace/)
    expect(await readFile(referencePath, 'utf8')).toBe('{"openapi": "3.0.0", "old": 2}')

    const { replaceToken } = stale.details as { replaceToken: string }
    expect(await service.writeApiReference({ documentId, serverUrl: SERVER, replaceToken })).toMatchObject({ replaced: true })
    expect(await readFile(referencePath, 'utf8')).toBe(openApiFileText(buildOpenApiDocument({ serverUrl: SERVER })))
    // Once.
    await writeFile(referencePath, '{}')
    expect((await failureOf(service.writeApiReference({ documentId, serverUrl: SERVER, replaceToken }))).code).toBe('conflict')
  })

  it('replaces atomically: a new file renamed over the old, which a reader holding it still sees whole; its mode kept', async () => {
    await writeFile(referencePath, '{"old": true}')
    await chmod(referencePath, 0o640)
    // A second name for the old file's bytes: an in-place write would change what it reads.
    const holder = join(workDir, 'held-by-a-reader.json')
    await link(referencePath, holder)
    const { service, documentId } = await opened()
    const { existing } = await service.apiReferenceTarget(documentId)
    const before = await stat(referencePath)
    await service.writeApiReference({ documentId, serverUrl: SERVER, replaceToken: existing!.replaceToken })
    const after = await stat(referencePath)
    expect(after.ino).not.toBe(before.ino)
    expect(await readFile(holder, 'utf8')).toBe('{"old": true}')
    expect(after.mode & 0o777).toBe(0o640)
    expect(JSON.parse(await readFile(referencePath, 'utf8')).servers).toEqual([{ url: SERVER }])
    expect((await readdir(workDir)).sort()).toEqual(['api-reference', 'held-by-a-reader.json', 'openapi.json', 'site.json'])
  })

  it('does not replace a folder named openapi.json', async () => {
    await mkdir(referencePath)
    const { service, documentId } = await opened()
    const error = await failureOf(service.writeApiReference({ documentId, serverUrl: SERVER }))
    expect(error).toMatchObject({ code: 'file_io', message: expect.stringContaining('is a folder') })
  })
})

describe('through the router', () => {
  it('takes a document id, never a path, and a server that is a base URL', async () => {
    const files = siteFiles(dataDir)
    const router = createRouter(createSiteFileHandlers(files, createDocsFolderService({ files, dataDir })) as unknown as Handlers)
    const call = (name: string, input: unknown) => router.dispatch(name, input, { transport: 'test' })
    const { value: document } = (await call('site.open', { path: sitePath })) as { value: { documentId: string } }

    expect(
      await call('site.writeApiReference', { documentId: document.documentId, serverUrl: SERVER, path: join(dataDir, 'x.json') }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    })
    expect(await call('site.writeApiReference', { documentId: document.documentId, serverUrl: 'javascript:alert(1)' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    })
    expect(await call('site.writeApiReference', { documentId: '../../vault', serverUrl: null })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    })
    expect(await readdir(workDir)).toEqual(['site.json'])

    expect(await call('site.writeApiReference', { documentId: document.documentId, serverUrl: `${SERVER}/` })).toEqual({
      ok: true,
      value: { path: referencePath, replaced: false, serverUrl: SERVER, pagesWritten: ENDPOINT_PAGES, pagesKept: [] },
    })
  })
})
