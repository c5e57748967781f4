import { useEffect } from 'react'
import { openDialog } from '../state/dialog-store'
import { redo, undo } from '../state/editor-store'
import { save } from '../state/file-commands'

/**
 * Ctrl/Cmd+S saves (with Shift: Save as), Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo,
 * in the form and in Monaco alike: listening in the capture phase, before Monaco or an input
 * handles the key, keeps one history for both views. Dialogs keep their own keys.
 */
export function useEditorShortcuts() {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return
      if (event.target instanceof Element && event.target.closest('dialog')) return
      const key = event.key.toLowerCase()
      const command =
        key === 's' ? (event.shiftKey ? () => openDialog({ kind: 'path', purpose: 'saveAs', then: null }) : () => void save())
        : key === 'z' ? (event.shiftKey ? redo : undo)
        : key === 'y' && !event.shiftKey ? redo
        : null
      if (!command) return
      event.preventDefault()
      event.stopPropagation()
      command()
    }
    window.addEventListener('keydown', onKeyDown, true)
    return () => window.removeEventListener('keydown', onKeyDown, true)
  }, [])
}
