import {
  applyEdits,
  createScanner,
  type Edit,
  findNodeAtLocation,
  type JSONScanner,
  type Node,
  parseTree,
  type SyntaxKind as Token,
} from 'jsonc-parser'

// jsonc-parser's SyntaxKind is a const enum, which isolated modules cannot read: its values.
const SyntaxKind = {
  OpenBraceToken: 1 as Token.OpenBraceToken,
  CloseBraceToken: 2 as Token.CloseBraceToken,
  OpenBracketToken: 3 as Token.OpenBracketToken,
  CloseBracketToken: 4 as Token.CloseBracketToken,
  CommaToken: 5 as Token.CommaToken,
  ColonToken: 6 as Token.ColonToken,
  StringLiteral: 10 as Token.StringLiteral,
  EOF: 17 as Token.EOF,
}
import { isPlainObject } from './mint-schema'

// Format-preserving edits of a site.json text. The text is the document: the form's changes are
// worked out as differences between two parsed values and applied as the smallest text edits to
// the original, so indentation (tabs, 2 or 4 spaces), line endings, a missing final newline,
// number literals such as 2.50, inline arrays and key order all stay as the writer left them,
// and a one-field change is a one-hunk diff. jsonc-parser (VS Code's JSON parser) locates every
// node; the edits themselves are written here, because its `modify` reformats whole lines around
// an edit (an inline array becomes one item per line) when asked to indent what it inserts.

export type JsonPath = readonly (string | number)[]

/** One difference between two values, in the terms of a text edit. */
export type ValueChange =
  /** Replaces the value at `path`, or adds the key when the object there lacks it (`added`). */
  | { kind: 'set'; path: JsonPath; value: unknown; added?: boolean }
  /** Removes an object key or a list item. */
  | { kind: 'remove'; path: JsonPath }
  /** Inserts `value` into the list at `path`, before the item now at `index` (or at the end). */
  | { kind: 'insertItem'; path: JsonPath; index: number; value: unknown }
  /** The list at `path` with the same items in another order: item i is now the old item order[i]. */
  | { kind: 'reorder'; path: JsonPath; order: number[] }

/** How a file is written: what one level of indentation is, and which line ending it uses. */
export interface TextStyle {
  indent: string
  eol: string
}

/** New files: 2 spaces and \n. */
export const DEFAULT_TEXT_STYLE: TextStyle = { indent: '  ', eol: '\n' }

/** The indentation unit (a tab, or the smallest run of spaces that starts a line) and the line ending. */
export function detectTextStyle(text: string): TextStyle {
  const firstBreak = text.indexOf('\n')
  const eol = firstBreak > 0 && text[firstBreak - 1] === '\r' ? '\r\n' : '\n'
  let spaces = Infinity
  const indentation = /\n([ \t]+)\S/g
  for (let match = indentation.exec(text), seen = 0; match && seen < 200; match = indentation.exec(text), seen++) {
    const run = match[1]!
    if (run.startsWith('\t')) return { indent: '\t', eol }
    spaces = Math.min(spaces, run.length)
  }
  return { indent: Number.isFinite(spaces) ? ' '.repeat(spaces) : DEFAULT_TEXT_STYLE.indent, eol }
}

/**
 * Where keys stood before they were removed, so a field cleared and typed again goes back to its
 * place instead of to the end of its object. Kept per open document.
 */
export class KeyPositions {
  private readonly removed = new Map<string, { after: string | null; before: string | null }>()
  private static id = (objectPath: JsonPath, key: string) => JSON.stringify([...objectPath, key])

  remember(objectPath: JsonPath, key: string, siblings: readonly string[]): void {
    const index = siblings.indexOf(key)
    this.removed.set(KeyPositions.id(objectPath, key), { after: siblings[index - 1] ?? null, before: siblings[index + 1] ?? null })
  }

