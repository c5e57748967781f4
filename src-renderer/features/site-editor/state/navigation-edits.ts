import { appendItem, getIn, isObject, type Path, removeItem, setIn } from './json-path'

export interface GroupPlace {
  /** Where the group object is: ['navigation', 2] or, nested, ['navigation', 0, 'pages', 3]. */
  path: Path
  /** Its name with the names of the groups around it: "Get started › Concepts". */
  label: string
}

const nameOf = (group: Record<string, unknown>, fallback: string) =>
  typeof group.group === 'string' && group.group.trim() ? group.group : fallback

/** Every group of the navigation, nested ones after their parent, for a "which group?" choice. */
export function groupsOf(value: unknown): GroupPlace[] {
  const navigation = getIn(value, ['navigation'])
  if (!Array.isArray(navigation)) return []
  const places: GroupPlace[] = []
  const visit = (group: unknown, path: Path, parents: string) => {
    if (!isObject(group)) return
    const label = `${parents}${nameOf(group, `Group ${Number(path.at(-1)) + 1}`)}`
    places.push({ path, label })
    if (Array.isArray(group.pages)) group.pages.forEach((page, index) => visit(page, [...path, 'pages', index], `${label} › `))
  }
  navigation.forEach((group, index) => visit(group, ['navigation', index], ''))
  return places
}

/**
 * Puts a page into a group: at the end of its pages, and out of the list it was in (`from`, the
 * page's own path) when it is a move. The page is added before it is removed, so the paths of
 * groups after it stay right; a move into the group it is already in changes nothing.
 */
export function placePage(value: unknown, page: string, groupPath: Path, from: Path | null): unknown {
  const pagesPath = [...groupPath, 'pages']
  if (from && JSON.stringify(from.slice(0, -1)) === JSON.stringify(pagesPath)) return value
  const added = appendItem(value, pagesPath, page)
  return from ? removeItem(added, from.slice(0, -1), from.at(-1) as number, false) : added
}

/** A nested group as the site.json spec (docs/site-json.md) cannot hold it: an object with a name and pages where a page belongs. */
export function nestedGroupAt(value: unknown, path: Path): { name: string; pages: unknown[] } | null {
  const item = getIn(value, path)
  if (!isObject(item) || !Array.isArray(item.pages)) return null
  return { name: typeof item.group === 'string' ? item.group : '', pages: item.pages }
}

/** The pages a nested group holds, its own nested groups' pages in their place: what flattening keeps. */
export function pagesWithin(pages: readonly unknown[]): unknown[] {
  return pages.flatMap((page) => (isObject(page) && Array.isArray(page.pages) ? pagesWithin(page.pages) : [page]))
}

/**
 * "Flatten into the parent": the nested group at `path` (an item of a pages list) is replaced,
 * where it stood, by every page it holds, at any depth; only its name goes. Anything else
 * there is left as it is.
 */
export function flattenNestedGroup(value: unknown, path: Path): unknown {
  const group = nestedGroupAt(value, path)
  const listPath = path.slice(0, -1)
  const list = getIn(value, listPath)
  if (!group || !Array.isArray(list)) return value
  const index = path.at(-1) as number
  return setIn(value, listPath, [...list.slice(0, index), ...pagesWithin(group.pages), ...list.slice(index + 1)])
}
