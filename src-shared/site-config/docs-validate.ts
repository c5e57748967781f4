import type { z } from 'zod'
import { CONTENT_ORDER, DIVISIONS, DocsConfigSchema, NAVIGATION_CONTENT_KEYS, type DivisionKey } from './docs-schema'
import { formatProblemPath } from './format'
import { problemsFromIssues } from './issue-messages'
import { knownShapeFor, walkExtraKeys } from './known-keys'
import { isPlainObject } from './schema'
import type { SiteConfigProblem, SiteConfigReport } from './validate'
import { closestKnownKey } from './warnings'

// docs.json's checks. Errors are exactly what Mintlify's validator refuses (held to it on the
// shared corpus and on fuzzed files); what it accepts but leaves out of the site, or ignores, is a
// warning with the reason, so a writer learns why a tab shows no pages before readers do.

export interface DocsConfigCheck extends SiteConfigReport {
  info: SiteConfigProblem[]
}

type Path = readonly PropertyKey[]
type Issue = z.core.$ZodIssue

const DIVISION_KEYS = new Set<string>(Object.keys(DIVISIONS))
const CONTENT_KEYS = new Set<string>(NAVIGATION_CONTENT_KEYS)

/**
 * Where Mintlify leaves a problem out instead of refusing the file: inside the content of a
 * navigation item (a tab's groups, an anchor's pages, an item's href…), Mintlify falls back to the
 * item without that content; a group's invalid openapi or asyncapi is dropped. Returns the item
 * (its path) and the key left out, the innermost one, or null when the problem fails the file.
 */
function leftOutAt(path: Path): { item: Path; key: string } | null {
  if (path[0] !== 'navigation') return null
  let found: { item: Path; key: string } | null = null
  type State = { at: 'navigation' } | { at: 'list'; of: string } | { at: 'item'; of: DivisionKey } | { at: 'group' } | { at: 'done' }
  let state: State = { at: 'navigation' }
  for (let index = 1; index < path.length; index++) {
    const segment = path[index]
    switch (state.at) {
      case 'navigation':
        state = typeof segment === 'string' && CONTENT_KEYS.has(segment) ? { at: 'list', of: segment } : { at: 'done' }
        break
      case 'list':
        if (typeof segment !== 'number') state = { at: 'done' }
        else if (DIVISION_KEYS.has(state.of)) state = { at: 'item', of: state.of as DivisionKey }
        else state = { at: 'group' }
        break
      case 'item': {
        const content: readonly string[] = CONTENT_ORDER[state.of]
        if (typeof segment === 'string' && content.includes(segment)) {
          found = { item: path.slice(0, index), key: segment }
          state = segment === 'href' ? { at: 'done' } : { at: 'list', of: segment }
        } else state = { at: 'done' }
        break
      }
      case 'group':
        if (segment === 'openapi' || segment === 'asyncapi') {
          found = { item: path.slice(0, index), key: segment }
          state = { at: 'done' }
        } else state = segment === 'pages' ? { at: 'list', of: 'pages' } : { at: 'done' }
        break
      case 'done':
        return found
    }
  }
  return found
}

const startsWith = (path: Path, prefix: Path) => prefix.length <= path.length && prefix.every((segment, index) => path[index] === segment)
const samePath = (a: Path, b: Path) => a.length === b.length && startsWith(a, b)

/** What a navigation item is called in a sentence: "tab “Guides”", "group 2". */
function itemName(config: unknown, item: Path): string {
  let node: unknown = config
  for (const segment of item) node = isPlainObject(node) || Array.isArray(node) ? (node as Record<PropertyKey, unknown>)[segment as never] : undefined
  const list = item.at(-2)
  if (item.length === 1) return 'navigation'
  const kind = typeof list === 'string' && list in DIVISIONS ? DIVISIONS[list as DivisionKey] : 'group'
  const name = isPlainObject(node) ? node[kind] : undefined
  return typeof name === 'string' && name ? `${kind} “${name}”` : `${kind} ${Number(item.at(-1)) + 1}`
}

/** Checks a parsed docs.json value ($ref already resolved). Never throws; never changes the value. */
export function checkDocsConfig(config: unknown): DocsConfigCheck {
  const result = DocsConfigSchema.safeParse(config, { reportInput: true })
  const issues = result.success ? [] : result.error.issues
  const hard: Issue[] = []
  const soft: { issue: Issue; item: Path; key: string }[] = []
  for (const issue of issues) {
    const place = leftOutAt(issue.path)
    if (place) soft.push({ issue, ...place })
    else hard.push(issue)
  }

  // The navigation's own content: Mintlify takes the first kind that is valid and ignores the rest.
  const navigation = isPlainObject(config) && isPlainObject(config.navigation) ? config.navigation : null
  const warnings: SiteConfigProblem[] = []
  if (navigation) {
    const present = CONTENT_ORDER.navigation.filter((key) => navigation[key] !== undefined)
    const broken = (key: string) => hard.some((issue) => startsWith(issue.path, ['navigation', key]))
    const used = present.find((key) => !broken(key))
    if (used) {
      for (let index = hard.length - 1; index >= 0; index--) {
        const issue = hard[index]!
        const key = issue.path[1]
        if (issue.path[0] === 'navigation' && typeof key === 'string' && key !== used && present.includes(key as never)) {
          hard.splice(index, 1)
          soft.push({ issue, item: ['navigation'], key })
        }
      }
    }
    warnings.push(...ignoredContent(config, soft))
  }

  const errors = problemsFromIssues(hard)
  const leftOut = new Map<string, SiteConfigProblem>()
  for (const { issue, item, key } of soft) {
    for (const problem of problemsFromIssues([issue])) {
      const id = `${problem.path}\0${problem.message}`
      if (!leftOut.has(id)) leftOut.set(id, { path: problem.path, message: `${problem.message} (Mintlify accepts the file but leaves the ${itemName(config, item)}’s ${key} out of the site)` })
    }
  }
  warnings.unshift(...leftOut.values())
  warnings.push(...extraKeyWarnings(config), ...themeWarnings(config))
  return { valid: errors.length === 0, errors, warnings, info: [] }
}

