import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { APP_ROOT } from './paths'
import { runBrowserMode } from './web-command'
import type { CliIo, Command } from './usage'

/** The Electron binary's path, or null where it was never downloaded (offline machines). */
export function findElectronBinary(): string | null {
  try {
    const binary = createRequire(import.meta.url)('electron') as unknown
    return typeof binary === 'string' && existsSync(binary) ? binary : null
  } catch {
    return null
  }
}

export const startCommand: Command = {
  name: 'start',
  summary: 'Open the desktop app, or browser mode where the Electron runtime is not installed.',
  usage: 'embed-console start [--port N] [--data-dir DIR] [--no-open]',
  async run(argv: string[], io: CliIo) {
    const electron = findElectronBinary()
    if (!electron) {
      io.stderr('The Electron runtime is not installed on this machine (it could not be downloaded), so Embed Console opens in your browser instead.')
      return runBrowserMode(argv, io)
    }
    const child = spawn(electron, [APP_ROOT, ...argv], { stdio: 'inherit' })
    return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 0)))
  },
}
