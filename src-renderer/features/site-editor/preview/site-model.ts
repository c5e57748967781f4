import {
  apiSources,
  type DocsIndex,
  type DocsLookup,
  docsRelative,
  isExternal,
  operationOf,
  pageKey,
} from '../../../../src-shared/site-config/docs-files'
import { isPlainObject } from '../../../../src-shared/site-config/mint-schema'
import type { OperationSummary } from '../../../../src-shared/site-config/openapi-operation'
import type { Choice, SidebarRow, SiteModel, Switcher } from './frame-protocol'
import { webAddress, webPictureUrl } from './picture-urls'
import { isHexColor } from './theme-colors'

// The site as the chosen theme lays it out, worked out from the document (docs.json, or a
// mint.json/site.json) and its docs folder: the top bar, the switchers (products, languages,
// versions, tabs, anchors, dropdowns) at the selected choice of each, and the sidebar of what is
// selected, flattened into rows for a virtual list. Every row keeps its place in the document,
// so a click on a broken one focuses its field.

type Segment = string | number
export type Selection = Readonly<Record<string, number>>

export interface ModelInputs {
  config: unknown
  docs: DocsLookup | null
  /** The operations of the OpenAPI files read so far, by file as the document names it. */
  specs: ReadonlyMap<string, readonly OperationSummary[]>
  selection: Selection
  /** Where the folder's pictures are served, to make the logo's URL. */
  filesBase: string | null
  current: string | null
  /** Whether the operator allowed pictures from the web for this document. */
  webPictures: boolean
}

const LEVELS = [
  ['products', 'product'],
  ['languages', 'language'],
  ['versions', 'version'],
  ['tabs', 'tab'],
  ['anchors', 'anchor'],
  ['dropdowns', 'dropdown'],
  ['menu', 'item'],
] as const

const text = (value: unknown, fallback = '') => (typeof value === 'string' && value.trim() ? value.trim() : fallback)
const colour = (value: unknown, fallback: string) => (isHexColor(value) ? value : fallback)
const iconOf = (value: unknown): string | null =>
  typeof value === 'string' ? value : isPlainObject(value) && typeof value.name === 'string' ? value.name : null

const titles = new WeakMap<DocsIndex, Map<string, string | null>>()
function titleOf(docs: DocsLookup | null, key: string): string | null {
  if (!docs) return null
  let map = titles.get(docs.index)
  if (!map) titles.set(docs.index, (map = new Map(docs.index.pages.map((page) => [page.path, page.title]))))
  return map.get(key) ?? map.get(`${key}/index`) ?? null
}

/**
 * A picture of the folder as the frame loads it, an inline one as it is, and one from the web
 * through main once the operator allowed them (`web.found` collects those the document names).
 */
export function folderUrl(filesBase: string | null, reference: unknown, web?: { allowed: boolean; found: string[] }): string | null {
  if (typeof reference !== 'string' || !reference.trim()) return null
  const address = webAddress(reference)
  if (address) {
    web?.found.push(address)
    return web?.allowed && filesBase ? webPictureUrl(filesBase, address) : null
  }
  if (isExternal(reference) || reference.startsWith('//')) return null
  if (/^data:image\//i.test(reference)) return reference
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference) || !filesBase) return null
  return `${filesBase}${docsRelative(reference).split('/').map(encodeURIComponent).join('/')}`
}

function choiceOf(item: unknown, nameKey: string): Choice {
  const entry = isPlainObject(item) ? item : {}
  const colorValue = entry.color
  return {
    name: text(entry[nameKey], text(entry.name, text(entry.label, '—'))),
    icon: iconOf(entry.icon),
    href: typeof entry.href === 'string' ? entry.href : typeof entry.url === 'string' && isExternal(entry.url) ? entry.url : null,
    color: isHexColor(colorValue) ? colorValue : isPlainObject(colorValue) && isHexColor(colorValue.light) ? colorValue.light : null,
  }
}

interface Walk {
  rows: SidebarRow[]
  docs: DocsLookup | null
  specs: ModelInputs['specs']
}

function addPage(walk: Walk, page: string, segments: Segment[], depth: number, scope: readonly string[]) {
  const operation = operationOf(page)
  if (operation) {
    const file = operation.file ?? scope[0] ?? ''
    const summary = walk.specs.get(file)?.find((entry) => entry.operation === operation.operation)?.summary
    const [method, ...path] = operation.operation.split(' ')
    const known = walk.specs.get(file)
    walk.rows.push({
      kind: 'page',
      label: summary ?? path.join(' '),
      icon: null,
      depth,
      page: `${file}#${operation.operation}`,
      method: method ?? null,
      missing: known && !known.some((entry) => entry.operation === operation.operation) ? `${operation.operation} is not in ${file}` : null,
      segments,
    })
    return
  }
  const key = pageKey(page)
  // A folder too large to index whole may hold a page the index left out: only a whole index says "missing".
  const missing =
    walk.docs && !walk.docs.index.truncated && !walk.docs.pages.has(key) ? `There is no ${key}.mdx or ${key}.md in the docs folder.` : null
  const title = titleOf(walk.docs, key)
  walk.rows.push({
    kind: 'page',
    label: title ?? key.split('/').pop() ?? key,
    icon: null,
    depth,
    page: key,
    method: null,
    missing,
    segments,
  })
}

