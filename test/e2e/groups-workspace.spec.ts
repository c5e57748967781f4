import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, launchBrowserMode, test } from './browser-mode'
import { editor, idField, monacoHasFocus, nameField, ownAppAndSandbox, result, setEditorText } from './groups-page'
import { checkScreen, SCREENSHOT_DIR } from './screens'

// The groups workspace as operators use it: one app for the file, steps in order.
test.describe.configure({ mode: 'serial' })

const own = ownAppAndSandbox('ec-e2e-workspace-')

test('the first screen is small and compressed; Monaco loads only when an editor is used, and takes over its text', async ({ page }) => {
  const responses: { url: string; encoding: string | undefined; cache: string | undefined }[] = []
  page.on('response', (response) =>
    responses.push({ url: response.url(), encoding: response.headers()['content-encoding'], cache: response.headers()['cache-control'] }),
  )
  await page.goto(own.app.url)
  await expect(idField(page)).toBeVisible()
  await expect(page.getByText('No groups yet.')).toBeVisible()
  const monaco = () => responses.filter((response) => /JsonEditorImpl|editor\.worker|json\.worker/.test(response.url))
  expect(monaco()).toEqual([])
  const scripts = responses.filter((response) => response.url.endsWith('.js'))
  expect(scripts.length).toBeGreaterThan(2)
  for (const script of scripts) {
    if (!/-(?:[\w-]{8})\.js$/.test(script.url)) continue
    expect(script.cache, script.url).toBe('public, max-age=31536000, immutable')
  }
  expect(scripts.find((script) => /\/index-[\w-]{8}\.js$/.test(script.url))?.encoding).toBe('br')

  // The light view holds the same text the editor will: typed there, kept by Monaco.
  await idField(page).fill('first-screen')
  await editor(page, 'mapping').fill('{"schema-1": 42}')
  await expect(page.locator('#group-submit-reason')).toContainText('mapping.schema-1: must be a string')
  await expect.poll(() => monaco().length).toBeGreaterThan(0)
  await expect.poll(() => monacoHasFocus(page)).toBe(true)
  await expect(page.locator('.monaco-editor').first()).toContainText('"schema-1": 42')
  await expect(page.locator('#group-submit-reason')).toContainText('mapping.schema-1: must be a string')
  await setEditorText(page, editor(page, 'mapping'), '')
  await idField(page).fill('')
})

test('Ctrl+Enter inside an editor sends the request as it is now', async ({ page }) => {
  await page.goto(own.app.url)
  // The editor mounts while the form is still empty: its shortcut must not keep that request.
  await editor(page, 'properties').focus()
  await expect.poll(() => monacoHasFocus(page)).toBe(true)
  await idField(page).fill('ctrl-enter-1')
  await setEditorText(page, editor(page, 'properties'), '{"sent": "from the editor"}')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(result(page)).toContainText('Get or create succeeded')
  await expect(result(page)).toContainText('ctrl-enter-1')
  await expect(result(page)).toContainText('"sent": "from the editor"')
  // The result is where the eye is: in view, its heading focused.
  await expect(result(page).getByRole('heading', { level: 2 })).toBeFocused()
  await expect(result(page).getByRole('heading', { level: 2 })).toBeInViewport()
})

test('Tab leaves a small editor, and the hint says so', async ({ page }) => {
  await page.goto(own.app.url)
  await expect(page.getByText('Tab moves to the next field (Ctrl+M to type tabs instead)').first()).toBeVisible()
  await setEditorText(page, editor(page, 'mapping'), '{}')
  await page.keyboard.press('Tab')
  // The next stop is the properties editor (its light view, or Monaco once loaded), not a tab in the text.
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.closest('.field')?.querySelector('.field__label')?.textContent))
    .toBe('properties')
  const mappingText = await page
    .locator('.field')
    .filter({ has: page.getByText('mapping', { exact: true }) })
    .locator('.view-lines')
    .evaluate((lines) => lines.textContent)
  expect(mappingText?.replace(/\u00a0/g, ' ')).toBe('{}')
  await setEditorText(page, editor(page, 'mapping'), '')
})

