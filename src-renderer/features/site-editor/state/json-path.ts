/**
 * Immutable edits of the parsed site.json value, addressed by paths such as
 * ['navigation', 3, 'pages', 0]. Every edit copies only the containers on its path, so the rest
 * of the tree keeps its identity (which is what lets unchanged parts of the form skip rendering),
 * and an object keeps its keys in their order: a changed key stays where it was, a new one goes last.
 */

export type Segment = string | number
export type Path = readonly Segment[]

type JsonObject = Record<string, unknown>

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)

export function getIn(root: unknown, path: Path): unknown {
  let node = root
  for (const segment of path) {
    if (typeof segment === 'number') node = Array.isArray(node) ? node[segment] : undefined
    else node = isObject(node) && Object.hasOwn(node, segment) ? node[segment] : undefined
  }
  return node
}

/**
 * Sets the value at `path`, creating missing objects and lists on the way. `undefined` removes an
 * object key ("clearing a field removes its key"), and an object left empty by that removal goes
 * too, up to the root: clearing the last colour removes `colors` rather than leaving `{}`.
 */
export function setIn(root: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next
  const [head, ...rest] = path as [Segment, ...Segment[]]
  if (typeof head === 'number') {
    const list = Array.isArray(root) ? root.slice() : []
    list[head] = setIn(list[head], rest, next)
    return list
  }
  const object: JsonObject = isObject(root) ? root : {}
  const child = setIn(object[head], rest, next)
  const childIsEmptyAfterRemoval = next === undefined && rest.length > 0 && isObject(child) && Object.keys(child).length === 0
  if (child === undefined || childIsEmptyAfterRemoval) {
    if (!Object.hasOwn(object, head)) return object
    const { [head]: _removed, ...others } = object
    return others
  }
  return { ...object, [head]: child }
}

/** Applies `change` to the list at `path`; a list left empty is removed when `removeWhenEmpty`. */
function changeList(root: unknown, path: Path, change: (list: unknown[]) => void, removeWhenEmpty: boolean): unknown {
  const current = getIn(root, path)
  const list = Array.isArray(current) ? current.slice() : []
  change(list)
  return setIn(root, path, list.length === 0 && removeWhenEmpty ? undefined : list)
}

export const appendItem = (root: unknown, path: Path, item: unknown) => changeList(root, path, (list) => list.push(item), false)

export const removeItem = (root: unknown, path: Path, index: number, removeWhenEmpty: boolean) =>
  changeList(root, path, (list) => list.splice(index, 1), removeWhenEmpty)

export function moveItem(root: unknown, path: Path, from: number, to: number): unknown {
  return changeList(
    root,
    path,
    (list) => {
      const [item] = list.splice(from, 1)
      list.splice(to, 0, item)
    },
    false,
  )
}

/** Where an item at `index` ends up after the item at `from` moved to `to`: for per-item view state. */
export function indexAfterMove(index: number, from: number, to: number): number {
  if (index === from) return to
  if (from < index && index <= to) return index - 1
  if (to <= index && index < from) return index + 1
  return index
}
