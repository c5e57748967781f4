import { readdirSync } from 'node:fs'
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CliIo } from '../../../src-main/cli/usage'
import { runValidate } from '../../../src-main/cli/validate-command'
import { indexDocsFolder, readFrontMatter } from '../../../src-main/site-files/docs-folder'
import { createDocsFolderService } from '../../../src-main/site-files/docs-folder-service'
import { checkPages } from '../../../src-main/site-files/page-checks'
import { refFilesFor, useRefFiles } from '../../../src-renderer/features/site-editor/state/ref-store'
import { checkConfig } from '../../../src-shared/site-config/config-check'
import { docsLookup, docsProblems } from '../../../src-shared/site-config/docs-files'
import { findCorpus } from '../../helpers/corpus'
import { failureOf } from '../../helpers/failure-of'
import { siteFiles, tempDir } from './helpers'

const FIXTURE = join(import.meta.dirname, '../../fixtures/site-config/docs-json-site')
const DOCS_JSON = findCorpus('docsjson')
const CORPUS = DOCS_JSON.dir ?? ''

async function site() {
  const root = await tempDir('ec-docs-json-site-')
  await cp(FIXTURE, root, { recursive: true })
  return root
}

const capture = () => {
  const out: string[] = []
  const io: CliIo = { stdout: (text) => out.push(text), stderr: () => {}, stdin: async () => '', env: {} }
  return { io, out }
}

describe('the docs folder of a docs.json', () => {
  it('counts no snippet, README or .mintignore’d file as a page, and says why a navigation entry that names one is not a page', async () => {
    const root = await site()
    const index = await indexDocsFolder(root, null)
    expect(index.pages.map((page) => page.path)).toEqual(['guides/deep', 'index', 'quickstart', 'reference/overview'])
    expect(index.excluded).toEqual([
      { path: 'README', file: 'README.md', reason: 'Mintlify never publishes README.md' },
      { path: 'drafts/wip', file: 'drafts/wip.mdx', reason: '.mintignore excludes it' },
      { path: 'snippets/note', file: 'snippets/note.mdx', reason: 'files in snippets/ are snippets, never pages' },
    ])
    const config = {
      navigation: { pages: ['snippets/note', 'drafts/wip', 'quickstart.mdx', 'GET /plants', 'openapi.yaml DELETE /plants'] },
      api: { openapi: 'openapi.yaml' },
    }
    const openapi = [
      {
        file: 'openapi.yaml',
        state: 'valid' as const,
        problems: [],
        title: 'Plant API',
        version: '1',
        operations: ['GET /plants', 'POST /plants'],
      },
    ]
    expect(docsProblems(config, docsLookup(index), openapi)).toEqual([
      { path: 'navigation.pages[0]', message: 'is not a page: files in snippets/ are snippets, never pages' },
      { path: 'navigation.pages[1]', message: 'is not a page: .mintignore excludes it' },
      { path: 'navigation.pages[2]', message: 'is written with its extension: Mintlify names pages without one, so write "quickstart"' },
      {
        path: 'navigation.pages[4]',
        message: 'names the operation DELETE /plants, which openapi.yaml does not have: it has 2 (GET /plants, POST /plants)',
      },
    ])
  })

  it('reads front matter with the line of what is wrong in the page file', () => {
    expect(readFrontMatter('---\ntitle: A\ndescription: [open\n---\n')).toEqual({
      title: null,
      frontMatterError: { line: 3, message: expect.stringMatching(/^front matter is not valid YAML: /) },
    })
    expect(readFrontMatter('---\ntitle: A\n')).toEqual({
      title: null,
      frontMatterError: { line: 1, message: 'opens its front matter with --- but never closes it' },
    })
    expect(readFrontMatter('---\n- a\n- b\n---\n')).toEqual({
      title: null,
      frontMatterError: { line: 2, message: 'front matter must be key: value pairs' },
    })
    expect(readFrontMatter('---\nsidebarTitle: Short\ntitle: Long\n---\n')).toEqual({ title: 'Short' })
  })

  it('checks every page’s links, anchors, images and MDX, each with its file and line', async () => {
    const root = await site()
    await writeFile(
      join(root, 'guides/deep.mdx'),
      [
        '---',
        'title: In depth',
        '---',
        '',
        '## Setting up',
        '',
        'See [setup](#setting-up), [nothing](#nowhere) and [the quickstart](/quickstart#install).',
        'A [missing page](/guides/gone), a [bad anchor](/quickstart#uninstall), a [draft](/drafts/wip).',
        '![shot](/images/shot.png) ![gone](/images/gone.png) ![fake](/images/fake.png)',
        '<Card href="../reference/overview#fields">Relative</Card>',
        '<Broken attr="x">',
      ].join('\n'),
    )
    await writeFile(join(root, 'images/fake.png'), '<html>not a picture</html>')
    const index = await indexDocsFolder(root, null)
    const problems = await checkPages(index, { redirects: [{ source: '/old/:slug*', destination: '/new' }] })
    expect(problems).toEqual([
      { file: 'guides/deep.mdx', line: 7, message: 'links to #nowhere, but this page has no heading with that anchor' },
      {
        file: 'guides/deep.mdx',
        line: 8,
        message: 'links to /guides/gone, which is not a page of the site (no file in the docs folder, no page its OpenAPI files generate)',
      },
      {
        file: 'guides/deep.mdx',
        line: 8,
        message: 'links to /quickstart#uninstall, but that page has no heading with the anchor #uninstall',
      },
      { file: 'guides/deep.mdx', line: 8, message: 'links to /drafts/wip, which is not a page: .mintignore excludes it' },
      { file: 'guides/deep.mdx', line: 9, message: 'shows the image /images/gone.png, which is not in the docs folder' },
      {
        file: 'guides/deep.mdx',
        line: 9,
        message: 'shows the image /images/fake.png, which is not an image (no PNG, JPEG, GIF, WebP, AVIF, ICO or SVG picture in it)',
      },
      {
        file: 'guides/deep.mdx',
        line: 11,
        message: 'is not valid MDX: Expected a closing tag for `<Broken>` (Mintlify cannot build this page)',
      },
    ])
  })
})

