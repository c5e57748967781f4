import { expect, launchBrowserMode, openSession, sessionCookie, test, type BrowserModeApp, type SessionApp } from './browser-mode'
import { checkScreen } from './screens'

// Bad input as a careless hand gives it: each gets a sentence and loses nothing. An app of its
// own, so what these steps plan stays out of the other files' shared app.
test.describe.configure({ mode: 'serial' })

let own: BrowserModeApp & SessionApp & { stop(): Promise<void> }
test.beforeAll(async () => {
  own = await openSession(await launchBrowserMode())
})
test.afterAll(() => own.stop())
test.beforeEach(({ context }) => context.addCookies([sessionCookie(own)]))

test('a Windows-1252 CSV is refused with its line, never planned with U+FFFD, and read as Windows-1252 on request', async ({ page }) => {
  await page.goto(own.url)
  await page.keyboard.press('ControlOrMeta+5')
  const file = Buffer.from('user_group_id,name\ncafe-1,Plain\ncafe-2,Caf\xe9 de Flore\n', 'latin1')
  await page.getByLabel('File of groups').setInputFiles({ name: 'cafes.csv', mimeType: 'text/csv', buffer: file })
  const alert = page.getByRole('alert').filter({ hasText: 'is not UTF-8 text' })
  await expect(alert).toHaveText(/^cafes\.csv is not UTF-8 text: line 3 holds the byte 0xE9/)
  await expect(page.getByRole('status').filter({ hasText: 'Plan for' })).toHaveCount(0)
  await checkScreen(page, 'bulk-not-utf8')
  await alert.getByRole('button', { name: 'Read as Windows-1252' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Plan for cafes.csv' })).toContainText('2 new')
  await expect(alert).toHaveCount(0)
})
