import type { z } from 'zod'
import { CONTENT_ORDER, type DivisionKey, DIVISIONS, DocsConfigSchema, NAVIGATION_CONTENT_KEYS } from './docs-schema'
import { problemsFromIssues } from './issue-messages'
import { type KnownShape, knownShapeFor, walkExtraKeys } from './known-keys'
import { isPlainObject } from './mint-schema'
import { createNavigationChecker } from './navigation-check'
import type { SiteConfigProblem, SiteConfigReport } from './problem'
import { formatProblemPath } from './problem-path'
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
  for (const segment of item)
    node = isPlainObject(node) || Array.isArray(node) ? (node as Record<PropertyKey, unknown>)[segment as never] : undefined
  const list = item.at(-2)
  if (item.length === 1) return 'navigation'
  const kind = typeof list === 'string' && list in DIVISIONS ? DIVISIONS[list as DivisionKey] : 'group'
  const name = isPlainObject(node) ? node[kind] : undefined
  return typeof name === 'string' && name ? `${kind} “${name}”` : `${kind} ${Number(item.at(-1)) + 1}`
}

/**
 * What the check found under one top-level key. docs.json's top level is an object whose keys are
 * checked each on its own (no rule spans two), so a check can keep the parts of a value that did
 * not change: the editor's edits copy only the objects on their path, so every other key keeps its
 * identity, and a keystroke in one field re-checks that field's key alone.
 */
export interface KeyCheck {
  value: unknown
  errors: SiteConfigProblem[]
  leftOut: SiteConfigProblem[]
  ignored: SiteConfigProblem[]
  extra: SiteConfigProblem[]
}

/** The checks of the last value, by top-level key: pass the same cache to consecutive checks of one document. */
export type DocsCheckCache = Map<string, KeyCheck>

const REQUIRED_KEYS = Object.entries(DocsConfigSchema.shape)
  .filter(([, schema]) => !(schema as z.ZodType).safeParse(undefined).success)
  .map(([key]) => key)

function checkKey(config: Record<string, unknown>, key: string): KeyCheck {
  const value = config[key]
  const schema = (DocsConfigSchema.shape as Record<string, z.ZodType | undefined>)[key]
  // The navigation is checked item by item (navigation-check.ts): a keystroke in one group re-checks that group's items only.
  const navigation = key === 'navigation' ? navigationChecker.check(value) : null
  if (navigation) navigationItemsChecked = navigation.checked
  const issues = navigation
    ? navigation.issues.map((issue) => ({ ...issue, path: [key, ...issue.path] }) as Issue)
    : schema
      ? (schema.safeParse(value, { reportInput: true }).error?.issues ?? []).map(
          (issue) => ({ ...issue, path: [key, ...issue.path] }) as Issue,
        )
      : []
  const hard: Issue[] = []
  const soft: { issue: Issue; item: Path; key: string }[] = []
  for (const issue of issues) {
    const place = leftOutAt(issue.path)
    if (place) soft.push({ issue, ...place })
    else hard.push(issue)
  }
  const ignored: SiteConfigProblem[] = []
  // The navigation's own content: Mintlify takes the first kind that is valid and ignores the rest.
  if (key === 'navigation' && isPlainObject(value)) {
    const present = CONTENT_ORDER.navigation.filter((content) => value[content] !== undefined)
    const broken = (content: string) => hard.some((issue) => startsWith(issue.path, ['navigation', content]))
    const used = present.find((content) => !broken(content))
    if (used) {
      for (let index = hard.length - 1; index >= 0; index--) {
        const issue = hard[index]!
        const content = issue.path[1]
        if (typeof content === 'string' && content !== used && present.includes(content as never)) {
          hard.splice(index, 1)
          soft.push({ issue, item: ['navigation'], key: content })
        }
      }
    }
    ignored.push(...ignoredContent(config, soft))
  }
  const leftOut = new Map<string, SiteConfigProblem>()
  for (const { issue, item, key: content } of soft) {
    for (const problem of problemsFromIssues([issue])) {
      const id = `${problem.path}\0${problem.message}`
      if (!leftOut.has(id))
        leftOut.set(id, {
          path: problem.path,
          message: `${problem.message} (Mintlify accepts the file but leaves the ${itemName(config, item)}’s ${content} out of the site)`,
        })
    }
  }
  return {
    value,
    errors: problemsFromIssues(hard),
    leftOut: [...leftOut.values()],
    ignored,
    extra:
      value === undefined
        ? []
        : navigation
          ? navigation.extras.map((extra) => ({ path: formatProblemPath([key, ...extra.path]), message: extra.message }))
          : extraKeyWarnings({ [key]: value }),
  }
}

