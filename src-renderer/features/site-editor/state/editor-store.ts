import { temporal } from 'zundo'
import { create, useStore } from 'zustand'
import type { FileVersion, SavedSiteFile } from '../../../../src-shared/ipc/site-calls'
import { type ConfigFormat, detectConfigFormat } from '../../../../src-shared/site-config/config-format'
import { type DuplicateKey, findDuplicateKeys } from '../../../../src-shared/site-config/duplicate-keys'
import {
  type JsonSyntaxError,
  type JsonTextScan,
  parseJsonText,
  parseScannedJsonText,
  rescanJsonText,
  scanJsonText,
  type TextChange,
} from '../../../../src-shared/site-config/json-text'
import { formatProblemPath } from '../../../../src-shared/site-config/problem-path'
import type { RuleSet } from '../../../../src-shared/site-config/rule-sets'
import { addsKeys, applyValueChanges, diffValues, KeyPositions, type ValueChange } from '../../../../src-shared/site-config/text-edits'
import { type Path, setIn } from './json-path'
import { createProblemIndexer, type DocsContext, type ProblemIndex, type ProblemIndexer } from './problem-index'
import { refBaseline, refFilesFor } from './ref-store'
import { StringSpans, undoesChange } from './typed-edits'

/** The file behind what is being edited. */
export interface OpenDocument {
  documentId: string
  /** Null for an untitled document. */
  path: string | null
  /** The text as last read from or written to disk (the template for an untitled one): differing from it is "unsaved". */
  baselineText: string
  /** What the file was at that moment; a save refuses when the disk no longer matches it. */
  version: FileVersion | null
  /** Whether the file starts with a byte order mark, which main writes back. */
  byteOrderMark: boolean
  /** The rules the document is checked against. */
  rules: RuleSet
}

/**
 * What undo and redo move through: the text (the document: what the raw view shows and what is
 * saved, byte for byte) and the value last parsed from it (what the form shows). While the text
 * has a syntax error, or a key written twice (which the form could not tell apart), the value
 * stays the last one that parsed and the form waits.
 */
export interface EditorContent {
  text: string
  value: unknown
  syntaxError: JsonSyntaxError | null
  duplicates: readonly DuplicateKey[]
  /** docs.json `$ref` files edited in the editor, by ref: their text now (the rest are as loaded, in ref-store.ts). */
  refTexts: Readonly<Record<string, string>>
}

export interface EditorState extends EditorContent {
  document: OpenDocument | null
  docs: DocsContext | null
  /** Why the docs folder could not be indexed: a problem of the folder part, as in the CLI. */
  docsFailure: string | null
  /** Counts the $ref files' loads (ref-store.ts), so what is worked out from them is worked out again. */
  refFilesRead: number
  /** The field being typed into and when its last key came: the next key there joins its undo step. */
  typing: Typing | null
  /** The open document's problems, kept between its keystrokes; a document loaded gets its own. */
  problems: ProblemIndexer
}

/** What is being typed into (a field's path, or the raw text) and when its last change came. */
interface Typing {
  key: string
  at: number
}

const NO_DUPLICATES: readonly DuplicateKey[] = []
const NO_REF_EDITS: Readonly<Record<string, string>> = {}
const EMPTY: EditorState = {
  document: null,
  docs: null,
  docsFailure: null,
  text: '',
  value: undefined,
  syntaxError: null,
  duplicates: NO_DUPLICATES,
  refTexts: NO_REF_EDITS,
  refFilesRead: 0,
  typing: null,
  problems: createProblemIndexer(),
}

/** Keystrokes into one field closer together than this are one undo step. */
const TYPING_BURST_MS = 1000
const RAW_TEXT_BURST = 'raw-text'

/**
 * How an edit enters the undo history, as the edit says it: a step of its own, or the next key
 * of the typing before it (same field, within TYPING_BURST_MS), which stays in that step.
 */
export type UndoEntry = 'step' | 'continues-typing'

