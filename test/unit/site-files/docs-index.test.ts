import { existsSync } from 'node:fs'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { EventHub } from '../../../src-main/event-hub'
import { createRouter, type Handlers } from '../../../src-main/router'
import { indexDocsFolder } from '../../../src-main/site-files/docs-folder'
import { createDocsFolderService } from '../../../src-main/site-files/docs-folder-service'
import { type FolderChange, watchFolders } from '../../../src-main/site-files/folder-watcher'
import { createSiteFileHandlers } from '../../../src-main/site-files/site-file-handlers'
import { MAX_CHANGED_FILES } from '../../../src-shared/ipc/events'
import { MAX_WATCHED_FOLDERS } from '../../../src-shared/ipc/site-calls'
import { foldersNamed } from '../../../src-shared/site-config/docs-files'
import { failureOf } from '../../helpers/failure-of'
import { BUILT_WORKER, siteFiles, tempDir } from './helpers'

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

/** The files a watcher's announcements named, each once, in the order first named. */
const namedIn = (announced: readonly FolderChange[]) => [...new Set(announced.flatMap((change) => change.changed))]

/**
 * Polls until an announcement names `fence`. A change that must not be announced is made just
 * before the fence: the system tells a watcher's changes in the order they were made (one
 * inotify queue for every folder watched), so had the first been announced, it would be named by
 * the fence's announcement (the same burst) or one before it, never only after.
 */
async function untilNamed(announced: readonly FolderChange[], fence: string) {
  await vi.waitFor(() => expect(namedIn(announced)).toContain(fence), { timeout: 10_000, interval: 20 })
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

  it('watches only the folders the document can name, and only the files that can change the check: it names what changed', async () => {
    const root = await tempDir('ec-docs-watch-')
    for (const folder of ['guides', 'drafts']) await mkdir(join(root, folder))
    const config = { name: 'W', logo: 'images/logo.svg', navigation: [{ group: 'G', pages: ['introduction', 'guides/start'] }] }
    await writeFile(join(root, 'mint.json'), JSON.stringify(config))
    expect(foldersNamed(config)).toEqual(['', 'guides', 'images'])
    const dataDir = await tempDir('ec-docs-watch-data-')
    const files = siteFiles(dataDir)
    const events = new EventHub()
    const roots: string[] = []
    const changes: FolderChange[] = []
    events.subscribe((event) => {
      if (event.name !== 'site.docsChanged') return
      roots.push(event.payload.root)
      changes.push({ changed: event.payload.changed, more: event.payload.more })
    })
    const document = await files.open(join(root, 'mint.json'))
    const docs = createDocsFolderService({ files, dataDir, events, workerFile: null })
    try {
      await docs.index(document.documentId, undefined, foldersNamed(config))
      await docs.watching()
      await writeFile(join(root, 'guides', 'start.mdx'), '# start\n')
      await untilNamed(changes, 'guides/start.mdx')
      expect(new Set(roots)).toEqual(new Set([root]))
      expect(namedIn(changes)).toEqual(['guides/start.mdx'])
      changes.length = 0
      // A page in a folder the document does not name, and a file no check reads in one it does.
      await writeFile(join(root, 'drafts', 'another.mdx'), '# draft\n')
      await writeFile(join(root, 'guides', 'notes.txt'), 'notes\n')
      await writeFile(join(root, 'guides', 'fence.mdx'), '# fence\n')
      await untilNamed(changes, 'guides/fence.mdx')
      expect(namedIn(changes)).toEqual(['guides/fence.mdx'])
      expect(changes.some((change) => change.more)).toBe(false)
    } finally {
      await docs.close()
    }
  })
})

