import { readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createRouter, type Handlers } from '../../../src-main/router'
import { createDocsFolderService } from '../../../src-main/site-files/docs-folder-service'
import { createSiteFileHandlers } from '../../../src-main/site-files/site-file-handlers'
import type { SavedSiteFile, SiteDocument } from '../../../src-shared/ipc/site-calls'
import { serializeSiteConfig } from '../../../src-shared/site-config/serialize'
import { siteFiles, tempDir } from './helpers'

const context = { transport: 'test' } as const

async function siteRouter() {
  const [dataDir, workDir] = await Promise.all([tempDir('ec-site-data-'), tempDir('ec-site-work-')])
  const files = siteFiles(dataDir)
  const router = createRouter(createSiteFileHandlers(files, createDocsFolderService({ files, dataDir })) as unknown as Handlers)
  const call = (name: string, input: unknown) => router.dispatch(name, input, context)
  return { dataDir, workDir, call }
}

describe('site calls through the router', () => {
  it('opens, edits and saves a file, the version token going back and forth', async () => {
    const { workDir, call } = await siteRouter()
    const path = join(workDir, 'site.json')
    await writeFile(path, serializeSiteConfig({ name: 'Acme', navigation: [] }))
    const opened = await call('site.open', { path })
    expect(opened.ok).toBe(true)
    const document = (opened as { value: SiteDocument }).value
    const text = serializeSiteConfig({ name: 'Acme docs', navigation: [] })
    const saved = await call('site.save', {
      documentId: document.documentId,
      text,
      byteOrderMark: false,
      expectedVersion: document.version,
    })
    expect(saved).toEqual({ ok: true, value: expect.objectContaining({ path, text }) as SavedSiteFile })
    expect(await readFile(path, 'utf8')).toBe(text)
  })

  it('answers a refused save with the typed error the editor offers choices for', async () => {
    const { workDir, call } = await siteRouter()
    const path = join(workDir, 'site.json')
    await writeFile(path, serializeSiteConfig({ name: 'Acme', navigation: [] }))
    const { value: document } = (await call('site.open', { path })) as { value: SiteDocument }
    await writeFile(path, serializeSiteConfig({ name: 'Changed elsewhere', navigation: [] }))
    const saved = await call('site.save', {
      documentId: document.documentId,
      text: document.text,
      byteOrderMark: false,
      expectedVersion: document.version,
    })
    expect(saved).toMatchObject({ ok: false, error: { code: 'file_changed_on_disk' } })
  })

  it('never opens, writes, exports to or indexes a path under /proc, /sys or /dev, however it is spelled', async () => {
    const { workDir, call } = await siteRouter()
    const path = join(workDir, 'docs.json')
    await writeFile(path, '{"name": "Acme", "navigation": []}')
    await symlink('/proc/self', join(workDir, 'self'))
    const { value: document } = (await call('site.open', { path })) as { value: SiteDocument }
    const refusal = {
      ok: false,
      error: { code: 'refused', message: expect.stringMatching(/ is under \/(proc|sys|dev), whose files describe the running system/) },
    }
    for (const named of [
      '/proc/self/environ',
      join(workDir, 'self', 'environ'),
      '/sys/kernel/mm/transparent_hugepage/enabled',
      '/dev/zero',
    ]) {
      expect(await call('site.open', { path: named }), named).toMatchObject(refusal)
    }
    const text = document.text
    for (const target of ['/proc/self/environ', '/dev/shm/site.json', join(workDir, 'self', 'environ')]) {
      expect(
        await call('site.saveAs', { documentId: document.documentId, text, byteOrderMark: false, target: { kind: 'path', path: target } }),
        target,
      ).toMatchObject(refusal)
    }
    expect(
      await call('site.export', {
        documentId: document.documentId,
        text,
        byteOrderMark: false,
        rules: 'spec',
        target: { kind: 'path', path: '/dev/null' },
      }),
    ).toMatchObject(refusal)
    expect(await call('site.docsIndex', { documentId: document.documentId, folder: { kind: 'path', path: '/proc/self' } })).toMatchObject(
      refusal,
    )
  })

  it('refuses a document id that could leave the drafts folder before any handler runs', async () => {
    const { call } = await siteRouter()
    const result = await call('site.draftSave', { documentId: '../../profiles', path: null, text: '{}', baseVersion: null })
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })

  it('refuses an overwrite flag: replacing a file takes the token of the question that asked', async () => {
    const { workDir, call } = await siteRouter()
    const path = join(workDir, 'other.json')
    await writeFile(path, 'precious')
    const { value: document } = (await call('site.new', {})) as { value: SiteDocument }
    const forced = await call('site.saveAs', {
      documentId: document.documentId,
      text: document.text,
      byteOrderMark: false,
      target: { kind: 'path', path },
      overwrite: true,
    })
    expect(forced).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    const asked = await call('site.saveAs', {
      documentId: document.documentId,
      text: document.text,
      byteOrderMark: false,
      target: { kind: 'path', path },
    })
    expect(asked).toMatchObject({ ok: false, error: { code: 'conflict', details: { path, replaceToken: expect.any(String) } } })
    expect(await readFile(path, 'utf8')).toBe('precious')
  })

  it('refuses an empty path and unknown fields', async () => {
    const { call } = await siteRouter()
    expect(await call('site.open', { path: '  ' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(await call('site.recent', { extra: true })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })
})