export function undoEntryOf(burst: string | null, typing: Typing | null, now: number): UndoEntry {
  return burst !== null && typing?.key === burst && now - typing.at < TYPING_BURST_MS ? 'continues-typing' : 'step'
}

// Kept outside the screen, so moving to another section and back keeps the document and its history.
export const useEditor = create<EditorState>()(
  temporal(() => EMPTY, {
    partialize: ({ text, value, syntaxError, duplicates, refTexts }): EditorContent => ({ text, value, syntaxError, duplicates, refTexts }),
    // zundo records a change of the texts: opening or saving (which change only `document`) is no
    // step. A key that continues typing is set without history (commit).
    equality: (past, current) => past.text === current.text && past.refTexts === current.refTexts,
    limit: 300,
  }),
)

const history = () => useEditor.temporal.getState()

/** Sets state without an undo step: loading, closing, or a save's reformatting. */
function setWithoutHistory(state: Partial<EditorState>) {
  history().pause()
  useEditor.setState(state)
  history().resume()
}

/** Every edit of the texts: an undo step, or part of the typing's step (undoEntryOf). */
function commit(content: Partial<EditorContent>, burst: string | null) {
  const now = performance.now()
  const next = { ...content, typing: burst === null ? null : { key: burst, at: now } }
  if (undoEntryOf(burst, useEditor.getState().typing, now) === 'continues-typing') setWithoutHistory(next)
  else useEditor.setState(next)
}

/**
 * The scan of the text last taken in (json-text.ts), so the next key's text is scanned from it: a key
 * that breaks a 2.3 MB text at its end scans the text's last few kilobytes, where JSON.parse, failing,
 * a scan for the place of its failure and the count of the lines before it read it all (about 35 ms in Node).
 */
let scanned: JsonTextScan | null = null

/** The scan of `text`: the one kept when it is this text's, else a whole one. */
const scanOfText = (text: string) => (scanned?.text === text ? scanned : scanJsonText(text))

/** Keeps `scanned` the scan of a text taken in without a parse, when it was the scan of the text before it (a few kilobytes read). */
function followScan(text: string, before: string, change: TextChange): void {
  scanned = scanned?.text === before ? rescanJsonText(scanned, text, change) : null
}

/** The content of a scanned text, whose scan is kept for the next key's. */
const contentOf = (scan: JsonTextScan, fallbackValue: unknown): Omit<EditorContent, 'refTexts'> => {
  scanned = scan
  const { text } = scan
  const parsed = parseScannedJsonText(scan)
  if (!parsed.ok) return { text, value: fallbackValue, syntaxError: parsed.error, duplicates: NO_DUPLICATES }
  const duplicates = findDuplicateKeys(text)
  return { text, value: parsed.value, syntaxError: null, duplicates: duplicates.length ? duplicates : NO_DUPLICATES }
}

/** Where the open document's cleared keys stood, so typing them again puts them back there. */
let keyPositions = new KeyPositions()

/** Typing kept aside for a document being replaced: it is not parsed into the next one. */
function dropTypedText() {
  typed?.cancel()
  typed = null
  spans = null
  beforeBreak = null
  scanned = null
}

export function loadDocument(document: OpenDocument, text = document.baselineText): void {
  dropTypedText()
  setWithoutHistory({
    document,
    docs: null,
    docsFailure: null,
    ...contentOf(scanJsonText(text), undefined),
    refTexts: NO_REF_EDITS,
    typing: null,
    problems: createProblemIndexer(),
  })
  history().clear()
  keyPositions = new KeyPositions()
}

export function closeDocument(): void {
  dropTypedText()
  setWithoutHistory({ ...EMPTY, problems: createProblemIndexer() })
  history().clear()
}

/** Whether the form may change the document: not while the text does not parse, nor while a key is written twice. */
export const formCanEdit = (state: EditorState) => state.document !== null && state.syntaxError === null && state.duplicates.length === 0

/**
 * Changes the document through the one format-preserving path: each change becomes the smallest
 * text edit (see text-edits.ts), so the file keeps its layout. `burst` names what is being typed
 * into, so a word typed into one field is one undo step; null makes the change a step of its own.
 * Any feature that edits the document (the form, an action that fills several fields) comes here.
 */
