import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EventHub } from '../../../src-main/event-hub'
import { indexDocsFolder } from '../../../src-main/site-files/docs-folder'
import { createDocsFolderService } from '../../../src-main/site-files/docs-folder-service'
import { foldersNamed } from '../../../src-shared/site-config/docs-files'
import { failureOf } from '../../helpers/failure-of'
import { siteFiles, tempDir } from './helpers'

/** The built worker (npm test builds before the unit tests run). */
const BUILT_WORKER = resolve('out/main/docs-index-worker.js')

async function folderOfPages(count: number, frontMatterBytes = 0) {
  const root = await tempDir('ec-docs-index-')
  await mkdir(join(root, 'guides'), { recursive: true })
  await Promise.all(
    Array.from({ length: count }, (_, index) =>
      writeFile(
        join(root, 'guides', `page-${String(index).padStart(4, '0')}.mdx`),
        `---\ntitle: Page ${index}\ndescription: ${'x'.repeat(frontMatterBytes)}\n---\n# Page\n`,
      ),
    ),
  )
  await writeFile(join(root, 'mint.json'), JSON.stringify({ name: 'Big', navigation: [{ group: 'Guides', pages: ['guides/page-0000'] }] }))
  return root
}

describe('indexing a docs folder', () => {
  it('stops at its cap and says how many files there were; reports its progress', async () => {
    const root = await folderOfPages(2500)
    const progress: Array<{ done: number; total: number }> = []
    const index = await indexDocsFolder(root, null, { maxFiles: 2100, onProgress: (step) => progress.push(step) })
    expect(index).toMatchObject({ truncated: true, totalFiles: 2501 })
    expect(index.pages).toHaveLength(2100)
    expect(index.pages[2099]!.file).toBe('guides/page-2099.mdx')
    expect(progress).toEqual([
      { done: 1000, total: 2100 },
      { done: 2000, total: 2100 },
      { done: 2100, total: 2100 },
    ])
  })

  it('reads titles only while the front matter read stays within its budget; the pages are listed all the same', async () => {
    const root = await folderOfPages(40, 3000)
    const index = await indexDocsFolder(root, null, { maxTitleBytes: 20 * 3100 })
    expect(index.pages).toHaveLength(40)
    const titled = index.pages.filter((page) => page.title !== null).length
    // Front matter longer than the first 2 kB read is read whole (3 kB each here).
    expect(index.pages[0]!.title).toBe('Page 0')
    expect(titled).toBeGreaterThanOrEqual(20)
    expect(titled).toBeLessThan(40)
  })

  it('runs on a worker thread from the build, with the same index and its progress as events', async () => {
    expect(existsSync(BUILT_WORKER), 'the built worker (run npm run build first)').toBe(true)
    const root = await folderOfPages(1500)
    const dataDir = await tempDir('ec-docs-index-data-')
    const files = siteFiles(dataDir)
    const events = new EventHub()
    const progress: unknown[] = []
    events.subscribe((event) => event.name === 'site.docsProgress' && progress.push(event.payload))
    const document = await files.open(join(root, 'mint.json'))
    const onWorker = createDocsFolderService({ files, dataDir, events, workerFile: BUILT_WORKER })
    const here = createDocsFolderService({ files, dataDir, workerFile: null })
    try {
      const [threaded, inline] = await Promise.all([onWorker.index(document.documentId), here.index(document.documentId)])
      expect(threaded).toEqual(inline)
      expect(threaded!.pages).toHaveLength(1500)
      expect(progress).toEqual([
        { root, done: 1000, total: 1500 },
        { root, done: 1500, total: 1500 },
      ])
      // A worker that cannot start is a sentence, not a hang.
      const broken = createDocsFolderService({ files, dataDir, workerFile: join(root, 'no-such-worker.js') })
      expect((await failureOf(broken.index(document.documentId))).message).toMatch(/^The docs folder .+ could not be indexed: /)
      await broken.close()
    } finally {
      await onWorker.close()
      await here.close()
    }
  })

  it('watches only the folders the document can name: a page elsewhere says nothing, one there is announced', async () => {
    const root = await tempDir('ec-docs-watch-')
    for (const folder of ['guides', 'drafts']) await mkdir(join(root, folder))
    const config = { name: 'W', logo: 'images/logo.svg', navigation: [{ group: 'G', pages: ['introduction', 'guides/start'] }] }
    await writeFile(join(root, 'mint.json'), JSON.stringify(config))
    expect(foldersNamed(config)).toEqual(['', 'guides', 'images'])
    const dataDir = await tempDir('ec-docs-watch-data-')
    const files = siteFiles(dataDir)
    const events = new EventHub()
    const changes: string[] = []
    events.subscribe((event) => event.name === 'site.docsChanged' && changes.push(event.payload.root))
    const document = await files.open(join(root, 'mint.json'))
    const docs = createDocsFolderService({ files, dataDir, events, workerFile: null })
    try {
      await docs.index(document.documentId, undefined, foldersNamed(config))
      await docs.watching()
      await writeFile(join(root, 'guides', 'start.mdx'), '# start\n')
      for (let tries = 0; tries < 100 && changes.length === 0; tries++) await new Promise((next) => setTimeout(next, 50))
      expect(changes).toEqual([root])
      changes.length = 0
      await writeFile(join(root, 'drafts', 'another.mdx'), '# draft\n')
      await new Promise((next) => setTimeout(next, 600))
      expect(changes).toEqual([])
    } finally {
      await docs.close()
    }
  })
})
