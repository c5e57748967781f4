import { DOCS_JSON_SCHEMA_URL, DocsConfigSchema } from './docs-schema'
import { isPlainObject } from './mint-schema'
import { formatProblemPath } from './problem-path'
import { MINTLIFY_FOOTER_PLATFORMS } from './rule-sets'
import { applyValueChangesAtOnce, diffValues, KeyPositions } from './text-edits'

// mint.json (and site.json, docs/site-json.md) to docs.json. Every setting docs.json has a place for is
// carried there, more than Mintlify's own upgradeToDocsConfig keeps (anchor colours, tab icons,
// example defaults, the playground, fonts, footer links); every setting it cannot carry is named
// with why. The text is edited, not rewritten: fields that map one to one (name, logo, colours,
// favicon, redirects…) keep their text, and the file keeps its indentation and line endings.

export interface ConversionNote {
  /** Where the setting was in the mint.json. */
  path: string
  message: string
}

export interface Conversion {
  value: Record<string, unknown>
  text: string
  /** Settings carried, but changed on the way (a theme chosen from a layout, a URL made https). */
  changed: ConversionNote[]
  /** Settings not carried, each with why. */
  dropped: ConversionNote[]
}

type Path = (string | number)[]
type Json = Record<string, unknown>

/** A URL with a scheme (https:, mailto:, tel:…) leads off the site, as Mintlify reads it: it is a link, never a prefix of pages. */
const isExternalUrl = (url: unknown) => typeof url === 'string' && URL.canParse(url)
const ensureSlashes = (path: string) => `/${path.replace(/^\/+/, '').replace(/\/+$/, '')}/`

/** Why settings with no place in docs.json are left out, by their mint.json key. */
const NO_PLACE: Record<string, string> = {
  feedback: 'docs.json has no feedback settings: Mintlify’s dashboard turns feedback on and off',
  rounded: 'docs.json has no rounded setting: the theme decides corner shapes',
  sidebar: 'docs.json has no sidebar style setting: the theme decides it',
  topbar: 'docs.json has no top bar style setting: the theme decides it',
  mintlify: 'docs.json has no mintlify version setting',
  isWhiteLabeled: 'docs.json has no white-label setting: it is a plan setting in Mintlify’s dashboard',
  'api.auth.inputPrefix': 'docs.json’s api.mdx.auth has no input prefix: the playground asks for the whole value',
  'api.maintainOrder': 'docs.json has no maintainOrder: the OpenAPI file’s order is kept',
  'colors.ultraLight': 'docs.json has only primary, light and dark colours',
  'colors.ultraDark': 'docs.json has only primary, light and dark colours',
  'search.location': 'docs.json has no search location: the theme places the search box',
  'colors.anchors': 'docs.json colours each anchor on its own, and this file has no anchor to carry the colour to',
}

