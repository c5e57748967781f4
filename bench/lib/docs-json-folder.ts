import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { forEachPage, operationOf, pageKey } from '../../src-shared/site-config/docs-files'

/**
 * A docs folder for a real docs.json (crewAI's: 22,992 pages), as its site has it: the file, and
 * a page file with a front-matter title for every page it names, so the editor indexes them all.
 */
export async function docsJsonFolder(docsJson: string, prefix = 'ec-bench-docs-json-'): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), prefix))
  const text = await readFile(docsJson, 'utf8')
  await writeFile(join(folder, 'docs.json'), text)
  const pages = new Set<string>()
  forEachPage(JSON.parse(text), (page) => {
    if (!operationOf(page)) pages.add(pageKey(page))
  })
  const folders = new Set([...pages].map((page) => dirname(page)))
  for (const path of folders) await mkdir(join(folder, path), { recursive: true })
  const all = [...pages]
  for (let start = 0; start < all.length; start += 500)
    await Promise.all(all.slice(start, start + 500).map((page) => writeFile(join(folder, `${page}.mdx`), `---\ntitle: ${page}\n---\n`)))
  return folder
}
