import { execFileSync } from 'node:child_process'
import { mkdir, readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { documentIdForPath } from '../../../src-main/site-files/site-file-service'
import type { FileDialogs } from '../../../src-main/user-files/file-dialogs'
import { MAX_SITE_FILE_CHARACTERS } from '../../../src-shared/site-config/file-limits'
import { validateMintConfigText } from '../../../src-shared/site-config/mint-validate'
import { serializeSiteConfig, SITE_CONFIG_TEMPLATE } from '../../../src-shared/site-config/serialize'
import { failureOf } from '../../helpers/failure-of'
import { siteFiles, tempDir } from './helpers'

// Unknown keys, nested unknown keys, tabs, an inline array, a number literal and an order no
// schema would produce: all must survive.
const HAND_WRITTEN =
  '{\n\t"navigation": [{"pages": ["introduction"], "group": "Start", "x-team": "docs"}],\n\t"customTheme": {\n\t\t"radius": 4.50\n\t},\n\t"name": "Acme",\n\t"colors": {\n\t\t"primary": "#0D9373"\n\t}\n}'

let dataDir: string
let workDir: string
let sitePath: string

beforeEach(async () => {
  dataDir = await tempDir('ec-site-data-')
  workDir = await tempDir('ec-site-work-')
  sitePath = join(workDir, 'site.json')
})

const toPath = (path: string, replaceToken?: string) => ({ kind: 'path' as const, path, ...(replaceToken ? { replaceToken } : {}) })

describe('new and open', () => {
  it('starts a new document from the template, untitled and without a version', () => {
    const document = siteFiles(dataDir).create()
    expect(document).toMatchObject({
      path: null,
      version: null,
      draft: null,
      text: SITE_CONFIG_TEMPLATE,
      byteOrderMark: false,
      rules: null,
    })
    expect(document.documentId).toMatch(/^untitled-[0-9a-f-]+$/)
    expect(validateMintConfigText(document.text)).toEqual({ valid: true, errors: [], warnings: [] })
  })

  it('opens a file with its text, its version and an id stable across launches', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const document = await siteFiles(dataDir).open(sitePath)
    expect(document.text).toBe(HAND_WRITTEN)
    expect(document.path).toBe(sitePath)
    expect(document.version).toMatchObject({ size: Buffer.byteLength(HAND_WRITTEN), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })
    expect(document.documentId).toBe(documentIdForPath(sitePath))
    expect((await siteFiles(dataDir).open(sitePath)).documentId).toBe(document.documentId)
  })

  it('hands the text over without its byte order mark, and says it had one', async () => {
    await writeFile(sitePath, `\uFEFF${HAND_WRITTEN}`)
    const document = await siteFiles(dataDir).open(sitePath)
    expect(document.text).toBe(HAND_WRITTEN)
    expect(document.byteOrderMark).toBe(true)
  })

  it('opens a file that is not JSON as it is, so the editor can show where it breaks', async () => {
    const broken = '{\n  "name": "Acme",\n  "navigation": [\n}\n'
    await writeFile(sitePath, broken)
    const document = await siteFiles(dataDir).open(sitePath)
    expect(document.text).toBe(broken)
    expect(validateMintConfigText(document.text).errors[0]?.message).toMatch(/line 4, column 1/)
  })

  it('expands ~ and refuses a relative path', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir, { home: workDir })
    expect((await service.open('~/site.json')).path).toBe(sitePath)
    const error = await failureOf(service.open('docs/site.json'))
    expect(error.code).toBe('refused')
    expect(error.message).toMatch(/full path/)
  })

  it('says plainly when there is no file, a folder, or bytes that are not UTF-8', async () => {
    const service = siteFiles(dataDir)
    expect(await failureOf(service.open(join(workDir, 'missing.json')))).toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('There is no file'),
    })
    expect(await failureOf(service.open(workDir))).toMatchObject({ code: 'file_io', message: expect.stringContaining('is a folder') })
    await writeFile(sitePath, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))
    expect(await failureOf(service.open(sitePath))).toMatchObject({ code: 'file_io', message: expect.stringContaining('not UTF-8') })
  })
})

