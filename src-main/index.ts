// The Electron shell: lifecycle, one hardened window, the app:// protocol and the IPC bridge.
// Everything else lives in plain modules shared with browser mode (app-services, router).
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session, shell } from 'electron'
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../src-shared/ipc/channels'
import { DOWNLOAD_PATH_PREFIX } from '../src-shared/ipc/downloads'
import { PREVIEW_FILES_PREFIX } from '../src-shared/ipc/preview'
import { fail } from '../src-shared/ipc/result'
import { type AppServices, createAppServices } from './app-services'
import { rendererFileHeaders, SECURITY_HEADERS } from './content-security-policy'
import { downloadResponse } from './downloads'
import { electronFileDialogs } from './shell/electron-file-dialogs'
import {
  answerPermissionCheck,
  answerPermissionRequest,
  APP_ENTRY_URL,
  APP_SCHEME,
  bringToFront,
  confirmUnload,
  denyNewWindow,
  guardNavigation,
  isTrustedSender,
  mainWindowOptions,
} from './shell/window-policy'
import { readRendererFile } from './static-files'

const here = fileURLToPath(new URL('.', import.meta.url))
const rendererDir = join(here, '../renderer')
const preloadPath = join(here, '../preload/preload.cjs')

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
])

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-navigate', guardNavigation)
  contents.on('will-redirect', guardNavigation)
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(denyNewWindow((url) => void shell.openExternal(url)))
})

/** app:// serves the built renderer, the downloads it fetches from its own origin, and the site preview's pictures. */
async function serveApp(request: Request, services: AppServices): Promise<Response> {
  const url = new URL(request.url)
  if (url.pathname.startsWith(PREVIEW_FILES_PREFIX)) {
    const answer = await services.preview.respond(`${url.pathname}${url.search}`)
    return new Response(new Uint8Array(answer.body), { status: answer.status, headers: answer.headers })
  }
  if (url.pathname.startsWith(DOWNLOAD_PATH_PREFIX)) {
    const answer = downloadResponse(services.router, url)
    return new Response(Readable.toWeb(answer.body) as ReadableStream, {
      status: answer.status,
      headers: { ...answer.headers, ...SECURITY_HEADERS },
    })
  }
  const file = await readRendererFile(rendererDir, url.pathname)
  if (!file) return new Response('Not found', { status: 404 })
  return new Response(new Uint8Array(file.body), {
    headers: { 'Content-Type': file.contentType, ...rendererFileHeaders(url, `${APP_SCHEME}://${url.host}`, services.preview) },
  })
}

function openMainWindow(services: AppServices): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(preloadPath))
  const unsubscribe = services.events.subscribe((event) => {
    if (!window.isDestroyed()) window.webContents.send(IPC_EVENT_CHANNEL, event)
  })
  window.on('closed', unsubscribe)
  window.webContents.on(
    'will-prevent-unload',
    confirmUnload((options) => dialog.showMessageBoxSync(window, options)),
  )
  window.once('ready-to-show', () => window.show())
  void window.loadURL(APP_ENTRY_URL)
  return window
}

export async function startDesktopApp(): Promise<void> {
  // One desktop app per user: a second launch hands over to the first, which comes to the front.
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return
  }
  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows()
    if (window) bringToFront(window)
  })
  await app.whenReady()
  // Every permission the app does not use is denied, asked or checked; no device is ever offered.
  session.defaultSession.setPermissionRequestHandler(answerPermissionRequest)
  session.defaultSession.setPermissionCheckHandler(answerPermissionCheck)
  session.defaultSession.setDevicePermissionHandler(() => false)
  const services = await createAppServices({
    dataDir: app.getPath('userData'),
    transport: 'electron',
    safeStorage,
    fileDialogs: electronFileDialogs,
  })
  protocol.handle(APP_SCHEME, (request) => serveApp(request, services))
  ipcMain.handle(IPC_CALL_CHANNEL, (event, name: unknown, input: unknown) => {
    if (!isTrustedSender(event.senderFrame)) return fail('refused', 'This frame may not call Embed Console.')
    return services.router.dispatch(String(name), input, { transport: 'electron' })
  })
  openMainWindow(services)
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openMainWindow(services)
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('will-quit', () => void services.close())
}

void startDesktopApp()
