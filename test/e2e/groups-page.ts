import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { type Sandbox, startSandbox } from '../../src-main/sandbox/sandbox-server'
import { expect, launchBrowserMode, openSession, type SessionApp, sessionCookie, test } from './browser-mode'

/**
 * A test file's own browser-mode app (so its steps start from a first launch, whatever ran
 * before) and a sandbox of its own to make profiles against. Its key opens one session: each
 * step's page joins it with the session cookie. Filled in before the first step.
 */
export function ownAppAndSandbox(prefix: string): { app: SessionApp; sandbox: Sandbox } {
  const own = {} as { app: SessionApp & { stop(): Promise<void> }; sandbox: Sandbox }
  test.beforeAll(async () => {
    own.sandbox = await startSandbox({ port: 0, dataFile: join(await mkdtemp(join(tmpdir(), prefix)), 'sandbox.db') })
    own.app = await openSession(await launchBrowserMode())
  })
  test.beforeEach(({ context }) => context.addCookies([sessionCookie(own.app)]))
  test.afterAll(async () => {
    await own.app.stop()
    await own.sandbox.close()
  })
  return own
}

// The Groups screen, found as its users find it: by role and label.
export const result = (page: Page) => page.getByRole('region', { name: 'Result' })
export const idField = (page: Page) => page.getByLabel('user_group_id', { exact: true })
export const nameField = (page: Page) => page.getByLabel('name', { exact: true })
export const editor = (page: Page, field: 'mapping' | 'properties') => page.getByRole('textbox', { name: `${field} (JSON)` })
export const monacoHasFocus = (page: Page) => page.evaluate(() => Boolean(document.activeElement?.closest('.monaco-editor')))

/** Focuses an editor (Monaco loads and takes over) and replaces its text in one edit. */
export async function setEditorText(page: Page, field: Locator, text: string) {
  await field.focus()
  // Monaco loads on the first focus: on a busy machine that takes longer than an assertion's 10 s.
  await expect.poll(() => monacoHasFocus(page), { timeout: 30_000 }).toBe(true)
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Delete')
  if (text) await page.keyboard.insertText(text)
}