describe('what a file call never touches', () => {
  it('refuses the data folder, which holds the vault and the sandbox’s tokens, however the path is spelled', async () => {
    await writeFile(join(dataDir, 'vault.plain.json'), '{"tokens": {"p": "secret-token"}}')
    await writeFile(join(dataDir, 'sandbox.json'), '{"tokens": {}}')
    const service = siteFiles(dataDir)
    for (const path of [
      join(dataDir, 'vault.plain.json'),
      join(dataDir, 'sandbox.json'),
      join(dataDir, '..', dataDir.split('/').pop()!, 'vault.plain.json'),
    ]) {
      const error = await failureOf(service.open(path))
      expect(error.code).toBe('refused')
      expect(error.message).toMatch(/own data folder, which holds its secrets/)
      expect(JSON.stringify(error)).not.toContain('secret-token')
    }
  })

  it('resolves links before the check: a link to the vault, or to the data folder, is the vault', async () => {
    await writeFile(join(dataDir, 'vault.plain.json'), '{"tokens": {"p": "secret-token"}}')
    await symlink(join(dataDir, 'vault.plain.json'), join(workDir, 'innocent.json'))
    await symlink(dataDir, join(workDir, 'settings'))
    const service = siteFiles(dataDir)
    expect((await failureOf(service.open(join(workDir, 'innocent.json')))).code).toBe('refused')
    expect((await failureOf(service.open(join(workDir, 'settings', 'vault.plain.json')))).code).toBe('refused')
  })

  it('never writes into the data folder, by Save as or Export', async () => {
    const service = siteFiles(dataDir)
    const untitled = service.create()
    const target = join(dataDir, 'profiles.json')
    const saveAs = await failureOf(
      service.saveAs({ documentId: untitled.documentId, text: untitled.text, byteOrderMark: false, target: toPath(target) }),
    )
    expect(saveAs.code).toBe('refused')
    await symlink(dataDir, join(workDir, 'linked'))
    const exported = await failureOf(
      service.exportValid({
        documentId: untitled.documentId,
        text: untitled.text,
        byteOrderMark: false,
        rules: 'spec',
        target: toPath(join(workDir, 'linked', 'x.json')),
      }),
    )
    expect(exported.code).toBe('refused')
    expect(await readdir(dataDir)).not.toContain('profiles.json')
    expect(await readdir(dataDir)).not.toContain('x.json')
  })

  it('opens only regular files: a pipe is refused at once instead of hanging, and so is a device', async () => {
    const fifo = join(workDir, 'pipe.json')
    execFileSync('mkfifo', [fifo])
    const service = siteFiles(dataDir)
    expect(await failureOf(service.open(fifo))).toMatchObject({ code: 'file_io', message: expect.stringContaining('is a pipe (FIFO)') })
    expect(await failureOf(service.open('/dev/zero'))).toMatchObject({ code: 'refused', message: expect.stringContaining('is under /dev') })
  })

  it('stops reading at the size cap, whatever the file system says the size is', async () => {
    // /proc files say 0 bytes; a file grown past the cap is refused while reading.
    const big = join(workDir, 'big.json')
    await writeFile(big, `{"name": "${'x'.repeat(MAX_SITE_FILE_CHARACTERS)}"}`)
    expect(await failureOf(siteFiles(dataDir).open(big))).toMatchObject({
      code: 'file_io',
      message: expect.stringMatching(/larger than 10 MB/),
    })
  })

  it('does not replace a folder, a pipe or a device by Save as', async () => {
    const fifo = join(workDir, 'pipe.json')
    execFileSync('mkfifo', [fifo])
    await mkdir(join(workDir, 'folder.json'))
    const service = siteFiles(dataDir)
    const untitled = service.create()
    for (const path of [fifo, join(workDir, 'folder.json')]) {
      const first = await failureOf(
        service.saveAs({ documentId: untitled.documentId, text: untitled.text, byteOrderMark: false, target: toPath(path) }),
      )
      expect(first.code).toBe('file_io')
    }
  })
})