describe('watching a docs folder a cloned repository may have made hostile', () => {
  /** The docs folder service's announcements, each with the folder it names. */
  const changesOf = (events: EventHub) => {
    const changes: Array<FolderChange & { root: string }> = []
    events.subscribe((event) => event.name === 'site.docsChanged' && changes.push(event.payload))
    return changes
  }

  it('watches only the folder itself when a caller of the router gives no folders', async () => {
    const root = await tempDir('ec-docs-default-')
    await mkdir(join(root, 'guides'))
    await writeFile(join(root, 'docs.json'), JSON.stringify({ name: 'D', navigation: { pages: ['index'] } }))
    const dataDir = await tempDir('ec-docs-default-data-')
    const events = new EventHub()
    const changes = changesOf(events)
    const files = siteFiles(dataDir)
    const docs = createDocsFolderService({ files, dataDir, events, workerFile: null })
    const router = createRouter(createSiteFileHandlers(files, docs) as unknown as Handlers)
    try {
      const opened = await router.dispatch('site.open', { path: join(root, 'docs.json') }, { transport: 'test' })
      const { documentId } = (opened as { value: { documentId: string } }).value
      expect(await router.dispatch('site.docsIndex', { documentId }, { transport: 'test' })).toMatchObject({ ok: true })
      await writeFile(join(root, 'guides', 'deep.mdx'), '# deep\n')
      await writeFile(join(root, 'index.mdx'), '# home\n')
      await untilNamed(changes, 'index.mdx')
      expect(namedIn(changes)).toEqual(['index.mdx'])
      expect(changes.map((change) => change.root)).toEqual(changes.map(() => root))
      // More folders than it watches is refused by the contract before main does anything.
      const tooMany = Array.from({ length: MAX_WATCHED_FOLDERS + 1 }, (_, index) => `folder-${index}`)
      expect(await router.dispatch('site.docsIndex', { documentId, watch: tooMany }, { transport: 'test' })).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' },
      })
    } finally {
      await docs.close()
    }
  })

  it('never watches through a link out of the folder (to / or elsewhere), and says which it left out', async () => {
    const [root, elsewhere] = await Promise.all([tempDir('ec-docs-links-'), tempDir('ec-docs-elsewhere-')])
    await symlink('/', join(root, 'everything'))
    await symlink(elsewhere, join(root, 'shared'))
    await mkdir(join(root, 'guides'))
    await symlink(join(root, 'guides'), join(root, 'also-guides'))
    const announced: FolderChange[] = []
    const watcher = await watchFolders(root, null, ['', 'everything', 'everything/tmp', 'shared', 'also-guides'], (change) =>
      announced.push(change),
    )
    try {
      expect(watcher.notices).toEqual([
        '3 folders the document names are links out of the docs folder, so not watched: everything, everything/tmp, shared. Links that lead out of the folder are never followed.',
      ])
      await writeFile(join(elsewhere, 'outside.mdx'), '# outside\n')
      // A link inside the folder to a folder inside it is that folder, named by its own path.
      await writeFile(join(root, 'guides', 'inside.mdx'), '# inside\n')
      await untilNamed(announced, 'guides/inside.mdx')
      expect(namedIn(announced)).toEqual(['guides/inside.mdx'])
    } finally {
      watcher.close()
    }
  })

  it('watches at most its cap of folders, says so, and looks again for a folder named before it existed', async () => {
    const root = await tempDir('ec-docs-cap-')
    for (const folder of ['a', 'b', 'c', 'd']) await mkdir(join(root, folder))
    const announced: FolderChange[] = []
    const watcher = await watchFolders(root, null, ['a', 'b', 'c', 'later', 'd'], (change) => announced.push(change), 4)
    try {
      expect(watcher.notices).toEqual([
        'The document names 5 folders: the first 4 are watched for changes; Index again shows changes in the others.',
      ])
      await writeFile(join(root, 'd', 'past-the-cap.mdx'), '# d\n')
      await mkdir(join(root, 'later'))
      await writeFile(join(root, 'a', 'first.mdx'), '# a\n')
      await untilNamed(announced, 'a/first.mdx')
      expect(namedIn(announced)).toEqual(['a/first.mdx'])
      // The announcement came after 'later' was looked for again: it is watched now.
      await writeFile(join(root, 'later', 'page.mdx'), '# later\n')
      await untilNamed(announced, 'later/page.mdx')
      expect(namedIn(announced)).toEqual(['a/first.mdx', 'later/page.mdx'])
    } finally {
      watcher.close()
    }
  })

  it('names at most its cap of files in one announcement, and says when there were more', async () => {
    const root = await tempDir('ec-docs-burst-')
    const announced: FolderChange[] = []
    const watcher = await watchFolders(root, null, [''], (change) => announced.push(change))
    const written = Array.from({ length: MAX_CHANGED_FILES + 20 }, (_, index) => `page-${index}.mdx`)
    try {
      await Promise.all(written.map((file) => writeFile(join(root, file), '# page\n')))
      // However the system split the writes into bursts, each file is named or an announcement says there were more.
      const accounted = () => announced.some((change) => change.more) || written.every((file) => namedIn(announced).includes(file))
      await vi.waitFor(() => expect(accounted()).toBe(true), { timeout: 10_000, interval: 20 })
      for (const change of announced) expect(change.changed.length).toBeLessThanOrEqual(MAX_CHANGED_FILES)
      expect(namedIn(announced).every((file) => written.includes(file))).toBe(true)
    } finally {
      watcher.close()
    }
  })
})