/**
 * Checks a parsed docs.json value ($ref already resolved). Never throws; never changes the value.
 * With a cache (one per document), keys whose value is the same object as at the last check are
 * not checked again.
 */
export function checkDocsConfig(config: unknown, cache?: DocsCheckCache): DocsConfigCheck {
  if (!isPlainObject(config)) {
    const errors = problemsFromIssues(DocsConfigSchema.safeParse(config, { reportInput: true }).error?.issues ?? [])
    return { valid: false, errors, warnings: [], info: [] }
  }
  // zod's order: the schema's keys first, then the others as written.
  const known = Object.keys(DocsConfigSchema.shape).filter((key) => key in config || REQUIRED_KEYS.includes(key))
  const keys = [...known, ...Object.keys(config).filter((key) => !(key in DocsConfigSchema.shape))]
  const checks = keys.map((key) => {
    const cached = cache?.get(key)
    // The navigation's warnings name items by the names around them: its check depends on nothing else.
    if (cached && cached.value === config[key] && (cached.value !== undefined || !(key in config))) return cached
    const check = checkKey(config, key)
    cache?.set(key, check)
    return check
  })
  if (cache) for (const key of cache.keys()) if (!keys.includes(key)) cache.delete(key)
  const errors = checks.flatMap((check) => check.errors)
  const warnings = [
    ...checks.flatMap((check) => check.leftOut),
    ...checks.flatMap((check) => check.ignored),
    ...checks.flatMap((check) => check.extra),
    ...themeWarnings(config),
  ]
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
        warnings.push({
          path: formatProblemPath([...path, key]),
          message: `is ignored: Mintlify shows the ${itemName(config, path)}’s ${used === 'href' ? 'link (href)' : used} and leaves its ${key} out`,
        })
      }
    }
    for (const key of present) {
      const list = node[key]
      if (!Array.isArray(list)) continue
      // Groups and pages hold no choice of content: only division items are looked into.
      if (key in DIVISIONS) list.forEach((child, index) => visit(child, [...path, key, index], CONTENT_ORDER[key as DivisionKey]))
    }
  }
  visit(isPlainObject(config) ? config.navigation : undefined, ['navigation'], CONTENT_ORDER.navigation)
  return warnings
}

/**
 * mint.json settings left in a docs.json, which Mintlify ignores, with where each went. The
 * converter (convert-mint.ts) carries them there.
 */
/** By key: where docs.json keeps the setting, or '' where it has none. */
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
  feedback: '',
  rounded: '',
  sidebar: '',
  topbar: '',
  mintlify: '',
  isWhiteLabeled: '',
}

const docsShape = knownShapeFor(DocsConfigSchema)

function unknownKeyMessage(key: string, knownSiblings: Iterable<string>): string {
  const suggestion = closestKnownKey(key, knownSiblings)
  return suggestion
    ? `is not a docs.json setting (did you mean "${suggestion}"?): Mintlify ignores it`
    : 'is not a docs.json setting: Mintlify ignores it'
}

let navigationItemsChecked = 0
/** How many navigation items the last check of a changed navigation validated: a keystroke in one group validates a handful. */
export const lastNavigationItemsChecked = () => navigationItemsChecked

const navigationChecker = createNavigationChecker(docsShape.fields!.get('navigation') as KnownShape, unknownKeyMessage)

function extraKeyWarnings(config: unknown): SiteConfigProblem[] {
  const warnings: SiteConfigProblem[] = []
  walkExtraKeys(config, docsShape, {
    unknown(path, knownSiblings) {
      const key = String(path.at(-1))
      const movedTo = path.length === 1 ? MINT_JSON_SETTINGS_IN_DOCS_JSON[key] : undefined
      if (movedTo !== undefined) {
        warnings.push({
          path: formatProblemPath(path),
          message: movedTo
            ? `is a mint.json setting: docs.json has it in ${movedTo}, so Mintlify ignores it here`
            : 'is a mint.json setting docs.json does not have: Mintlify ignores it',
        })
        return
      }
      warnings.push({ path: formatProblemPath(path), message: unknownKeyMessage(key, knownSiblings) })
    },
    outsideSpec() {},
  })
  return warnings
}

function themeWarnings(config: unknown): SiteConfigProblem[] {
  if (!isPlainObject(config) || config.variations === undefined || config.theme === 'willow') return []
  return [{ path: 'variations', message: `is read by the willow theme only: with ${JSON.stringify(config.theme)} Mintlify ignores it` }]
}
