import { beforeEach, describe, expect, it, vi } from 'vitest'

// The Electron runtime cannot be downloaded here: the dialogs run against a recording double of
// the two Electron APIs they touch, and these tests check what they ask of them.
const electron = vi.hoisted(() => {
  const window = { id: 1 }
  return {
    window,
    focused: { current: window as unknown },
    module: {
      BrowserWindow: { getFocusedWindow: vi.fn() },
      dialog: { showOpenDialog: vi.fn(), showSaveDialog: vi.fn() },
    },
  }
})
vi.mock('electron', () => electron.module)

const { electronFileDialogs } = await import('../../../src-main/shell/electron-file-dialogs')
const { dialog, BrowserWindow } = electron.module

beforeEach(() => {
  vi.clearAllMocks()
  BrowserWindow.getFocusedWindow.mockImplementation(() => electron.focused.current)
})

describe('the desktop app’s file dialogs', () => {
  it('opens one file with the system dialog, modal to the app’s window, and answers its path', async () => {
    dialog.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/home/writer/docs/mint.json'] })
    expect(await electronFileDialogs.chooseFileToOpen()).toBe('/home/writer/docs/mint.json')
    expect(dialog.showOpenDialog).toHaveBeenCalledWith(electron.window, expect.objectContaining({ properties: ['openFile'] }))
  })

  it('answers null when the person cancels', async () => {
    dialog.showOpenDialog.mockResolvedValue({ canceled: true, filePaths: [] })
    dialog.showSaveDialog.mockResolvedValue({ canceled: true, filePath: '' })
    expect(await electronFileDialogs.chooseFileToOpen()).toBeNull()
    expect(await electronFileDialogs.chooseFileToSave('saveAs', null)).toBeNull()
    expect(await electronFileDialogs.chooseDocsFolder(null)).toBeNull()
  })

  it('asks where to save with the system dialog, which confirms before replacing a file', async () => {
    dialog.showSaveDialog.mockResolvedValue({ canceled: false, filePath: '/home/writer/docs/copy.json' })
    expect(await electronFileDialogs.chooseFileToSave('export', '/home/writer/docs/site.json')).toBe('/home/writer/docs/copy.json')
    expect(dialog.showSaveDialog).toHaveBeenCalledWith(
      electron.window,
      expect.objectContaining({
        defaultPath: '/home/writer/docs/site.export.json',
        properties: expect.arrayContaining(['showOverwriteConfirmation']),
      }),
    )
  })

  it('works without a focused window, and picks a folder for the docs', async () => {
    electron.focused.current = null
    dialog.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/home/writer/docs'] })
    expect(await electronFileDialogs.chooseDocsFolder('/home/writer')).toBe('/home/writer/docs')
    expect(dialog.showOpenDialog).toHaveBeenCalledWith(
      expect.objectContaining({ properties: ['openDirectory'], defaultPath: '/home/writer' }),
    )
    electron.focused.current = electron.window
  })
})