function addGroup(walk: Walk, group: unknown, segments: Segment[], depth: number, inherited: readonly string[]) {
  if (!isPlainObject(group)) return
  const own = apiSources(group.openapi)
  const scope = own.length ? own : inherited
  walk.rows.push({
    kind: 'group',
    label: text(group.group, 'Untitled group'),
    icon: iconOf(group.icon),
    depth,
    segments: [...segments, 'group'],
  })
  if (typeof group.root === 'string') addPage(walk, group.root, [...segments, 'root'], depth + 1, scope)
  const pages = Array.isArray(group.pages) ? group.pages : null
  if (pages) {
    pages.forEach((page, index) => {
      if (typeof page === 'string') addPage(walk, page, [...segments, 'pages', index], depth + 1, scope)
      else addGroup(walk, page, [...segments, 'pages', index], depth + 1, scope)
    })
  } else if (own.length) addOperations(walk, own, segments, depth + 1)
}

/** The pages Mintlify generates from an `openapi` that lists no pages: every operation of the file. */
function addOperations(walk: Walk, files: readonly string[], segments: Segment[], depth: number) {
  for (const file of files) {
    for (const entry of walk.specs.get(file) ?? []) {
      const [method, ...path] = entry.operation.split(' ')
      walk.rows.push({
        kind: 'page',
        label: entry.summary !== entry.operation ? entry.summary : path.join(' '),
        icon: null,
        depth,
        page: `${file}#${entry.operation}`,
        method: method ?? null,
        missing: null,
        segments: [...segments, 'openapi'],
      })
    }
  }
}

/** docs.json's navigation at the selected choice of every level, as switchers and a sidebar. */
function docsNavigation(config: Record<string, unknown>, walk: Walk, selection: Selection) {
  const switchers: Switcher[] = []
  let node: unknown = config.navigation
  let at: Segment[] = ['navigation']
  let scope = [...apiSources(config.openapi), ...(isPlainObject(config.api) ? apiSources(config.api.openapi) : [])]
  const globalLinks: Choice[] = []
  if (isPlainObject(node) && isPlainObject(node.global)) {
    for (const [key, nameKey] of [
      ['anchors', 'anchor'],
      ['tabs', 'tab'],
    ] as const) {
      const list = node.global[key]
      if (Array.isArray(list)) globalLinks.push(...list.map((item) => choiceOf(item, nameKey)))
    }
  }
  for (let guard = 0; guard < 12 && isPlainObject(node); guard++) {
    const current: Record<string, unknown> = node
    const own = apiSources(current.openapi)
    if (own.length) scope = own
    const level = LEVELS.find(([key]) => Array.isArray(current[key]) && (current[key] as unknown[]).length > 0)
    if (!level) break
    const [key, nameKey] = level
    const list = current[key] as unknown[]
    const selected = Math.min(selection[key] ?? 0, list.length - 1)
    switchers.push({ level: key, choices: list.map((item) => choiceOf(item, nameKey)), selected })
    at = [...at, key, selected]
    node = list[selected]
  }
  if (isPlainObject(node)) {
    const groups = Array.isArray(node.groups) ? node.groups : null
    const pages = Array.isArray(node.pages) ? node.pages : null
    if (groups) groups.forEach((group, index) => addGroup(walk, group, [...at, 'groups', index], 0, scope))
    else if (pages)
      pages.forEach((page, index) =>
        typeof page === 'string'
          ? addPage(walk, page, [...at, 'pages', index], 0, scope)
          : addGroup(walk, page, [...at, 'pages', index], 0, scope),
      )
    else if (apiSources(node.openapi).length) addOperations(walk, apiSources(node.openapi), at, 0)
  } else if (Array.isArray(node)) {
    node.forEach((group, index) => addGroup(walk, group, [...at, index], 0, scope))
  }
  return { switchers, globalLinks }
}