export function convertMintToDocs(text: string, mint: Json): Conversion {
  const used = new Set<string>()
  // Every key above a taken one: a setting named here has parts taken and parts to name.
  const above = new Set<string>()
  const changed: ConversionNote[] = []
  const dropped: ConversionNote[] = []
  const take = (...path: Path) => {
    used.add(formatProblemPath(path))
    // A key in `above` has every key over it there too: the climb stops at the first one known.
    for (let depth = path.length - 1; depth > 0; depth--) {
      const id = formatProblemPath(path.slice(0, depth))
      if (above.has(id)) break
      above.add(id)
    }
  }
  const get = (...path: Path): unknown => {
    let node: unknown = mint
    for (const segment of path) node = isPlainObject(node) || Array.isArray(node) ? (node as Json)[segment as string] : undefined
    return node
  }
  const drop = (path: Path, message: string) => {
    take(...path)
    dropped.push({ path: formatProblemPath(path), message })
  }
  /** Carries `value` when docs.json's schema accepts it at `docsPath`; names it as dropped otherwise. */
  const accepted = (from: Path, docsPath: Path, value: unknown): boolean => {
    const probe = DocsConfigSchema.safeParse(probeConfig(docsPath, value))
    if (probe.success) return true
    const issue = probe.error.issues[0]!
    drop(from, `docs.json refuses it at ${formatProblemPath(docsPath)}: ${issue.message}`)
    return false
  }

  const docs: Json = {}
  docs.$schema = DOCS_JSON_SCHEMA_URL
  take('$schema')
  docs.theme = themeOf(mint, changed)
  take('theme')
  take('layout')
  if (mint.name !== undefined) docs.name = mint.name
  take('name')

  // Colours: primary, light and dark as they are; the background colours move to background.color.
  const colors = isPlainObject(mint.colors) ? mint.colors : undefined
  docs.colors = colors ? pick(colors, ['primary', 'light', 'dark']) : { primary: '#16A34A' }
  if (!colors)
    changed.push({ path: 'colors', message: 'was missing: docs.json needs a primary colour, so #16A34A (Mintlify’s green) is set' })
  for (const key of ['primary', 'light', 'dark']) take('colors', key)
  if (mint.logo !== undefined) docs.logo = mint.logo
  take('logo')
  if (mint.favicon !== undefined) docs.favicon = mint.favicon
  take('favicon')

  // A mint.json whose navigation is docs.json's object already (written for the newer format) keeps it.
  if (isPlainObject(mint.navigation)) {
    docs.navigation = mint.navigation
    take('navigation')
    for (const key of ['tabs', 'anchors', 'versions', 'topAnchor', 'primaryTab'])
      if (mint[key] !== undefined)
        drop(
          [key],
          'navigation is docs.json’s object already, which holds its tabs, anchors and versions: this mint.json setting is not merged into it',
        )
  } else docs.navigation = convertNavigation(mint, { take, drop, changed, get })
  if (colors?.anchors !== undefined && !used.has('colors.anchors') && Array.isArray(mint.anchors) && mint.anchors.length) {
    drop(['colors', 'anchors'], 'every anchor has a colour of its own, which docs.json keeps: a default anchor colour has no place there')
  }

  const api = convertApi(mint, take, drop, changed)
  if (api) docs.api = api

  const appearance: Json = {}
  if (isPlainObject(mint.modeToggle)) {
    if (mint.modeToggle.default !== undefined) appearance.default = mint.modeToggle.default
    if (mint.modeToggle.isHidden !== undefined) appearance.strict = mint.modeToggle.isHidden
    take('modeToggle', 'default')
    take('modeToggle', 'isHidden')
  }
  if (isPlainObject(mint.appearance)) {
    Object.assign(appearance, mint.appearance)
    take('appearance')
  }
  if (Object.keys(appearance).length) docs.appearance = appearance

  const background: Json = {}
  if (mint.backgroundImage !== undefined) {
    background.image = mint.backgroundImage
    take('backgroundImage')
  }
  if (isPlainObject(mint.background) && mint.background.style !== undefined) {
    background.decoration = mint.background.style
    take('background', 'style')
  }
  if (isPlainObject(colors?.background)) {
    background.color = pick(colors.background as Json, ['light', 'dark'])
    take('colors', 'background')
  }
  if (Object.keys(background).length) docs.background = background

  const navbar = convertNavbar(mint, take, drop, changed)
  if (navbar) docs.navbar = navbar

  if (isPlainObject(mint.search) && mint.search.prompt !== undefined) {
    docs.search = { prompt: mint.search.prompt }
    take('search', 'prompt')
  }
  const seo: Json = {}
  if (isPlainObject(mint.metadata)) {
    const metatags = Object.fromEntries(
      Object.entries(mint.metadata).filter(([key, value]) =>
        typeof value === 'string' && value
          ? true
          : (drop(['metadata', key], 'docs.json’s seo.metatags take only text that is not empty'), false),
      ),
    )
    if (Object.keys(metatags).length) seo.metatags = metatags
    take('metadata')
  }
  if (isPlainObject(mint.seo) && mint.seo.indexHiddenPages !== undefined) {
    seo.indexing = mint.seo.indexHiddenPages ? 'all' : 'navigable'
    changed.push({
      path: 'seo.indexHiddenPages',
      message: `${JSON.stringify(mint.seo.indexHiddenPages)} is carried as seo.indexing ${JSON.stringify(seo.indexing)}`,
    })
    take('seo', 'indexHiddenPages')
  }
  if (Object.keys(seo).length) docs.seo = seo

  const footer = convertFooter(mint, take, drop, changed)
  if (footer) docs.footer = footer

  const integrations = convertIntegrations(mint, take, accepted)
  if (integrations) docs.integrations = integrations

  const fonts = convertFonts(mint, take, drop, changed)
  if (fonts !== undefined) docs.fonts = fonts
  if (mint.fonts !== undefined && docs.fonts === undefined && accepted(['fonts'], ['fonts'], mint.fonts)) {
    docs.fonts = mint.fonts
    take('fonts')
  }

  if (mint.redirects !== undefined && accepted(['redirects'], ['redirects'], mint.redirects)) {
    docs.redirects = mint.redirects
    take('redirects')
  }

  const styling: Json = isPlainObject(mint.styling) ? { ...mint.styling } : {}
  take('styling')
  if (isPlainObject(mint.codeBlock) && mint.codeBlock.mode !== undefined) {
    styling.codeblocks = mint.codeBlock.mode === 'dark' ? 'dark' : 'system'
    if (mint.codeBlock.mode !== 'dark')
      changed.push({ path: 'codeBlock.mode', message: `${JSON.stringify(mint.codeBlock.mode)} is carried as styling.codeblocks "system"` })
    take('codeBlock', 'mode')
  }
  if (isPlainObject(mint.eyebrow) && mint.eyebrow.display !== undefined) {
    styling.eyebrows = mint.eyebrow.display === 'breadcrumbs' ? 'breadcrumbs' : 'section'
    take('eyebrow', 'display')
  }
  if (Object.keys(styling).length) docs.styling = styling

  // docs.json settings a mint.json already carries (written for the newer format): kept where they are valid.
  for (const key of ['contextual', 'banner', 'description', 'icons', 'errors', 'thumbnails', 'interaction', 'variables', 'public']) {
    if (mint[key] !== undefined && docs[key] === undefined && accepted([key], [key], mint[key])) {
      docs[key] = mint[key]
      take(key)
    }
  }

  // Everything not taken: named with the reason docs.json has no place for it.
  // The walk stops at a taken key, so a key reached here has no taken key above it.
  const unnamed = (value: unknown, path: Path) => {
    const id = formatProblemPath(path)
    if (path.length && used.has(id)) return
    if ((path.length === 0 || above.has(id)) && (isPlainObject(value) || Array.isArray(value))) {
      for (const [key, child] of Object.entries(value)) unnamed(child, [...path, Array.isArray(value) ? Number(key) : key])
      return
    }
    const empty = (isPlainObject(value) && Object.keys(value).length === 0) || (Array.isArray(value) && value.length === 0)
    const reason =
      NO_PLACE[id.replace(/\[\d+\]/g, '')] ??
      NO_PLACE[String(path[0])] ??
      (empty ? 'is empty: nothing to carry' : 'docs.json has no place for it')
    dropped.push({ path: id, message: reason })
  }
  unnamed(mint, [])
  return { value: docs, text: editedText(text, mint, docs), changed: once(changed), dropped: once(dropped).sort(byPath) }
}

