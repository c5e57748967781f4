import { create } from 'zustand'

interface HandoffState<T> {
  pending: T | null
  handOff(value: T): void
  /** The value, once: the screen that takes it clears it. */
  take(): T | null
}

/**
 * Something one screen hands to another (features never import each other: they meet in lib/),
 * held until the screen that takes it does; the app opens that screen when one is pending.
 */
export function createHandoff<T>() {
  return create<HandoffState<T>>((set, get) => ({
    pending: null,
    handOff: (pending) => set({ pending }),
    take() {
      const { pending } = get()
      if (pending) set({ pending: null })
      return pending
    },
  }))
}
