import { PREVIEW_FILES_PREFIX, PREVIEW_FRAME_FILES, PREVIEW_FRAME_PATH } from '../src-shared/ipc/preview'
import type { PreviewFiles } from './site-files/preview-files'

/**
 * The renderer's Content-Security-Policy, the same for the Electron protocol handler and browser
 * mode. Nothing remote: scripts, workers and connections come only from the app's own origin.
 * Inline styles are allowed because Monaco injects its own <style> elements.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
}

/**
 * The site preview's frame: a sandboxed iframe (scripts, no same origin) whose own script renders
 * the docs pages the renderer hands it. Its policy allows that script and nothing a page could
 * use: no connections, no forms, no frames, no fonts from anywhere, and pictures only from the
 * one docs folder's read-only route (`filesBase`: the full URL of its `/preview-files/<token>/`).
 */
export function previewFrameHeaders(filesBase: string | null): Record<string, string> {
  const files = filesBase ?? "'none'"
  return {
    'Content-Security-Policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      `img-src ${files} data:`,
      `media-src ${files}`,
      "connect-src 'none'",
      "font-src 'none'",
      "object-src 'none'",
      "frame-src 'none'",
      "worker-src 'none'",
      "manifest-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'self'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  }
}

/** The frame's script and styles: loaded by a document with no origin of its own, so not "same-origin" to the server. */
export const PREVIEW_FRAME_ASSET_HEADERS: Record<string, string> = {
  ...SECURITY_HEADERS,
  'Cross-Origin-Resource-Policy': 'cross-origin',
}

/** The headers of a file of the built renderer, as either transport serves it from `origin`. */
export function rendererFileHeaders(url: URL, origin: string, preview: Pick<PreviewFiles, 'known'>): Record<string, string> {
  if (url.pathname === PREVIEW_FRAME_PATH) {
    const token = url.searchParams.get('files')
    return previewFrameHeaders(token && preview.known(token) ? `${origin}${PREVIEW_FILES_PREFIX}${token}/` : null)
  }
  return PREVIEW_FRAME_FILES.has(url.pathname) ? PREVIEW_FRAME_ASSET_HEADERS : SECURITY_HEADERS
}