describe('save', () => {
  it('writes an unedited file back byte for byte: tabs, inline arrays, 4.50, no final newline, unknown keys, key order', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    const saved = await service.save({
      documentId: document.documentId,
      text: document.text,
      byteOrderMark: document.byteOrderMark,
      expectedVersion: document.version!,
    })
    expect(await readFile(sitePath, 'utf8')).toBe(HAND_WRITTEN)
    expect(saved.text).toBe(HAND_WRITTEN)
    expect(saved.version.sha256).toBe(document.version!.sha256)
  })

  it('keeps a byte order mark and CRLF line endings', async () => {
    const crlf = `\uFEFF${serializeSiteConfig({ name: 'Acme', navigation: [] }).replace(/\n/g, '\r\n')}`
    await writeFile(sitePath, crlf)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    await service.save({
      documentId: document.documentId,
      text: document.text,
      byteOrderMark: document.byteOrderMark,
      expectedVersion: document.version!,
    })
    expect(await readFile(sitePath)).toEqual(Buffer.from(crlf, 'utf8'))
  })

  it('writes the text exactly as given', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    const edited = HAND_WRITTEN.replace('"Acme"', '"Acme docs"')
    await service.save({ documentId: document.documentId, text: edited, byteOrderMark: false, expectedVersion: document.version! })
    expect(await readFile(sitePath, 'utf8')).toBe(edited)
  })

  it('writes only to the file the document came from: an unknown document id has nowhere to go', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    const error = await failureOf(
      service.save({ documentId: 'file-0000', text: '{}', byteOrderMark: false, expectedVersion: document.version! }),
    )
    expect(error).toMatchObject({ code: 'not_found', message: expect.stringContaining('Save as') })
    expect(await readFile(sitePath, 'utf8')).toBe(HAND_WRITTEN)
  })

  it('replaces the file atomically and leaves no temporary file behind', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    let { documentId, version } = await service.open(sitePath)
    for (const name of ['One', 'Two', 'Three']) {
      const text = serializeSiteConfig({ ...JSON.parse(HAND_WRITTEN), name })
      ;({ documentId, version } = await service.save({ documentId, text, byteOrderMark: false, expectedVersion: version! }))
    }
    expect(await readdir(workDir)).toEqual(['site.json'])
    expect(JSON.parse(await readFile(sitePath, 'utf8')).name).toBe('Three')
  })

  it('refuses to overwrite a file changed on disk since it was opened, and leaves that change alone', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    const theirs = HAND_WRITTEN.replace('"Acme"', '"Acme Inc"')
    await writeFile(sitePath, theirs)
    const error = await failureOf(
      service.save({
        documentId: document.documentId,
        text: SITE_CONFIG_TEMPLATE,
        byteOrderMark: false,
        expectedVersion: document.version!,
      }),
    )
    expect(error.code).toBe('file_changed_on_disk')
    expect(error.message).toMatch(/site\.json changed on disk.*Reload it from disk, or keep your version with Save as/)
    expect(await readFile(sitePath, 'utf8')).toBe(theirs)
  })

  it('refuses even when the other change kept the size', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    await writeFile(sitePath, HAND_WRITTEN.replace('Acme', 'Acne'))
    const error = await failureOf(
      service.save({ documentId: document.documentId, text: HAND_WRITTEN, byteOrderMark: false, expectedVersion: document.version! }),
    )
    expect(error.code).toBe('file_changed_on_disk')
  })

  it('saves over a file that was only touched (same bytes, newer time)', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    const later = new Date(Date.now() + 60_000)
    await utimes(sitePath, later, later)
    const text = serializeSiteConfig({ ...JSON.parse(HAND_WRITTEN), name: 'Touched' })
    await service.save({ documentId: document.documentId, text, byteOrderMark: false, expectedVersion: document.version! })
    expect(await readFile(sitePath, 'utf8')).toBe(text)
  })

  it('accepts its own save as the new version to compare with', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    const first = await service.save({
      documentId: document.documentId,
      text: SITE_CONFIG_TEMPLATE,
      byteOrderMark: false,
      expectedVersion: document.version!,
    })
    // The version read at open no longer describes the file: only the one the save answered does.
    expect(
      await failureOf(
        service.save({ documentId: document.documentId, text: HAND_WRITTEN, byteOrderMark: false, expectedVersion: document.version! }),
      ),
    ).toMatchObject({ code: 'file_changed_on_disk' })
    const again = await service.save({
      documentId: document.documentId,
      text: HAND_WRITTEN,
      byteOrderMark: false,
      expectedVersion: first.version,
    })
    expect(again.text).toBe(HAND_WRITTEN)
  })

  it('refuses text that is not JSON, says where it breaks, and keeps the file', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    const error = await failureOf(
      service.save({ documentId: document.documentId, text: '{\n  "name": \n}', byteOrderMark: false, expectedVersion: document.version! }),
    )
    expect(error.code).toBe('invalid_config')
    expect(error.message).toMatch(/not valid JSON at line 3, column 1: .*fix it before saving/)
    expect(await readFile(sitePath, 'utf8')).toBe(HAND_WRITTEN)
  })

  it('saves a file with errors against the spec: only export insists on a valid file', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    const invalid = serializeSiteConfig({ name: 'Acme', colors: { primary: 'green' } })
    await service.save({ documentId: document.documentId, text: invalid, byteOrderMark: false, expectedVersion: document.version! })
    expect(await readFile(sitePath, 'utf8')).toBe(invalid)
  })
})

