import { create } from 'zustand'
import type { SectionId } from './sections'

interface NavigationState {
  current: SectionId
  open(section: SectionId): void
}

export const useNavigation = create<NavigationState>((set) => ({
  current: 'groups',
  open: (current) => set({ current }),
}))