  /** Where to insert `key` among `siblings`: where it stood, next to the same neighbour, or last. */
  insertionIndex(objectPath: JsonPath, key: string, siblings: readonly string[]): number {
    const place = this.removed.get(KeyPositions.id(objectPath, key))
    if (place?.after !== undefined && place.after !== null && siblings.includes(place.after)) return siblings.indexOf(place.after) + 1
    if (place?.before !== undefined && place.before !== null && siblings.includes(place.before)) return siblings.indexOf(place.before)
    if (place?.after === null) return 0
    return siblings.length
  }
}

/**
 * The changes that turn `before` into `after`. Unchanged parts are skipped by identity (the
 * editor's edits copy only the containers on their path), so the walk follows the edited path.
 * Objects' key order is the text's business: a key that only moved is no change.
 */
export function diffValues(before: unknown, after: unknown, path: JsonPath = []): ValueChange[] {
  if (Object.is(before, after)) return []
  if (isPlainObject(before) && isPlainObject(after)) {
    const changes: ValueChange[] = []
    for (const key of Object.keys(before)) {
      if (!Object.hasOwn(after, key)) changes.push({ kind: 'remove', path: [...path, key] })
    }
    for (const key of Object.keys(after)) {
      if (Object.hasOwn(before, key)) changes.push(...diffValues(before[key], after[key], [...path, key]))
      else changes.push({ kind: 'set', path: [...path, key], value: after[key], added: true })
    }
    return changes
  }
  if (Array.isArray(before) && Array.isArray(after)) return diffLists(before, after, path)
  // A primitive that stayed equal (a copy of the same string) is no change either.
  if (typeof before !== 'object' && before === after) return []
  return [{ kind: 'set', path, value: after }]
}

function diffLists(before: readonly unknown[], after: readonly unknown[], path: JsonPath): ValueChange[] {
  let prefix = 0
  while (prefix < before.length && prefix < after.length && Object.is(before[prefix], after[prefix])) prefix++
  let suffix = 0
  while (
    suffix < before.length - prefix &&
    suffix < after.length - prefix &&
    Object.is(before[before.length - 1 - suffix], after[after.length - 1 - suffix])
  )
    suffix++
  const removed = before.length - prefix - suffix
  const inserted = after.length - prefix - suffix
  if (removed === 0) {
    return after.slice(prefix, prefix + inserted).map((value, offset) => ({ kind: 'insertItem', path, index: prefix + offset, value }))
  }
  if (inserted === 0) {
    // From the last, so each index still names the item it meant.
    return Array.from({ length: removed }, (_, offset) => ({ kind: 'remove' as const, path: [...path, prefix + removed - 1 - offset] }))
  }
  if (removed === inserted) {
    const order = permutation(before, after)
    if (order) return [{ kind: 'reorder', path, order }]
  }
  const changes: ValueChange[] = []
  const common = Math.min(before.length, after.length)
  for (let index = 0; index < common; index++) changes.push(...diffValues(before[index], after[index], [...path, index]))
  for (let index = common; index < after.length; index++) changes.push({ kind: 'insertItem', path, index, value: after[index] })
  for (let index = before.length - 1; index >= common; index--) changes.push({ kind: 'remove', path: [...path, index] })
  return changes
}

/** When `after` holds exactly the items of `before` (the same objects, or equal primitives) in another order. */
function permutation(before: readonly unknown[], after: readonly unknown[]): number[] | null {
  if (before.length !== after.length) return null
  const unused = new Map<unknown, number[]>()
  before.forEach((item, index) => {
    const slots = unused.get(item)
    if (slots) slots.push(index)
    else unused.set(item, [index])
  })
  const order: number[] = []
  for (const item of after) {
    const index = unused.get(item)?.shift()
    if (index === undefined) return null
    order.push(index)
  }
  return order
}

/**
 * Applies `changes` to `text` one at a time, each as the smallest edit that makes it. `unique`
 * says no object of the text writes a key twice (the editor edits only such texts), so a value is
 * found at the first occurrence of its key without reading the rest of its object.
 */
export function applyValueChanges(
  text: string,
  changes: readonly ValueChange[],
  positions?: KeyPositions,
  { unique = false }: { unique?: boolean } = {},
): string {
  const style = detectTextStyle(text)
  let current = text
  for (const change of changes) current = applyEdits(current, editsFor(current, change, style, positions, unique))
  return current
}

