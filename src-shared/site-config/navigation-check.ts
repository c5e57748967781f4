import type { z } from 'zod'
import { CONTENT_ORDER, DIVISION_ITEM_SCHEMAS, type DivisionKey, DIVISIONS, DocsGroupSchema, DocsNavigationSchema } from './docs-schema'
import { type KnownShape, walkExtraKeys } from './known-keys'
import { isPlainObject } from './mint-schema'

// docs.json's navigation checked part by part. The whole navigation is one top-level setting (2.3
// MB in the largest real file), so checking it as one value on every keystroke re-checks 23,000
// pages to learn that one group name changed. Here each item of a division list (a language, a
// version, a tab…) and each group of a `groups` list is checked on its own and its result kept by
// the item's identity: the editor's edits copy only the objects on their path, so a keystroke
// re-checks the few items above the change and reuses every other one.
//
// The result is zod's own, issue for issue and in zod's order: an item is validated with its lists
// of items replaced by one item that passes (so the list's own rules, "at least one tab", still
// apply), and the items' issues are put back where zod would have reported them.
// test/unit/site-config/navigation-check.test.ts holds it to DocsNavigationSchema on whole files.

type Issue = z.core.$ZodIssue
type Kind = 'navigation' | DivisionKey | 'group'

/** A key nothing knows at a place, relative to the navigation, with its sentence. */
export interface ExtraKey {
  path: PropertyKey[]
  message: string
}

interface NodeCheck {
  issues: Issue[]
  extras: ExtraKey[]
}

export interface NavigationCheck extends NodeCheck {
  /** How many items were validated for this answer (the rest were known): what the tests watch. */
  checked: number
}

const SCHEMAS: Record<Kind, z.ZodType> = { navigation: DocsNavigationSchema, group: DocsGroupSchema, ...DIVISION_ITEM_SCHEMAS }

/**
 * An item of each kind that passes its schema: what a list is validated with while its items are
 * checked one by one. navigation-check.test.ts holds each to its schema; checking them here, as the
 * module loads, would cost every process that loads it (the CLI's convert among them) the first
 * parse of every kind's schema.
 */
const PASSING: Record<DivisionKey | 'groups', unknown> = {
  ...(Object.fromEntries(
    Object.entries(DIVISIONS).map(([list, key]) => [list, { [key]: list === 'languages' ? 'en' : 'x', pages: ['x'] }]),
  ) as Record<DivisionKey, unknown>),
  groups: { group: 'x', pages: ['x'] },
}

/** The lists of a kind whose items are checked one by one: its division lists and its groups. */
const SPLIT_LISTS: Record<Kind, readonly string[]> = {
  navigation: CONTENT_ORDER.navigation.filter((key) => key !== 'pages'),
  group: [],
  ...(Object.fromEntries(
    Object.keys(DIVISIONS).map((kind) => [
      kind,
      CONTENT_ORDER[kind as DivisionKey].filter((key: string) => key !== 'href' && key !== 'pages'),
    ]),
  ) as unknown as Record<DivisionKey, readonly string[]>),
}

/** The order zod reports an object's issues in: its shape's keys, then the others, then its own refinements. */
const KEY_RANKS: Record<Kind, Map<string, number>> = Object.fromEntries(
  (Object.keys(SCHEMAS) as Kind[]).map((kind) => [
    kind,
    new Map(Object.keys((SCHEMAS[kind] as unknown as { shape: Record<string, unknown> }).shape).map((key, index) => [key, index])),
  ]),
) as Record<Kind, Map<string, number>>

const childKind = (list: string): Kind => (list === 'groups' ? 'group' : (list as DivisionKey))

export interface NavigationChecker {
  /** Checks a navigation value; items unchanged since an earlier call (the same objects) are not checked again. */
  check(navigation: unknown): NavigationCheck
}

/**
 * A checker of navigation values: `shape` is the navigation's known keys (known-keys.ts), and
 * `unknownKey` words a key the schema does not know, given the keys it knows there.
 */
export function createNavigationChecker(
  shape: KnownShape,
  unknownKey: (key: string, known: Iterable<string>) => string,
): NavigationChecker {
  const known = new Map<Kind, WeakMap<object, NodeCheck>>((Object.keys(SCHEMAS) as Kind[]).map((kind) => [kind, new WeakMap()]))
  let checked = 0

  const extrasOf = (value: unknown, at: KnownShape | undefined): ExtraKey[] => {
    const extras: ExtraKey[] = []
    if (!at) return extras
    walkExtraKeys(value, at, {
      unknown: (path, siblings) => extras.push({ path: [...path], message: unknownKey(String(path.at(-1)), siblings) }),
      outsideSpec() {},
    })
    return extras
  }

  const checkNode = (node: unknown, kind: Kind, at: KnownShape | undefined): NodeCheck => {
    const cache = known.get(kind)!
    if (isPlainObject(node)) {
      const found = cache.get(node)
      if (found) return found
    }
    checked++
    const schema = SCHEMAS[kind]
    const whole = (): NodeCheck => ({
      issues: schema.safeParse(node, { reportInput: true }).error?.issues ?? [],
      extras: extrasOf(node, at),
    })
    if (!isPlainObject(node)) return whole()
    // A tab of generated reference refines its own keys against its lists: checked whole.
    const split =
      kind === 'tabs' && (node.graphql !== undefined || node.sdk !== undefined)
        ? []
        : SPLIT_LISTS[kind].filter((list) => {
            const items = node[list]
            return Array.isArray(items) && items.length > 0 && items.every(isPlainObject)
          })
    let result: NodeCheck
    if (split.length === 0) result = whole()
    else {
      const standIn: Record<string, unknown> = { ...node }
      for (const list of split) standIn[list] = [PASSING[list as DivisionKey | 'groups']]
      const issues: Issue[] = [...(schema.safeParse(standIn, { reportInput: true }).error?.issues ?? [])]
      const extras: ExtraKey[] = extrasOf(standIn, at)
      for (const list of split) {
        const itemShape = at?.fields?.get(list)
        const items = node[list] as unknown[]
        items.forEach((item, index) => {
          const inner = checkNode(
            item,
            childKind(list),
            itemShape && itemShape !== 'outside-spec' ? (itemShape.items ?? undefined) : undefined,
          )
          for (const issue of inner.issues) issues.push({ ...issue, path: [list, index, ...issue.path] } as Issue)
          for (const extra of inner.extras) extras.push({ path: [list, index, ...extra.path], message: extra.message })
        })
      }
      const ranks = KEY_RANKS[kind]
      const rank = (path: readonly PropertyKey[]) =>
        path.length === 0 ? Number.POSITIVE_INFINITY : (ranks.get(String(path[0])) ?? ranks.size)
      const keys = Object.keys(node)
      const written = (path: readonly PropertyKey[]) => keys.indexOf(String(path[0]))
      result = {
        issues: issues
          .map((issue, index) => ({ issue, index }))
          .sort((a, b) => rank(a.issue.path) - rank(b.issue.path) || a.index - b.index)
          .map(({ issue }) => issue),
        extras: extras
          .map((extra, index) => ({ extra, index }))
          .sort((a, b) => written(a.extra.path) - written(b.extra.path) || a.index - b.index)
          .map(({ extra }) => extra),
      }
    }
    cache.set(node, result)
    return result
  }

  return {
    check(navigation) {
      checked = 0
      const result = checkNode(navigation, 'navigation', shape)
      return { ...result, checked }
    },
  }
}
