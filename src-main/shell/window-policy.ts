import type { BrowserWindowConstructorOptions } from 'electron'

/** The renderer is served from this privileged custom scheme, never from file:// or the network. */
export const APP_SCHEME = 'app'
export const APP_HOST = 'embed-console'
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

export function isAppUrl(url: string | undefined | null): boolean {
  if (!url) return false
  try {
    const parsed = new URL(url)
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST
  } catch {
    return false
  }
}

export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    title: 'Embed Console',
    show: false,
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
    },
  }
}

/**
 * IPC is answered only for the app's own top-level page: a frame from anywhere else (an iframe,
 * a page reached by a navigation that slipped through) gets no access to the router.
 */
export function isTrustedSender(frame: { url: string; parent?: unknown } | null | undefined): boolean {
  if (!frame) return false
  if (frame.parent) return false
  return isAppUrl(frame.url)
}

/** `will-navigate` and `will-redirect`: stay inside the app; everything else is refused. */
export function guardNavigation(event: { preventDefault(): void }, url: string): void {
  if (!isAppUrl(url)) event.preventDefault()
}

/**
 * The permissions the page uses: writing the clipboard (Copy token, Copy as curl) and reading it
 * back, to clear a copied token after 60 s only if the clipboard still holds it. Nothing else
 * (camera, microphone, location, notifications, devices, full screen…) is ever granted.
 */
export const USED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write', 'clipboard-read'])

/** Only a permission the app uses, and only for its own page. */
export function permissionAllowed(permission: string, requestingUrl: string | undefined): boolean {
  return USED_PERMISSIONS.has(permission) && isAppUrl(requestingUrl)
}

/** `session.setPermissionRequestHandler`: a page asking for a permission. */
export function answerPermissionRequest(
  _contents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: { requestingUrl?: string },
): void {
  callback(permissionAllowed(permission, details.requestingUrl))
}

/** `session.setPermissionCheckHandler`: a page asking whether it has a permission. */
export function answerPermissionCheck(_contents: unknown, permission: string, requestingOrigin: string): boolean {
  return permissionAllowed(permission, requestingOrigin)
}

/** `setWindowOpenHandler`: no new windows, ever. Links to the web open in the user's browser. */
export function denyNewWindow(openExternal: (url: string) => void) {
  return ({ url }: { url: string }): { action: 'deny' } => {
    if (/^https?:\/\//i.test(url)) openExternal(url)
    return { action: 'deny' }
  }
}

/** The question asked when the page refuses to unload (the site editor has unsaved changes). */
export const UNSAVED_CHANGES_DIALOG = {
  type: 'question' as const,
  buttons: ['Leave without saving', 'Stay'],
  defaultId: 1,
  cancelId: 1,
  title: 'Unsaved changes',
  message: 'The site.json editor has unsaved changes.',
  detail: 'If you leave now they are lost, except for the autosaved draft offered the next time you open the file.',
}

/**
 * `will-prevent-unload`: Electron cancels a close silently when the page's beforeunload says no,
 * so the shell asks. Choosing "Leave" lets the unload go on (preventDefault ignores the page).
 */
export function confirmUnload(ask: (options: typeof UNSAVED_CHANGES_DIALOG) => number) {
  return (event: { preventDefault(): void }): void => {
    if (ask(UNSAVED_CHANGES_DIALOG) === 0) event.preventDefault()
  }
}

/** A window the operator asked for again (a second launch): restored, shown and focused. */
export function bringToFront(window: { isMinimized(): boolean; restore(): void; show(): void; focus(): void }): void {
  if (window.isMinimized()) window.restore()
  window.show()
  window.focus()
}
