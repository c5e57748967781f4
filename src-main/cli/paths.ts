import { fileURLToPath } from 'node:url'

// The CLI runs from out/main/cli.js; the built renderer and the app's root sit beside it.
export const RENDERER_DIR = fileURLToPath(new URL('../renderer/', import.meta.url))
export const APP_ROOT = fileURLToPath(new URL('../../', import.meta.url))
