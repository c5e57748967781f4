import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test as base } from '@playwright/test'

export interface BrowserModeApp {
  /** The printed address, key included. */
  url: string
  origin: string
  key: string
  dataDir: string
}

/**
 * Starts the built `embed-console web` exactly as a user would, on any free port. `appDir` runs
 * another build (a baseline checkout, for a benchmark).
 */
export async function launchBrowserMode(dataDir?: string, appDir = '.'): Promise<BrowserModeApp & { stop(): Promise<void> }> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'ec-e2e-')))
  const child: ChildProcess = spawn(process.execPath, ['bin/embed-console.js', 'web', '--port', '0', '--no-open', '--data-dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: appDir,
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
      const match = /running at (\S+)/.exec(stdout)
      if (match) resolve(match[1]!)
    })
    child.on('exit', (code) => reject(new Error(`embed-console web exited with ${code}: ${stderr}`)))
  })
  const parsed = new URL(url)
  return {
    url,
    origin: parsed.origin,
    key: parsed.hash.replace('#key=', ''),
    dataDir: dir,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGINT')
      }),
  }
}

/** One browser-mode app per test file (worker), with a fresh data folder. */
export const test = base.extend<object, { app: BrowserModeApp }>({
  app: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const app = await launchBrowserMode()
      await use(app)
      await app.stop()
    },
    { scope: 'worker' },
  ],
})

export { expect } from '@playwright/test'
