import { isPlainObject } from './mint-schema'

// The pages of an API reference, as Mintlify's scraper (`@mintlify/scraping openapi-file`)
// generates them from an OpenAPI document: one MDX page per operation, whose front matter names
// the operation (`openapi: GET /api/user`), filed in a folder per tag and named after the
// operation's summary; in the navigation, a group per tag with its pages in the document's order.

/** Where the pages go, relative to the docs folder (the scraper's usual `-o api-reference`). */
export const API_REFERENCE_PAGES_FOLDER = 'api-reference'

/** The group of operations without a tag, as the scraper names it. */
const UNTAGGED_GROUP = 'API Reference'

/** The HTTP methods in the order the scraper visits them (OpenAPI's PathItem order). */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

export interface ApiReferencePage {
  /** As navigation lists it: relative, without an extension ("api-reference/user-groups/update-a-user-group"). */
  page: string
  /** The file, relative to the docs folder. */
  file: string
  title: string
  method: (typeof METHODS)[number]
  path: string
}

export interface ApiReferenceGroup {
  group: string
  pages: ApiReferencePage[]
}

/** A summary or tag as a file or folder name, by the scraper's rule: spaces to hyphens, path parameters and punctuation out, lower case. */
export function fileNameOf(text: string): string {
  return text
    .replaceAll(' ', '-')
    .replace(/\{.*?\}/g, '-')
    .replace(/^-/, '')
    .replace(/-$/, '')
    .replace(/[{}(),.'\n/]/g, '')
    .replaceAll('--', '-')
    .toLowerCase()
}

/** The groups of pages an OpenAPI document gives, a page name repeated in a group getting -1, -2… */
export function apiReferenceGroups(document: unknown, folder = API_REFERENCE_PAGES_FOLDER): ApiReferenceGroup[] {
  const paths = isPlainObject(document) && isPlainObject(document.paths) ? document.paths : {}
  const groups = new Map<string, ApiReferencePage[]>()
  for (const [path, item] of Object.entries(paths)) {
    if (!isPlainObject(item)) continue
    for (const method of METHODS) {
      const operation = item[method]
      if (!isPlainObject(operation) || operation['x-excluded'] === true || operation['x-hidden'] === true) continue
      const tag = Array.isArray(operation.tags) && typeof operation.tags[0] === 'string' ? operation.tags[0] : null
      const summary = typeof operation.summary === 'string' && operation.summary.trim() ? operation.summary : null
      const name = summary ? fileNameOf(summary) : `${method}-${fileNameOf(path)}`
      const group = tag ?? UNTAGGED_GROUP
      const pages = groups.get(group) ?? []
      const base = [folder, tag ? fileNameOf(tag) : '', name].filter(Boolean).join('/')
      let page = base
      for (let suffix = 1; pages.some((known) => known.page === page); suffix += 1) page = `${base}-${suffix}`
      pages.push({ page, file: `${page}.mdx`, title: summary ?? `${method.toUpperCase()} ${path}`, method, path })
      groups.set(group, pages)
    }
  }
  return [...groups].map(([group, pages]) => ({ group, pages }))
}

/** A YAML string in double quotes: the title may hold a colon or a quote. */
const yamlString = (text: string) => JSON.stringify(text)

/** An endpoint page's text: front matter only, as the scraper writes it; Mintlify draws the rest from the OpenAPI file. */
export function apiReferencePageText(page: ApiReferencePage): string {
  return `---\ntitle: ${yamlString(page.title)}\nopenapi: ${yamlString(`${page.method.toUpperCase()} ${page.path}`)}\n---\n`
}
