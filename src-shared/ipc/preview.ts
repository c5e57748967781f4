// The site preview's frame and the folder's files it shows, at the same paths in both transports
// (Electron's app:// protocol and browser mode's loopback host).

/** The frame's page: `?files=<token>` names the folder whose files its content security policy allows. */
export const PREVIEW_FRAME_PATH = '/preview-frame.html'
/** The frame's own script and styles, built on their own (no shared chunks: the frame has no origin to load modules from). */
export const PREVIEW_FRAME_FILES = new Set([PREVIEW_FRAME_PATH, '/preview-frame.js', '/preview-frame.css'])
/** `/preview-files/<token>/<path in the docs folder>`: the folder's pictures, read-only. */
export const PREVIEW_FILES_PREFIX = '/preview-files/'
