import { create } from 'zustand'
import type { GetOrCreateRequest } from '../../src-shared/user-api/schemas'

/**
 * A past call handed from one screen to another (Activity → Groups): "Open in form" fills the
 * form with its request, "Run again" also sends it (a rotation only asks again: it is never
 * re-run without a fresh confirmation and the group's current token). Features never import
 * each other; they meet here, and the app opens the screen that takes it.
 */
export type CallHandoff =
  | { kind: 'group'; profileId: string; operation: 'getOrCreate' | 'update'; request: GetOrCreateRequest; run: boolean }
  | { kind: 'rotation'; profileId: string; groupId?: string; run: boolean }

interface CallHandoffState {
  pending: CallHandoff | null
  handOff(handoff: CallHandoff): void
  /** The handoff, once: the screen that takes it clears it. */
  take(): CallHandoff | null
}

export const useCallHandoff = create<CallHandoffState>((set, get) => ({
  pending: null,
  handOff: (pending) => set({ pending }),
  take() {
    const { pending } = get()
    if (pending) set({ pending: null })
    return pending
  },
}))
