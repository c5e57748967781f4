import { useEffect } from 'react'
import type { Path } from '../state/json-path'
import { fieldId, useEditorView } from '../state/view-store'

/** Frames to wait for a field to be drawn (a view switch, a group expanding in the virtual list). */
const MAX_FRAMES = 30
/** Frames without a deeper match before settling for the closest drawn ancestor. */
const SETTLE_FRAMES = 4
const FLASH_MS = 1200

/** The deepest control or group drawn for `segments` or one of its ancestors. */
function deepestDrawn(segments: Path): { depth: number; element: HTMLElement } | null {
  for (let depth = segments.length; depth > 0; depth--) {
    const element = document.getElementById(fieldId(segments.slice(0, depth)))
    if (element) return { depth, element }
  }
  return null
}

function focusAndFlash(element: HTMLElement) {
  element.focus({ preventScroll: true })
  element.scrollIntoView({ block: 'center' })
  const frame = element.closest<HTMLElement>('.site-field, .list-item, .nav-group, fieldset') ?? element
  frame.classList.add('site-flash')
  setTimeout(() => frame.classList.remove('site-flash'), FLASH_MS)
}

/**
 * Focuses the field a problem points at. Some fields are drawn only after the request (the form
 * replacing the JSON view, a collapsed navigation group expanding), so it looks again on each
 * frame; a problem on a key the form has no field for (an unknown key) lands on the closest
 * drawn ancestor: its list item or its group of fields.
 */
function focusWhenDrawn(segments: Path) {
  let frames = 0
  let settled = 0
  let closest: ReturnType<typeof deepestDrawn> = null
  const attempt = () => {
    const found = deepestDrawn(segments)
    if (found && found.depth === segments.length) return focusAndFlash(found.element)
    settled = found && closest && found.depth === closest.depth ? settled + 1 : 0
    closest = found
    if (frames++ < MAX_FRAMES && settled < SETTLE_FRAMES) requestAnimationFrame(attempt)
    else if (closest) focusAndFlash(closest.element)
  }
  requestAnimationFrame(attempt)
}

export function useFocusRequests() {
  useEffect(
    () =>
      useEditorView.subscribe((state, previous) => {
        if (state.focusRequest && state.focusRequest !== previous.focusRequest) focusWhenDrawn(state.focusRequest.segments)
      }),
    [],
  )
}
