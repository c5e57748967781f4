import { create } from 'zustand'

/**
 * "History" from a group of the catalog (Groups → Activity): the activity log opens filtered to
 * that group's calls through that profile. Features never import each other; they meet here, and
 * the app opens the screen that takes it.
 */
export interface HistoryRequest {
  profileId: string
  groupId: string
}

interface HistoryHandoffState {
  pending: HistoryRequest | null
  showHistory(request: HistoryRequest): void
  /** The request, once: the screen that takes it clears it. */
  take(): HistoryRequest | null
}

export const useHistoryHandoff = create<HistoryHandoffState>((set, get) => ({
  pending: null,
  showHistory: (pending) => set({ pending }),
  take() {
    const { pending } = get()
    if (pending) set({ pending: null })
    return pending
  },
}))
