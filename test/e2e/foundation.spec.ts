import { checkScreen } from './screens'
import { expect, test } from './browser-mode'

test.describe('the app in browser mode', () => {
  test('loads, hides the key from the address bar and shows where data lives', async ({ page, app }) => {
    await page.goto(app.url)
    await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible()
    expect(page.url()).not.toContain(app.key)
    await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText(app.dataDir)
    await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText('Browser mode')
  })

  test('opens each section from the sidebar, ready to use on a first launch', async ({ page, app }) => {
    await page.goto(app.url)
    const nav = page.getByRole('navigation', { name: 'Sections' })
    const main = page.getByRole('main')
    const screens = [
      // The Local sandbox profile is preselected, so Groups opens on its (empty) catalog.
      { label: 'Groups', ready: main.getByText('No groups yet.'), file: 'groups-first-launch' },
      { label: 'Profiles', ready: main.getByRole('listitem', { name: 'Local sandbox', exact: true }), file: 'profiles-first-launch' },
      { label: 'Site config', ready: main.getByRole('heading', { level: 2 }).first(), file: 'site-config-empty' },
      { label: 'Activity', ready: main.getByRole('heading', { name: 'No activity yet' }), file: 'activity-empty' },
    ]
    for (const screen of screens) {
      await nav.getByRole('button', { name: screen.label }).click()
      await expect(page.getByRole('heading', { level: 1, name: screen.label })).toBeVisible()
      await expect(nav.getByRole('button', { name: screen.label })).toHaveAttribute('aria-current', 'page')
      await expect(screen.ready).toBeVisible()
      await checkScreen(page, screen.file)
    }
  })

  test('is usable from the keyboard: shortcuts and arrow keys in the sidebar', async ({ page, app }) => {
    await page.goto(app.url)
    await page.keyboard.press('Control+3')
    await expect(page.getByRole('heading', { level: 1, name: 'Site config' })).toBeFocused()
    const nav = page.getByRole('navigation', { name: 'Sections' })
    await nav.getByRole('button', { name: 'Site config' }).focus()
    await page.keyboard.press('ArrowDown')
    await expect(nav.getByRole('button', { name: 'Activity' })).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(nav.getByRole('button', { name: 'Bulk runs' })).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(nav.getByRole('button', { name: 'Groups' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible()
  })

  test('follows the OS colour scheme', async ({ page, app }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.goto(app.url)
    await expect(page.getByText('No groups yet.')).toBeVisible()
    const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    await checkScreen(page, 'groups-first-launch-dark')
    await page.emulateMedia({ colorScheme: 'light' })
    const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    expect(dark).not.toBe(light)
  })

  test('round-trips a call through the router from the page', async ({ page, app }) => {
    await page.goto(app.url)
    const result = await page.evaluate(async (key) => {
      const response = await fetch('/ipc/catalog.get', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Embed-Console-Key': key },
        body: JSON.stringify({ groupId: 'from the page' }),
      })
      return response.json()
    }, app.key)
    expect(result).toEqual({ ok: true, value: { entry: null, tokenKept: false } })
  })

  test('refuses a call without the key', async ({ request, app }) => {
    const response = await request.post(`${app.origin}/ipc/app.info`, { data: {} })
    expect(response.status()).toBe(401)
    expect(await response.json()).toMatchObject({ ok: false, error: { code: 'refused' } })
  })

  test('explains itself when opened without the key', async ({ browser, app }) => {
    const page = await (await browser.newContext()).newPage()
    await page.goto(app.origin)
    await expect(page.getByRole('heading', { name: 'Embed Console needs its access key' })).toBeVisible()
    await checkScreen(page, 'no-key')
  })
})