describe('save as', () => {
  it('writes an untitled document to a new file, which it then belongs to', async () => {
    const service = siteFiles(dataDir)
    const document = service.create()
    const saved = await service.saveAs({
      documentId: document.documentId,
      text: document.text,
      byteOrderMark: false,
      target: toPath(sitePath),
    })
    expect(saved).toMatchObject({ path: sitePath, documentId: documentIdForPath(sitePath), text: SITE_CONFIG_TEMPLATE })
    expect(await readFile(sitePath, 'utf8')).toBe(SITE_CONFIG_TEMPLATE)
    expect(service.pathOf(saved!.documentId)).toBe(sitePath)
  })

  it('replaces an existing file only with the token of the question that asked, for that file as it was, once', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = service.create()
    const write = (replaceToken?: string) =>
      service.saveAs({ documentId: document.documentId, text: document.text, byteOrderMark: false, target: toPath(sitePath, replaceToken) })
    const asked = await failureOf(write())
    expect(asked).toMatchObject({ code: 'conflict', message: 'A file named site.json already exists there. Replace it?' })
    const { replaceToken } = asked.details as { replaceToken: string }
    expect(await readFile(sitePath, 'utf8')).toBe(HAND_WRITTEN)
    // A made-up token is no answer.
    expect((await failureOf(write('made-up-token'))).code).toBe('conflict')
    // The file changed after the question: the answer was about another file.
    await writeFile(sitePath, `${HAND_WRITTEN} `)
    expect((await failureOf(write(replaceToken))).code).toBe('conflict')
    const again = (await failureOf(write())).details as { replaceToken: string }
    await write(again.replaceToken)
    expect(await readFile(sitePath, 'utf8')).toBe(SITE_CONFIG_TEMPLATE)
    // Used once.
    await writeFile(sitePath, HAND_WRITTEN)
    expect((await failureOf(write(again.replaceToken))).code).toBe('conflict')
    expect(await readFile(sitePath, 'utf8')).toBe(HAND_WRITTEN)
  })

  it('says so when the folder does not exist', async () => {
    const service = siteFiles(dataDir)
    const error = await failureOf(
      service.saveAs({
        documentId: service.create().documentId,
        text: SITE_CONFIG_TEMPLATE,
        byteOrderMark: false,
        target: toPath(join(workDir, 'nope', 'site.json')),
      }),
    )
    expect(error).toMatchObject({ code: 'file_io', message: expect.stringContaining('does not exist') })
  })
})

