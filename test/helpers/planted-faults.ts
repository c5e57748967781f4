import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { forEachPage, operationOf, pageKey, referencedFiles } from '../../src-shared/site-config/docs-files'
import { isPlainObject } from '../../src-shared/site-config/mint-schema'
import { formatProblemPath } from '../../src-shared/site-config/problem-path'

// Plants five faults writers make in a copy of a docs folder, each where a writer would make
// it, and says how each must be named: a page's file removed, the logo removed, a broken OpenAPI
// file named by the navigation, an in-page link to a page that does not exist, and broken front
// matter. The folder's own config is rewritten as JSON only for the OpenAPI fault.

export interface PlantedFault {
  fault: string
  /** Whether a reported problem names this fault. */
  named(problem: { path: string; message: string; file?: string; line?: number }): boolean
}

const PLANTED_LINK = '/no-such-page-planted'

export async function plantFaults(root: string, configName: string): Promise<PlantedFault[]> {
  const configPath = join(root, configName)
  const config = JSON.parse((await readFile(configPath, 'utf8')).replace(/^\uFEFF/, '')) as Record<string, unknown>
  const faults: PlantedFault[] = []
  const existing = async (file: string) =>
    readFile(join(root, file)).then(
      () => true,
      () => false,
    )

  // 1. A page's file removed: the first page of the navigation that has one.
  const pages: { page: string; segments: (string | number)[] }[] = []
  forEachPage(config, (page, segments) => {
    if (!operationOf(page)) pages.push({ page, segments })
  })
  for (const { page, segments } of pages) {
    const key = pageKey(page)
    const file = (await existing(`${key}.mdx`)) ? `${key}.mdx` : (await existing(`${key}.md`)) ? `${key}.md` : null
    if (!file) continue
    await rm(join(root, file))
    const path = formatProblemPath(segments)
    faults.push({
      fault: `page file ${file} removed`,
      named: (problem) => problem.path === path && problem.message.includes('has no page'),
    })
    break
  }

  // 2. The logo removed.
  const logo = referencedFiles(config).find((file) => file.what === 'logo image')
  if (logo && (await existing(logo.reference.replace(/^\//, '')))) {
    await rm(join(root, logo.reference.replace(/^\//, '')))
    const path = formatProblemPath(logo.segments)
    faults.push({
      fault: `logo ${logo.reference} removed`,
      named: (problem) => problem.path === path && /no logo image/.test(problem.message),
    })
  }

  // 3. A broken OpenAPI file, named by the navigation's first item (or mint.json's top level).
  await writeFile(join(root, 'planted-openapi.json'), '{ "openapi": "3.1.0", "paths": { "/x": { "get": { "responses": 5 } } } }\n')
  const openapiPath = nameOpenApiFile(config)
  await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`)
  faults.push({
    fault: `broken OpenAPI file at ${openapiPath}`,
    named: (problem) => problem.path === openapiPath && problem.message.startsWith('is not a valid OpenAPI file'),
  })

  // 4 and 5. A link to a page that does not exist, and front matter that does not parse, in two pages that remain.
  const remaining: string[] = []
  for (const { page } of pages.slice(1)) {
    const key = pageKey(page)
    for (const file of [`${key}.mdx`, `${key}.md`]) if ((await existing(file)) && !remaining.includes(file)) remaining.push(file)
    if (remaining.length >= 2) break
  }
  const [linked, broken] = remaining
  if (linked) {
    const text = await readFile(join(root, linked), 'utf8')
    const line = text.split('\n').length + 1
    await writeFile(join(root, linked), `${text.replace(/\n?$/, '\n')}\nSee [the missing page](${PLANTED_LINK}).\n`)
    faults.push({
      fault: `link to ${PLANTED_LINK} in ${linked}`,
      named: (problem) => problem.file?.endsWith(linked) === true && problem.line === line && problem.message.includes(PLANTED_LINK),
    })
  }
  if (broken) {
    const text = await readFile(join(root, broken), 'utf8')
    const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '')
    await writeFile(join(root, broken), `---\ntitle: Broken\ndescription: [unclosed\n---\n${body}`)
    faults.push({
      fault: `broken front matter in ${broken}`,
      named: (problem) => problem.file?.endsWith(broken) === true && problem.line === 3 && problem.message.includes('front matter'),
    })
  }
  return faults
}

function nameOpenApiFile(config: Record<string, unknown>): string {
  const navigation = config.navigation
  if (isPlainObject(navigation)) {
    for (const key of ['products', 'languages', 'versions', 'tabs', 'dropdowns', 'anchors', 'groups'] as const) {
      const first = Array.isArray(navigation[key]) ? (navigation[key] as unknown[])[0] : undefined
      if (isPlainObject(first) && first.$ref === undefined) {
        first.openapi = 'planted-openapi.json'
        return `navigation.${key}[0].openapi`
      }
    }
  }
  if (Array.isArray(config.tabs) && isPlainObject(config.tabs[0])) {
    config.tabs[0].openapi = 'planted-openapi.json'
    return 'tabs[0].openapi'
  }
  config.openapi = 'planted-openapi.json'
  return 'openapi'
}
