import { CONTENT_ORDER, type DivisionKey, DIVISIONS } from '../../../../../src-shared/site-config/docs-schema'
import { isPlainObject } from '../../../../../src-shared/site-config/mint-schema'
import { formatProblemPath } from '../../../../../src-shared/site-config/problem-path'
import type { Path } from '../../state/json-path'

// docs.json's navigation tree as the rows the editor draws: which lists a node holds, the rows of
// the open part of the tree, which rows open by default, and where a dragged row may land. Pure:
// no React, no store, so each rule is tested on plain values.

export type RowKind = DivisionKey | 'group' | 'page'

export interface TreeRow {
  /** The row's place as Problems writes it (`navigation.tabs[0].groups[1]`): its key in the list and in the open set. */
  id: string
  path: Path
  kind: RowKind
  depth: number
  /** The list it sits in, and its index there. */
  list: Path
  index: number
  length: number
  hasChildren: boolean
  /** The $ref file this row is written in, when not the docs.json. */
  file: string | null
}

/** A tree with fewer rows than this opens with every row expanded. */
export const EXPAND_ALL_UP_TO = 150
/** The lists that hold groups or pages, or items of one division, under the navigation itself. */
const LIST_KEYS = new Set<string>([...Object.keys(DIVISIONS), 'groups', 'pages'])

/** The content lists of a node, in the order Mintlify reads them. */
export function contentLists(node: unknown, kind: RowKind | 'navigation'): string[] {
  if (!isPlainObject(node)) return []
  if (kind === 'group') return Array.isArray(node.pages) ? ['pages'] : []
  if (kind === 'page') return []
  const order: readonly string[] = CONTENT_ORDER[kind]
  return order.filter((key) => key !== 'href' && Array.isArray(node[key]))
}

/** What an item of the list under `key` is: the list's division, a group, or (in `pages`) a page or a nested group. */
export const kindOfList = (key: string, item: unknown): RowKind =>
  key in DIVISIONS ? (key as DivisionKey) : key === 'groups' ? 'group' : isPlainObject(item) ? 'group' : 'page'

/** The rows drawn for `navigation`: every row whose parents are all in `expanded`, in reading order. */
export function treeRows(navigation: unknown, expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = []
  const visit = (node: unknown, path: Path, kind: RowKind | 'navigation', depth: number) => {
    for (const key of contentLists(node, kind)) {
      const list = (node as Record<string, unknown>)[key] as unknown[]
      const listPath = [...path, key]
      list.forEach((item, index) => {
        const itemPath = [...listPath, index]
        const itemKind = kindOfList(key, item)
        const id = formatProblemPath(itemPath)
        const hasChildren = contentLists(item, itemKind).length > 0
        rows.push({ id, path: itemPath, kind: itemKind, depth, list: listPath, index, length: list.length, hasChildren, file: null })
        if (hasChildren && expanded.has(id)) visit(item, itemPath, itemKind, depth + 1)
      })
    }
  }
  visit(navigation, ['navigation'], 'navigation', 0)
  return rows
}

/** The rows a tree opens with: every row with children when the whole tree has fewer than EXPAND_ALL_UP_TO rows, none otherwise. */
export function expandedByDefault(navigation: unknown): Set<string> {
  const ids = new Set<string>()
  let rows = 0
  const visit = (node: unknown, path: Path, kind: RowKind | 'navigation') => {
    for (const key of contentLists(node, kind)) {
      ;((node as Record<string, unknown>)[key] as unknown[]).forEach((item, index) => {
        rows++
        const itemPath = [...path, key, index]
        const itemKind = kindOfList(key, item)
        if (contentLists(item, itemKind).length) {
          ids.add(formatProblemPath(itemPath))
          if (rows < EXPAND_ALL_UP_TO) visit(item, itemPath, itemKind)
        }
      })
    }
  }
  visit(navigation, ['navigation'], 'navigation')
  return rows < EXPAND_ALL_UP_TO ? ids : new Set()
}