const byPath = (a: ConversionNote, b: ConversionNote) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)

/** The notes without repeats: a tab or anchor shown in several versions is one setting, named once. */
function once(notes: ConversionNote[]): ConversionNote[] {
  const seen = new Set<string>()
  return notes.filter((note) => {
    const id = `${note.path}\n${note.message}`
    return seen.has(id) ? false : (seen.add(id), true)
  })
}

/** A docs.json holding only `value` at `path` (with the required settings), to ask the schema about one setting. */
function probeConfig(path: Path, value: unknown): Json {
  const config: Json = { theme: 'mint', name: 'x', colors: { primary: '#000000' }, navigation: { pages: ['index'] } }
  let node = config
  path.forEach((segment, index) => {
    if (index === path.length - 1) node[segment as string] = value
    else node = (node[segment as string] = isPlainObject(node[segment as string]) ? node[segment as string] : {}) as Json
  })
  return config
}

function pick(source: Json, keys: string[]): Json {
  return Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]))
}

function themeOf(mint: Json, changed: ConversionNote[]): string {
  if (mint.layout !== undefined && mint.theme !== undefined)
    changed.push({ path: 'theme', message: `${JSON.stringify(mint.theme)} gives way to the layout, which decides the docs.json theme` })
  if (mint.layout === 'topnav') return note(changed, 'layout', '"topnav" is carried as the theme "mint", which has that layout', 'mint')
  if (mint.layout === 'sidenav') return note(changed, 'layout', '"sidenav" is carried as the theme "maple", which has that layout', 'maple')
  if (mint.layout === 'solidSidenav')
    return note(changed, 'layout', '"solidSidenav" is carried as the theme "willow", which has that layout', 'willow')
  if (mint.theme === 'venus') return note(changed, 'theme', '"venus" is carried as "palm", its docs.json successor', 'palm')
  if (mint.theme === 'quill') return note(changed, 'theme', '"quill" is carried as "willow", its docs.json successor', 'willow')
  if (mint.theme !== undefined)
    return note(changed, 'theme', `${JSON.stringify(mint.theme)} is carried as "mint", its docs.json successor`, 'mint')
  if (mint.layout !== undefined)
    return note(changed, 'layout', `${JSON.stringify(mint.layout)} has no docs.json equal: the theme is "mint"`, 'mint')
  return 'mint'
}

function note<T>(changed: ConversionNote[], path: string, message: string, value: T): T {
  changed.push({ path, message })
  return value
}

interface NavigationTools {
  take: (...path: Path) => void
  drop: (path: Path, message: string) => void
  changed: ConversionNote[]
  get: (...path: Path) => unknown
  /** The tabs and anchors that made it into the docs.json ("tab:2"), and whether the top anchor or primary tab did. */
  shown?: Set<string>
}

type Division = { kind: 'tab' | 'anchor'; index: number; item: Json; url: string }

/**
 * mint.json's navigation (groups, with tabs, anchors and versions deciding by URL prefix which
 * pages belong where) as docs.json's object, where each tab, anchor and version holds its groups.
 */
