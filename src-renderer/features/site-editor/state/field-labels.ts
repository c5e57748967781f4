import { DIVISIONS } from '../../../../src-shared/site-config/docs-schema'
import { getIn, isObject, type Path } from './json-path'

// Problems name the field as the form labels it ("Group “API” › Page 3"), not only by its path.

const LABELS: Record<string, string> = {
  name: 'Project name',
  favicon: 'Favicon',
  logo: 'Logo',
  'logo.light': 'Logo in light mode',
  'logo.dark': 'Logo in dark mode',
  'logo.href': 'Logo link',
  backgroundImage: 'Background image',
  colors: 'Theme colours',
  'colors.primary': 'Primary colour',
  'colors.light': 'Primary colour in dark mode',
  'colors.dark': 'Button colour',
  'colors.background': 'Background colours',
  'colors.background.light': 'Background in light mode',
  'colors.background.dark': 'Background in dark mode',
  topbarLinks: 'Top bar links',
  topbarCtaButton: 'Call-to-action button',
  'topbarCtaButton.type': 'Button type',
  'topbarCtaButton.url': 'Button URL',
  'topbarCtaButton.name': 'Button text',
  versions: 'Versions',
  anchors: 'Anchors',
  topAnchor: 'Top anchor',
  'topAnchor.name': 'Top anchor name',
  'topAnchor.icon': 'Top anchor icon',
  'topAnchor.iconType': 'Top anchor icon style',
  tabs: 'Tabs',
  api: 'API',
  'api.baseUrl': 'API base URL',
  'api.auth': 'API authentication',
  'api.auth.method': 'Authentication method',
  'api.auth.name': 'Authentication parameter name',
  'api.auth.inputPrefix': 'Authentication input prefix',
  'api.playground': 'API playground',
  'api.playground.mode': 'Playground mode',
  'api.maintainOrder': 'Keep OpenAPI key order',
  openapi: 'OpenAPI file',
  footerSocials: 'Footer social accounts',
  feedback: 'Feedback buttons',
  'feedback.suggestEdit': 'Suggest an edit',
  'feedback.raiseIssue': 'Raise an issue',
  modeToggle: 'Dark and light mode',
  'modeToggle.default': 'Mode for new readers',
  'modeToggle.isHidden': 'Hide the toggle',
  navigation: 'Navigation',
}

const ITEM_FIELDS: Record<string, string> = {
  name: 'name',
  url: 'URL',
  icon: 'icon',
  iconType: 'icon style',
  color: 'icon colour',
  version: 'version',
  isDefaultHidden: 'hidden until linked to',
}
const LIST_NOUNS: Record<string, string> = { topbarLinks: 'Top bar link', anchors: 'Anchor', tabs: 'Tab', versions: 'Version' }

const humanize = (key: string) => key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (first) => first.toUpperCase())
const quoted = (name: unknown) => (typeof name === 'string' && name.trim() ? ` “${name.trim()}”` : '')

/** The words for the place `segments` points at in `value`, or null where the path alone says it best. */
export function labelOf(segments: Path, value: unknown): string | null {
  if (segments.length === 0) return null
  const [head, ...rest] = segments
  const key = segments.filter((segment) => typeof segment === 'string').join('.')
  if (head === 'navigation') return navigationLabel(segments, value)
  if (typeof head === 'string' && LIST_NOUNS[head] && typeof rest[0] === 'number') {
    const item = getIn(value, [head, rest[0]])
    const base = `${LIST_NOUNS[head]} ${rest[0] + 1}${isObject(item) ? quoted(item.name) : ''}`
    const field = rest[1]
    return typeof field === 'string' ? `${base} › ${ITEM_FIELDS[field] ?? humanize(field)}` : base
  }
  if (head === 'footerSocials' && typeof rest[0] === 'string') return `Footer › ${humanize(rest[0])}`
  if (head === 'openapi' && typeof rest[0] === 'number') return `OpenAPI file ${rest[0] + 1}`
  if (head === 'api' && rest[0] === 'baseUrl' && typeof rest[1] === 'number') return `API base URL ${rest[1] + 1}`
  return LABELS[key] ?? DOCS_LABELS[key] ?? placeLabel(segments)
}