/** `open` with the rows above a navigation place added, so the place is drawn. */
export function withRowsAbove(open: ReadonlySet<string>, segments: Path): ReadonlySet<string> {
  const next = new Set(open)
  for (let depth = 2; depth < segments.length; depth++)
    if (typeof segments[depth] === 'number') next.add(formatProblemPath(segments.slice(0, depth + 1)))
  return next
}

/** The key that names a row of this kind (`tab`, `group`…); a page is its own name. */
export const labelKey = (kind: RowKind) => (kind === 'group' ? 'group' : kind === 'page' ? null : DIVISIONS[kind])
/** What a row of this kind is called in its labels. */
export const kindName = (kind: RowKind) =>
  kind === 'page' ? 'page' : kind === 'group' ? 'group' : DIVISIONS[kind] === 'item' ? 'menu item' : DIVISIONS[kind]

/** The name a row shows: a page's path, or the text under its kind's label key; empty when there is none. */
export function rowName(value: unknown, kind: RowKind): string {
  if (kind === 'page') return typeof value === 'string' ? value : ''
  const key = labelKey(kind)
  return isPlainObject(value) && key && typeof value[key] === 'string' ? value[key] : ''
}

/**
 * Whether a dragged row may be dropped at another row's place: pages and groups among pages, groups among groups, an item
 * among its own kind.
 */
export function canDrop(dragged: TreeRow, target: TreeRow): boolean {
  const listKey = String(target.list.at(-1))
  if (dragged.kind === 'page' || dragged.kind === 'group') return listKey === 'pages' || (listKey === 'groups' && dragged.kind === 'group')
  return listKey === String(dragged.list.at(-1))
}

/** Where a row dropped on `target` goes, or null where it may not: below its own place in the same list, after the target. */
export function dropPlace(dragged: TreeRow, target: TreeRow): { list: Path; index: number } | null {
  if (!canDrop(dragged, target)) return null
  const sameList = formatProblemPath(dragged.list) === formatProblemPath(target.list)
  return { list: target.list, index: sameList && dragged.index < target.index ? target.index + 1 : target.index }
}

/**
 * Where Alt+↑ or Alt+↓ moves a row, as the insertion index `moveResolved` takes and the index it has after; null at either
 * end of its list.
 */
export function keyboardMove(row: TreeRow, direction: 'up' | 'down'): { to: number; landsAt: number } | null {
  const to = direction === 'up' ? row.index - 1 : row.index + 2
  if (to < 0 || to > row.length) return null
  return { to, landsAt: direction === 'up' ? row.index - 1 : row.index + 1 }
}

/**
 * The list a row's "+ Page" and "+ Group" add to: a group's pages; under a division, its pages or groups, or `pages` (made)
 * when it holds no list; null when it holds only other lists (tabs under a product, say).
 */
export function childListOf(value: unknown, kind: RowKind): string | null {
  const lists = contentLists(value, kind)
  return kind === 'group' ? 'pages' : (lists.find((list) => list === 'pages' || list === 'groups') ?? (lists.length ? null : 'pages'))
}

/** The list a first item is added to at the navigation's top, and that item; null when the top holds no such list. */
export function firstItemAtTop(navigation: Record<string, unknown>): { list: Path; length: number; noun: string; item: unknown } | null {
  const target = contentLists(navigation, 'navigation').find((key) => LIST_KEYS.has(key))
  if (!target) return null
  const noun = target === 'pages' ? 'page' : kindName(kindOfList(target, undefined))
  const item =
    target === 'pages'
      ? ''
      : target === 'groups'
        ? { group: 'New group', pages: [] }
        : { [DIVISIONS[target as DivisionKey]]: `New ${noun}`, pages: [] }
  return { list: ['navigation', target], length: (navigation[target] as unknown[]).length, noun, item }
}