test('get-or-create of an existing id says the name and properties were not applied, and offers Update', async ({ page }) => {
  await page.goto(own.app.url)
  await idField(page).fill('existing-1')
  await nameField(page).fill('First name')
  await page.getByRole('button', { name: /^Get or create in / }).click()
  await expect(result(page).getByText('New group')).toBeVisible()

  await nameField(page).fill('Second name')
  await setEditorText(page, editor(page, 'properties'), '{"plan": "team"}')
  await page.getByRole('button', { name: /^Get or create in / }).click()
  await expect(result(page).getByText('Existing group')).toBeVisible()
  await expect(result(page).getByRole('alert')).toContainText(
    '“existing-1” already existed, so get-or-create returned it unchanged: the name and properties you gave were not applied. Use Update to change them.',
  )
  await checkScreen(page, 'groups-not-applied')
  await result(page).getByRole('button', { name: 'Update with the values given' }).click()
  await expect(result(page)).toContainText('Update succeeded')
  await expect(result(page)).toContainText('Second name')
  await expect(page.getByRole('tab', { name: 'Update' })).toHaveAttribute('aria-selected', 'true')
  await setEditorText(page, editor(page, 'properties'), '')
})

test('an id with a space at an end or a hidden character is refused in the form, with the reason', async ({ page }) => {
  await page.goto(own.app.url)
  const submit = page.getByRole('button', { name: /^Get or create in / })
  for (const [id, reason] of [
    ['acme ', 'user_group_id ends with a space'],
    [' acme', 'user_group_id starts with a space'],
    ['ac\u200bme', 'user_group_id holds a hidden character (U+200B'],
  ]) {
    await idField(page).fill(id!)
    await expect(submit).toBeDisabled()
    await expect(page.locator('#group-submit-reason')).toContainText(reason!)
    await expect(idField(page)).toHaveAttribute('aria-invalid', 'true')
  }
  await checkScreen(page, 'groups-id-refused')
  await idField(page).fill('')
})

test('the catalog is one Tab stop: arrow keys move inside it and Enter opens a group, with a visible ring', async ({ page }) => {
  await page.goto(own.app.url)
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption('groupId:asc')
  const list = page.getByRole('listbox', { name: 'Groups' })
  // The list is a Tab stop once it shows a row (before the first page comes it has none to point
  // at): the Tab is pressed once the rows of the new order are there.
  await expect(list.getByRole('option').first()).toBeVisible()
  await expect(list).toHaveAttribute('aria-busy', 'false')
  await page.getByRole('combobox', { name: 'Sort by' }).focus()
  await page.keyboard.press('Tab')
  await expect(list).toBeFocused()
  expect(await list.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe('none')
  await expect(list).toHaveAttribute('aria-activedescendant', 'catalog-option-0')
  await page.keyboard.press('ArrowDown')
  await expect(list).toHaveAttribute('aria-activedescendant', 'catalog-option-1')
  await page.keyboard.press('End')
  await page.keyboard.press('Home')
  await expect(list).toHaveAttribute('aria-activedescendant', 'catalog-option-0')
  await checkScreen(page, 'groups-catalog-keyboard')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('tab', { name: 'Update' })).toHaveAttribute('aria-selected', 'true')
  await expect(idField(page)).toHaveValue('ctrl-enter-1')
  // One stop: the next Tab leaves the list for the operation tabs.
  await list.focus()
  await page.keyboard.press('Tab')
  // The highlighted group's history is the one stop after the list.
  await expect(page.getByRole('button', { name: /^History of / })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('tab', { name: 'Update' })).toBeFocused()
})

test('toasts sit in their own row and never cover the result’s buttons', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto(own.app.url)
  await idField(page).fill('toast-check')
  await page.getByRole('button', { name: /^Get or create in / }).click()
  await expect(result(page)).toContainText('Get or create succeeded')
  await result(page).getByText('Code for this call').click()
  await result(page).getByRole('combobox', { name: 'Language' }).selectOption('python')
  await result(page).getByRole('button', { name: 'Copy as Python' }).click()
  const toast = page
    .getByRole('status', { name: 'Notifications' })
    .getByText('Copied as Python. Set EMBED_CONSOLE_TOKEN in your environment to run it.')
  await expect(toast).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('import requests')
  // Every button of the result, scrolled into view while the toast shows, is the element at its
  // own centre: nothing lies over it.
  for (const button of await result(page).getByRole('button').all()) {
    await button.scrollIntoViewIfNeeded()
    await expect(toast).toBeVisible()
    const onTop = await button.evaluate((element) => {
      const box = element.getBoundingClientRect()
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
      return top !== null && element.contains(top)
    })
    expect(onTop, (await button.textContent()) ?? '').toBe(true)
  }
  const toastBox = (await toast.boundingBox())!
  const main = (await page.locator('.app-main').boundingBox())!
  expect(toastBox.y).toBeGreaterThanOrEqual(main.y + main.height - 1)
})

