import { useEffect } from 'react'
import { redo, selectProblemIndex, undo, useEditor } from '../state/editor-store'
import { chooseWhereToWrite, save } from '../state/file-commands'
import { stepProblem } from '../state/view-store'

/**
 * Ctrl/Cmd+S saves (with Shift: Save as), Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo,
 * in the form and in Monaco alike: listening in the capture phase, before Monaco or an input
 * handles the key, keeps one history for both views. F8 and Shift+F8 go to the next and previous
 * problem, as in code editors. Dialogs keep their own keys.
 */
export function useEditorShortcuts() {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.target instanceof Element && event.target.closest('dialog')) return
      if (event.key === 'F8' && !(event.ctrlKey || event.metaKey || event.altKey)) {
        event.preventDefault()
        stepProblem(selectProblemIndex(useEditor.getState()).problems, event.shiftKey ? -1 : 1)
        return
      }
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return
      const key = event.key.toLowerCase()
      const command =
        key === 's'
          ? event.shiftKey
            ? () => void chooseWhereToWrite('saveAs')
            : () => void save()
          : key === 'z'
            ? event.shiftKey
              ? redo
              : undo
            : key === 'y' && !event.shiftKey
              ? redo
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