/** mint.json and site.json: groups in a list, tabs and anchors naming the folder their groups' pages are in. */
function mintNavigation(config: Record<string, unknown>, walk: Walk, selection: Selection) {
  const navigation = Array.isArray(config.navigation) ? config.navigation : []
  const switchers: Switcher[] = []
  const prefixOf = (item: unknown) =>
    isPlainObject(item) && typeof item.url === 'string' && !isExternal(item.url) ? docsRelative(item.url) : null
  const tabs = Array.isArray(config.tabs) ? config.tabs : []
  const anchors = (Array.isArray(config.anchors) ? config.anchors : []).filter((anchor) => prefixOf(anchor) !== null)
  const globalLinks = (Array.isArray(config.anchors) ? config.anchors : [])
    .filter((anchor) => prefixOf(anchor) === null)
    .map((anchor) => choiceOf(anchor, 'name'))
  const firstName = text(isPlainObject(config.topAnchor) ? config.topAnchor.name : undefined, 'Documentation')
  let prefix: string | null = null
  const prefixes = [...tabs, ...anchors].map(prefixOf).filter((entry): entry is string => entry !== null)
  for (const [key, list] of [
    ['tabs', tabs],
    ['anchors', anchors],
  ] as const) {
    if (!list.length) continue
    const selected = Math.min(selection[key] ?? 0, list.length)
    switchers.push({
      level: key,
      choices: [{ name: firstName, icon: null, href: null, color: null }, ...list.map((item) => choiceOf(item, 'name'))],
      selected,
    })
    if (selected > 0) prefix = prefixOf(list[selected - 1])
  }
  const versions = Array.isArray(config.versions)
    ? config.versions.map((entry) => (typeof entry === 'string' ? entry : text(isPlainObject(entry) ? entry.name : '', '—')))
    : []
  const version = versions.length ? versions[Math.min(selection.versions ?? 0, versions.length - 1)] : null
  if (versions.length)
    switchers.unshift({
      level: 'versions',
      choices: versions.map((name) => ({ name, icon: null, href: null, color: null })),
      selected: Math.min(selection.versions ?? 0, versions.length - 1),
    })
  const scope = apiSources(config.openapi)
  navigation.forEach((group, index) => {
    if (!isPlainObject(group)) return
    if (version && typeof group.version === 'string' && group.version !== version) return
    const first = JSON.stringify(group.pages ?? []).match(/"([^"]+)"/)?.[1] ?? ''
    const under = (candidate: string) => first === candidate || first.startsWith(`${candidate}/`)
    if (prefix ? !under(prefix) : prefixes.some(under)) return
    addGroup(walk, group, ['navigation', index], 0, scope)
  })
  return { switchers, globalLinks }
}

export function siteModel({ config, docs, specs, selection, filesBase, current, webPictures }: ModelInputs): SiteModel {
  const web = { allowed: webPictures, found: [] as string[] }
  // A logo the folder does not hold shows as the site's name (the Problems say it is missing).
  const logoUrl = (reference: unknown) => {
    const url = folderUrl(filesBase, reference, web)
    const ofFolder = url !== null && typeof reference === 'string' && !webAddress(reference) && !/^data:/i.test(reference)
    return ofFolder && docs && !docs.index.truncated && !docs.files.has(docsRelative(reference)) ? null : url
  }
  const value = isPlainObject(config) ? config : {}
  const walk: Walk = { rows: [], docs, specs }
  const { switchers, globalLinks } = Array.isArray(value.navigation)
    ? mintNavigation(value, walk, selection)
    : docsNavigation(value, walk, selection)
  const colors = isPlainObject(value.colors) ? value.colors : {}
  const primaryColour = colour(colors.primary, '#16A34A')
  const background =
    isPlainObject(value.background) && isPlainObject(value.background.color)
      ? value.background.color
      : isPlainObject(colors.background)
        ? colors.background
        : {}
  const logo = value.logo
  const navbar = isPlainObject(value.navbar) ? value.navbar : {}
  const links = (Array.isArray(navbar.links) ? navbar.links : Array.isArray(value.topbarLinks) ? value.topbarLinks : [])
    .filter(isPlainObject)
    .map((link) => ({ label: text(link.label, text(link.name, 'Link')), href: text(link.href, text(link.url)) }))
  const cta = isPlainObject(navbar.primary) ? navbar.primary : isPlainObject(value.topbarCtaButton) ? value.topbarCtaButton : null
  const appearance = isPlainObject(value.appearance) ? value.appearance : isPlainObject(value.modeToggle) ? value.modeToggle : {}
  const defaultMode = appearance.default === 'light' || appearance.default === 'dark' ? appearance.default : 'system'
  const font = isPlainObject(value.fonts)
    ? text(value.fonts.family, text(isPlainObject(value.fonts.body) ? value.fonts.body.family : ''))
    : ''
  return {
    name: text(value.name, 'Untitled docs'),
    theme: text(value.theme, 'mint'),
    colors: { primary: primaryColour, light: colour(colors.light, primaryColour), dark: colour(colors.dark, primaryColour) },
    background: {
      light: isHexColor(background.light) ? background.light : null,
      dark: isHexColor(background.dark) ? background.dark : null,
    },
    logo: isPlainObject(logo)
      ? { light: logoUrl(logo.light), dark: logoUrl(logo.dark ?? logo.light) }
      : { light: logoUrl(logo), dark: logoUrl(logo) },
    appearance: { default: defaultMode, strict: appearance.strict === true || appearance.isHidden === true },
    font: font || null,
    links,
    primary: cta
      ? {
          type: text(cta.type, 'button'),
          label: text(cta.label, text(cta.name, cta.type === 'github' ? 'GitHub' : 'Get started')),
          href: text(cta.href, text(cta.url)),
        }
      : null,
    switchers,
    globalLinks,
    sidebar: walk.rows,
    current,
    webPictures: [...new Set(web.found)],
  }
}