test('the rotation’s code names both variables, and puts the token where the shell expands it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto(own.app.url)
  await page.getByRole('tab', { name: 'Rotate token' }).click()
  await page.getByLabel('Group', { exact: true }).fill('toast-check')
  await page.getByRole('button', { name: /^Rotate token in .*…$/ }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate token', exact: true }).click()
  await expect(result(page)).toContainText('Token rotation succeeded')
  await result(page).getByText('Code for this call').click()
  await result(page).getByRole('button', { name: 'Copy as curl' }).click()
  await expect(
    page.getByText('Copied as curl. Set EMBED_CONSOLE_TOKEN and CURRENT_GROUP_TOKEN in your environment to run it.'),
  ).toBeVisible()
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toContain('--data "{\\"current_token\\": \\"$CURRENT_GROUP_TOKEN\\"}"')
  expect(copied).not.toContain("'$CURRENT_GROUP_TOKEN")
})

test('a Customer profile tints the header and asks once per session before the first write; the sandbox never asks', async ({ page }) => {
  await page.goto(own.app.url)
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Profiles' }).click()
  await page.getByRole('button', { name: 'New profile' }).click()
  const form = page.getByRole('form', { name: 'New profile' })
  await form.getByLabel('Name', { exact: true }).fill('Production')
  await form.getByLabel('Base URL').fill(own.sandbox.baseUrl)
  await form.getByLabel('API token').fill(own.sandbox.tokens.Customer)
  await expect(form.getByRole('radio', { name: /^Customer \(production\)/ })).toBeChecked()
  await form.getByLabel('For this session only').check()
  await form.getByRole('button', { name: 'Create profile' }).click()
  await expect(page.getByRole('listitem', { name: 'Production' })).toContainText('Customer · production')

  const switcher = page.getByRole('combobox', { name: 'Active profile' })
  await switcher.selectOption({ label: 'Production' })
  await expect(page.locator('.app-header')).toHaveClass(/app-header--customer/)
  await expect(page.getByTestId('environment-kind')).toHaveText('Customer · production')
  await page.keyboard.press('Control+1')
  await idField(page).fill('prod-1')
  await page.getByRole('button', { name: /^Get or create in / }).click()
  const ask = page.getByRole('dialog', { name: 'Write to a Customer (production) environment?' })
  await expect(ask).toContainText('You are about to get or create through “Production”, a Customer (production) profile')
  await checkScreen(page, 'groups-customer-confirm')
  await ask.getByRole('button', { name: 'Cancel' }).click()
  await expect(result(page)).toHaveCount(0)
  await page.getByRole('button', { name: /^Get or create in / }).click()
  await ask.getByRole('button', { name: 'Continue' }).click()
  await expect(result(page)).toContainText('Get or create succeeded')
  await checkScreen(page, 'groups-customer')
  // Asked once this session: the next write goes straight through.
  await idField(page).fill('prod-2')
  await page.getByRole('button', { name: /^Get or create in / }).click()
  await expect(result(page)).toContainText('prod-2')
  await expect(ask).toBeHidden()

  await switcher.selectOption({ label: 'Local sandbox' })
  await expect(page.locator('.app-header')).not.toHaveClass(/app-header--customer/)
  await idField(page).fill('sandbox-1')
  await page.getByRole('button', { name: /^Get or create in / }).click()
  await expect(result(page)).toContainText('sandbox-1')
  await expect(ask).toBeHidden()
})