function convertNavigation(mint: Json, tools: NavigationTools): Json {
  const { take, drop, changed } = tools
  const shown = (tools.shown = new Set<string>())
  const groups = Array.isArray(mint.navigation) ? mint.navigation : []
  take('navigation')
  const tabs = (Array.isArray(mint.tabs) ? mint.tabs : []).map((item, index) => ({
    kind: 'tab' as const,
    index,
    item: item as Json,
    url: String((item as Json)?.url ?? ''),
  }))
  const anchors = (Array.isArray(mint.anchors) ? mint.anchors : []).map((item, index) => ({
    kind: 'anchor' as const,
    index,
    item: item as Json,
    url: String((item as Json)?.url ?? ''),
  }))
  const global: Json = {}
  const links = (list: Division[], key: 'tabs' | 'anchors') => {
    const external = list.filter((division) => isPlainObject(division.item) && isExternalUrl(division.item.url))
    if (external.length)
      global[key] = external.map((division) => (shown.add(`${division.kind}:${division.index}`), divisionItem(division, mint, true)))
    return list.filter((division) => isPlainObject(division.item) && !isExternalUrl(division.item.url))
  }
  const internalTabs = links(tabs, 'tabs')
  const internalAnchors = links(anchors, 'anchors')
  const versions = Array.isArray(mint.versions) ? mint.versions : []
  take('versions')
  take('topAnchor')
  take('primaryTab')

  const contentFor = (version: string | null): Json => {
    const inVersion = (group: unknown) =>
      !isPlainObject(group) || version === null || group.version === undefined || group.version === version
    const versionGroups = groups.map((group, index) => ({ group, index })).filter(({ group }) => inVersion(group))
    const divisionsIn = (list: Division[]) =>
      list.filter((division) => version === null || division.item.version === undefined || division.item.version === version)
    const tabsHere = divisionsIn(internalTabs)
    const anchorsHere = divisionsIn(internalAnchors)
    if (tabsHere.length) {
      const parts = partition(versionGroups, tabsHere)
      const items = tabsHere
        .map((division, index) => ({
          division,
          item: { ...divisionItem(division, mint, false), ...withAnchors(parts.matched[index]!, anchorsHere, tools, mint) },
        }))
        .filter(({ item }) => item.groups || item.anchors || item.openapi)
        .map(({ division, item }) => (shown.add(`tab:${division.index}`), item))
      if (parts.rest.length) {
        shown.add('primaryTab')
        items.unshift({ tab: primaryTabName(mint), ...hiddenPrimary(mint), ...withAnchors(parts.rest, anchorsHere, tools, mint) })
      }
      return { tabs: items }
    }
    if (anchorsHere.length) return withAnchors(versionGroups, anchorsHere, tools, mint)
    return { groups: versionGroups.map(({ group, index }) => convertGroup(group, ['navigation', index], tools)) }
  }

  let navigation: Json
  if (versions.length) {
    const locale = versions.every((version) => isPlainObject(version) && typeof version.locale === 'string')
    const items = versions.map((version, index) => {
      const name = typeof version === 'string' ? version : isPlainObject(version) ? String(version.name ?? '') : ''
      const base: Json = locale ? { language: (version as Json).locale } : { version: name }
      if (isPlainObject(version) && version.default) base.default = true
      if (isPlainObject(version) && isExternalUrl(version.url)) return { ...base, href: version.url }
      if (locale)
        changed.push({
          path: formatProblemPath(['versions', index]),
          message: `is carried as the language ${JSON.stringify((version as Json).locale)}`,
        })
      return { ...base, ...contentFor(name) }
    })
    navigation = locale ? { languages: items } : { versions: items }
  } else navigation = contentFor(null)
  if (Object.keys(global).length) navigation.global = global
  // Each tab and anchor named once, however many versions and tabs it shows in.
  for (const division of [...tabs, ...anchors].filter((division) => isPlainObject(division.item))) {
    if (shown.has(`${division.kind}:${division.index}`)) noteDivision(division, tools, mint)
    else {
      drop(
        [`${division.kind}s`, division.index],
        `holds no page of the navigation (none starts with its url ${JSON.stringify(division.url)}) and no OpenAPI file, so docs.json has nothing to show in it`,
      )
    }
  }
  if (mint.topAnchor !== undefined && !shown.has('topAnchor'))
    drop(
      ['topAnchor'],
      'docs.json has a top anchor only where other anchors are, and this file’s pages all belong to its anchors or has none',
    )
  if (mint.primaryTab !== undefined && !shown.has('primaryTab'))
    drop(['primaryTab'], 'docs.json has a primary tab only where other tabs are, and this file’s pages all belong to its tabs or has none')
  return navigation
}

function primaryTabName(mint: Json): string {
  return isPlainObject(mint.primaryTab) && typeof mint.primaryTab.name === 'string' && mint.primaryTab.name
    ? mint.primaryTab.name
    : 'Documentation'
}
const hiddenPrimary = (mint: Json) => (isPlainObject(mint.primaryTab) && mint.primaryTab.isDefaultHidden ? { hidden: true } : {})

/** Groups under anchors by prefix, the rest under the top anchor; just the groups when no anchor takes a page. */
function withAnchors(
  groups: { group: unknown; index: number; path?: Path }[],
  anchors: Division[],
  tools: NavigationTools,
  mint: Json,
): Json {
  const converted = (list: { group: unknown; index: number; path?: Path }[]) =>
    list.map(({ group, index, path }) => convertGroup(group, path ?? ['navigation', index], tools))
  if (!anchors.length) return groups.length ? { groups: converted(groups) } : {}
  const parts = partition(groups, anchors)
  // No page here belongs to an anchor: the groups stand alone.
  if (parts.matched.every((list) => list.length === 0) && !anchors.some((division) => division.item.openapi))
    return groups.length ? { groups: converted(groups) } : {}
  const items = anchors.map((division, index) => ({
    division,
    item: {
      ...divisionItem(division, mint, false),
      ...(parts.matched[index]!.length ? { groups: converted(parts.matched[index]!) } : {}),
    } as Json,
  }))
  const kept = items
    .filter(({ item }) => item.groups || item.openapi)
    .map(({ division, item }) => (tools.shown?.add(`anchor:${division.index}`), item))
  if (parts.rest.length) {
    tools.shown?.add('topAnchor')
    const top = isPlainObject(mint.topAnchor) ? mint.topAnchor : {}
    kept.unshift({
      anchor: typeof top.name === 'string' && top.name ? top.name : 'Documentation',
      icon: iconOf(top.icon ?? 'book-open', top.iconType),
      groups: converted(parts.rest),
    })
  }
  return kept.length ? { anchors: kept } : {}
}

