import type { Page } from '@playwright/test'
import { expect, test } from './browser-mode'
import { editor, idField, nameField, ownAppAndSandbox, result, setEditorText } from './groups-page'
import { checkScreen } from './screens'

// What the operator sees and sends belongs to the profile and environment they think.
// One app and one sandbox for the file, the steps in order.
test.describe.configure({ mode: 'serial' })

const own = ownAppAndSandbox('ec-e2e-right-target-')
const switcher = (page: Page) => page.getByRole('combobox', { name: 'Active profile' })

/** The text an editor shows: Monaco's lines once it took over, else the light view's. */
const editorText = (page: Page, field: 'mapping' | 'properties') =>
  page
    .locator('.field')
    .filter({ has: page.getByText(field, { exact: true }) })
    .evaluate((element) =>
      (element.querySelector('.view-lines')?.textContent ?? element.querySelector('textarea')?.value ?? '').replace(/\u00a0/g, ' '),
    )

/** Replaces the text of the mapping or properties editor in one insertion. */
const setText = (page: Page, field: 'mapping' | 'properties', text: string) => setEditorText(page, editor(page, field), text)

/** A saved profile, made through the app's own call (the Profiles screen is tested elsewhere). */
async function createProfile(page: Page, draft: { name: string; apiToken: string; environmentKind: 'customer' | 'testing' }) {
  const answer = await page.evaluate(
    async (body) =>
      (
        await fetch('/ipc/profiles.create', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      ).json(),
    { ...draft, baseUrl: own.sandbox.baseUrl, tokenStorage: 'session' },
  )
  expect(answer).toMatchObject({ ok: true })
}

async function useProfile(page: Page, name: string) {
  await switcher(page).selectOption({ label: name })
  await expect(page.getByRole('button', { name: new RegExp(`^Get or create in ${name}$`) })).toBeVisible()
}

test('a profile marked Testing that holds a Customer token is called out on its first call, asks before the next, and can be corrected', async ({
  page,
}) => {
  await page.goto(own.app.url)
  await createProfile(page, { name: 'Bravo', apiToken: own.sandbox.tokens.Customer, environmentKind: 'testing' })
  await page.reload()
  await useProfile(page, 'Bravo')
  await expect(page.getByTestId('environment-kind')).toHaveText('Testing')

  await idField(page).fill('bravo-1')
  await page.getByRole('button', { name: 'Get or create in Bravo' }).click()
  await expect(result(page).getByRole('heading', { level: 2 })).toContainText('Get or create succeeded in “Bravo”')
  const warning = result(page).getByRole('alert').filter({ hasText: 'is marked Testing' })
  await expect(warning).toContainText('“Bravo” is marked Testing, but the server put the group in Customer.')
  // The server's word now stands: the header says so, and the next write asks like a Customer profile's.
  await expect(page.getByTestId('environment-kind')).toHaveText('Marked Testing · the server writes Customer')
  await expect(page.locator('.app-header')).toHaveClass(/app-header--customer/)
  await checkScreen(page, 'groups-environment-mismatch')

  await idField(page).fill('bravo-2')
  await page.getByRole('button', { name: 'Get or create in Bravo' }).click()
  const ask = page.getByRole('dialog', { name: 'Write to a Customer (production) environment?' })
  await expect(ask).toContainText('through “Bravo”, marked Testing but whose server put its groups in Customer (production)')
  await checkScreen(page, 'groups-environment-mismatch-confirm')
  await ask.getByRole('button', { name: 'Cancel' }).click()
  await expect(result(page)).toContainText('bravo-1')

  // The activity entry says it too.
  await page.keyboard.press('Control+4')
  await page
    .getByRole('table', { name: 'API calls' })
    .getByRole('button', { name: /for bravo-1$/ })
    .click()
  const drawer = page.getByRole('dialog', { name: /^Get or create · / })
  await expect(drawer).toContainText('“Bravo” is marked Testing, but the server put the group in Customer.')
  await checkScreen(page, 'activity-environment-mismatch')
  await drawer.getByRole('button', { name: 'Close' }).click()

  // Corrected from the result: the profile is a Customer one now, and says so.
  await page.keyboard.press('Control+1')
  await result(page).getByRole('button', { name: 'Mark “Bravo” as Customer' }).click()
  await expect(page.getByTestId('environment-kind')).toHaveText('Customer · production')
  await expect(result(page).getByRole('button', { name: 'Mark “Bravo” as Customer' })).toHaveCount(0)
})

test('each profile has its own form, chosen group and result, titled with its profile; the send button names where it goes', async ({
  page,
}) => {
  await page.goto(own.app.url)
  await createProfile(page, { name: 'Alpha', apiToken: own.sandbox.tokens.Testing, environmentKind: 'testing' })
  await page.reload()
  await useProfile(page, 'Alpha')
  await idField(page).fill('alpha-1')
  await nameField(page).fill('Alpha’s group')
  await setText(page, 'mapping', '{"schema-a": "warehouse-a"}')
  await page.getByRole('button', { name: 'Get or create in Alpha' }).click()
  await expect(result(page).getByRole('heading', { level: 2 })).toContainText('in “Alpha”')
  await idField(page).fill('alpha-typed-not-sent')

  // Bravo shows its own: nothing yet, an empty form, no group chosen.
  await useProfile(page, 'Bravo')
  await expect(result(page)).toHaveCount(0)
  await expect(page.getByText('The result of a call through “Bravo” shows here')).toBeVisible()
  await expect(idField(page)).toHaveValue('')
  await expect(nameField(page)).toHaveValue('')
  await expect.poll(() => editorText(page, 'mapping')).toBe('')
  await expect(page.getByRole('listbox', { name: 'Groups' }).getByRole('option', { selected: true })).toHaveCount(0)
  await checkScreen(page, 'groups-other-profile')
  await idField(page).fill('bravo-own')
  await page.getByRole('button', { name: 'Get or create in Bravo' }).click()
  await page
    .getByRole('dialog', { name: 'Write to a Customer (production) environment?' })
    .getByRole('button', { name: 'Continue' })
    .click()
  await expect(result(page).getByRole('heading', { level: 2 })).toContainText('in “Bravo”')

  // Back to Alpha: everything as it was left, the typed id included, and Alpha's result.
  await useProfile(page, 'Alpha')
  await expect(result(page).getByRole('heading', { level: 2 })).toContainText('in “Alpha”')
  await expect(result(page)).toContainText('alpha-1')
  await expect(idField(page)).toHaveValue('alpha-typed-not-sent')
  await expect.poll(() => editorText(page, 'mapping')).toBe('{"schema-a": "warehouse-a"}')
  await expect(page.getByRole('listbox', { name: 'Groups' }).getByRole('option', { selected: true })).toHaveCount(0)
  // The editors, loaded, pass axe in the dark too.
  await page.emulateMedia({ colorScheme: 'dark' })
  await checkScreen(page, 'groups-editors-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await useProfile(page, 'Bravo')
  await expect(result(page)).toContainText('bravo-own')
  await expect(result(page)).not.toContainText('alpha-1')
})

test('Run again and Open in form replace the whole form with the call: what it did not send is emptied', async ({ page }) => {
  await page.goto(own.app.url)
  await useProfile(page, 'Alpha')
  // A call that sent only an id…
  await idField(page).fill('bare-call')
  await nameField(page).fill('')
  await setText(page, 'mapping', '')
  await page.getByRole('button', { name: 'Get or create in Alpha' }).click()
  await expect(result(page)).toContainText('bare-call')
  // …then one that sent everything, and the form left on another tab.
  await idField(page).fill('full-call')
  await nameField(page).fill('Full')
  await setText(page, 'mapping', '{"schema-f": "full"}')
  await setText(page, 'properties', '{"plan": "full"}')
  await page.getByRole('button', { name: 'Get or create in Alpha' }).click()
  await expect(result(page)).toContainText('full-call')
  await page.getByRole('tab', { name: 'Update' }).click()

  await page.keyboard.press('Control+4')
  const table = page.getByRole('table', { name: 'API calls' })
  await table
    .getByRole('button', { name: /for bare-call$/ })
    .first()
    .click()
  await page.getByRole('dialog').getByRole('button', { name: 'Open in form' }).click()
  await expect(page.getByRole('tab', { name: 'Get or create' })).toHaveAttribute('aria-selected', 'true')
  await expect(idField(page)).toHaveValue('bare-call')
  await expect(nameField(page)).toHaveValue('')
  await expect.poll(() => editorText(page, 'mapping')).toBe('')
  await expect.poll(() => editorText(page, 'properties')).toBe('')

  // The form is one for both tabs: what is typed under Update is what Get or create shows.
  await page.getByRole('tab', { name: 'Update' }).click()
  await setText(page, 'properties', '{"typed": "under update"}')
  await page.getByRole('tab', { name: 'Get or create' }).click()
  await expect.poll(() => editorText(page, 'properties')).toBe('{"typed": "under update"}')

  // Run again the same way: the form shows the call it sent, nothing of the one before.
  await setText(page, 'properties', '{"typed": "after"}')
  await page.keyboard.press('Control+4')
  await table
    .getByRole('button', { name: /for bare-call$/ })
    .first()
    .click()
  await page.getByRole('dialog').getByRole('button', { name: 'Run again' }).click()
  await expect(result(page)).toContainText('bare-call')
  await expect.poll(() => editorText(page, 'properties')).toBe('')
  await expect.poll(() => editorText(page, 'mapping')).toBe('')
})

test('select-all then typing in a JSON editor replaces the text, leaving nothing behind', async ({ page }) => {
  await page.goto(own.app.url)
  await useProfile(page, 'Alpha')
  await setText(page, 'properties', '{"old": "value"}')
  await editor(page, 'properties').focus()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.type('{"plan": "pro"}')
  await expect.poll(() => editorText(page, 'properties')).toBe('{"plan": "pro"}')
  await setText(page, 'properties', '')
})

test('Activity finds calls by any part of a group id, a group name or an error, and a group of the catalog opens its history', async ({
  page,
}) => {
  await page.goto(own.app.url)
  await useProfile(page, 'Alpha')
  for (const [id, name] of [
    ['north-wind-1', 'Café Crème'],
    ['north-wind-10', 'Other'],
  ]) {
    await idField(page).fill(id!)
    await nameField(page).fill(name!)
    await page.getByRole('button', { name: 'Get or create in Alpha' }).click()
    await expect(result(page)).toContainText(id!)
  }
  await page.getByRole('tab', { name: 'Update' }).click()
  await idField(page).fill('never-created')
  await page.getByRole('button', { name: 'Update in Alpha' }).click()
  await expect(result(page)).toContainText('Update failed')

  await page.keyboard.press('Control+4')
  const table = page.getByRole('table', { name: 'API calls' })
  const search = page.getByRole('searchbox', { name: 'Search' })
  await search.fill('creme')
  await expect(table.getByRole('row')).toHaveCount(2)
  await expect(table).toContainText('north-wind-1')
  await search.fill('WIND-1')
  await expect(table.getByRole('row')).toHaveCount(3)
  // By the error's words, whatever the id.
  const error = (await table.getByRole('row').nth(1).textContent()) ?? ''
  await search.fill('no user group')
  await expect(table).toContainText('never-created')
  await expect(table).not.toContainText('north-wind')
  expect(error).toContain('north-wind-10')
  await checkScreen(page, 'activity-search')
  await page.getByRole('button', { name: 'Clear filters' }).click()

  // From a group of the catalog to its calls, and only its own (not north-wind-10's).
  await page.keyboard.press('Control+1')
  await page.getByRole('searchbox', { name: 'Search groups by id or name' }).fill('north-wind-1')
  await page
    .getByRole('listbox', { name: 'Groups' })
    .getByRole('option', { name: /^north-wind-1 / })
    .click()
  await page.getByRole('button', { name: 'History of north-wind-1' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: 'History of north-wind-1 through “Alpha”' })).toBeVisible()
  await expect(table.getByRole('row')).toHaveCount(2)
  await expect(table).not.toContainText('north-wind-10')
  await checkScreen(page, 'activity-history')
  await page.getByRole('button', { name: 'Show every group' }).click()
  await expect(table).toContainText('north-wind-10')
})

test('a token too short to show its end is said so, never as question marks', async ({ page }) => {
  await page.goto(own.app.url)
  await createProfile(page, { name: 'Short token', apiToken: 'short-tok', environmentKind: 'testing' })
  await page.keyboard.press('Control+2')
  const card = page.getByRole('listitem', { name: 'Short token' })
  await expect(card).toContainText('Token set, too short to show any of it')
  await expect(card).not.toContainText('?')
  await card.getByRole('button', { name: 'Edit' }).click()
  const form = page.getByRole('form', { name: 'Edit profile Short token' })
  await expect(form).toContainText('Set, too short to show any of it.')
  await expect(form).not.toContainText('?')
  await expect(form.getByRole('textbox', { name: 'API token' })).toHaveAttribute('placeholder', '')
})

test('after a cancel, a bulk run counts the rows it sent, not the ones it skipped', async ({ page }) => {
  await page.goto(own.app.url)
  await useProfile(page, 'Alpha')
  await page.keyboard.press('Control+5')
  const rows = Array.from({ length: 200 }, (_, index) => `cancel-${index},Row ${index},`)
  await page
    .getByLabel('File of groups')
    .setInputFiles({ name: 'cancel.csv', mimeType: 'text/csv', buffer: Buffer.from(['user_group_id,name,properties', ...rows].join('\n')) })
  await page.getByLabel('Requests a minute').fill('300')
  await page.getByRole('button', { name: 'Send 200 rows' }).click()
  const progress = page.getByRole('progressbar', { name: 'Rows sent' })
  await expect.poll(async () => Number(await progress.getAttribute('value'))).toBeGreaterThan(0)
  await page.getByRole('button', { name: 'Cancel run…' }).click()
  await expect(page.getByRole('dialog', { name: 'Cancel this run?' })).toBeVisible()
  await checkScreen(page, 'bulk-cancel-question')
  await page.getByRole('dialog', { name: 'Cancel this run?' }).getByRole('button', { name: 'Cancel run' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Cancelled' })).toBeVisible()
  const sent = Number(await progress.getAttribute('value'))
  expect(sent).toBeGreaterThan(0)
  expect(sent).toBeLessThan(200)
  await expect(page.locator('.bulk-progress__numbers')).toContainText(`${sent} of 200 · 0 failed · `)
  await expect(page.locator('.bulk-progress__numbers')).toContainText(`${200 - sent} not sent`)
  await checkScreen(page, 'bulk-cancelled')
  // Read back from the journal after a reload, the same.
  await page.reload()
  await page.keyboard.press('Control+5')
  await page
    .getByRole('table', { name: 'Bulk runs' })
    .getByRole('button', { name: /cancel\.csv/ })
    .first()
    .click()
  await expect(progress).toHaveAttribute('value', String(sent))
  await expect(page.locator('.bulk-progress__numbers')).toContainText(`${200 - sent} not sent`)
})
