import { create } from 'zustand'
import type { Selection } from './site-model'

// What the site preview remembers while the editor is open: the reader's place in the site (the
// switchers' choices, the open page), the appearance shown, and the operator's leave for
// pictures from the web. What belongs to a document starts afresh with another document.

interface PreviewState {
  selection: Selection
  current: string | null
  mode: 'light' | 'dark'
  full: boolean
  problem: string | null
  /** The operator's leave to show pictures from the web, for the open document only. */
  webPictures: boolean
  /** The pictures from the web the frame's open page shows. */
  pagePictures: { page: string; addresses: string[] } | null
}

/** What belongs to one document: another document starts without it (and without leave for web pictures). */
export const DOCUMENT_STATE = { selection: {}, current: null, problem: null, webPictures: false, pagePictures: null } as const

export const usePreview = create<PreviewState>(() => ({ ...DOCUMENT_STATE, mode: 'light', full: false }))