/**
 * Splits groups by which division's URL prefix their pages start with (the longest prefix wins);
 * a group whose pages go to several divisions appears in each with those pages.
 */
function partition(groups: { group: unknown; index: number; path?: Path }[], divisions: Division[]) {
  const matched: { group: unknown; index: number; path?: Path }[][] = divisions.map(() => [])
  const rest: { group: unknown; index: number; path?: Path }[] = []
  // Each URL as /a/b/ once, not again for every page it is compared with (thousands in a large file).
  const prefixes = divisions.map((division) => (division.url ? ensureSlashes(division.url) : null))
  const owner = (page: string) => {
    const path = ensureSlashes(page)
    let best = -1
    prefixes.forEach((prefix, index) => {
      if (prefix !== null && path.startsWith(prefix) && (best < 0 || divisions[index]!.url.length > divisions[best]!.url.length))
        best = index
    })
    return best
  }
  const split = (group: unknown): Map<number, unknown> => {
    const parts = new Map<number, unknown>()
    if (!isPlainObject(group) || !Array.isArray(group.pages)) return parts.set(-1, group)
    const pagesBy = new Map<number, unknown[]>()
    for (const page of group.pages) {
      const parts = typeof page === 'string' ? [[owner(page), page] as const] : split(page)
      for (const [at, part] of parts) {
        const pages = pagesBy.get(at)
        if (pages) pages.push(part)
        else pagesBy.set(at, [part])
      }
    }
    for (const [at, pages] of pagesBy) parts.set(at, { ...group, pages })
    if (pagesBy.size === 0) parts.set(-1, group)
    return parts
  }
  for (const entry of groups) {
    for (const [at, part] of split(entry.group)) {
      const target = at < 0 ? rest : matched[at]!
      target.push({ ...entry, group: part })
    }
  }
  return { matched, rest }
}

function iconOf(icon: unknown, iconType: unknown): unknown {
  return typeof iconType === 'string' ? { name: icon, style: iconType } : icon
}

/** A mint.json group as docs.json's: its name (never empty), pages and nested groups, icon and public flag. */
function convertGroup(group: unknown, path: Path, tools: NavigationTools): unknown {
  const { take, drop, changed } = tools
  if (!isPlainObject(group)) return group
  const converted: Json = { group: group.group }
  if (group.group === '') {
    converted.group = ' '
    changed.push({
      path: formatProblemPath([...path, 'group']),
      message: 'is empty: docs.json needs a group name, so it is a single space (the group still shows no heading)',
    })
  }
  if (group.icon !== undefined) converted.icon = iconOf(group.icon, group.iconType)
  if (group.public !== undefined) converted.public = group.public
  converted.pages = Array.isArray(group.pages)
    ? group.pages.map((page, index) => (typeof page === 'string' ? page : convertGroup(page, [...path, 'pages', index], tools)))
    : []
  for (const key of ['group', 'pages', 'icon', 'iconType', 'public', 'version']) take(...path, key)
  for (const key of Object.keys(group))
    if (!['group', 'pages', 'icon', 'iconType', 'public', 'version'].includes(key))
      drop([...path, key], 'docs.json groups have no such setting')
  return converted
}

/** A mint.json tab or anchor as docs.json's: name, icon, colour, hidden, OpenAPI (pages generated under its URL), or href for a link. */
function divisionItem(division: Division, mint: Json, link: boolean): Json {
  const { item, kind } = division
  const result: Json = { [kind]: item.name }
  if (item.icon !== undefined) result.icon = iconOf(item.icon, item.iconType)
  if (kind === 'anchor') {
    const colour = item.color ?? (isPlainObject(mint.colors) ? mint.colors.anchors : undefined)
    if (typeof colour === 'string') result.color = { light: colour, dark: colour }
    else if (isPlainObject(colour) && typeof colour.from === 'string') result.color = { light: colour.from, dark: colour.from }
  }
  if (item.isDefaultHidden) result.hidden = true
  if (link) result.href = item.url
  if (typeof item.openapi === 'string')
    result.openapi = isExternalUrl(item.url)
      ? item.openapi
      : { source: item.openapi, directory: String(item.url).replace(/^\/+|\/+$/g, '') }
  return result
}

const DIVISION_KEYS = ['name', 'url', 'icon', 'iconType', 'color', 'isDefaultHidden', 'openapi', 'version']