/** The text of `after`, made from the text of `before` with the fewest changes. */
export function editText(text: string, before: unknown, after: unknown, positions?: KeyPositions): string {
  return applyValueChanges(text, diffValues(before, after), positions)
}

/** True when one of the changes adds an object key, which may land elsewhere than last. */
export const addsKeys = (changes: readonly ValueChange[]) => changes.some((change) => change.kind === 'set' && change.added === true)

class TextEditError extends Error {
  override name = 'TextEditError'
}

function editsFor(text: string, change: ValueChange, style: TextStyle, positions: KeyPositions | undefined, unique: boolean): Edit[] {
  // The edit of a keystroke: a value that exists is replaced, found by scanning tokens, without
  // building a tree of the whole file (which a 6,000-page file would pay on every keystroke).
  if (change.kind === 'set' && change.path.length > 0) {
    const found = locateValue(text, change.path, unique)
    if (found)
      return [
        {
          offset: found.offset,
          length: found.end - found.offset,
          content: render(change.value, style, lineIndentAt(text, found.offset), found.inline),
        },
      ]
  }
  const root = parseTree(text)
  if (!root) throw new TextEditError('The text holds no JSON value to edit.')

  if (change.kind === 'reorder') return reorderEdits(text, root, change)

  const parentPath = change.path.slice(0, -1)
  const last = change.path.at(-1)

  if (change.kind === 'insertItem') {
    const list = findNodeAtLocation(root, [...change.path])
    if (list?.type !== 'array') throw new TextEditError(`No list at ${JSON.stringify(change.path)}.`)
    return insertInto(text, list, change.index, (indent, inline) => render(change.value, style, indent, inline), style)
  }

  if (change.path.length === 0) {
    if (change.kind === 'remove') throw new TextEditError('The whole file cannot be removed.')
    return [{ offset: root.offset, length: root.length, content: render(change.value, style, lineIndentAt(text, root.offset), false) }]
  }

  const container = findNodeAtLocation(root, [...parentPath])
  if (!container) throw new TextEditError(`Nothing at ${JSON.stringify(parentPath)} to change.`)

  if (container.type === 'array') {
    const items = container.children ?? []
    const item = typeof last === 'number' ? items[last] : undefined
    if (!item) throw new TextEditError(`No item ${String(last)} in the list at ${JSON.stringify(parentPath)}.`)
    if (change.kind === 'remove') return [removal(container, items, items.indexOf(item))]
    return [
      {
        offset: item.offset,
        length: item.length,
        content: render(change.value, style, lineIndentAt(text, item.offset), isInline(text, container)),
      },
    ]
  }

  if (container.type !== 'object' || typeof last !== 'string') throw new TextEditError(`No object at ${JSON.stringify(parentPath)}.`)
  const properties = container.children ?? []
  const keys = properties.map((property) => property.children![0]!.value as string)
  // With a key written twice, JSON keeps the last: that is the one the value shows.
  const index = keys.lastIndexOf(last)
  if (change.kind === 'remove') {
    if (index < 0) return []
    positions?.remember(parentPath, last, keys)
    return [removal(container, properties, index)]
  }
  if (index >= 0) {
    const valueNode = properties[index]!.children![1]!
    return [
      {
        offset: valueNode.offset,
        length: valueNode.length,
        content: render(change.value, style, lineIndentAt(text, properties[index]!.offset), isInline(text, container)),
      },
    ]
  }
  const at = positions?.insertionIndex(parentPath, last, keys) ?? keys.length
  return insertInto(
    text,
    container,
    at,
    (indent, inline) => `${JSON.stringify(last)}: ${render(change.value, style, indent, inline)}`,
    style,
  )
}

