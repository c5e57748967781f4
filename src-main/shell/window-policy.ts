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

/** `setWindowOpenHandler`: no new windows, ever. Links to the web open in the user's browser. */
export function denyNewWindow(openExternal: (url: string) => void) {
  return ({ url }: { url: string }): { action: 'deny' } => {
    if (/^https?:\/\//i.test(url)) openExternal(url)
    return { action: 'deny' }
  }
}
