import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { startSandbox } from '../../src-main/sandbox/sandbox-server'
import { type BrowserModeApp, expect, launchBrowserMode, openSession, type SessionApp, sessionCookie, test } from './browser-mode'
import { checkScreen } from './screens'

// One story, in order: the steps share an app of their own (with its local sandbox, preselected),
// so the groups they create stay out of the other files' shared app.
test.describe.configure({ mode: 'serial' })

let own: BrowserModeApp & SessionApp & { stop(): Promise<void> }
test.beforeAll(async () => {
  // Its key opens one session: each step's page joins it with the session cookie.
  own = await openSession(await launchBrowserMode())
})
test.afterAll(() => own.stop())
test.beforeEach(({ context }) => context.addCookies([sessionCookie(own)]))

const csv = (rows: string[]) => Buffer.from(['user_group_id,name,properties', ...rows].join('\n'))
const rows = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, index) => `${prefix}-${index},Customer ${index},"{""seats"": ${index}}"`)

async function openBulk(page: Page, url: string) {
  await page.goto(url)
  await page.keyboard.press('ControlOrMeta+5')
  await expect(page.getByRole('heading', { name: 'Bulk runs', level: 1 })).toBeVisible()
}

test('a file with problems lists them by line and column, sends nothing, and can leave them out', async ({ page }) => {
  await openBulk(page, own.url)
  await checkScreen(page, 'bulk-empty')
  await page
    .getByLabel('File of groups')
    .setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: csv([...rows(40, 'acme'), 'acme-3,Again,', ',No id,']) })
  const problems = page.getByRole('table', { name: 'Problems' })
  await expect(problems.getByRole('row')).toHaveCount(3)
  await expect(problems).toContainText('"acme-3" is on line 5 too: each id may be in the file once.')
  await expect(problems).toContainText('user_group_id: a non-empty string is required.')
  await expect(page.getByRole('alert')).toContainText(
    'customers.csv has 2 problems. Nothing is sent until they are fixed in the file, or left out.',
  )
  await checkScreen(page, 'bulk-problems')

  await page.getByRole('button', { name: 'Leave the 2 out and plan the 40 valid rows' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Plan for customers.csv' })).toContainText('40 new, 0 changed, 0 unchanged')
  // The rows themselves, before anything is sent: line, id and what will be done.
  const planned = page.getByRole('table', { name: 'Planned rows' })
  await expect(planned.getByRole('row')).toHaveCount(41)
  await expect(planned.getByRole('row').nth(1)).toHaveText(/^2\s*acme-0\s*New$/)
  await checkScreen(page, 'bulk-planned')
  await expect(page.getByLabel('Requests a minute')).toHaveValue('')
  await page.getByRole('button', { name: 'Send 40 rows' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Finished.' })).toBeVisible()
  await expect(page.getByRole('progressbar', { name: 'Rows sent' })).toHaveAttribute('value', '40')
  await expect(page.getByRole('table', { name: 'Rows of the run' }).getByText('Created')).toHaveCount(40)
  await checkScreen(page, 'bulk-finished')
  await page.setViewportSize({ width: 800, height: 900 })
  await page.emulateMedia({ colorScheme: 'dark' })
  await checkScreen(page, 'bulk-finished-800-dark')
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.emulateMedia({ colorScheme: 'light' })

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download CSV' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe('customers-results.csv')
  const text = await readFile(await file.path(), 'utf8')
  expect(text.split('\n')[0]).toBe('line,user_group_id,action,outcome,http_status,message,token_last4')
  expect(text.trim().split('\n')).toHaveLength(41)
})

test('a second file is planned against the catalog: changed rows are updates, the rest unchanged', async ({ page }) => {
  await openBulk(page, own.url)
  const changed = rows(40, 'acme').map((row, index) => (index < 5 ? row.replace('Customer', 'Renamed') : row))
  await page
    .getByLabel('File of groups')
    .setInputFiles({ name: 'again.csv', mimeType: 'text/csv', buffer: csv([...changed, 'fresh-1,Fresh,']) })
  await expect(page.getByRole('status').filter({ hasText: 'Plan for again.csv' })).toContainText('1 new, 5 changed, 35 unchanged')
  await checkScreen(page, 'bulk-plan')
  await page.getByLabel('Get or create the 1 new ids').uncheck()
  await page.getByRole('button', { name: 'Send 5 rows' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Finished.' })).toBeVisible()
  await page.getByRole('combobox', { name: 'Outcome' }).selectOption('updated')
  await expect(page.getByRole('table', { name: 'Rows of the run' }).getByRole('row')).toHaveCount(6)
  await page.getByRole('combobox', { name: 'Outcome' }).selectOption('skipped')
  await expect(page.getByRole('table', { name: 'Rows of the run' })).toContainText('fresh-1')
})

test('pause lets the requests in flight finish, resume goes on, cancel skips the rest', async ({ page }) => {
  await openBulk(page, own.url)
  await page.getByLabel('File of groups').setInputFiles({ name: 'slow.csv', mimeType: 'text/csv', buffer: csv(rows(300, 'slow')) })
  // The planned rows come 200 at a time, the rest on request.
  const planned = page.getByRole('table', { name: 'Planned rows' })
  await expect(planned.getByRole('row')).toHaveCount(201)
  await page.getByRole('button', { name: 'Show 200 more rows' }).click()
  await expect(planned.getByRole('row')).toHaveCount(301)
  await expect(page.getByRole('button', { name: 'Show 200 more rows' })).toHaveCount(0)
  await page.getByLabel('Requests a minute').fill('600')
  await page.getByRole('button', { name: 'Send 300 rows' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Sending…' })).toBeVisible()
  await page.getByRole('button', { name: 'Pause' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Paused' })).toBeVisible()
  await checkScreen(page, 'bulk-paused')
  const sentWhenPaused = Number(await page.getByRole('progressbar', { name: 'Rows sent' }).getAttribute('value'))
  expect(sentWhenPaused).toBeGreaterThan(0)
  expect(sentWhenPaused).toBeLessThan(300)
  await page.getByRole('button', { name: 'Resume' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Sending…' })).toBeVisible()
  await page.getByRole('button', { name: 'Cancel run…' }).click()
  await page.getByRole('dialog', { name: 'Cancel this run?' }).getByRole('button', { name: 'Cancel run' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Cancelled' })).toBeVisible()
  await expect(page.getByRole('table', { name: 'Bulk runs' }).getByRole('row')).toHaveCount(4)
  // So do the run's rows, sent and skipped alike.
  const sent = page.getByRole('table', { name: 'Rows of the run' })
  await expect(sent.getByRole('row')).toHaveCount(201)
  await page.getByRole('button', { name: 'Show 200 more rows' }).click()
  await expect(sent.getByRole('row')).toHaveCount(301)
  await expect(sent).toContainText('slow-299')
})

test('a run through a Customer (production) profile asks first, every time, naming the profile', async ({ page }) => {
  const sandbox = await startSandbox({ dataFile: join(await mkdtemp(join(tmpdir(), 'ec-e2e-bulk-prod-')), 'sandbox.db') })
  try {
    await page.goto(own.url)
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Profiles' }).click()
    await page.getByRole('button', { name: 'New profile' }).click()
    const form = page.getByRole('form', { name: 'New profile' })
    await form.getByLabel('Name', { exact: true }).fill('Production')
    await form.getByLabel('Base URL').fill(sandbox.baseUrl)
    await form.getByLabel('API token').fill(sandbox.tokens.Customer)
    await form.getByLabel('For this session only').check()
    await form.getByRole('button', { name: 'Create profile' }).click()
    await page.getByRole('listitem', { name: 'Production' }).getByRole('button', { name: 'Use this profile' }).click()
    await expect(page.getByTestId('environment-kind')).toContainText('Customer')

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Bulk runs' }).click()
    await page.getByLabel('File of groups').setInputFiles({ name: 'prod.csv', mimeType: 'text/csv', buffer: csv(rows(3, 'prod')) })
    // A real API gets 120 a minute unless the operator says otherwise.
    await expect(page.getByLabel('Requests a minute')).toHaveValue('120')
    await page.getByLabel('Requests a minute').fill('')
    await page.getByRole('button', { name: 'Send 3 rows' }).click()
    const dialog = page.getByRole('dialog', { name: 'Send 3 rows to production?' })
    await expect(dialog).toContainText('“Production” is a Customer (production) profile')
    await checkScreen(page, 'bulk-customer-confirm')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Plan for prod.csv' })).toBeVisible()
    await page.getByRole('button', { name: 'Send 3 rows' }).click()
    await page.getByRole('dialog', { name: 'Send 3 rows to production?' }).getByRole('button', { name: 'Send to production' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Finished.' })).toBeVisible()
  } finally {
    await sandbox.close()
  }
})
