import { readdir, readFile, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { documentIdForPath } from '../../../src-main/site-files/site-file-service'
import { serializeSiteConfig, SITE_CONFIG_TEMPLATE } from '../../../src-shared/site-config/format'
import { validateSiteConfigText } from '../../../src-shared/site-config/validate'
import { failureOf } from '../../helpers/failure-of'
import { siteFiles, tempDir } from './helpers'

// Unknown keys, nested unknown keys and an order no schema would produce: all must survive.
const HAND_WRITTEN = `{
  "navigation": [
    {
      "pages": [
        "introduction"
      ],
      "group": "Start",
      "x-team": "docs"
    }
  ],
  "customTheme": {
    "radius": 4
  },
  "name": "Acme",
  "colors": {
    "primary": "#0D9373"
  }
}
`

let dataDir: string
let workDir: string
let sitePath: string

beforeEach(async () => {
  dataDir = await tempDir('ec-site-data-')
  workDir = await tempDir('ec-site-work-')
  sitePath = join(workDir, 'site.json')
})

describe('new and open', () => {
  it('starts a new document from the template, untitled and without a version', () => {
    const document = siteFiles(dataDir).create()
    expect(document).toMatchObject({ path: null, version: null, draft: null, text: SITE_CONFIG_TEMPLATE })
    expect(document.documentId).toMatch(/^untitled-[0-9a-f-]+$/)
    expect(validateSiteConfigText(document.text)).toEqual({ valid: true, errors: [], warnings: [] })
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

  it('opens a file that is not JSON as it is, so the editor can show where it breaks', async () => {
    const broken = '{\n  "name": "Acme",\n  "navigation": [\n}\n'
    await writeFile(sitePath, broken)
    const document = await siteFiles(dataDir).open(sitePath)
    expect(document.text).toBe(broken)
    const report = validateSiteConfigText(document.text)
    expect(report.valid).toBe(false)
    expect(report.errors[0]?.message).toMatch(/line 4, column 1/)
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
    expect(await failureOf(service.open(join(workDir, 'missing.json')))).toMatchObject({ code: 'not_found', message: expect.stringContaining('There is no file') })
    expect(await failureOf(service.open(workDir))).toMatchObject({ code: 'file_io', message: expect.stringContaining('is a folder') })
    await writeFile(sitePath, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))
    expect(await failureOf(service.open(sitePath))).toMatchObject({ code: 'file_io', message: expect.stringContaining('not UTF-8') })
  })
})

describe('save', () => {
  it('writes an unedited file back byte for byte, unknown keys and key order included', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    const saved = await service.save({ documentId: document.documentId, path: sitePath, text: document.text, expectedVersion: document.version! })
    expect(await readFile(sitePath, 'utf8')).toBe(HAND_WRITTEN)
    expect(saved.text).toBe(HAND_WRITTEN)
    expect(saved.version.sha256).toBe(document.version!.sha256)
  })

  it('writes 2-space JSON with a final newline whatever the text was indented with', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    const reindented = JSON.stringify({ ...JSON.parse(HAND_WRITTEN), favicon: '/favicon.svg' }, null, 4)
    const saved = await service.save({ documentId: document.documentId, path: sitePath, text: reindented, expectedVersion: document.version! })
    const expected = serializeSiteConfig({ ...JSON.parse(HAND_WRITTEN), favicon: '/favicon.svg' })
    expect(await readFile(sitePath, 'utf8')).toBe(expected)
    expect(saved.text).toBe(expected)
    expect(expected.endsWith('}\n')).toBe(true)
  })

  it('replaces the file atomically and leaves no temporary file behind', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    let { documentId, version } = await service.open(sitePath)
    for (const name of ['One', 'Two', 'Three']) {
      const text = serializeSiteConfig({ ...JSON.parse(HAND_WRITTEN), name })
      ;({ documentId, version } = await service.save({ documentId, path: sitePath, text, expectedVersion: version! }))
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
      service.save({ documentId: document.documentId, path: sitePath, text: SITE_CONFIG_TEMPLATE, expectedVersion: document.version! }),
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
    const error = await failureOf(service.save({ documentId: document.documentId, path: sitePath, text: HAND_WRITTEN, expectedVersion: document.version! }))
    expect(error.code).toBe('file_changed_on_disk')
  })

  it('saves over a file that was only touched (same bytes, newer time)', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    const later = new Date(Date.now() + 60_000)
    await utimes(sitePath, later, later)
    const text = serializeSiteConfig({ ...JSON.parse(HAND_WRITTEN), name: 'Touched' })
    await service.save({ documentId: document.documentId, path: sitePath, text, expectedVersion: document.version! })
    expect(await readFile(sitePath, 'utf8')).toBe(text)
  })

  it('accepts its own save as the new version to compare with', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    const first = await service.save({ documentId: document.documentId, path: sitePath, text: SITE_CONFIG_TEMPLATE, expectedVersion: document.version! })
    // The version read at open no longer describes the file: only the one the save answered does.
    expect(await failureOf(service.save({ documentId: document.documentId, path: sitePath, text: HAND_WRITTEN, expectedVersion: document.version! }))).toMatchObject({
      code: 'file_changed_on_disk',
    })
    const again = await service.save({ documentId: document.documentId, path: sitePath, text: HAND_WRITTEN, expectedVersion: first.version })
    expect(again.text).toBe(HAND_WRITTEN)
  })

  it('refuses text that is not JSON, says where it breaks, and keeps the file', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    const error = await failureOf(service.save({ documentId: document.documentId, path: sitePath, text: '{\n  "name": \n}', expectedVersion: document.version! }))
    expect(error.code).toBe('invalid_config')
    expect(error.message).toMatch(/not valid JSON at line 3, column 1 .*fix it before saving/)
    expect(await readFile(sitePath, 'utf8')).toBe(HAND_WRITTEN)
  })

  it('saves a file with errors against the spec: only export insists on a valid file', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = await service.open(sitePath)
    const invalid = serializeSiteConfig({ name: 'Acme', colors: { primary: 'green' } })
    await service.save({ documentId: document.documentId, path: sitePath, text: invalid, expectedVersion: document.version! })
    expect(await readFile(sitePath, 'utf8')).toBe(invalid)
  })
})