describe('$ref files through the site editor’s calls', () => {
  it('reads them from the document’s folder only, and saves them with it after checking every file against the disk', async () => {
    const [dataDir, root] = await Promise.all([tempDir('ec-ref-data-'), site()])
    const files = siteFiles(dataDir)
    const document = await files.open(join(root, 'docs.json'))
    const [ref] = await files.readRefs(document.documentId, ['tabs/reference.json'])
    expect(ref).toMatchObject({ ref: 'tabs/reference.json', error: null, text: expect.stringContaining('"Reference"') })

    // A $ref file changed elsewhere refuses the whole save: neither file is written.
    const edited = ref!.text!.replace('"reference/overview"', '"reference/overview", "quickstart"')
    await writeFile(join(root, 'tabs/reference.json'), '{ "tab": "Changed elsewhere", "pages": [] }\n')
    const refused = await failureOf(
      files.save({
        documentId: document.documentId,
        text: `${document.text} `,
        byteOrderMark: false,
        expectedVersion: document.version!,
        refs: [{ ref: 'tabs/reference.json', text: edited, byteOrderMark: false, expectedVersion: ref!.version }],
      }),
    )
    expect(refused).toMatchObject({
      code: 'file_changed_on_disk',
      message: 'tabs/reference.json changed on disk since it was read here. Reload from disk to see it; nothing was saved.',
    })
    expect(await readFile(join(root, 'docs.json'), 'utf8')).toBe(document.text)
    expect(await readFile(join(root, 'tabs/reference.json'), 'utf8')).toBe('{ "tab": "Changed elsewhere", "pages": [] }\n')

    const [again] = await files.readRefs(document.documentId, ['tabs/reference.json'])
    const saved = await files.save({
      documentId: document.documentId,
      text: document.text,
      byteOrderMark: false,
      expectedVersion: document.version!,
      refs: [
        { ref: 'tabs/reference.json', text: '{ "tab": "Saved", "pages": [] }\n', byteOrderMark: false, expectedVersion: again!.version },
      ],
    })
    expect(saved.refs?.map((written) => written.ref)).toEqual(['tabs/reference.json'])
    expect(await readFile(join(root, 'tabs/reference.json'), 'utf8')).toBe('{ "tab": "Saved", "pages": [] }\n')
  })

  it('never reads or writes through a link out of the folder, nor into the data folder', async () => {
    const [dataDir, root] = await Promise.all([tempDir('ec-ref-data-'), site()])
    await writeFile(join(dataDir, 'vault.plain.json'), '{"secret": "token-value"}')
    await symlink(join(dataDir, 'vault.plain.json'), join(root, 'vault.json'))
    await mkdir(join(root, 'nested'))
    const files = siteFiles(dataDir)
    const document = await files.open(join(root, 'docs.json'))
    const [linked] = await files.readRefs(document.documentId, ['vault.json'])
    expect(linked!.text).toBeNull()
    expect(linked!.error).toMatch(/cannot be read/)
    const refused = await failureOf(
      files.save({
        documentId: document.documentId,
        text: document.text,
        byteOrderMark: false,
        expectedVersion: document.version!,
        refs: [{ ref: 'vault.json', text: '{}', byteOrderMark: false, expectedVersion: null }],
      }),
    )
    expect(refused).toMatchObject({ code: 'refused' })
    expect(await readFile(join(dataDir, 'vault.plain.json'), 'utf8')).toBe('{"secret": "token-value"}')
  })

  it('never reads a $ref, an image or an OpenAPI file through a link out of the docs folder, in the editor and in validate alike', async () => {
    const [dataDir, root, elsewhere] = await Promise.all([tempDir('ec-ref-data-'), site(), tempDir('ec-ref-elsewhere-')])
    await writeFile(join(elsewhere, 'nav.json'), '{ "tab": "Private", "pages": ["secret-page"] }')
    await writeFile(join(elsewhere, 'openapi.yaml'), 'openapi: 3.1.0\ninfo: { title: Private, version: "1" }\npaths: {}\n')
    await cp(join(root, 'logo', 'light.svg'), join(elsewhere, 'logo.svg'))
    await symlink(join(elsewhere, 'nav.json'), join(root, 'nav.json'))
    await symlink(elsewhere, join(root, 'shared'))
    await symlink(join(elsewhere, 'logo.svg'), join(root, 'logo.svg'))
    await writeFile(
      join(root, 'docs.json'),
      JSON.stringify({
        theme: 'maple',
        name: 'Plant API',
        colors: { primary: '#16A34A' },
        logo: { light: '/logo.svg', dark: '/shared/logo.svg' },
        openapi: 'shared/openapi.yaml',
        navigation: { tabs: [{ $ref: 'nav.json' }, { $ref: 'shared/nav.json' }, { tab: 'Home', pages: ['index'] }] },
      }),
    )
    const files = siteFiles(dataDir)
    const document = await files.open(join(root, 'docs.json'))
    const read = await files.readRefs(document.documentId, ['nav.json', 'shared/nav.json'])
    expect(read).toEqual([
      expect.objectContaining({
        text: null,
        error: 'cannot be read: nav.json is a link out of the docs folder: links that lead out of it are never read through.',
      }),
      expect.objectContaining({
        text: null,
        error: 'cannot be read: shared/nav.json is a link out of the docs folder: links that lead out of it are never read through.',
      }),
    ])
    const docs = createDocsFolderService({ files, dataDir, workerFile: null })
    expect((await docs.checkImages(document.documentId, ['/logo.svg', '/shared/logo.svg'])).map((check) => check.state)).toEqual([
      'unreadable',
      'unreadable',
    ])
    expect(await docs.checkOpenApi(document.documentId, ['shared/openapi.yaml'])).toEqual([
      expect.objectContaining({
        state: 'unreadable',
        title: null,
        problems: ['shared/openapi.yaml is a link out of the docs folder: links that lead out of it are never read through.'],
      }),
    ])
    await docs.close()

    const { io, out } = capture()
    expect(await runValidate([join(root, 'docs.json')], io)).toBe(1)
    const printed = out.join('\n')
    expect(printed).toContain('navigation.tabs[0].$ref: names nav.json, which cannot be read: nav.json is a link out of the docs folder')
    expect(printed).toContain(
      'navigation.tabs[1].$ref: names shared/nav.json, which cannot be read: shared/nav.json is a link out of the docs folder',
    )
    expect(printed).not.toContain('Private')
    expect(printed).not.toContain('secret-page')
  })
})

