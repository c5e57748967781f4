import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { APP_ROOT } from './paths'
import type { CliIo, Command } from './usage'
import { runBrowserMode } from './web-command'

/**
 * The Electron binary's path, or null where it was never downloaded (offline machines). Read
 * from the package's own path.txt: requiring 'electron' would try the download again.
 */
export function findElectronBinary(): string | null {
  try {
    const packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'))
    const binary = join(packageDir, 'dist', readFileSync(join(packageDir, 'path.txt'), 'utf8').trim())
    return existsSync(binary) ? binary : null
  } catch {
    return null
  }
}

export const startCommand: Command = {
  name: 'start',
  usage: 'embed-console start [--port N] [--data-dir DIR] [--no-open]',
  examples: ['embed-console start', 'embed-console start --data-dir ./embed-data'],
  exitCodes: [
    [0, 'the app was closed'],
    [1, 'the app could not start'],
    [2, 'bad usage'],
  ],
  async run(argv: string[], io: CliIo) {
    const electron = findElectronBinary()
    if (!electron) {
      io.stderr(
        'The Electron runtime is not installed on this machine (it could not be downloaded), so Embed Console opens in your browser instead.',
      )
      return runBrowserMode(argv, io)
    }
    const child = spawn(electron, [APP_ROOT, ...argv], { stdio: 'inherit' })
    return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 0)))
  },
}
