import { locateInFiles, type RefPath } from '../../../../src-shared/site-config/refs'
import type { ValueChange } from '../../../../src-shared/site-config/text-edits'
import { editFiles, useEditor } from './editor-store'
import { getIn, type Path } from './json-path'
import { refTextNow, resolvedFor } from './ref-store'

// Edits of a docs.json as the navigation editor shows it: with its $ref files in place. Each
// change names a place in that resolved value and is written to the file the place lives in (the
// docs.json, or the $ref file holding it), so a page added to a tab that comes from tabs/api.json
// is saved in tabs/api.json. Changes to several files are one undo step.

export function resolvedState() {
  const { value, refTexts } = useEditor.getState()
  return resolvedFor(value, refTexts)
}

export const useResolvedAt = (path: Path) => useEditor((state) => getIn(resolvedFor(state.value, state.refTexts).value, path))

/** The $ref file a resolved place is written in (null for the docs.json). */
export function fileOfPlace(path: RefPath): string | null {
  return locateInFiles(path, resolvedState().sites).file
}

export function applyResolvedChanges(changes: readonly ValueChange[], burst: string | null = null): void {
  const { sites } = resolvedState()
  const edits = new Map<string | null, ValueChange[]>()
  for (const change of changes) {
    // A list's insertions and reorders go where the list is; a set or removal where the node is held.
    const located = locateInFiles(change.path, sites, { node: change.kind === 'set' || change.kind === 'remove' })
    const inFile = { ...change, path: [...located.path] } as ValueChange
    edits.set(located.file, [...(edits.get(located.file) ?? []), inFile])
  }
  const { refTexts } = useEditor.getState()
  editFiles(edits, (ref) => refTextNow(refTexts, ref), burst)
}

export const setResolved = (path: Path, value: unknown, burst: string | null = null) =>
  applyResolvedChanges([{ kind: 'set', path, value, added: getIn(resolvedState().value, path) === undefined }], burst)

/**
 * Moves the item at `from` into the list at `toList`, before the item at `toIndex`: within one
 * list a reorder, else a removal and an insertion (in two files, when they differ).
 */
export function moveResolved(from: Path, toList: Path, toIndex: number): void {
  const fromList = from.slice(0, -1)
  const fromIndex = from.at(-1) as number
  const value = getIn(resolvedState().value, from)
  if (JSON.stringify(fromList) === JSON.stringify(toList)) {
    const list = getIn(resolvedState().value, fromList)
    if (!Array.isArray(list)) return
    const target = Math.max(0, Math.min(toIndex > fromIndex ? toIndex - 1 : toIndex, list.length - 1))
    if (target === fromIndex) return
    const order = list.map((_, index) => index)
    order.splice(fromIndex, 1)
    order.splice(target, 0, fromIndex)
    applyResolvedChanges([{ kind: 'reorder', path: fromList, order }])
    return
  }
  const { sites } = resolvedState()
  const to = locateInFiles(toList, sites)
  const source = locateInFiles(from, sites, { node: true })
  // Inserted first, removed after: when the new place is in a list above the old one, in the same
  // file, the old place moves down by one.
  const removal = [...source.path]
  const depth = to.path.length
  if (
    to.file === source.file &&
    removal.length > depth &&
    to.path.every((segment, index) => removal[index] === segment) &&
    toIndex <= (removal[depth] as number)
  ) {
    removal[depth] = (removal[depth] as number) + 1
  }
  const edits = new Map<string | null, ValueChange[]>()
  edits.set(to.file, [{ kind: 'insertItem', path: [...to.path], index: toIndex, value }])
  edits.set(source.file, [...(edits.get(source.file) ?? []), { kind: 'remove', path: removal }])
  const { refTexts } = useEditor.getState()
  editFiles(edits, (ref) => refTextNow(refTexts, ref))
}