/** The items of the list that change places, rewritten in their new order; the separators stay where they were. */
function reorderEdits(text: string, root: Node, change: Extract<ValueChange, { kind: 'reorder' }>): Edit[] {
  const list = findNodeAtLocation(root, [...change.path])
  const items = list?.type === 'array' ? (list.children ?? []) : []
  if (items.length !== change.order.length)
    throw new TextEditError(`No list of ${change.order.length} items at ${JSON.stringify(change.path)}.`)
  const first = change.order.findIndex((from, to) => from !== to)
  if (first < 0) return []
  const last = change.order.length - 1 - [...change.order].reverse().findIndex((from, to) => from !== change.order.length - 1 - to)
  let content = ''
  for (let position = first; position <= last; position++) {
    const source = items[change.order[position]!]!
    content += text.slice(source.offset, nodeEnd(source))
    if (position < last) content += text.slice(nodeEnd(items[position]!), items[position + 1]!.offset)
  }
  return [{ offset: items[first]!.offset, length: nodeEnd(items[last]!) - items[first]!.offset, content }]
}

const nodeEnd = (node: Node) => node.offset + node.length

/** A member of an object or list as the changes leave it: one of the text's (`node`), or a new one. */
type Member = { key?: string; node: Node; value?: never } | { key?: string; node?: never; value: unknown }

/**
 * Applies `changes` (as diffValues gives them) with one parse of `text`: every edit is worked out
 * from the same tree and the text is written once, so the cost is one parse however many values
 * change, where applyValueChanges parses once a change. The text is the one applyValueChanges
 * writes (a property test holds the two together), except that a key written twice in one object
 * and then removed is removed in both places.
 */
export function applyValueChangesAtOnce(text: string, changes: readonly ValueChange[], positions?: KeyPositions): string {
  if (changes.length === 0) return text
  const root = parseTree(text)
  if (!root) throw new TextEditError('The text holds no JSON value to edit.')
  const style = detectTextStyle(text)
  const edits: Edit[] = []
  // The objects and lists whose members come or go, with their members as the changes leave them.
  const reshaped = new Map<Node, { path: JsonPath; members: Member[] }>()
  const membersOf = (container: Node, path: JsonPath) => {
    let entry = reshaped.get(container)
    if (!entry) {
      const members = (container.children ?? []).map((node): Member =>
        container.type === 'object' ? { key: node.children![0]!.value as string, node } : { node },
      )
      reshaped.set(container, (entry = { path, members }))
    }
    return entry.members
  }
  const at = (path: JsonPath) => {
    const node = findNodeAtLocation(root, [...path])
    if (!node) throw new TextEditError(`Nothing at ${JSON.stringify(path)} to change.`)
    return node
  }
  for (const change of changes) {
    if (change.kind === 'reorder') {
      edits.push(...reorderEdits(text, root, change))
      continue
    }
    if (change.kind === 'insertItem') {
      const list = at(change.path)
      if (list.type !== 'array') throw new TextEditError(`No list at ${JSON.stringify(change.path)}.`)
      const members = membersOf(list, change.path)
      if (change.index > members.length) throw new TextEditError(`No item ${change.index} in the list at ${JSON.stringify(change.path)}.`)
      members.splice(change.index, 0, { value: change.value })
      continue
    }
    if (change.path.length === 0) {
      if (change.kind === 'remove') throw new TextEditError('The whole file cannot be removed.')
      edits.push({ offset: root.offset, length: root.length, content: render(change.value, style, lineIndentAt(text, root.offset), false) })
      continue
    }
    const parentPath = change.path.slice(0, -1)
    const last = change.path.at(-1)!
    const container = at(parentPath)
    const members = reshaped.get(container)?.members ?? null
    if (container.type === 'array') {
      const items = members ?? (container.children ?? []).map((node): Member => ({ node }))
      const item = typeof last === 'number' ? items[last] : undefined
      if (!item?.node) throw new TextEditError(`No item ${String(last)} in the list at ${JSON.stringify(parentPath)}.`)
      if (change.kind === 'remove') membersOf(container, parentPath).splice(last as number, 1)
      else
        edits.push({
          offset: item.node.offset,
          length: item.node.length,
          content: render(change.value, style, lineIndentAt(text, item.node.offset), isInline(text, container)),
        })
      continue
    }
    if (container.type !== 'object' || typeof last !== 'string') throw new TextEditError(`No object at ${JSON.stringify(parentPath)}.`)
    if (change.kind === 'remove') {
      const current = membersOf(container, parentPath)
      if (!current.some((member) => member.key === last)) continue
      positions?.remember(
        parentPath,
        last,
        current.map((member) => member.key!),
      )
      reshaped.get(container)!.members = current.filter((member) => member.key !== last)
      continue
    }
    const keys = (members ?? (container.children ?? []).map((node): Member => ({ key: node.children![0]!.value as string, node }))).map(
      (member) => member.key!,
    )
    const index = keys.lastIndexOf(last)
    if (index >= 0 && members && !members[index]!.node) {
      members[index] = { key: last, value: change.value }
      continue
    }
    const property = index >= 0 ? (members ? members[index]!.node : container.children![index]) : undefined
    if (property) {
      const valueNode = property.children![1]!
      edits.push({
        offset: valueNode.offset,
        length: valueNode.length,
        content: render(change.value, style, lineIndentAt(text, property.offset), isInline(text, container)),
      })
      continue
    }
    const current = membersOf(container, parentPath)
    current.splice(positions?.insertionIndex(parentPath, last, keys) ?? keys.length, 0, { key: last, value: change.value })
  }
  for (const [container, { members }] of reshaped) edits.push(...memberEdits(text, container, members, style))
  return applyEditsOnce(text, edits)
}