export function editDocument(changes: readonly ValueChange[], burst: string | null = null, nextValue?: unknown): void {
  settleTypedText()
  const state = useEditor.getState()
  if (!formCanEdit(state) || changes.length === 0) return
  // formCanEdit: no key is written twice, so each value is found at its key's first occurrence.
  const text = applyValueChanges(state.text, changes, keyPositions, { unique: true })
  // A key added back where it stood is not last in the object: the value is read from the text
  // then, so the two agree on the order. Otherwise the caller's value keeps its shared parts.
  const value = nextValue === undefined || addsKeys(changes) ? valueAfterEdits(changes, text, state.value) : nextValue
  commit({ text, value, syntaxError: null, duplicates: NO_DUPLICATES }, burst)
}

/**
 * The value of a text the form has just edited: parsed without a duplicate-key scan (formCanEdit: the file had none, and
 * an edit writes each key once), with every part the edit did not touch taken from `previous`, as replaceText does.
 * Parsed alone, every node would be new: a group renamed in a 23,000-page docs.json had the checks of every navigation
 * item redone and its 23,000 problems indexed again, on every key (about 400 ms).
 */
function editedValue(text: string, previous: unknown): unknown {
  const parsed = parseJsonText(text)
  return parsed.ok ? shareUnchanged(previous, parsed.value) : previous
}

const isScalar = (value: unknown) => typeof value === 'string' || typeof value === 'boolean' || value === null
type SetChange = Extract<ValueChange, { kind: 'set' }>
/** A string, true, false or null put in place of a value: the text reads it back as itself. */
const setsScalarInPlace = (change: ValueChange): change is SetChange => change.kind === 'set' && !change.added && isScalar(change.value)

/**
 * The value of a text the form's `changes` have just edited. A string, true, false or null put in
 * place of a value reads back from the text as itself, so the value follows without reading the
 * text (a key in a group's name of a 2.3 MB docs.json: a JSON.parse and the sharing of its parts,
 * about 25 ms). Anything else is read back from the text (editedValue).
 */
function valueAfterEdits(changes: readonly ValueChange[], text: string, previous: unknown): unknown {
  if (!changes.every(setsScalarInPlace)) return editedValue(text, previous)
  return changes.reduce((value, change) => setIn(value, change.path, change.value), previous)
}

/**
 * Changes in several files at once, as one undo step: the docs.json's own (`file` null) and its
 * `$ref` files' (by ref, applied to `refText(ref)`, their text now). Each is the smallest edit of
 * its file, as editDocument makes them.
 */
export function editFiles(
  edits: ReadonlyMap<string | null, readonly ValueChange[]>,
  refText: (ref: string) => string | undefined,
  burst: string | null = null,
): void {
  settleTypedText()
  const state = useEditor.getState()
  if (!formCanEdit(state) || edits.size === 0) return
  let main: Omit<EditorContent, 'refTexts'> | null = null
  let refTexts = state.refTexts
  for (const [file, changes] of edits) {
    if (!changes.length) continue
    if (file === null) {
      const text = applyValueChanges(state.text, changes, keyPositions, { unique: true })
      main = { text, value: valueAfterEdits(changes, text, state.value), syntaxError: null, duplicates: NO_DUPLICATES }
    } else {
      const current = refText(file)
      if (current === undefined) continue
      refTexts = { ...refTexts, [file]: applyValueChanges(current, changes) }
    }
  }
  commit({ ...(main ?? {}), refTexts }, burst)
}

/**
 * A change made in the form, as a new value. The difference from the current value is applied
 * to the text with editDocument.
 */
export function editValue(update: (value: unknown) => unknown, burst: string | null = null): void {
  settleTypedText()
  const state = useEditor.getState()
  if (!formCanEdit(state)) return
  const next = update(state.value)
  if (next === state.value) return
  editDocument(diffValues(state.value, next), burst, next)
}

