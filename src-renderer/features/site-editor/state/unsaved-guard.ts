import { isUnsaved, settleTypedText, useEditor } from './editor-store'

// For the life of the app: closing or reloading the window with unsaved changes asks first, on
// whichever screen the writer is. (The autosaved draft covers a crash, which asks nothing.)
window.addEventListener('beforeunload', (event) => {
  settleTypedText()
  if (!isUnsaved(useEditor.getState())) return
  event.preventDefault()
  event.returnValue = ''
})