/**
 * The edits that leave `container` holding `members`: members of the text that stay are not
 * touched (other edits may be inside them), removed ones go with the separator before them (the
 * one after them, at the start), and new ones are laid out like their siblings, as insertInto does.
 */
function memberEdits(text: string, container: Node, members: readonly Member[], style: TextStyle): Edit[] {
  const originals = container.children ?? []
  const kept = members.filter((member) => member.node).map((member) => member.node!)
  if (kept.length === originals.length && members.length === originals.length) return []
  const write = (member: Member, indent: string, inline: boolean) => {
    const value = render(member.value, style, indent, inline)
    return member.key === undefined ? value : `${JSON.stringify(member.key)}: ${value}`
  }
  if (kept.length === 0) {
    const inner = { offset: container.offset + 1, length: container.length - 2 }
    if (members.length === 0) return [{ ...inner, content: '' }]
    // An object or list emptied and refilled is laid out as an empty one would be: it follows its parent.
    const parent = container.parent?.type === 'property' ? container.parent.parent : container.parent
    const inline =
      originals.length === 0
        ? isInline(text, container)
        : parent
          ? isInline(text, parent)
          : !/[\r\n]/.test(text.slice(0, container.offset + 1) + text.slice(nodeEnd(container) - 1))
    if (inline) return [{ ...inner, content: members.map((member) => write(member, '', true)).join(', ') }]
    const outer = lineIndentAt(text, container.offset)
    const indent = outer + style.indent
    const lines = members.map((member) => write(member, indent, false)).join(`,${style.eol}${indent}`)
    return [{ ...inner, content: `${style.eol}${indent}${lines}${style.eol}${outer}` }]
  }
  const inline = isInline(text, container)
  const indent = inline ? '' : lineIndentAt(text, kept[0]!.offset)
  const separator = inline ? ' ' : `${style.eol}${indent}`
  const edits: Edit[] = []
  // Members before the first kept one: removed ones and the separators after them go; new ones take their place.
  const firstKept = members.findIndex((member) => member.node)
  const head = members.slice(0, firstKept).map((member) => `${write(member, indent, inline)},${separator}`)
  if (originals[0] !== kept[0] || head.length)
    edits.push({ offset: originals[0]!.offset, length: kept[0]!.offset - originals[0]!.offset, content: head.join('') })
  // Between two kept members, and after the last: removed ones go with the separator before them; new ones follow.
  let member = firstKept
  for (let index = 0; index < kept.length; index++) {
    const from = kept[index]!
    const next = kept[index + 1]
    const removedUpTo = originals[(next ? originals.indexOf(next) : originals.length) - 1]!
    if (removedUpTo !== from) edits.push({ offset: nodeEnd(from), length: nodeEnd(removedUpTo) - nodeEnd(from), content: '' })
    const added: string[] = []
    for (member++; member < members.length && !members[member]!.node; member++) added.push(write(members[member]!, indent, inline))
    if (!added.length) continue
    if (next) edits.push({ offset: next.offset, length: 0, content: added.map((text) => `${text},${separator}`).join('') })
    else edits.push({ offset: nodeEnd(removedUpTo), length: 0, content: added.map((text) => `,${separator}${text}`).join('') })
  }
  return edits
}

