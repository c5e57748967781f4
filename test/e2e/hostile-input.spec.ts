import { type BrowserModeApp, expect, launchBrowserMode, openSession, type SessionApp, sessionCookie, test } from './browser-mode'
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

test('a page on another loopback port cannot make the browser download the activity log, though the cookie goes along', async ({
  page,
}) => {
  const { createServer } = await import('node:http')
  const downloadUrl = `${own.origin}/download/activity?query=${encodeURIComponent(JSON.stringify({ format: 'csv' }))}`
  const other = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' })
    res.end(`<!doctype html><title>Elsewhere</title><a id="take" href="${downloadUrl}">take it</a>`)
  })
  await new Promise<void>((done) => other.listen(0, '127.0.0.1', done))
  try {
    const port = (other.address() as { port: number }).port
    await page.goto(`http://127.0.0.1:${port}/`)
    const downloads: unknown[] = []
    page.on('download', (download) => downloads.push(download))
    const answer = page.waitForResponse(downloadUrl)
    await page.click('#take')
    expect((await answer).status()).toBe(403)
    await expect(page.locator('body')).toContainText('Requests that do not come from Embed Console’s own page are refused.')
    expect(downloads).toEqual([])
    // From the app's own page, the same download works.
    await page.goto(own.url)
    await page.keyboard.press('ControlOrMeta+4')
    expect(await page.evaluate(async (url) => (await fetch(url)).status, downloadUrl)).toBe(200)
  } finally {
    await new Promise((done) => other.close(done))
  }
})

test('a site.json nested 100,000 deep opens as text at the place it goes too deep, with a sentence, and the app stays usable', async ({
  page,
}) => {
  const { mkdtemp, writeFile, readFile } = await import('node:fs/promises')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const path = join(await mkdtemp(join(tmpdir(), 'ec-e2e-deep-')), 'site.json')
  const deep = `{"name": "Deep", "navigation": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`
  await writeFile(path, deep)
  await page.goto(own.url)
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Site config' }).click()
  await page.getByLabel('Open a file by its path').fill(path)
  await page.getByRole('form', { name: 'Open a file' }).getByRole('button', { name: 'Open', exact: true }).click()
  await expect(page.getByRole('tab', { name: 'JSON' })).toHaveAttribute('aria-selected', 'true')
  await expect(
    page.getByRole('complementary', { name: 'Problems' }).getByRole('button', { name: /nested deeper than 64 levels/ }),
  ).toBeVisible()
  await checkScreen(page, 'site-editor-too-deep')
  // The rest of the app answers as before.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Groups' }).click()
  await expect(page.getByRole('heading', { name: 'Groups', level: 1 })).toBeVisible()
  expect(await readFile(path, 'utf8')).toBe(deep)
})
