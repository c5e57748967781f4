import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { indexDocsFolder, readFrontMatter } from '../../../src-main/site-files/docs-folder'
import { readPageFacts } from '../../../src-main/site-files/page-checks'
import { generatedPages, pageProblems, sitePages } from '../../../src-shared/site-config/site-pages'
import { tempDir } from '../site-files/helpers'

// Every page the site will have, by Mintlify's rules: generated OpenAPI pages with its slugs,
// heading ids as it renders them, front matter as its YAML reader reads it.

describe('pages Mintlify generates from an OpenAPI file', () => {
  it('are named /{directory}/{first tag}/{summary}, else {method}-{path}, x-mint.href first, repeated names numbered', () => {
    const pages = generatedPages(
      [
        { operation: 'GET /plants', summary: 'List all plants', tag: 'Plants', href: null },
        { operation: 'POST /plants/{id}', summary: null, tag: 'Plants', href: null },
        { operation: 'GET /stores', summary: 'List all plants', tag: 'Plants', href: null },
        { operation: 'DELETE /plants', summary: 'Remove', tag: null, href: '/custom/remove-plants' },
        { operation: 'WEBHOOK plant.created', summary: null, tag: null, href: null },
      ],
      'api',
    )
    expect([...pages.keys()]).toEqual([
      'api/plants/list-all-plants',
      'api/plants/post-plants',
      'api/plants/list-all-plants-1',
      'custom/remove-plants',
      'api/plantcreated',
    ])
  })

  it('count as pages for links, under the directory the navigation gives ("api-reference" by default)', () => {
    const index = { root: '/', pages: [], files: [], truncated: false }
    const openapi = [
      {
        file: 'openapi.json',
        state: 'valid' as const,
        problems: [],
        title: null,
        version: null,
        endpoints: [{ operation: 'GET /plants', summary: 'List plants', tag: 'Plants', href: null }],
      },
    ]
    const config = { navigation: { tabs: [{ tab: 'API', openapi: { source: 'openapi.json', directory: 'reference' } }] } }
    const site = sitePages(config, index, openapi)
    expect(site.has('reference/plants/list-plants')).toBe(true)
    expect(site.has('api-reference/plants/list-plants')).toBe(false)
    const facts = {
      total: 1,
      files: {},
      pages: [
        {
          path: 'index',
          file: 'index.mdx',
          anchors: [],
          problems: [],
          links: [
            { target: '/reference/plants/list-plants', line: 3, image: false },
            { target: '/reference/plants/gone', line: 4, image: false },
          ],
        },
      ],
    }
    expect(pageProblems(config, index, facts, site).map((problem) => problem.line)).toEqual([4])
  })
})

describe('heading anchors by Mintlify’s slug rules', () => {
  it('resolves what Mintlify renders: non-Latin headings kept, “&” kept, repeated headings numbered, custom ids, levels 1–4 only', async () => {
    const root = await tempDir('ec-anchors-')
    await mkdir(join(root, 'guides'))
    await writeFile(
      join(root, 'guides', 'a.mdx'),
      [
        '---',
        'title: "A page whose title',
        '  runs over two lines"',
        '---',
        '## URLでの正しくないAPIバージョンの呼び出し',
        '## Tokens & keys',
        '## Setup',
        '## Setup',
        '## Custom heading {#my-id}',
        '##### Too deep',
        '<Accordion title="Step one: install">x</Accordion>',
        '',
        '[a](#urlでの正しくないapiバージョンの呼び出し) [b](#tokens-&-keys) [c](#setup-2) [d](#my-id) [e](#step-one-install)',
        '[f](#too-deep) [g](#tokens--keys)',
      ].join('\n'),
    )
    const index = await indexDocsFolder(root, null)
    const facts = await readPageFacts(index)
    const problems = pageProblems({}, index, facts, sitePages({}, index, []))
    // The front matter is valid (Mintlify's YAML reads a quoted string over two lines); h5 has no id;
    // GitHub's slug of "Tokens & keys" is not Mintlify's.
    expect(problems.map((problem) => problem.message)).toEqual([
      'links to #too-deep, but this page has no heading with that anchor',
      'links to #tokens--keys, but this page has no heading with that anchor',
    ])
  })

  it('reads front matter as Mintlify does: a quoted string over several lines is valid, a key written twice is not', () => {
    expect(readFrontMatter('---\ntitle: "Some long\ntitle"\n---\n')).toEqual({ title: 'Some long title' })
    expect(readFrontMatter('---\ntitle: A\ntitle: B\n---\n').frontMatterError).toMatchObject({ line: 3 })
  })
})
