import { expect, launchBrowserMode, NO_SESSION, test } from './browser-mode'
import { checkScreen } from './screens'

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
    await expect(nav.getByRole('button', { name: 'Team' })).toBeFocused()
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

  test('round-trips a call through the router from the page, with its session cookie only', async ({ page, app }) => {
    await page.goto(app.url)
    const result = await page.evaluate(async () => {
      const response = await fetch('/ipc/catalog.get', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ groupId: 'from the page' }),
      })
      return response.json()
    })
    expect(result).toEqual({ ok: true, value: { entry: null, tokenKept: false } })
  })

  test('refuses a call without the session, even with the key', async ({ playwright, app }) => {
    const request = await playwright.request.newContext({ storageState: NO_SESSION })
    for (const headers of [{}, { 'X-Embed-Console-Key': app.key }] as Record<string, string>[]) {
      const response = await request.post(`${app.origin}/ipc/app.info`, { data: {}, headers })
      expect(response.status()).toBe(401)
      expect(await response.json()).toMatchObject({ ok: false, error: { code: 'refused' } })
    }
    await request.dispose()
  })

  test('explains itself when opened without the key', async ({ browser, app }) => {
    const page = await (await browser.newContext({ storageState: NO_SESSION })).newPage()
    await page.goto(app.origin)
    await expect(page.getByRole('heading', { name: 'Embed Console needs its access key' })).toBeVisible()
    await expect(page.getByText('opened without the key')).toBeVisible()
    await checkScreen(page, 'no-key')
  })
})

test.describe('browser mode access', () => {
  test('trades the key of the address for a session cookie once; the address then opens nothing', async ({ browser }) => {
    const fresh = await launchBrowserMode()
    try {
      const first = await browser.newContext({ storageState: NO_SESSION })
      const page = await first.newPage()
      await page.goto(fresh.url)
      await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible()
      expect(page.url()).toBe(`${fresh.origin}/`)
      // The key is kept nowhere in the page; the session is an HttpOnly, SameSite=Strict cookie.
      expect(
        await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }) + document.cookie),
      ).not.toContain(fresh.key)
      expect(await page.evaluate(() => document.cookie)).toBe('')
      // The screen can be drawn before the key's exchange answers: the cookie is waited for.
      await expect.poll(async () => (await first.cookies(fresh.origin)).length).toBe(1)
      const [cookie] = await first.cookies(fresh.origin)
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' })
      expect(cookie!.value).not.toContain(fresh.key)

      // A reload, and the address bar's history, still work in this browser: the cookie opens them.
      await page.goto(fresh.url)
      await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible()
      await page.reload()
      await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible()

      // The same address from history, in another browser: nothing opens, and the page says why.
      const other = await (await browser.newContext({ storageState: NO_SESSION })).newPage()
      await other.goto(fresh.url)
      await expect(other.getByRole('heading', { name: 'Embed Console needs its access key' })).toBeVisible()
      await expect(other.getByText('has already been used')).toBeVisible()
      await checkScreen(other, 'key-used')
      const refused = await other.evaluate(async () => (await fetch('/ipc/app.info', { method: 'POST', body: '{}' })).status)
      expect(refused).toBe(401)
      await other.context().close()
      await first.close()
    } finally {
      await fresh.stop()
    }
  })
})

test.describe('a profile moved to another server', () => {
  test('the form says the tokens go before saving, asks for the new one, and the saved profile has none', async ({ page, app }) => {
    await page.goto(app.url)
    const created = await page.evaluate(async () => {
      const response = await fetch('/ipc/profiles.create', {
        method: 'POST',
        body: JSON.stringify({
          name: 'Moving',
          baseUrl: 'https://api.example.com',
          apiToken: 'moving-api-token-1234',
          tokenStorage: 'session',
        }),
      })
      return response.json()
    })
    expect(created).toMatchObject({ ok: true })
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Profiles' }).click()
    const card = page.getByRole('listitem', { name: 'Moving', exact: true })
    await card.getByRole('button', { name: 'Edit' }).click()
    const form = page.getByRole('form', { name: 'Edit profile Moving' })
    const note = form.getByRole('status').filter({ hasText: 'another server' })

    await form.getByLabel('Base URL').fill('https://api.example.com/v2')
    await expect(note).toHaveCount(0)
    await form.getByLabel('Base URL').fill('https://staging.example.com')
    await expect(note).toBeVisible()
    await expect(form.getByText('Enter the API token for the new address.', { exact: true })).toBeVisible()
    await expect(form.getByLabel('Remove the saved API token')).toHaveCount(0)
    await checkScreen(page, 'profile-moved-to-another-server')

    await form.getByRole('button', { name: 'Save changes' }).click()
    await expect(card.getByText('https://staging.example.com')).toBeVisible()
    await expect(card).toContainText('No API token')
  })
})
