import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

export const APP_DIR_NAME = 'embed-console'

/**
 * Where the app keeps profiles, the vault, the catalog and the activity log when no
 * `--data-dir` is given: the same folder Electron's `app.getPath('userData')` picks, so the
 * desktop app and browser mode share their data.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.EMBED_CONSOLE_DATA_DIR) return env.EMBED_CONSOLE_DATA_DIR
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_DIR_NAME)
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_DIR_NAME)
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_DIR_NAME)
}

/** Creates the folder owner-only: it will hold the vault. */
export function ensureDataDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return dir
}