describe('with the system’s file dialogs (the desktop app)', () => {
  const dialogsAnswering = (answers: { open?: string | null; save?: string | null }): FileDialogs & { asked: string[] } => {
    const asked: string[] = []
    return {
      asked,
      chooseFileToOpen: async () => (asked.push('open'), answers.open ?? null),
      chooseFileToSave: async (purpose) => (asked.push(purpose), answers.save ?? null),
      chooseDocsFolder: async () => null,
    }
  }

  it('opens and saves where the dialogs say, and a cancelled dialog does nothing', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const dialogs = dialogsAnswering({ open: sitePath, save: join(workDir, 'copy.json') })
    const service = siteFiles(dataDir, { dialogs })
    const opened = await service.openWithDialog()
    expect(opened?.text).toBe(HAND_WRITTEN)
    const saved = await service.saveAs({
      documentId: opened!.documentId,
      text: opened!.text,
      byteOrderMark: false,
      target: { kind: 'dialog' },
    })
    expect(saved?.path).toBe(join(workDir, 'copy.json'))
    expect(await siteFiles(dataDir, { dialogs: dialogsAnswering({}) }).openWithDialog()).toBeNull()
    expect(dialogs.asked).toEqual(['open', 'saveAs'])
  })

  it('refuses a typed path to write to: the renderer names documents, not places', async () => {
    const service = siteFiles(dataDir, { dialogs: dialogsAnswering({}) })
    const untitled = service.create()
    const error = await failureOf(
      service.saveAs({ documentId: untitled.documentId, text: untitled.text, byteOrderMark: false, target: toPath(sitePath) }),
    )
    expect(error.code).toBe('refused')
    expect(await readdir(workDir)).toEqual([])
  })

  it('refuses the data folder even when the dialog chose it', async () => {
    await writeFile(join(dataDir, 'vault.plain.json'), '{}')
    const service = siteFiles(dataDir, {
      dialogs: dialogsAnswering({ open: join(dataDir, 'vault.plain.json'), save: join(dataDir, 'catalog.json') }),
    })
    expect((await failureOf(service.openWithDialog())).code).toBe('refused')
    const untitled = service.create()
    expect(
      (
        await failureOf(
          service.saveAs({ documentId: untitled.documentId, text: untitled.text, byteOrderMark: false, target: { kind: 'dialog' } }),
        )
      ).code,
    ).toBe('refused')
  })

  it('has no dialogs in browser mode', async () => {
    const service = siteFiles(dataDir)
    expect((await failureOf(service.openWithDialog())).code).toBe('refused')
  })
})

describe('rules remembered per file', () => {
  it('opens a file with the rule set last chosen for it, in this launch or the next', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    expect(document.rules).toBeNull()
    await service.setRules(document.documentId, 'mintlify')
    expect((await siteFiles(dataDir).open(sitePath)).rules).toBe('mintlify')
  })
})

describe('export', () => {
  const exportPath = () => join(workDir, 'export', '..', 'site.export.json')
  const exportAs = (text: string, rules: 'spec' | 'mintlify' = 'spec', replaceToken?: string) =>
    siteFiles(dataDir).exportValid({
      documentId: 'untitled-x',
      text,
      byteOrderMark: false,
      rules,
      target: toPath(exportPath(), replaceToken),
    })

  it('refuses while there are errors, with their count, and writes nothing', async () => {
    const threeErrors = serializeSiteConfig({
      name: 'Acme',
      navigation: [{ group: 'A' }],
      colors: { primary: 'green' },
      topbarCtaButton: { url: '/go' },
    })
    const error = await failureOf(exportAs(threeErrors))
    expect(error.code).toBe('invalid_config')
    expect(error.message).toBe('The file has 3 errors under the site.json spec rules; fix them before exporting.')
    expect(error.details).toEqual({ errors: 3 })
    expect(await readdir(workDir)).toEqual([])
  })

  it('checks with the rule set given: a nested group is an error in the spec, fine for Mintlify', async () => {
    const nested = serializeSiteConfig({ name: 'Acme', navigation: [{ group: 'A', pages: ['a', { group: 'B', pages: ['b'] }] }] })
    expect((await failureOf(exportAs(nested, 'spec'))).message).toBe(
      'The file has 1 error under the site.json spec rules; fix it before exporting.',
    )
    expect(await exportAs(nested, 'mintlify')).toEqual({ path: join(workDir, 'site.export.json'), warnings: 0 })
  })

  it('refuses a key written twice, which JSON would silently collapse', async () => {
    const error = await failureOf(exportAs('{"name": "A", "name": "B", "navigation": []}'))
    expect(error.message).toMatch(/2 errors/)
  })

  it('refuses text that is not JSON', async () => {
    expect(await failureOf(exportAs('{"name": "x",}'))).toMatchObject({
      code: 'invalid_config',
      message: expect.stringMatching(/not valid JSON.*before exporting/),
    })
  })

  it('writes a valid file as it is, and counts its warnings', async () => {
    const withWarning = JSON.stringify({ name: 'Acme', navigation: [], logo: '/logo.svg' })
    const result = await exportAs(withWarning)
    expect(result).toEqual({ path: join(workDir, 'site.export.json'), warnings: 1 })
    expect(await readFile(result!.path, 'utf8')).toBe(withWarning)
  })

  it('asks before replacing an existing file', async () => {
    await writeFile(exportPath(), 'old')
    const error = await failureOf(exportAs(SITE_CONFIG_TEMPLATE))
    expect(error.code).toBe('conflict')
    expect(await readFile(exportPath(), 'utf8')).toBe('old')
  })
})
