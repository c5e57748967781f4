import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { DRAFTS_FOLDER } from '../../../src-main/site-files/draft-store'
import { MAX_RECENT_FILES, RECENT_FILES_FILE } from '../../../src-main/site-files/recent-files'
import { serializeSiteConfig, SITE_CONFIG_TEMPLATE } from '../../../src-shared/site-config/serialize'
import { failureOf } from '../../helpers/failure-of'
import { siteFiles, tempDir } from './helpers'

let dataDir: string
let workDir: string

beforeEach(async () => {
  dataDir = await tempDir('ec-site-data-')
  workDir = await tempDir('ec-site-work-')
})

const writeSite = async (name: string, config: object = { name, navigation: [] }) => {
  const path = join(workDir, name)
  await writeFile(path, serializeSiteConfig(config))
  return path
}

/** A clock that moves one second per reading, so every entry has its own time. */
const tickingClock = () => {
  let seconds = 0
  return () => new Date(Date.UTC(2025, 0, 1, 9, 0, seconds++))
}

describe('recent files', () => {
  it('lists files opened and saved, newest first, each once', async () => {
    const service = siteFiles(dataDir, { now: tickingClock() })
    const a = await writeSite('a.json')
    const b = await writeSite('b.json')
    await service.open(a)
    await service.open(b)
    await service.open(a)
    const untitled = service.create()
    const c = join(workDir, 'c.json')
    await service.saveAs({ documentId: untitled.documentId, text: untitled.text, byteOrderMark: false, target: { kind: 'path', path: c } })
    expect((await service.recent()).map((entry) => entry.path)).toEqual([c, a, b])
  })

  it(`keeps at most ${MAX_RECENT_FILES}, and keeps them across launches`, async () => {
    const service = siteFiles(dataDir, { now: tickingClock() })
    const paths = []
    for (let index = 0; index < MAX_RECENT_FILES + 3; index++) {
      paths.push(await writeSite(`site-${index}.json`))
      await service.open(paths.at(-1)!)
    }
    const expected = paths.slice(-MAX_RECENT_FILES).reverse()
    expect((await service.recent()).map((entry) => entry.path)).toEqual(expected)
    expect((await siteFiles(dataDir).recent()).map((entry) => entry.path)).toEqual(expected)
    expect(await readdir(dataDir)).toContain(RECENT_FILES_FILE)
  })

  it('forgets a path on request', async () => {
    const service = siteFiles(dataDir)
    const a = await writeSite('a.json')
    await service.open(a)
    expect(await service.forgetRecent(a)).toEqual([])
    expect(await siteFiles(dataDir).recent()).toEqual([])
  })

  it('starts empty, rather than failing, when its file is corrupt', async () => {
    await writeFile(join(dataDir, RECENT_FILES_FILE), '{ nope')
    expect(await siteFiles(dataDir).recent()).toEqual([])
  })
})

describe('autosaved drafts', () => {
  it('offers a file’s unsaved changes back at the next launch, when the file is opened', async () => {
    const path = await writeSite('site.json')
    const before = await siteFiles(dataDir).open(path)
    const unsaved = serializeSiteConfig({ name: 'Unsaved', navigation: [] })
    const { savedAt } = await siteFiles(dataDir, { now: () => new Date('2025-01-01T09:30:00Z') }).saveDraft({
      documentId: before.documentId,
      path,
      text: unsaved,
      baseVersion: before.version,
    })
    expect(savedAt).toBe('2025-01-01T09:30:00.000Z')

    // The next launch: a new service over the same data folder.
    const nextLaunch = siteFiles(dataDir)
    expect(await nextLaunch.drafts()).toEqual([{ documentId: before.documentId, path, savedAt, baseVersion: before.version }])
    const reopened = await nextLaunch.open(path)
    expect(reopened.text).toBe(before.text)
    expect(reopened.draft).toEqual({ documentId: before.documentId, path, text: unsaved, savedAt, baseVersion: before.version })
  })

  it('restores an untitled document’s draft by its id', async () => {
    const service = siteFiles(dataDir)
    const untitled = service.create()
    await service.saveDraft({ documentId: untitled.documentId, path: null, text: '{"name": "half', baseVersion: null })
    const draft = await siteFiles(dataDir).draft(untitled.documentId)
    expect(draft).toMatchObject({ path: null, text: '{"name": "half', baseVersion: null })
  })

  it('drops a draft once the document is saved, or when it is discarded', async () => {
    const path = await writeSite('site.json')
    const service = siteFiles(dataDir)
    const document = await service.open(path)
    const text = serializeSiteConfig({ name: 'Changed', navigation: [] })
    await service.saveDraft({ documentId: document.documentId, path, text, baseVersion: document.version })
    await service.save({ documentId: document.documentId, text, byteOrderMark: false, expectedVersion: document.version! })
    expect(await service.drafts()).toEqual([])

    const untitled = service.create()
    await service.saveDraft({ documentId: untitled.documentId, path: null, text: SITE_CONFIG_TEMPLATE, baseVersion: null })
    await service.discardDraft(untitled.documentId)
    await service.discardDraft(untitled.documentId)
    expect(await service.drafts()).toEqual([])
    expect(await readdir(join(dataDir, DRAFTS_FOLDER))).toEqual([])
    expect((await failureOf(service.draft(untitled.documentId))).code).toBe('not_found')
  })

  it('moves an untitled draft away once the document is saved under a name', async () => {
    const service = siteFiles(dataDir)
    const untitled = service.create()
    await service.saveDraft({ documentId: untitled.documentId, path: null, text: SITE_CONFIG_TEMPLATE, baseVersion: null })
    await service.saveAs({
      documentId: untitled.documentId,
      text: SITE_CONFIG_TEMPLATE,
      byteOrderMark: false,
      target: { kind: 'path', path: join(workDir, 'new.json') },
    })
    expect(await service.drafts()).toEqual([])
  })

  it('does not offer a draft that says what the file already says', async () => {
    const path = await writeSite('site.json')
    const service = siteFiles(dataDir)
    const document = await service.open(path)
    await service.saveDraft({ documentId: document.documentId, path, text: document.text, baseVersion: document.version })
    expect((await service.open(path)).draft).toBeNull()
    expect(await service.drafts()).toEqual([])
  })

  it('lists the newest draft first', async () => {
    const service = siteFiles(dataDir, { now: tickingClock() })
    const first = service.create()
    const second = service.create()
    await service.saveDraft({ documentId: first.documentId, path: null, text: '{}', baseVersion: null })
    await service.saveDraft({ documentId: second.documentId, path: null, text: '{}', baseVersion: null })
    expect((await service.drafts()).map((draft) => draft.documentId)).toEqual([second.documentId, first.documentId])
  })
})
