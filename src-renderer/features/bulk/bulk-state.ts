import { create } from 'zustand'
import type { BulkProgress } from '../../../src-shared/bulk/schemas'

/** The run on screen, kept while the operator visits other screens. */
interface BulkScreenState {
  runId: string | null
  /** The newest progress pushed by main, by run. */
  progress: Record<string, BulkProgress>
  open(runId: string | null): void
  took(progress: BulkProgress): void
}

export const useBulkScreen = create<BulkScreenState>((set) => ({
  runId: null,
  progress: {},
  open: (runId) => set({ runId }),
  took: (progress) => set((state) => ({ progress: { ...state.progress, [progress.runId]: progress } })),
}))
