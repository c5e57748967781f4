import { readFileSync } from 'node:fs'
import { cp, mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EventHub } from '../../../src-main/event-hub'
import { titleFromFrontMatter } from '../../../src-main/site-files/docs-folder'
import { createDocsFolderService } from '../../../src-main/site-files/docs-folder-service'
import { docsLookup, docsProblems, openApiFilesOf, unlistedPages } from '../../../src-shared/site-config/docs-files'
import { failureOf } from '../../helpers/failure-of'
import { siteFiles, tempDir } from './helpers'

const FIXTURE = join(import.meta.dirname, '../../fixtures/site-config/docs-site')
const config = JSON.parse(readFileSync(join(FIXTURE, 'mint.json'), 'utf8')) as unknown

async function docsSite() {
  const [dataDir, root] = await Promise.all([tempDir('ec-docs-data-'), tempDir('ec-docs-site-')])
  await cp(FIXTURE, root, { recursive: true })
  // A dependency's readme is never a page.
  await mkdir(join(root, 'node_modules', 'some-package'), { recursive: true })
  await writeFile(join(root, 'node_modules', 'some-package', 'readme.md'), '# not a page\n')
  const events = new EventHub()
  const files = siteFiles(dataDir)
  const docs = createDocsFolderService({ files, dataDir, events })
  const document = await files.open(join(root, 'mint.json'))
  return { dataDir, root, files, docs, events, documentId: document.documentId }
}

describe('the docs folder', () => {
  it('indexes the pages beside the file, with their sidebar titles, and the files the site may point at', async () => {
    const { docs, documentId, root } = await docsSite()
    const index = (await docs.index(documentId))!
    await docs.close()
    expect(index.root).toBe(root)
    expect(index.pages).toEqual([
      { path: 'api/overview', file: 'api/overview.mdx', title: 'API overview' },
      { path: 'guides/plain', file: 'guides/plain.md', title: null },
      { path: 'guides/unlisted', file: 'guides/unlisted.mdx', title: 'An unlisted guide' },
      { path: 'introduction', file: 'introduction.mdx', title: 'Welcome' },
      { path: 'quickstart', file: 'quickstart.md', title: 'Quickstart' },
    ])
    expect(index.files).toEqual(['images/logo.svg', 'mint.json', 'openapi.yaml', 'specs/broken.json'])
    expect(index.truncated).toBe(false)
  })

  it('reports every page and file the site names that the folder does not hold, and every broken OpenAPI file', async () => {
    const { docs, documentId } = await docsSite()
    const index = (await docs.index(documentId))!
    const checks = await docs.checkOpenApi(documentId, openApiFilesOf(config))
    await docs.close()
    expect(checks.map(({ file, state, title }) => ({ file, state, title }))).toEqual([
      { file: 'openapi.yaml', state: 'valid', title: 'Acme API' },
      { file: 'specs/broken.json', state: 'invalid', title: null },
      { file: 'specs/missing.json', state: 'missing', title: null },
    ])
    expect(docsProblems(config, docsLookup(index), checks)).toEqual([
      {
        path: 'navigation[0].pages[2]',
        message: 'has no page in the docs folder: expected guides/missing-page.mdx or guides/missing-page.md',
      },
      { path: 'navigation[1].pages[1]', message: 'has no page in the docs folder: expected api/ghost.mdx or api/ghost.md' },
      { path: 'favicon', message: 'is not in the docs folder: no favicon at favicon.svg' },
      { path: 'backgroundImage', message: 'is not in the docs folder: no background image at images/background.png' },
      { path: 'openapi[1]', message: expect.stringMatching(/^is not a valid OpenAPI file: .*info/) },
      { path: 'openapi[2]', message: 'is not in the docs folder: no OpenAPI file at specs/missing.json' },
    ])
    expect(unlistedPages(config, index).map((page) => page.path)).toEqual(['guides/plain', 'guides/unlisted'])
  })

  it('never follows an OpenAPI reference out of the folder, nor to another file', async () => {
    const { docs, documentId, root, dataDir } = await docsSite()
    await writeFile(join(dataDir, 'vault.plain.json'), '{"secret": "token-value"}')
    await writeFile(
      join(root, 'refs.json'),
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Refs', version: '1' },
        paths: {},
        components: { schemas: { Leak: { $ref: `${join(dataDir, 'vault.plain.json')}#/secret` } } },
      }),
    )
    const [outside, refs] = await docs.checkOpenApi(documentId, ['../../etc/passwd', 'refs.json'])
    await docs.close()
    expect(outside).toMatchObject({ state: 'unreadable', problems: ['it points outside the docs folder'] })
    expect(JSON.stringify(refs)).not.toContain('token-value')
  })

  it('takes another folder when asked, but never the data folder', async () => {
    const { docs, documentId, dataDir, root } = await docsSite()
    expect((await failureOf(docs.index(documentId, { kind: 'path', path: dataDir }))).code).toBe('refused')
    await symlink(dataDir, join(root, 'linked-data'))
    expect((await failureOf(docs.index(documentId, { kind: 'path', path: join(root, 'linked-data') }))).code).toBe('refused')
    const other = await tempDir('ec-docs-other-')
    await writeFile(join(other, 'page.mdx'), '---\ntitle: Other\n---\n')
    expect((await docs.index(documentId, { kind: 'path', path: other }))?.pages).toEqual([
      { path: 'page', file: 'page.mdx', title: 'Other' },
    ])
    await docs.close()
  })

  it('announces a page added to the watched folder', async () => {
    const { docs, documentId, events, root } = await docsSite()
    await docs.index(documentId, undefined, ['', 'guides'])
    const changed = new Promise<unknown>((resolve) =>
      events.subscribe((event) => event.name === 'site.docsChanged' && resolve(event.payload)),
    )
    // Changes are announced once the watcher watches.
    await docs.watching()
    await writeFile(join(root, 'guides', 'new-page.mdx'), '---\ntitle: New\n---\n')
    expect(await changed).toEqual({ root, changed: ['guides/new-page.mdx'], more: false })
    await docs.close()
    await rm(root, { recursive: true, force: true })
  })

  it('announces a change made the moment the index answers: the screen says "watching" only once it is true', async () => {
    const { docs, documentId, events, root } = await docsSite()
    const changed = new Promise<unknown>((resolve) =>
      events.subscribe((event) => event.name === 'site.docsChanged' && resolve(event.payload)),
    )
    await docs.index(documentId, undefined, ['', 'guides'])
    await writeFile(join(root, 'guides', 'right-away.mdx'), '---\ntitle: Right away\n---\n')
    expect(await changed).toEqual({ root, changed: ['guides/right-away.mdx'], more: false })
    await docs.close()
    await rm(root, { recursive: true, force: true })
  })

  it('reads titles from front matter, and nothing from anything else', () => {
    expect(titleFromFrontMatter('---\ntitle: "A"\n---\n')).toBe('A')
    expect(titleFromFrontMatter('\uFEFF---\r\nsidebarTitle: Short\r\ntitle: Long\r\n---\r\n')).toBe('Short')
    expect(titleFromFrontMatter('# Heading\n---\ntitle: no\n---\n')).toBeNull()
    expect(titleFromFrontMatter('---\ntitle: [unclosed\n---\n')).toBeNull()
    expect(titleFromFrontMatter('---\na: &a [1]\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n---\n')).toBeNull()
  })
})
