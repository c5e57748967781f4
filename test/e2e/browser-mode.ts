import { type ChildProcess, spawn } from 'node:child_process'
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

/** A browser-mode app whose key was traded for a session, as a first page load does. */
export interface SessionApp extends BrowserModeApp {
  /** The session cookie, for pages (through storageState) and for requests made from Node. */
  cookie: { name: string; value: string }
  cookieHeader: string
}

/** Spends the app's one-use key on a session, as the page does on its first load. */
export async function openSession<App extends BrowserModeApp>(app: App): Promise<App & SessionApp> {
  const response = await fetch(`${app.origin}/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ key: app.key }),
  })
  const pair = response.headers.getSetCookie()[0]?.split(';')[0]
  if (!response.ok || !pair) throw new Error(`The key was refused (HTTP ${response.status}).`)
  const at = pair.indexOf('=')
  const cookie = { name: pair.slice(0, at), value: pair.slice(at + 1) }
  return { ...app, cookie, cookieHeader: pair }
}

/** The session cookie as Playwright sets it (storageState, context.addCookies). */
export const sessionCookie = (app: SessionApp) => ({
  ...app.cookie,
  domain: new URL(app.origin).hostname,
  path: '/',
  expires: -1,
  httpOnly: true,
  secure: false,
  sameSite: 'Strict' as const,
})

/**
 * Starts the built `embed-console web` exactly as a user would, on any free port. `appDir` runs
 * another build (a baseline checkout, for a benchmark); `env` adds variables (a company proxy).
 */
export async function launchBrowserMode(
  dataDir?: string,
  appDir = '.',
  env: Record<string, string> = {},
): Promise<BrowserModeApp & { stop(): Promise<void> }> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'ec-e2e-')))
  const child: ChildProcess = spawn(process.execPath, ['bin/embed-console.js', 'web', '--port', '0', '--no-open', '--data-dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: appDir,
    env: { ...process.env, ...env },
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

/**
 * One browser-mode app per test file (worker), with a fresh data folder. Its key opens one
 * session, once: every browser context of the worker starts with that session's cookie (through
 * storageState, which browser.newContext() inherits too), as a tab already open would have it.
 * A test that needs a browser without it passes `storageState: NO_SESSION`.
 */
export const test = base.extend<object, { app: SessionApp }>({
  app: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const app = await launchBrowserMode()
      await use(await openSession(app))
      await app.stop()
    },
    { scope: 'worker' },
  ],
  storageState: async ({ app }, use) => {
    await use({ cookies: [sessionCookie(app)], origins: [] })
  },
})

/** For browser.newContext() or a request context that must start without the worker's session. */
export const NO_SESSION = { cookies: [], origins: [] }

export { expect } from '@playwright/test'