/** What became of a tab or anchor that docs.json shows (divisionItem): its settings taken, its changes and drops named. */
function noteDivision(division: Division, tools: NavigationTools, mint: Json): void {
  const { take, drop, changed } = tools
  const { item, kind, index } = division
  const path: Path = [kind === 'tab' ? 'tabs' : 'anchors', index]
  if (kind === 'anchor') {
    const colour = item.color ?? (isPlainObject(mint.colors) ? mint.colors.anchors : undefined)
    const from = item.color !== undefined ? formatProblemPath([...path, 'color']) : 'colors.anchors'
    if (isPlainObject(colour) && typeof colour.from === 'string')
      changed.push({
        path: from,
        message: 'is a gradient: docs.json anchor colours are one colour per mode, so its first colour is carried',
      })
    if (item.color === undefined && colour !== undefined) {
      changed.push({ path: 'colors.anchors', message: `is carried as the colour of the anchor ${JSON.stringify(item.name)}` })
      take('colors', 'anchors')
    }
  }
  if (!isExternalUrl(item.url) && typeof item.url === 'string' && item.url)
    changed.push({
      path: formatProblemPath([...path, 'url']),
      message: `${JSON.stringify(item.url)} is carried by placement: the pages under it are in this ${kind} of docs.json, which has no URL prefix`,
    })
  for (const key of DIVISION_KEYS) take(...path, key)
  for (const key of Object.keys(item)) if (!DIVISION_KEYS.includes(key)) drop([...path, key], `docs.json ${kind}s have no such setting`)
}

function convertApi(
  mint: Json,
  take: (...path: Path) => void,
  drop: (path: Path, message: string) => void,
  changed: ConversionNote[],
): Json | null {
  const api: Json = {}
  const old = isPlainObject(mint.api) ? mint.api : {}
  if (mint.openapi !== undefined) {
    api.openapi = mint.openapi
    take('openapi')
  }
  const mdx: Json = {}
  if (old.baseUrl !== undefined) {
    mdx.server = old.baseUrl
    take('api', 'baseUrl')
  }
  if (isPlainObject(old.auth)) {
    const auth = pick(old.auth, ['method', 'name'])
    if (Object.keys(auth).length) mdx.auth = auth
    take('api', 'auth', 'method')
    take('api', 'auth', 'name')
  }
  if (Object.keys(mdx).length) api.mdx = mdx
  if (isPlainObject(old.playground)) {
    const playground = convertPlayground(old.playground, take, drop, changed)
    if (Object.keys(playground).length) api.playground = playground
  }
  const example = isPlainObject(old.request) && isPlainObject(old.request.example) ? old.request.example : null
  if (example) {
    const examples: Json = {}
    if (example.languages !== undefined) examples.languages = example.languages
    if (typeof example.showOptionalParams === 'boolean') examples.defaults = example.showOptionalParams ? 'all' : 'required'
    take('api', 'request', 'example', 'languages')
    take('api', 'request', 'example', 'showOptionalParams')
    if (Object.keys(examples).length) api.examples = examples
  }
  if (isPlainObject(old.paramFields)) {
    const params: Json = {}
    const expanded = old.paramFields.expanded
    if (expanded === 'all' || expanded === 'none') {
      params.expanded = expanded === 'all' ? 'all' : 'closed'
      take('api', 'paramFields', 'expanded')
    } else if (expanded !== undefined)
      drop(
        ['api', 'paramFields', 'expanded'],
        `docs.json’s api.params.expanded is "all" or "closed": ${JSON.stringify(expanded)} has no equal`,
      )
    if (Array.isArray(old.paramFields.post)) {
      params.post = old.paramFields.post
      take('api', 'paramFields', 'post')
    }
    if (Object.keys(params).length) api.params = params
  }
  return Object.keys(api).length ? api : null
}

/**
 * mint.json's playground (mode, disableProxy) as docs.json's (display, proxy). A mint.json written
 * for the newer format may hold docs.json's own keys (display, proxy, credentials): those are
 * carried as they are, and win over the older key that says the same.
 */
function convertPlayground(
  old: Json,
  take: (...path: Path) => void,
  drop: (path: Path, message: string) => void,
  changed: ConversionNote[],
): Json {
  const playground: Json = {}
  for (const key of ['display', 'proxy', 'credentials'])
    if (old[key] !== undefined) {
      playground[key] = old[key]
      take('api', 'playground', key)
    }
  const { mode, disableProxy } = old
  if (mode !== undefined && playground.display !== undefined)
    drop(['api', 'playground', 'mode'], 'api.playground.display is set too, and docs.json keeps that one')
  else if (mode !== undefined) {
    playground.display = mode === 'show' ? 'interactive' : mode === 'hide' ? 'none' : mode
    if (mode === 'show' || mode === 'hide')
      changed.push({
        path: 'api.playground.mode',
        message: `${JSON.stringify(mode)} is carried as api.playground.display ${JSON.stringify(playground.display)}`,
      })
    take('api', 'playground', 'mode')
  }
  if (typeof disableProxy === 'boolean' && playground.proxy !== undefined)
    drop(['api', 'playground', 'disableProxy'], 'api.playground.proxy is set too, and docs.json keeps that one')
  else if (typeof disableProxy === 'boolean') {
    playground.proxy = !disableProxy
    changed.push({ path: 'api.playground.disableProxy', message: `${disableProxy} is carried as api.playground.proxy ${playground.proxy}` })
    take('api', 'playground', 'disableProxy')
  }
  return playground
}

