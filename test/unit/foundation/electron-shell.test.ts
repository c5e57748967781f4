import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserWindowConstructorOptions } from 'electron'
import { beforeAll, describe, expect, it, vi } from 'vitest'

// The Electron runtime cannot be downloaded here, so the shell runs against a recording double
// of the few Electron APIs it touches; what it asks of them is what these tests check.
const electron = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => unknown
  const appListeners = new Map<string, Listener[]>()
  const ipcHandlers = new Map<string, Listener>()
  const windows: { options: unknown; loadedUrl?: string; sent: unknown[]; contentsListeners: Map<string, Listener>; window: unknown }[] = []
  let userData = ''
  class BrowserWindow {
    static getAllWindows = () => windows.map((record) => record.window)
    webContents = {
      send: (...args: unknown[]) => this.record.sent.push(args),
      on: (name: string, listener: Listener) => this.record.contentsListeners.set(name, listener),
    }
    record: { options: unknown; loadedUrl?: string; sent: unknown[]; contentsListeners: Map<string, Listener>; window: unknown }
    constructor(options: unknown) {
      this.record = { options, sent: [], contentsListeners: new Map(), window: this }
      windows.push(this.record)
    }
    isDestroyed = () => false
    isMinimized = () => true
    restore = vi.fn()
    show = vi.fn()
    focus = vi.fn()
    on() {}
    once() {}
    loadURL(url: string) {
      this.record.loadedUrl = url
      return Promise.resolve()
    }
  }
  return {
    appListeners,
    ipcHandlers,
    windows,
    setUserData: (dir: string) => (userData = dir),
    module: {
      app: {
        whenReady: () => Promise.resolve(),
        requestSingleInstanceLock: vi.fn(() => true),
        getPath: () => userData,
        on: (name: string, listener: Listener) => appListeners.set(name, [...(appListeners.get(name) ?? []), listener]),
        quit: vi.fn(),
      },
      BrowserWindow,
      ipcMain: { handle: (channel: string, handler: Listener) => ipcHandlers.set(channel, handler) },
      protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
      safeStorage: {
        isEncryptionAvailable: () => false,
        encryptString: () => Buffer.alloc(0),
        decryptString: () => '',
        getSelectedStorageBackend: () => 'basic_text',
      },
      session: {
        defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn(), setDevicePermissionHandler: vi.fn() },
      },
      shell: { openExternal: vi.fn() },
      dialog: { showMessageBoxSync: vi.fn(() => 1) },
    },
  }
})

vi.mock('electron', () => electron.module)

const { guardNavigation, isTrustedSender, denyNewWindow, APP_ENTRY_URL } = await import('../../../src-main/shell/window-policy')