/** The text with every edit made (they must not overlap), written once. */
function applyEditsOnce(text: string, edits: Edit[]): string {
  const sorted = edits
    .map((edit, order) => ({ edit, order }))
    .sort((a, b) => a.edit.offset - b.edit.offset || a.edit.length - b.edit.length || a.order - b.order)
  const parts: string[] = []
  let position = 0
  for (const { edit } of sorted) {
    if (edit.offset < position) throw new TextEditError('Two edits of the text overlap.')
    parts.push(text.slice(position, edit.offset), edit.content)
    position = edit.offset + edit.length
  }
  parts.push(text.slice(position))
  return parts.join('')
}

/**
 * Where the value at `path` is in `text`, and whether the object or list holding it is written on
 * one line; null when there is no such value. Scans tokens only. A key written twice in one object
 * means its last occurrence, as JSON.parse reads it.
 */
function locateValue(text: string, path: JsonPath, unique: boolean): { offset: number; end: number; inline: boolean } | null {
  const scanner = createScanner(text, true)
  scanner.scan()
  let found: { offset: number; end: number; inline: boolean } | null = null
  // Descends along the path; returns false when the text does not hold it (or is not JSON).
  const descend = (depth: number, inline: boolean): boolean => {
    const segment = path[depth]
    if (segment === undefined) {
      const offset = scanner.getTokenOffset()
      if (!skipValue(scanner)) return false
      found = { offset, end: lastEnd, inline }
      return true
    }
    const open = scanner.getToken()
    const openOffset = scanner.getTokenOffset()
    if (open === SyntaxKind.OpenBraceToken && typeof segment === 'string') {
      scanner.scan()
      const childInline = !/[\r\n]/.test(text.slice(openOffset, scanner.getTokenOffset()))
      // The whole object is read first: a later duplicate of the key is the one JSON keeps.
      let match = -1
      while (scanner.getToken() !== SyntaxKind.CloseBraceToken) {
        if (scanner.getToken() !== SyntaxKind.StringLiteral) return false
        const key = scanner.getTokenValue()
        if (scanner.scan() !== SyntaxKind.ColonToken) return false
        scanner.scan()
        if (key === segment) {
          match = scanner.getTokenOffset()
          if (unique) break
        }
        if (!skipValue(scanner)) return false
        if (scanner.getToken() === SyntaxKind.CommaToken) scanner.scan()
        else if (scanner.getToken() !== SyntaxKind.CloseBraceToken) return false
      }
      if (match < 0) return false
      scanner.setPosition(match)
      scanner.scan()
      return descend(depth + 1, childInline)
    }
    if (open === SyntaxKind.OpenBracketToken && typeof segment === 'number') {
      scanner.scan()
      const childInline = !/[\r\n]/.test(text.slice(openOffset, scanner.getTokenOffset()))
      for (let index = 0; scanner.getToken() !== SyntaxKind.CloseBracketToken; index++) {
        if (index === segment) return descend(depth + 1, childInline)
        if (!skipValue(scanner)) return false
        if (scanner.getToken() === SyntaxKind.CommaToken) scanner.scan()
        else if (scanner.getToken() !== SyntaxKind.CloseBracketToken) return false
      }
      return false
    }
    return false
  }
  let lastEnd = 0
  // Skips the value starting at the current token; leaves the scanner on the token after it.
  const skipValue = (tokens: JSONScanner): boolean => {
    let nesting = 0
    do {
      const token = tokens.getToken()
      if (token === SyntaxKind.EOF || tokens.getTokenError() !== 0) return false
      if (token === SyntaxKind.OpenBraceToken || token === SyntaxKind.OpenBracketToken) nesting++
      else if (token === SyntaxKind.CloseBraceToken || token === SyntaxKind.CloseBracketToken) nesting--
      lastEnd = tokens.getTokenOffset() + tokens.getTokenLength()
      tokens.scan()
    } while (nesting > 0)
    return nesting === 0
  }
  return descend(0, false) ? found : null
}

