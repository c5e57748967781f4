import { type RefObject, useEffect } from 'react'

/** Closes a popover on Escape or on a pointer press outside it, as menus and pickers do. */
export function useDismiss(ref: RefObject<HTMLElement | null>, open: boolean, onDismiss: () => void) {
  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) onDismiss()
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      event.stopPropagation()
      onDismiss()
    }
    document.addEventListener('pointerdown', onPointerDown)
    ref.current?.addEventListener('keydown', onKeyDown)
    const element = ref.current
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      element?.removeEventListener('keydown', onKeyDown)
    }
  }, [ref, open, onDismiss])
}
