import { create } from 'zustand'
import type { Section, SectionId } from './sections'

interface NavigationState {
  current: SectionId
  /** How many times a section was opened (a shortcut, the sidebar, a hand-over): the screen's title takes the focus after each. */
  opened: number
  open(section: SectionId): void
}

export const useNavigation = create<NavigationState>((set) => ({
  current: 'groups',
  opened: 0,
  open: (current) => set((state) => ({ current, opened: state.opened + 1 })),
}))

/**
 * Ctrl/Cmd + a section's digit opens it, from the moment the page's script runs: a shortcut typed
 * while the first screen is still being drawn is not lost. Returns the uninstaller.
 */
export function installSectionShortcuts(
  target: Pick<Window, 'addEventListener' | 'removeEventListener'>,
  sections: readonly Pick<Section, 'id' | 'shortcut'>[],
): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return
    const section = sections.find((candidate) => candidate.shortcut === event.key)
    if (!section) return
    event.preventDefault()
    useNavigation.getState().open(section.id)
  }
  target.addEventListener('keydown', onKeyDown)
  return () => target.removeEventListener('keydown', onKeyDown)
}