/** Removes one member with the comma and the line break that belonged to it. */
function removal(container: Node, members: Node[], index: number): Edit {
  const member = members[index]!
  const previous = members[index - 1]
  const next = members[index + 1]
  if (previous)
    return {
      offset: previous.offset + previous.length,
      length: member.offset + member.length - (previous.offset + previous.length),
      content: '',
    }
  if (next) return { offset: member.offset, length: next.offset - member.offset, content: '' }
  // The only member: the container becomes empty, {} or [].
  return { offset: container.offset + 1, length: container.length - 2, content: '' }
}

/** Inserts a member written by `write` at `index`, laid out like its siblings (one per line, or all on one line). */
function insertInto(
  text: string,
  container: Node,
  index: number,
  write: (indent: string, inline: boolean) => string,
  style: TextStyle,
): Edit[] {
  const members = container.children ?? []
  const inline = isInline(text, container)
  if (members.length === 0) {
    const inner = { offset: container.offset + 1, length: container.length - 2 }
    if (inline) return [{ ...inner, content: write('', true) }]
    const outer = lineIndentAt(text, container.offset)
    const indent = outer + style.indent
    return [{ ...inner, content: `${style.eol}${indent}${write(indent, false)}${style.eol}${outer}` }]
  }
  const indent = inline ? '' : lineIndentAt(text, members[0]!.offset)
  const separator = inline ? ' ' : `${style.eol}${indent}`
  const member = write(indent, inline)
  if (index < members.length) return [{ offset: members[index]!.offset, length: 0, content: `${member},${separator}` }]
  const lastMember = members.at(-1)!
  return [{ offset: lastMember.offset + lastMember.length, length: 0, content: `,${separator}${member}` }]
}

/**
 * Whether a container is written on one line (`["a", "b"]`). An empty one follows its parent, so
 * a page added to `"pages": []` in a one-line group stays on that line.
 */
function isInline(text: string, container: Node): boolean {
  const first = container.children?.[0]
  if (first) return !/[\r\n]/.test(text.slice(container.offset, first.offset))
  if (/[\r\n]/.test(text.slice(container.offset, container.offset + container.length))) return false
  const parent = container.parent?.type === 'property' ? container.parent.parent : container.parent
  return parent ? isInline(text, parent) : !/[\r\n]/.test(text.slice(0, container.offset + 1) + text.slice(nodeEnd(container) - 1))
}

/** The whitespace that starts the line `offset` is on. */
function lineIndentAt(text: string, offset: number): string {
  const lineStart = Math.max(text.lastIndexOf('\n', offset - 1) + 1, 0)
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0]
}

/** A value as JSON text: on one line, or laid out with the file's indentation from `indent` on. */
function render(value: unknown, style: TextStyle, indent: string, inline: boolean): string {
  if (inline) return renderInline(value)
  const json = JSON.stringify(value, null, style.indent)
  if (json === undefined) throw new TextEditError('Only JSON values can be written.')
  return json.replace(/\n/g, `${style.eol}${indent}`)
}

function renderInline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(renderInline).join(', ')}]`
  if (isPlainObject(value)) {
    return `{${Object.entries(value)
      .filter(([, child]) => child !== undefined)
      .map(([key, child]) => `${JSON.stringify(key)}: ${renderInline(child)}`)
      .join(', ')}}`
  }
  const json = JSON.stringify(value)
  if (json === undefined) throw new TextEditError('Only JSON values can be written.')
  return json
}