/** The label of each problem's place, with the nodes on its path it was read from. */
const remembered = new WeakMap<Path, { nodes: unknown[]; label: string | null }>()

/** The nodes along `segments` in `value`, below the root (which every edit replaces). */
function nodesAlong(segments: Path, value: unknown): unknown[] {
  const nodes: unknown[] = []
  let node = value
  for (const segment of segments) {
    if (typeof segment === 'number') node = Array.isArray(node) ? node[segment] : undefined
    else node = isObject(node) && Object.hasOwn(node, segment) ? node[segment] : undefined
    nodes.push(node)
    if (node === undefined) break
  }
  return nodes
}

/**
 * labelOf, worked out again only when a node on the path changed: a label reads nothing but the
 * nodes on its path (values are never changed in place, so the same nodes say the same names).
 * The Problems list asks for 200 rows' labels on every change of the editor's state.
 */
export function rememberedLabelOf(segments: Path, value: unknown): string | null {
  const nodes = nodesAlong(segments, value)
  const seen = remembered.get(segments)
  if (seen && seen.nodes.length === nodes.length && seen.nodes.every((node, index) => node === nodes[index])) return seen.label
  const label = labelOf(segments, value)
  remembered.set(segments, { nodes, label })
  return label
}

/** docs.json's settings whose words differ from their keys. */
const DOCS_LABELS: Record<string, string> = {
  appearance: 'Light and dark mode',
  'appearance.default': 'Light or dark mode',
  'appearance.strict': 'Mode toggle',
  'colors.light': 'Primary in dark mode',
  'colors.dark': 'Primary in light mode (buttons)',
  navbar: 'Top bar',
  'navbar.primary': 'Call-to-action button',
  'api.playground.display': 'API playground',
  'api.mdx.server': 'Base URL of MDX API pages',
}

/**
 * Any other place, in words: the nearest place above it that has a label, then each key humanised
 * ("appearance.layout" → "Light and dark mode › Layout", "chat" → "Chat"), list items by number.
 */
function placeLabel(segments: Path): string {
  const words = (segment: string | number) => (typeof segment === 'number' ? `item ${segment + 1}` : humanize(segment))
  for (let depth = segments.length - 1; depth > 0; depth--) {
    const key = segments.slice(0, depth).join('.')
    const known = LABELS[key] ?? DOCS_LABELS[key]
    if (known) return [known, ...segments.slice(depth).map(words)].join(' › ')
  }
  return segments.map(words).join(' › ')
}

/** A docs.json list's items by name: "Tab 2 “API”", the name read from the item's key ("tab"). */
const DOCS_ITEMS: Record<string, { noun: string; key: string }> = {
  ...Object.fromEntries(
    Object.entries(DIVISIONS).map(([list, key]) => [list, { noun: key === 'item' ? 'Menu item' : humanize(key), key }]),
  ),
  groups: { noun: 'Group', key: 'group' },
}

/** "Group “API” › Nested group “Auth” › Page 3"; in a docs.json "Tab 2 “API” › Group 1 “Start” › Page 3". */
function navigationLabel(segments: Path, value: unknown): string {
  const parts: string[] = []
  let at: Path = ['navigation']
  for (let index = 1; index < segments.length; index++) {
    const segment = segments[index]!
    const previous = segments[index - 1]
    if (typeof segment === 'number') {
      const node = getIn(value, [...at, segment])
      const docsItem = typeof previous === 'string' ? DOCS_ITEMS[previous] : undefined
      if (docsItem) parts.push(`${docsItem.noun} ${segment + 1}${isObject(node) ? quoted(node[docsItem.key]) : ''}`)
      else if (previous === 'pages' && !isObject(node)) parts.push(`Page ${segment + 1}`)
      else parts.push(`${previous === 'pages' ? 'Nested group' : 'Group'} ${segment + 1}${isObject(node) ? quoted(node.group) : ''}`)
    } else if (segment === 'group') parts.push('group name')
    // A list's name is said by its items' ("Tab 2"), unless the list itself is the place.
    else if ((segment !== 'pages' && !DOCS_ITEMS[segment]) || index === segments.length - 1)
      parts.push(segment === 'pages' ? 'pages' : humanize(segment))
    at = [...at, segment]
  }
  return ['Navigation', ...parts].join(' › ')
}