describe('Electron shell', () => {
  beforeAll(async () => {
    electron.setUserData(await mkdtemp(join(tmpdir(), 'ec-shell-')))
    await import('../../../src-main/index')
    await vi.waitFor(() => expect(electron.windows).toHaveLength(1))
  })

  it('opens one hardened window on the app:// entry', () => {
    const [window] = electron.windows
    const options = window!.options as BrowserWindowConstructorOptions
    expect(options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
    })
    expect(options.webPreferences?.preload).toMatch(/preload[\\/]preload\.cjs$/)
    expect(window!.loadedUrl).toBe(APP_ENTRY_URL)
  })

  it('asks before closing over unsaved changes, and stays unless told to leave', () => {
    const onUnloadRefused = electron.windows[0]!.contentsListeners.get('will-prevent-unload')!
    const stay = { preventDefault: vi.fn() }
    onUnloadRefused(stay)
    expect(electron.module.dialog.showMessageBoxSync).toHaveBeenCalledWith(
      expect.anything(),
      expect.objectContaining({ title: 'Unsaved changes' }),
    )
    expect(stay.preventDefault).not.toHaveBeenCalled()
    electron.module.dialog.showMessageBoxSync.mockReturnValueOnce(0)
    const leave = { preventDefault: vi.fn() }
    onUnloadRefused(leave)
    expect(leave.preventDefault).toHaveBeenCalled()
  })

  it('registers the app scheme as privileged and serves the renderer through it', () => {
    expect(electron.module.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
    ])
    expect(electron.module.protocol.handle).toHaveBeenCalledWith('app', expect.any(Function))
  })

  it('takes the single-instance lock, and brings its window to the front when launched again', () => {
    expect(electron.module.app.requestSingleInstanceLock).toHaveBeenCalled()
    const [secondInstance] = electron.appListeners.get('second-instance')!
    secondInstance!()
    const window = electron.windows[0]!.window as { restore: () => void; show: () => void; focus: () => void }
    expect(window.restore).toHaveBeenCalled()
    expect(window.show).toHaveBeenCalled()
    expect(window.focus).toHaveBeenCalled()
  })

  it('serves downloads through app://, streamed from the router', async () => {
    const serve = electron.module.protocol.handle.mock.calls[0]![1] as (request: Request) => Promise<Response>
    const refused = await serve(new Request('app://embed-console/download/activity?query=%7B%22format%22%3A%22pdf%22%7D'))
    expect(refused.status).toBe(400)
    const csv = await serve(
      new Request(`app://embed-console/download/activity?query=${encodeURIComponent(JSON.stringify({ format: 'csv' }))}`),
    )
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="embed-console-activity-\d{4}-\d\d-\d\d\.csv"/)
    expect(await csv.text()).toBe(
      'id,time,profileId,profileName,operation,groupId,groupName,outcome,httpStatus,errorCode,message,warnings,durationMs,settledOutcome,settledAt\n',
    )
  })

  it('denies every permission the app does not use, asked or checked, and every device', () => {
    const { setPermissionRequestHandler, setPermissionCheckHandler, setDevicePermissionHandler } = electron.module.session.defaultSession
    const request = setPermissionRequestHandler.mock.calls[0]![0] as (
      contents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
      details: { requestingUrl?: string },
    ) => void
    const check = setPermissionCheckHandler.mock.calls[0]![0] as (contents: unknown, permission: string, origin: string) => boolean
    const asked = (permission: string, requestingUrl: string) => {
      const callback = vi.fn()
      request({}, permission, callback, { requestingUrl })
      expect(callback).toHaveBeenCalledTimes(1)
      return callback.mock.calls[0]![0] as boolean
    }
    const app = 'app://embed-console/index.html'
    const unused = [
      'media',
      'geolocation',
      'notifications',
      'midiSysex',
      'pointerLock',
      'fullscreen',
      'openExternal',
      'display-capture',
      'hid',
      'serial',
      'usb',
      'fileSystem',
      'idle-detection',
      'window-management',
      'unknown',
    ]
    for (const permission of unused) {
      expect(asked(permission, app), permission).toBe(false)
      expect(check({}, permission, 'app://embed-console'), permission).toBe(false)
    }
    for (const permission of ['clipboard-sanitized-write', 'clipboard-read']) {
      expect(asked(permission, app), permission).toBe(true)
      expect(check({}, permission, 'app://embed-console'), permission).toBe(true)
      for (const elsewhere of ['https://evil.example/', 'file:///etc/passwd', 'app://embed-console.evil.example/']) {
        expect(asked(permission, elsewhere), `${permission} for ${elsewhere}`).toBe(false)
        expect(check({}, permission, elsewhere), `${permission} for ${elsewhere}`).toBe(false)
      }
    }
    const device = setDevicePermissionHandler.mock.calls[0]![0] as (details: unknown) => boolean
    expect(device({ deviceType: 'usb', origin: 'app://embed-console' })).toBe(false)
  })

  it('answers IPC from the app’s own frame through the router', async () => {
    const handler = electron.ipcHandlers.get('embed-console:call')!
    const result = await handler({ senderFrame: { url: 'app://embed-console/index.html', parent: null } }, 'catalog.get', { groupId: 'hi' })
    expect(result).toEqual({ ok: true, value: { entry: null, tokenKept: false } })
  })

  it('refuses IPC from a foreign frame or a subframe', async () => {
    const handler = electron.ipcHandlers.get('embed-console:call')!
    for (const senderFrame of [
      { url: 'https://evil.example/', parent: null },
      { url: 'file:///etc/passwd', parent: null },
      { url: 'app://embed-console/index.html', parent: { url: 'app://embed-console/' } },
      null,
    ]) {
      expect(await handler({ senderFrame }, 'catalog.get', { groupId: 'hi' })).toMatchObject({ ok: false, error: { code: 'refused' } })
    }
  })

  it('guards navigation and new windows on every web contents it creates', () => {
    const [created] = electron.appListeners.get('web-contents-created')!
    const contents = { on: vi.fn(), setWindowOpenHandler: vi.fn() }
    created!({}, contents)
    const events = contents.on.mock.calls.map(([name]) => name)
    expect(events).toEqual(expect.arrayContaining(['will-navigate', 'will-redirect', 'will-attach-webview']))
    // The listeners themselves refuse: a registered no-op would pass the line above.
    const listener = (name: string) =>
      contents.on.mock.calls.find(([event]) => event === name)![1] as (event: unknown, url?: string) => void
    for (const name of ['will-navigate', 'will-redirect']) {
      const away = { preventDefault: vi.fn() }
      listener(name)(away, 'https://evil.example/phish')
      expect(away.preventDefault, name).toHaveBeenCalled()
      const inside = { preventDefault: vi.fn() }
      listener(name)(inside, 'app://embed-console/index.html')
      expect(inside.preventDefault, name).not.toHaveBeenCalled()
    }
    const webview = { preventDefault: vi.fn() }
    listener('will-attach-webview')(webview)
    expect(webview.preventDefault).toHaveBeenCalled()
    const openHandler = contents.setWindowOpenHandler.mock.calls[0]![0] as (details: { url: string }) => unknown
    expect(openHandler({ url: 'https://docs.example/' })).toEqual({ action: 'deny' })
    expect(electron.module.shell.openExternal).toHaveBeenCalledWith('https://docs.example/')
  })
})

describe('window policy', () => {
  it('refuses navigation away from the app and allows it inside', () => {
    const away = { preventDefault: vi.fn() }
    guardNavigation(away, 'https://evil.example/phish')
    expect(away.preventDefault).toHaveBeenCalled()
    const inside = { preventDefault: vi.fn() }
    guardNavigation(inside, 'app://embed-console/index.html#groups')
    expect(inside.preventDefault).not.toHaveBeenCalled()
    const lookalike = { preventDefault: vi.fn() }
    guardNavigation(lookalike, 'app://embed-console.evil.example/')
    expect(lookalike.preventDefault).toHaveBeenCalled()
  })

  it('trusts only a top-level app frame', () => {
    expect(isTrustedSender({ url: 'app://embed-console/index.html' })).toBe(true)
    expect(isTrustedSender({ url: 'http://127.0.0.1:5173/' })).toBe(false)
    expect(isTrustedSender({ url: 'not a url' })).toBe(false)
    expect(isTrustedSender(undefined)).toBe(false)
  })

  it('never opens a window, and hands only web links to the OS', () => {
    const openExternal = vi.fn()
    const handler = denyNewWindow(openExternal)
    expect(handler({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' })
    expect(handler({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
    expect(openExternal).not.toHaveBeenCalled()
  })
})
