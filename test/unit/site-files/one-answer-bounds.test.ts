import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { MAX_WATCHED_FOLDERS } from '../../../src-shared/ipc/site-calls'
import { MAX_FILES_CHECKED } from '../../../src-shared/site-config/diagnose'
import { MAX_PAGES_CHECKED } from '../../../src-shared/site-config/site-pages'
import { tempDir } from './helpers'
import { threeAnswers } from './one-answer-helpers'

// On a folder larger than every bound, each bound is a problem, the same in the editor, the CLI and the export.
// The pages read are bounded at 300 here instead of 10,000 (each of the three reads and parses them
// all): the sentence is made from the counts, and the folder still names more folders than are watched.
vi.mock('../../../src-shared/site-config/site-pages', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  MAX_PAGES_CHECKED: 300,
}))
describe('one answer on a folder larger than every bound', () => {
  it('says each bound as a problem, the same in all three', { timeout: 600_000 }, async () => {
    const root = await tempDir('ec-one-answer-bounds-')
    // More pages than are checked, in more folders than are watched; more OpenAPI files and images than are read.
    const pages: string[] = []
    const folders = MAX_WATCHED_FOLDERS + 1
    for (let folder = 0; folder < folders; folder++) await mkdir(join(root, `f${folder}`))
    for (let page = 0; page < folders; page++) pages.push(`f${page}/p${page}`)
    for (let start = 0; start < pages.length; start += 500)
      await Promise.all(
        pages.slice(start, start + 500).map((page) => writeFile(join(root, `${page}.mdx`), `---\ntitle: ${page}\n---\n\n[x](/nowhere)\n`)),
      )
    const apis = Array.from({ length: MAX_FILES_CHECKED + 1 }, (_, index) => `api${index}.json`)
    for (const api of apis)
      await writeFile(
        join(root, api),
        '{ "openapi": "3.1.0", "info": { "title": "A", "version": "1" }, "paths": { "/x": { "get": { "responses": { "200": { "description": "ok" } } } } } }\n',
      )
    const config = {
      $schema: 'https://mintlify.com/docs.json',
      theme: 'mint',
      name: 'Bounds',
      colors: { primary: '#0D9373' },
      logo: { light: '/missing-light.svg', dark: '/missing-dark.svg' },
      navigation: {
        tabs: apis.map((api, index) => ({
          tab: `T${index}`,
          openapi: api,
          groups: [{ group: 'G', pages: pages.filter((_, at) => at % apis.length === index) }],
        })),
      },
    }
    await writeFile(join(root, 'docs.json'), `${JSON.stringify(config, null, 2)}\n`)
    const { cli, exported, editor } = await threeAnswers(root)
    expect(exported).toEqual(cli)
    expect(editor).toEqual(cli)
    const bounds = cli.filter((problem) => problem.message.startsWith('docs folder:')).map((problem) => problem.message)
    expect(bounds).toEqual([
      `docs folder: ${MAX_FILES_CHECKED} of ${MAX_FILES_CHECKED + 1} OpenAPI files checked; the others are not read`,
      `docs folder: 300 of ${folders.toLocaleString('en-US')} pages checked for links, anchors and front matter`,
    ])
    // No bound turns into silence: the checked pages' broken links are named, and no raw schema message appears.
    expect(cli.filter((problem) => problem.message.includes('/nowhere'))).toHaveLength(MAX_PAGES_CHECKED)
    expect(cli.some((problem) => /✖|Too big|invalid_/.test(problem.message))).toBe(false)
  })
})