test('an Activity row opens its request and redacted response; Open in form and Run again', async ({ page }) => {
  await page.goto(own.app.url)
  await page.keyboard.press('Control+4')
  const table = page.getByRole('table', { name: 'API calls' })
  await table
    .getByRole('button', { name: /for existing-1$/ })
    .first()
    .click()
  const drawer = page.getByRole('dialog', { name: /^Update · / })
  await expect(drawer.getByRole('region', { name: 'Request' })).toContainText('"name": "Second name"')
  await expect(drawer.getByRole('region', { name: 'Response' })).toContainText('"token": "[redacted]"')
  await checkScreen(page, 'activity-call')
  await drawer.getByRole('button', { name: 'Open in form' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible()
  await expect(page.getByRole('tab', { name: 'Update' })).toHaveAttribute('aria-selected', 'true')
  await expect(idField(page)).toHaveValue('existing-1')
  await expect(nameField(page)).toHaveValue('Second name')

  await page.keyboard.press('Control+4')
  await table
    .getByRole('button', { name: /for ctrl-enter-1$/ })
    .first()
    .click()
  await page.getByRole('dialog').getByRole('button', { name: 'Run again' }).click()
  await expect(result(page)).toContainText('Get or create succeeded')
  await expect(result(page)).toContainText('ctrl-enter-1')

  // A rotation is never re-run: it reopens its confirmation, with the token kept now.
  await page.keyboard.press('Control+4')
  // Counted once the run-again call is listed (newest first), not from the list as it was.
  await expect(table.getByRole('row').nth(1)).toContainText('ctrl-enter-1')
  const calls = await table.getByRole('row').count()
  await table
    .getByRole('button', { name: /for toast-check$/ })
    .first()
    .click()
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate again…' }).click()
  const confirm = page.getByRole('dialog', { name: 'Rotate this group’s token?' })
  await expect(confirm).toContainText('toast-check')
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await page.keyboard.press('Control+4')
  await expect(table.getByRole('row')).toHaveCount(calls)
})

test('the layout holds at 800, 1280 and 1920 px, light and dark, with long ids and names', async ({ page }) => {
  const longId = `long-${'x'.repeat(180)}`
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(own.app.url)
  await page.getByRole('combobox', { name: 'Active profile' }).selectOption({ label: 'Local sandbox' })
  await idField(page).fill(longId)
  await nameField(page).fill('A name that goes on and on '.repeat(12))
  await page.getByRole('button', { name: /^Get or create in / }).click()
  await expect(result(page)).toContainText('Get or create succeeded')
  await result(page).getByText('Raw response').click()
  await result(page).getByText('Code for this call').click()
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const width of [800, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 })
      await page.keyboard.press('Control+1')
      await expect(result(page)).toBeVisible()
      const overflow = await page.evaluate(() => {
        const main = document.querySelector('.app-main')!
        return { page: document.documentElement.scrollWidth - window.innerWidth, main: main.scrollWidth - main.clientWidth }
      })
      expect(overflow, `${width} ${scheme}`).toEqual({ page: 0, main: 0 })
      for (const box of await result(page).locator('pre, code, dd').all()) {
        const inner = await box.evaluate((element) => {
          const own = element.getBoundingClientRect()
          const panel = element.closest('.result')!.getBoundingClientRect()
          return own.right <= panel.right + 1
        })
        expect(inner, `${width} ${scheme}`).toBe(true)
      }
      await result(page).scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${SCREENSHOT_DIR}/groups-${width}-${scheme}.png`, fullPage: true })
      await page.keyboard.press('Control+4')
      await expect(page.getByRole('table', { name: 'API calls' })).toBeVisible()
      expect(
        await page.evaluate(() => document.querySelector('.app-main')!.scrollWidth - document.querySelector('.app-main')!.clientWidth),
        `activity ${width} ${scheme}`,
      ).toBe(0)
      await page.screenshot({ path: `${SCREENSHOT_DIR}/activity-${width}-${scheme}.png`, fullPage: true })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
})

test('the rotation picker offers only groups whose token is still kept, and says so before any confirmation', async ({ page }) => {
  // The Local sandbox keeps its group tokens for the session only: after a restart the catalog
  // still lists the group, but its token is gone.
  const dataDir = await mkdtemp(join(tmpdir(), 'ec-e2e-lost-token-'))
  const first = await launchBrowserMode(dataDir)
  try {
    await page.goto(first.url)
    await idField(page).fill('kept-then-lost')
    await page.getByRole('button', { name: /^Get or create in / }).click()
    await expect(result(page)).toContainText('Get or create succeeded')
  } finally {
    await first.stop()
  }
  const second = await launchBrowserMode(dataDir)
  try {
    await page.goto(second.url)
    await idField(page).fill('kept-now')
    await page.getByRole('button', { name: /^Get or create in / }).click()
    await expect(result(page)).toContainText('Get or create succeeded')
    await page.getByRole('tab', { name: 'Rotate token' }).click()
    // The tab opens on the group selected in the catalog; cleared, it offers what it can rotate and says what it cannot.
    await expect(page.getByLabel('Group', { exact: true })).toHaveValue('kept-now')
    await page.getByLabel('Group', { exact: true }).fill('')
    await expect(page.getByText('1 known group has no kept token and is not offered: paste its current token instead.')).toBeVisible()
    const offered = await page
      .locator('#rotation-choices option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))
    expect(offered).toEqual(['kept-now'])
    await page.getByLabel('Group', { exact: true }).fill('kept-then-lost')
    await expect(page.locator('#rotate-submit-reason')).toContainText('No token is kept for “kept-then-lost”')
    await expect(page.getByRole('button', { name: /^Rotate token in .*…$/ })).toBeDisabled()
    await checkScreen(page, 'groups-rotate-token-not-kept')
  } finally {
    await second.stop()
  }
})