/** An item with several kinds of content: Mintlify shows the first valid one (in its order) and ignores the rest. */
function ignoredContent(config: unknown, soft: readonly { item: Path; key: string }[]): SiteConfigProblem[] {
  const warnings: SiteConfigProblem[] = []
  const visit = (node: unknown, path: Path, order: readonly string[]) => {
    if (!isPlainObject(node)) return
    const present = order.filter((key) => node[key] !== undefined)
    if (present.length > 1) {
      const failed = (key: string) => soft.some((entry) => samePath(entry.item, path) && entry.key === key)
      const used = present.find((key) => !failed(key))
      for (const key of present) {
        if (key === used || failed(key)) continue
        warnings.push({ path: formatProblemPath([...path, key]), message: `is ignored: Mintlify shows the ${itemName(config, path)}’s ${used === 'href' ? 'link (href)' : used} and leaves its ${key} out` })
      }
    }
    for (const key of present) {
      const list = node[key]
      if (!Array.isArray(list)) continue
      list.forEach((child, index) => {
        if (key in DIVISIONS) visit(child, [...path, key, index], CONTENT_ORDER[key as DivisionKey])
        else visitGroups(child, [...path, key, index])
      })
    }
  }
  const visitGroups = (node: unknown, path: Path) => {
    if (!isPlainObject(node) || !Array.isArray(node.pages)) return
    node.pages.forEach((child, index) => visitGroups(child, [...path, 'pages', index]))
  }
  visit(isPlainObject(config) ? config.navigation : undefined, ['navigation'], CONTENT_ORDER.navigation)
  return warnings
}

/**
 * mint.json settings left in a docs.json, which Mintlify ignores, with where each went. The
 * converter (convert-mint.ts) carries them there.
 */
export const MINT_JSON_SETTINGS_IN_DOCS_JSON: Record<string, string> = {
  topbarLinks: 'navbar.links',
  topbarCtaButton: 'navbar.primary',
  tabs: 'navigation.tabs',
  anchors: 'navigation.anchors (or navigation.global.anchors for links)',
  versions: 'navigation.versions',
  topAnchor: 'the first anchor of navigation.anchors',
  primaryTab: 'the first tab of navigation.tabs',
  openapi: 'api.openapi',
  footerSocials: 'footer.socials',
  modeToggle: 'appearance',
  backgroundImage: 'background.image',
  font: 'fonts',
  analytics: 'integrations',
  layout: 'theme',
  codeBlock: 'styling.codeblocks',
  eyebrow: 'styling.eyebrows',
  feedback: 'nothing: docs.json has no feedback settings (Mintlify’s dashboard has them)',
  rounded: 'nothing: the theme decides',
  sidebar: 'nothing: the theme decides',
  topbar: 'nothing: the theme decides',
  mintlify: 'nothing',
  isWhiteLabeled: 'nothing',
}

const docsShape = knownShapeFor(DocsConfigSchema)

function extraKeyWarnings(config: unknown): SiteConfigProblem[] {
  const warnings: SiteConfigProblem[] = []
  walkExtraKeys(config, docsShape, {
    unknown(path, knownSiblings) {
      const key = String(path.at(-1))
      const movedTo = path.length === 1 ? MINT_JSON_SETTINGS_IN_DOCS_JSON[key] : undefined
      if (movedTo !== undefined) {
        warnings.push({ path: formatProblemPath(path), message: `is a mint.json setting: docs.json has it in ${movedTo}, so Mintlify ignores it here` })
        return
      }
      const suggestion = closestKnownKey(key, knownSiblings)
      warnings.push({
        path: formatProblemPath(path),
        message: suggestion ? `is not a docs.json setting (did you mean "${suggestion}"?): Mintlify ignores it` : 'is not a docs.json setting: Mintlify ignores it',
      })
    },
    outsideSpec() {},
  })
  return warnings
}

function themeWarnings(config: unknown): SiteConfigProblem[] {
  if (!isPlainObject(config) || config.variations === undefined || config.theme === 'willow') return []
  return [{ path: 'variations', message: `is read by the willow theme only: with ${JSON.stringify(config.theme)} Mintlify ignores it` }]
}