describe('save as', () => {
  it('writes an untitled document to a new file, which it then belongs to', async () => {
    const service = siteFiles(dataDir)
    const document = service.create()
    const saved = await service.saveAs({ documentId: document.documentId, path: sitePath, text: document.text, overwrite: false })
    expect(saved).toMatchObject({ path: sitePath, documentId: documentIdForPath(sitePath), text: SITE_CONFIG_TEMPLATE })
    expect(await readFile(sitePath, 'utf8')).toBe(SITE_CONFIG_TEMPLATE)
  })

  it('asks before replacing an existing file, and replaces it when told to', async () => {
    await writeFile(sitePath, HAND_WRITTEN)
    const service = siteFiles(dataDir)
    const document = service.create()
    const error = await failureOf(service.saveAs({ documentId: document.documentId, path: sitePath, text: document.text, overwrite: false }))
    expect(error).toMatchObject({ code: 'conflict', message: 'A file named site.json already exists there. Replace it?' })
    expect(await readFile(sitePath, 'utf8')).toBe(HAND_WRITTEN)
    await service.saveAs({ documentId: document.documentId, path: sitePath, text: document.text, overwrite: true })
    expect(await readFile(sitePath, 'utf8')).toBe(SITE_CONFIG_TEMPLATE)
  })

  it('says so when the folder does not exist', async () => {
    const service = siteFiles(dataDir)
    const error = await failureOf(service.saveAs({ documentId: service.create().documentId, path: join(workDir, 'nope', 'site.json'), text: SITE_CONFIG_TEMPLATE, overwrite: false }))
    expect(error).toMatchObject({ code: 'file_io', message: expect.stringContaining('does not exist') })
  })
})

describe('export', () => {
  const exportPath = () => join(workDir, 'export', '..', 'site.export.json')

  it('refuses while there are errors, with their count, and writes nothing', async () => {
    const threeErrors = serializeSiteConfig({ name: 'Acme', navigation: [{ group: 'A' }], colors: { primary: 'green' }, topbarCtaButton: { url: '/go' } })
    const service = siteFiles(dataDir)
    const error = await failureOf(service.exportValid({ path: exportPath(), text: threeErrors, overwrite: false }))
    expect(error.code).toBe('invalid_config')
    expect(error.message).toBe('The file has 3 errors; fix them before exporting.')
    expect(error.details).toEqual({ errors: 3 })
    expect(await readdir(workDir)).toEqual([])

    const oneError = serializeSiteConfig({ name: 'Acme', navigation: [], colors: { primary: 'green' } })
    expect((await failureOf(service.exportValid({ path: exportPath(), text: oneError, overwrite: false }))).message).toBe(
      'The file has 1 error; fix it before exporting.',
    )
  })

  it('refuses text that is not JSON', async () => {
    const error = await failureOf(siteFiles(dataDir).exportValid({ path: exportPath(), text: '{"name": "x",}', overwrite: false }))
    expect(error).toMatchObject({ code: 'invalid_config', message: expect.stringMatching(/not valid JSON.*before exporting/) })
  })

  it('writes a valid file, formatted, and counts its warnings', async () => {
    const withWarning = JSON.stringify({ name: 'Acme', navigation: [], logo: '/logo.svg' })
    const result = await siteFiles(dataDir).exportValid({ path: exportPath(), text: withWarning, overwrite: false })
    expect(result).toEqual({ path: join(workDir, 'site.export.json'), warnings: 1 })
    expect(await readFile(result.path, 'utf8')).toBe(serializeSiteConfig(JSON.parse(withWarning)))
  })

  it('asks before replacing an existing file', async () => {
    await writeFile(exportPath(), 'old')
    const error = await failureOf(siteFiles(dataDir).exportValid({ path: exportPath(), text: SITE_CONFIG_TEMPLATE, overwrite: false }))
    expect(error.code).toBe('conflict')
    expect(await readFile(exportPath(), 'utf8')).toBe('old')
  })
})