export const setField = (path: Path, next: unknown) => editValue((value) => setIn(value, path, next), formatProblemPath(path))

/**
 * Past this length a keystroke in the raw view is not parsed on the key. A 2.3 MB docs.json costs a
 * JSON.parse, a duplicate-key scan and the checks of what changed on every key: its text is kept
 * aside and taken in before the next frame (or sooner, when anything reads or changes the document:
 * settleTypedText), so keys that come faster than frames are taken in together. Most keys are taken
 * in without a parse (typedContent): inside a string value, in the whitespace between tokens, or back
 * to the text the last syntax error broke; a key that breaks the text is told from a scan of the
 * part it changed (replaceText).
 */
export const LARGE_TEXT_LENGTH = 200_000

/** How long typed text waits for a frame that does not come (a hidden window draws none) before it is taken in anyway. */
export const NO_FRAME_MS = 100

/**
 * Runs `task` before the next frame is drawn, so a key's Problems are drawn in the frame that shows
 * the key: a timer's task ran after that frame, and each key of a large text took two. Returns what
 * cancels it.
 */
function beforeNextFrame(task: () => void): () => void {
  const frame = globalThis.requestAnimationFrame?.(task)
  const timer = setTimeout(task, NO_FRAME_MS)
  return () => {
    if (frame !== undefined) cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}

let typed: { text: string; changes: TextChange[] | null; cancel: () => void } | null = null
/** Where the open document's strings are, while the raw view types into a large text (typed-edits.ts). */
let spans: StringSpans | null = null

/**
 * A keystroke in the raw JSON view: a small text at once (replaceText), a large one before the next
 * frame. `changes` are Monaco's for this key, one change a key (undefined when the editor did not
 * say, or said several: the text is then parsed whole).
 *
 * Returns the text the store keeps for `text`: `text` itself, or the very string it held before a
 * syntax error when the key undoes the one that made it. The editor holds that string from then on,
 * so the two know the text by identity; equal strings apart are compared whole, 2.3 MB in the
 * largest real docs.json.
 */
export function typeText(text: string, changes?: readonly TextChange[]): string {
  if (text.length < LARGE_TEXT_LENGTH) {
    settleTypedText()
    replaceText(text)
    return text
  }
  const kept = (typed ? null : textBeforeUndoneBreak(useEditor.getState().text, changes)) ?? text
  // The keys since the text was last taken in, each told; once one is not, the text is parsed whole.
  const told = changes?.length === 1 ? changes : null
  const pending = told && (typed ? typed.changes && [...typed.changes, ...told] : [...told])
  typed?.cancel()
  typed = { text: kept, changes: pending, cancel: beforeNextFrame(settleTypedText) }
  return kept
}

/** Takes in the raw view's text typed and not yet taken in: what saves, undoes, edits or asks "unsaved?" calls first. */
export function settleTypedText(): void {
  if (!typed) return
  const { text, changes, cancel } = typed
  cancel()
  typed = null
  const content = changes && typedContent(text, changes)
  if (content) commit(content, RAW_TEXT_BURST)
  else replaceText(text, RAW_TEXT_BURST, changes)
}

/** The content after keys typed into a large text, worked out from what each key did (typed-edits.ts); null when one needs a parse. */
function typedContent(next: string, changes: readonly TextChange[]): Omit<EditorContent, 'refTexts'> | null {
  const state = useEditor.getState()
  if (state.syntaxError || state.duplicates.length) return null
  if (!spans?.describes(state.text)) spans = StringSpans.of(state.text)
  let { text, value } = state
  for (const [index, change] of changes.entries()) {
    const after =
      index === changes.length - 1 ? next : text.slice(0, change.offset) + change.inserted + text.slice(change.offset + change.removed)
    if (after.length !== text.length + change.inserted.length - change.removed) return null
    const edit = spans.edit(change, after)
    if (!edit) return null
    if (edit.kind === 'string') value = setIn(value, edit.path, edit.value)
    followScan(after, text, change)
    text = after
  }
  return { text, value, syntaxError: null, duplicates: NO_DUPLICATES }
}

/**
 * The text and what it parsed to just before a change broke its syntax: typing back to it needs no
 * parse. With them, the text the break made and the one change that made it, when one did (typeText).
 */
let beforeBreak: {
  text: string
  value: unknown
  duplicates: readonly DuplicateKey[]
  /** Its scan, when one was at hand: taken up again when the text comes back. */
  scan: JsonTextScan | null
  broken: string
  brokenBy: TextChange | null
} | null = null

/** The one change of a key, when the editor told one (several, or none told: null). */
const onlyChange = (changes: readonly TextChange[] | null | undefined) => (changes?.length === 1 ? changes[0]! : null)

/**
 * The text before the break, when `changes`, made to `current`, are one change that undoes the one
 * that broke it; else null. The changes are compared first: `current` is compared with the broken
 * text only for a key that undoes the break, as two texts of one length are read up to where they differ.
 */
function textBeforeUndoneBreak(current: string, changes: readonly TextChange[] | undefined): string | null {
  const change = onlyChange(changes)
  if (!change || !beforeBreak?.brokenBy || !undoesChange(change, beforeBreak.brokenBy, beforeBreak.text)) return null
  return current === beforeBreak.broken ? beforeBreak.text : null
}

/** A change made in the raw JSON view; `changes` are the editor's for it, when it told them (typeText). */
export function replaceText(text: string, burst: string | null = RAW_TEXT_BURST, changes: readonly TextChange[] | null = null): void {
  settleTypedText()
  const { document, text: current, value, syntaxError, duplicates } = useEditor.getState()
  if (!document || text === current) return
  // A value is its text's: the text before the break gives the value it gave then. The text given
  // is committed, not its equal kept aside: the raw view holds this very string, and knows its own
  // text by identity where an equal one would be compared character by character.
  if (syntaxError && beforeBreak?.text === text) {
    scanned = beforeBreak.scan
    commit({ text, value: beforeBreak.value, duplicates: beforeBreak.duplicates, syntaxError: null }, burst)
    return
  }
  // One change told: the text is scanned from the scan of the text before it (kept from its own key,
  // or made whole once, after an edit in the form), and the next keys' from this one's.
  const change = onlyChange(changes)
  const scanBefore = change ? scanOfText(current) : null
  const content = contentOf(scanBefore && change ? rescanJsonText(scanBefore, text, change) : scanJsonText(text), value)
  if (!content.syntaxError) beforeBreak = null
  else if (!syntaxError) beforeBreak = { text: current, value, duplicates, scan: scanBefore, broken: text, brokenBy: change }
  // A keystroke in the text changes one value: the rest keeps its identity, so the checks and the
  // form's rows work out what changed only, as after an edit in the form.
  commit(content.syntaxError ? content : { ...content, value: shareUnchanged(value, content.value) }, burst)
}

/** `next`, with every part equal to the same part of `previous` (same keys in the same order) taken from `previous`. */
export function shareUnchanged(previous: unknown, next: unknown): unknown {
  if (previous === next || typeof previous !== 'object' || typeof next !== 'object' || previous === null || next === null) return next
  if (Array.isArray(previous) !== Array.isArray(next)) return next
  if (Array.isArray(previous)) {
    const items = next as unknown[]
    let same = previous.length === items.length
    const shared = items.map((item, index) => {
      const kept = shareUnchanged(previous[index], item)
      if (kept !== previous[index]) same = false
      return kept
    })
    return same ? previous : shared
  }
  const before = previous as Record<string, unknown>
  const after = next as Record<string, unknown>
  const keys = Object.keys(after)
  const beforeKeys = Object.keys(before)
  let same = keys.length === beforeKeys.length && keys.every((key, index) => beforeKeys[index] === key)
  const shared: Record<string, unknown> = {}
  for (const key of keys) {
    const kept = Object.hasOwn(before, key) ? shareUnchanged(before[key], after[key]) : after[key]
    if (kept !== before[key]) same = false
    // Defined, not assigned: a key named __proto__ in the file stays a key.
    Object.defineProperty(shared, key, { value: kept, enumerable: true, writable: true, configurable: true })
  }
  return same ? previous : shared
}

export const setDocs = (docs: DocsContext | null) => setWithoutHistory({ docs, docsFailure: null })
/** The docs folder could not be indexed: said once in the Problems, as the CLI says it. */
export const setDocsFailure = (docsFailure: string | null) => setWithoutHistory({ docs: null, docsFailure })

/** Says the $ref files changed (read, or being read): the Problems and the navigation read them again. */
export const noteRefFilesRead = () => setWithoutHistory({ refFilesRead: useEditor.getState().refFilesRead + 1 })

export function updateDocument(changes: Partial<OpenDocument>): void {
  const { document } = useEditor.getState()
  if (document) setWithoutHistory({ document: { ...document, ...changes } })
}

/** Records a save: main wrote the text as sent, so typing done meanwhile stays unsaved. */
export function markSaved(saved: SavedSiteFile): void {
  const { document } = useEditor.getState()
  if (!document) return
  setWithoutHistory({
    document: { ...document, documentId: saved.documentId, path: saved.path, baselineText: saved.text, version: saved.version },
  })
}

/** Undoes the last step; the next key typed starts a step of its own. */
export function undo(): void {
  settleTypedText()
  setWithoutHistory({ typing: null })
  history().undo()
}

export function redo(): void {
  settleTypedText()
  setWithoutHistory({ typing: null })
  history().redo()
}

/** Unsaved: the text differs from the file, or a `$ref` file was edited (markSaved clears those edits once written). */
export const isUnsaved = (state: EditorState) =>
  state.document !== null &&
  (textDiffers(state.text, state.document.baselineText) || Object.entries(state.refTexts).some(([ref, text]) => text !== refBaseline(ref)))

/**
 * `text !== baseline`, kept for the very strings it compared. isUnsaved is asked several times a
 * change (the toolbar's subscription, React's checks of it, the draft's autosave), and a text back
 * to its saved one is compared whole, 2.3 MB in the largest real docs.json. The same strings are
 * told at once; a new text differs from the kept one in length, or near its edit, so telling them
 * apart is quick too.
 */
function textDiffers(text: string, baseline: string): boolean {
  if (lastCompared?.text !== text || lastCompared.baseline !== baseline) lastCompared = { text, baseline, differs: text !== baseline }
  return lastCompared.differs
}
let lastCompared: { text: string; baseline: string; differs: boolean } | null = null

/** Records the `$ref` files a save wrote: their edits are now their baselines (ref-store.ts keeps those). */
export function markRefsSaved(saved: readonly string[]): void {
  const { refTexts } = useEditor.getState()
  const kept = Object.fromEntries(Object.entries(refTexts).filter(([ref]) => !saved.includes(ref)))
  setWithoutHistory({ refTexts: Object.keys(kept).length ? kept : NO_REF_EDITS })
  // Undoing to before the save would bring back texts now written: the history starts again here for them.
  history().clear()
}

export const useIsUnsaved = () => useEditor(isUnsaved)
export const useCanUndo = () => useStore(useEditor.temporal, (state) => state.pastStates.length > 0)
export const useCanRedo = () => useStore(useEditor.temporal, (state) => state.futureStates.length > 0)

export const selectProblemIndex = (state: EditorState): ProblemIndex =>
  state.problems.indexFor({
    value: state.value,
    syntaxError: state.syntaxError,
    duplicates: state.duplicates,
    rules: state.document?.rules ?? 'spec',
    docs: state.docs,
    docsFailure: state.docsFailure,
    path: state.document?.path ?? null,
    refs: refFilesFor(state.refTexts),
  })

/** The file's format, as its $schema, name or shape says (config-format.ts). */
export const selectFormat = (state: EditorState): ConfigFormat => detectConfigFormat(state.value, state.document?.path ?? null)
export const useFormat = () => useEditor(selectFormat)
export const useProblemIndex = () => useEditor(selectProblemIndex)
