import { temporal } from 'zundo'
import { create, useStore } from 'zustand'
import type { FileVersion, SavedSiteFile } from '../../../../src-shared/ipc/site-calls'
import { formatProblemPath, serializeSiteConfig } from '../../../../src-shared/site-config/format'
import { parseJsonText, type JsonSyntaxError } from '../../../../src-shared/site-config/json-text'
import { setIn, type Path } from './json-path'
import { problemIndexFor, type ProblemIndex } from './problem-index'

/** The file behind what is being edited. */
export interface OpenDocument {
  documentId: string
  /** Null for an untitled document. */
  path: string | null
  /** The text as last read from or written to disk (the template for an untitled one): differing from it is "unsaved". */
  baselineText: string
  /** What the file was at that moment; a save refuses when the disk no longer matches it. */
  version: FileVersion | null
}

/**
 * What undo and redo move through: the text (what the raw view shows and what is saved) and the
 * value last parsed from it (what the form shows). While the text has a syntax error the value
 * stays the last one that parsed, and the form waits.
 */
export interface EditorContent {
  text: string
  value: unknown
  syntaxError: JsonSyntaxError | null
}

export interface EditorState extends EditorContent {
  document: OpenDocument | null
}

const EMPTY: EditorState = { document: null, text: '', value: undefined, syntaxError: null }

/** Keystrokes into one field closer together than this are one undo step. */
const TYPING_BURST_MS = 1000
const RAW_TEXT_BURST = 'raw-text'

let currentBurst: { key: string; at: number } | null = null
let nextChangeBurst: string | null = null

/** Whether this change continues the typing recorded before it, and so belongs to its undo step. */
function continuesTypingBurst(): boolean {
  const key = nextChangeBurst
  const now = performance.now()
  const continues = key !== null && currentBurst?.key === key && now - currentBurst.at < TYPING_BURST_MS
  currentBurst = key === null ? null : { key, at: now }
  return continues
}

// Kept outside the screen, so moving to another section and back keeps the document and its history.
export const useEditor = create<EditorState>()(
  temporal(() => EMPTY, {
    partialize: ({ text, value, syntaxError }): EditorContent => ({ text, value, syntaxError }),
    // zundo records a change unless this says "same": opening or saving (which change only
    // `document`) is no step, and neither is the next keystroke of a word being typed.
    equality: (past, current) => past.text === current.text || continuesTypingBurst(),
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

function commit(content: EditorContent, burst: string | null) {
  nextChangeBurst = burst
  try {
    useEditor.setState(content)
  } finally {
    nextChangeBurst = null
  }
}

const contentOf = (text: string, fallbackValue: unknown): EditorContent => {
  const parsed = parseJsonText(text)
  return parsed.ok ? { text, value: parsed.value, syntaxError: null } : { text, value: fallbackValue, syntaxError: parsed.error }
}

export function loadDocument(document: OpenDocument, text = document.baselineText): void {
  setWithoutHistory({ document, ...contentOf(text, undefined) })
  history().clear()
  currentBurst = null
}

export function closeDocument(): void {
  setWithoutHistory(EMPTY)
  history().clear()
}

/**
 * A change made in the form. `burst` names what is being typed into, so a word typed into one
 * field is one undo step; null makes the change a step of its own (add, remove, move).
 */
export function editValue(update: (value: unknown) => unknown, burst: string | null = null): void {
  const { document, value, syntaxError } = useEditor.getState()
  // The form is read-only while the text does not parse: writing it would discard the text.
  if (!document || syntaxError) return
  const next = update(value)
  if (next === value) return
  commit({ value: next, text: serializeSiteConfig(next), syntaxError: null }, burst)
}

export const setField = (path: Path, next: unknown) => editValue((value) => setIn(value, path, next), formatProblemPath(path))

/** A change made in the raw JSON view. */
export function replaceText(text: string, burst: string | null = RAW_TEXT_BURST): void {
  const { document, text: current, value } = useEditor.getState()
  if (!document || text === current) return
  commit(contentOf(text, value), burst)
}

export function updateDocument(changes: Partial<OpenDocument>): void {
  const { document } = useEditor.getState()
  if (document) setWithoutHistory({ document: { ...document, ...changes } })
}

/**
 * Records a save. The file may hold the sent text reformatted (main writes 2-space JSON): when
 * nothing was typed meanwhile, the editor takes that text too; otherwise the newer typing stays,
 * unsaved.
 */
export function markSaved(saved: SavedSiteFile, sentText: string): void {
  const state = useEditor.getState()
  const document: OpenDocument = { documentId: saved.documentId, path: saved.path, baselineText: saved.text, version: saved.version }
  if (state.text === sentText && saved.text !== sentText) setWithoutHistory({ document, ...contentOf(saved.text, state.value) })
  else setWithoutHistory({ document })
}

export function undo(): void {
  currentBurst = null
  history().undo()
}

export function redo(): void {
  currentBurst = null
  history().redo()
}

export const isUnsaved = (state: EditorState) => state.document !== null && state.text !== state.document.baselineText

export const useIsUnsaved = () => useEditor(isUnsaved)
export const useCanUndo = () => useStore(useEditor.temporal, (state) => state.pastStates.length > 0)
export const useCanRedo = () => useStore(useEditor.temporal, (state) => state.futureStates.length > 0)

export const selectProblemIndex = (state: EditorState): ProblemIndex => problemIndexFor(state.value, state.syntaxError)
export const useProblemIndex = () => useEditor(selectProblemIndex)