function convertNavbar(
  mint: Json,
  take: (...path: Path) => void,
  drop: (path: Path, message: string) => void,
  changed: ConversionNote[],
): Json | null {
  const navbar: Json = isPlainObject(mint.navbar) ? { ...mint.navbar } : {}
  take('navbar')
  if (Array.isArray(mint.topbarLinks)) {
    const links = mint.topbarLinks.flatMap((link, index): Json[] => {
      if (!isPlainObject(link)) return (drop(['topbarLinks', index], 'is not a link'), [])
      for (const key of ['name', 'url', 'type']) take('topbarLinks', index, key)
      for (const key of ['style', 'arrow'])
        if (link[key] !== undefined) drop(['topbarLinks', index, key], 'docs.json navbar links have no button style')
      if (link.type === 'github' || link.type === 'discord')
        return [{ type: link.type, href: link.url, ...(link.name !== undefined ? { label: link.name } : {}) }]
      return [{ label: link.name, href: link.url }]
    })
    if (links.length) navbar.links = [...(Array.isArray(navbar.links) ? navbar.links : []), ...links]
    if (mint.topbarLinks.length === 0) drop(['topbarLinks'], 'is empty: nothing to carry')
    take('topbarLinks')
  }
  const button = mint.topbarCtaButton
  if (isPlainObject(button) && navbar.primary !== undefined)
    drop(['topbarCtaButton'], 'navbar.primary is set already, and docs.json has one call-to-action button')
  else if (isPlainObject(button)) {
    for (const key of ['name', 'url', 'type']) take('topbarCtaButton', key)
    for (const key of ['style', 'arrow'])
      if (button[key] !== undefined) drop(['topbarCtaButton', key], 'docs.json’s navbar.primary has no button style')
    navbar.primary =
      button.type === 'github' ? { type: 'github', href: button.url } : { type: 'button', label: button.name, href: button.url }
    if (button.type === 'github' && button.name !== undefined)
      changed.push({ path: 'topbarCtaButton.name', message: 'a GitHub button shows the repository, not a name' })
  }
  return Object.keys(navbar).length ? navbar : null
}