describe('a $ref fan-out in the editor and the export', () => {
  it('stops at the cap with the sentence naming it and the chain: the editor’s reads and check, then the export', async () => {
    const [dataDir, root] = await Promise.all([tempDir('ec-fan-out-data-'), tempDir('ec-fan-out-')])
    // docs.json names a.json 1,000 times and a.json names b.json 1,000 times: three files, 80 kB.
    const refs = (file: string) => Array.from({ length: 1000 }, () => ({ $ref: file }))
    const docsJson = JSON.stringify({ theme: 'mint', name: 'Fan', colors: { primary: '#112233' }, navigation: { groups: refs('a.json') } })
    await writeFile(join(root, 'docs.json'), docsJson)
    await writeFile(join(root, 'a.json'), JSON.stringify({ group: 'A', pages: refs('b.json') }))
    await writeFile(
      join(root, 'b.json'),
      JSON.stringify({ group: 'B', pages: Array.from({ length: 3500 }, (_, index) => `page-${index}`) }),
    )
    const files = siteFiles(dataDir)
    const document = await files.open(join(root, 'docs.json'))

    // The editor: main reads the files it asks for, its ref store hands them to the shared check.
    const read = await files.readRefs(document.documentId, ['a.json', 'b.json'])
    useRefFiles.setState({
      files: Object.fromEntries(
        read.map((file) => [
          file.ref,
          { baselineText: file.text, byteOrderMark: file.byteOrderMark, version: file.version, error: file.error },
        ]),
      ),
    })
    const check = checkConfig(JSON.parse(docsJson), { format: 'docs', rules: 'spec', refs: refFilesFor({}) })
    expect(check.errors).toEqual([
      {
        path: expect.stringMatching(/^navigation\.groups\[0\]\.pages\[\d+\]\.\$ref$/),
        message: expect.stringMatching(
          /^names b\.json, which would take the document past 250,000 values or 10 MB of JSON \(docs\.json → a\.json → b\.json\): \$ref files are followed up to that much in all, so it is not followed, nor 1,9\d\d more after it$/,
        ),
      },
    ])

    // The export checks the same in main, with the files it reads itself.
    const exported = await failureOf(
      files.exportValid({
        documentId: document.documentId,
        text: docsJson,
        byteOrderMark: false,
        rules: 'spec',
        target: { kind: 'path', path: join(root, 'exported.json') },
      }),
    )
    expect(exported).toMatchObject({
      code: 'invalid_config',
      message: 'The file has 1 error under Mintlify’s docs.json rules; fix it before exporting.',
    })

    // One call reads at most 1,000 files; the rest are named as past the cap, not read.
    await Promise.all(Array.from({ length: 1001 }, (_, index) => writeFile(join(root, `f${index}.json`), '{}')))
    const many = await files.readRefs(
      document.documentId,
      Array.from({ length: 1001 }, (_, index) => `f${index}.json`),
    )
    expect(many.filter((file) => file.text === '{}')).toHaveLength(1000)
    expect(many.at(-1)).toMatchObject({ text: null, error: 'was not read: the $refs of one document name at most 1,000 files' })
  })
})

describe.skipIf(!DOCS_JSON.dir)(`validate on every real docs.json${DOCS_JSON.skipNote}`, () => {
  it('answers for all 121 without a crash, with a line for each problem in --json', { timeout: 120_000 }, async () => {
    const names = readdirSync(CORPUS).sort()
    const { io, out } = capture()
    const code = await runValidate(['--json', '--no-files', ...names.map((name) => join(CORPUS, name))], io)
    const reports = JSON.parse(out[0]!) as {
      file: string
      format: string
      valid: boolean
      errors: { line?: number; path: string }[]
      warnings: { line?: number; path: string }[]
    }[]
    expect(code).toBe(1)
    expect(reports).toHaveLength(121)
    expect(reports.filter((report) => !report.valid)).toHaveLength(5)
    expect(reports.every((report) => report.format === 'docs')).toBe(true)
    const withoutLine = reports.flatMap((report) =>
      [...report.errors, ...report.warnings]
        .filter((problem) => problem.line === undefined && problem.path !== '$')
        .map((problem) => `${report.file}: ${problem.path}`),
    )
    expect(withoutLine).toEqual([])
  })
})
