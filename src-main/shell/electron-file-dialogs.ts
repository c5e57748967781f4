import { BrowserWindow, dialog, type OpenDialogOptions, type SaveDialogOptions } from 'electron'
import type { FileDialogs } from '../user-files/file-dialogs'

const JSON_FILES = [
  { name: 'JSON files', extensions: ['json'] },
  { name: 'All files', extensions: ['*'] },
]

const RESULT_FILES = [
  { name: 'CSV or JSON', extensions: ['csv', 'json'] },
  { name: 'All files', extensions: ['*'] },
]

// Attached to the app's window when there is one, so the dialog is modal to it.
const openIn = (options: OpenDialogOptions) => {
  const window = BrowserWindow.getFocusedWindow()
  return window ? dialog.showOpenDialog(window, options) : dialog.showOpenDialog(options)
}
const saveIn = (options: SaveDialogOptions) => {
  const window = BrowserWindow.getFocusedWindow()
  return window ? dialog.showSaveDialog(window, options) : dialog.showSaveDialog(options)
}

/**
 * Electron's open and save dialogs for the site files service: the person picks the path in
 * main, so the renderer never names a file to write. The save dialog asks before replacing a
 * file (Linux needs to be told to).
 */
export const electronFileDialogs: FileDialogs = {
  async chooseFileToOpen() {
    const { canceled, filePaths } = await openIn({ title: 'Open a site.json file', properties: ['openFile'], filters: JSON_FILES })
    return canceled ? null : (filePaths[0] ?? null)
  },
  async chooseFileToSave(purpose, currentPath) {
    const titles = { saveAs: 'Save site.json as', export: 'Export a valid copy', results: 'Save the run’s results' }
    const { canceled, filePath } = await saveIn({
      title: titles[purpose],
      buttonLabel: purpose === 'export' ? 'Export' : 'Save',
      ...(currentPath ? { defaultPath: purpose === 'export' ? currentPath.replace(/(\.json)?$/i, '.export.json') : currentPath } : {}),
      filters: purpose === 'results' ? RESULT_FILES : JSON_FILES,
      properties: ['showOverwriteConfirmation', 'createDirectory'],
    })
    return canceled || !filePath ? null : filePath
  },
  async chooseDocsFolder(currentFolder) {
    const { canceled, filePaths } = await openIn({
      title: 'Choose the docs folder',
      properties: ['openDirectory'],
      ...(currentFolder ? { defaultPath: currentFolder } : {}),
    })
    return canceled ? null : (filePaths[0] ?? null)
  },
}