/** An https URL for a footer link, or null: http:// becomes https://, a bare domain gains https://. */
function secureUrl(url: unknown, path: Path, changed: ConversionNote[]): string | null {
  if (typeof url !== 'string' || !url.trim()) return null
  const trimmed = url.trim()
  if (trimmed.startsWith('/') || trimmed.startsWith('mailto:')) return trimmed
  let candidate = trimmed
  if (/^http:\/\//i.test(trimmed)) candidate = `https://${trimmed.slice(7)}`
  else if (!/^[a-z][a-z0-9+.-]*:/i.test(trimmed) && /^[\w-]+(\.[\w-]+)+(\/|$)/.test(trimmed)) candidate = `https://${trimmed}`
  if (!URL.canParse(candidate) || new URL(candidate).protocol !== 'https:' || /\.(svg|exe|zip)$/i.test(new URL(candidate).pathname))
    return null
  if (candidate !== trimmed)
    changed.push({
      path: formatProblemPath(path),
      message: `${JSON.stringify(trimmed)} is carried as ${candidate}: docs.json’s footer takes https:// links only`,
    })
  return candidate
}

function convertFooter(
  mint: Json,
  take: (...path: Path) => void,
  drop: (path: Path, message: string) => void,
  changed: ConversionNote[],
): Json | null {
  const footer: Json = {}
  const oldFooter = isPlainObject(mint.footer) ? mint.footer : {}
  const socialSources: [Path, unknown][] = [
    [['footerSocials'], mint.footerSocials],
    [['footer', 'socials'], oldFooter.socials],
  ]
  const socials: Json = {}
  for (const [path, source] of socialSources) {
    const entries: [Path, string, unknown][] = Array.isArray(source)
      ? source.map((entry, index) => [
          [...path, index],
          isPlainObject(entry) ? String(entry.type) : '',
          isPlainObject(entry) ? entry.url : undefined,
        ])
      : isPlainObject(source)
        ? Object.entries(source).map(([platform, url]) => [[...path, platform], platform, url])
        : []
    for (const [at, platform, url] of entries) {
      if (!(MINTLIFY_FOOTER_PLATFORMS as readonly string[]).includes(platform)) {
        drop(at, `docs.json’s footer.socials knows no platform ${JSON.stringify(platform)}`)
        continue
      }
      const secure = secureUrl(url, at, changed)
      if (secure === null || secure.startsWith('/') || secure.startsWith('mailto:')) {
        drop(at, `docs.json’s footer.socials takes https:// profile URLs only, and ${JSON.stringify(url)} is not one`)
        continue
      }
      socials[platform] = secure
      take(...at)
    }
    take(...path)
  }
  if (Object.keys(socials).length) footer.socials = socials
  if (Array.isArray(oldFooter.links)) {
    const columns = oldFooter.links.flatMap((column, index) => {
      if (!isPlainObject(column) || !Array.isArray(column.links)) return (drop(['footer', 'links', index], 'is not a column of links'), [])
      const items = column.links.flatMap((link, linkIndex) => {
        const at: Path = ['footer', 'links', index, 'links', linkIndex]
        const href = isPlainObject(link) ? secureUrl(link.url, [...at, 'url'], changed) : null
        if (!isPlainObject(link) || !href || typeof link.label !== 'string' || !link.label)
          return (drop(at, 'docs.json’s footer links need a label and a path or https:// URL'), [])
        take(...at)
        return [{ label: link.label, href }]
      })
      take('footer', 'links', index, 'title')
      take('footer', 'links', index, 'links')
      return items.length ? [{ ...(typeof column.title === 'string' && column.title ? { header: column.title } : {}), items }] : []
    })
    columns.slice(4).forEach((_, index) => drop(['footer', 'links', index + 4], 'docs.json’s footer holds at most 4 columns'))
    if (columns.length) footer.links = columns.slice(0, 4)
    take('footer', 'links')
  }
  return Object.keys(footer).length ? footer : null
}

function convertIntegrations(
  mint: Json,
  take: (...path: Path) => void,
  accepted: (from: Path, docsPath: Path, value: unknown) => boolean,
): Json | null {
  const integrations: Json = {}
  const analytics = isPlainObject(mint.analytics) ? mint.analytics : {}
  for (const [name, settings] of Object.entries(analytics)) {
    if (accepted(['analytics', name], ['integrations', name], settings)) {
      integrations[name] = settings
      take('analytics', name)
    }
  }
  take('analytics')
  const old = isPlainObject(mint.integrations) ? mint.integrations : {}
  const renamed: Record<string, string> = { intercom: 'appId', frontchat: 'snippetId' }
  for (const [name, settings] of Object.entries(old)) {
    const value = typeof settings === 'string' && renamed[name] ? { [renamed[name]]: settings } : settings
    if (accepted(['integrations', name], ['integrations', name], value)) {
      integrations[name] = value
      take('integrations', name)
    }
  }
  take('integrations')
  return Object.keys(integrations).length ? integrations : null
}

function convertFonts(
  mint: Json,
  take: (...path: Path) => void,
  drop: (path: Path, message: string) => void,
  changed: ConversionNote[],
): unknown {
  if (!isPlainObject(mint.font)) return undefined
  const font = (details: unknown, path: Path): Json | null => {
    if (!isPlainObject(details) || typeof details.family !== 'string') return (drop(path, 'a font needs a family'), null)
    const result: Json = { family: details.family }
    if (details.weight !== undefined) result.weight = details.weight
    const named = details.format
    if (typeof details.url === 'string') {
      const format = named ?? /\.(woff2?)(\?|$)/i.exec(details.url)?.[1]?.toLowerCase()
      if (format === 'woff' || format === 'woff2') {
        result.source = details.url
        result.format = format
        if (named === undefined)
          changed.push({
            path: formatProblemPath([...path, 'url']),
            message: `is carried as fonts source with the format "${format}" its name says`,
          })
      } else if (named !== undefined) {
        drop([...path, 'url'], `docs.json takes woff and woff2 font files only, and this one’s format is ${JSON.stringify(named)}`)
        drop([...path, 'format'], `docs.json takes woff and woff2 font files only: ${JSON.stringify(named)} is neither`)
      } else
        drop(
          [...path, 'url'],
          'docs.json needs the font file’s format (woff or woff2) with its source, and neither the setting nor the file name says it',
        )
    } else if (named !== undefined)
      drop([...path, 'format'], 'docs.json takes a font’s format only with its file (url), and this font names no file')
    for (const key of ['family', 'weight', 'format', ...(typeof details.url === 'string' ? ['url'] : [])]) take(...path, key)
    return result
  }
  if ('family' in mint.font) return font(mint.font, ['font'])
  const result: Json = {}
  if (mint.font.headings !== undefined) {
    const heading = font(mint.font.headings, ['font', 'headings'])
    if (heading) result.heading = heading
  }
  if (mint.font.body !== undefined) {
    const body = font(mint.font.body, ['font', 'body'])
    if (body) result.body = body
  }
  return Object.keys(result).length ? result : undefined
}

/**
 * The docs.json as an edit of the mint.json's text: what maps one to one keeps its text; the theme
 * goes after $schema. The text is parsed once and written once, however many settings change.
 */
function editedText(text: string, mint: Json, docs: Json): string {
  const positions = new KeyPositions()
  positions.remember([], '$schema', ['$schema'])
  positions.remember([], 'theme', ['$schema', 'theme'])
  // A mint.json without "$schema": the first key; "theme" then follows it.
  return applyValueChangesAtOnce(text, diffValues(mint, docs), positions)
}
