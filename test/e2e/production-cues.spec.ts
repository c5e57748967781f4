import type { Locator, Page } from '@playwright/test'
import { expect, test } from './browser-mode'
import { idField, ownAppAndSandbox, result } from './groups-page'
import { checkScreen } from './screens'

// Where the next write goes is unmistakable wherever the operator looks: the header, the send
// button, the status bar. The built-in sandbox is a sandbox, never "Customer".
test.describe.configure({ mode: 'serial' })

const own = ownAppAndSandbox('ec-e2e-production-')
const switcher = (page: Page) => page.getByRole('combobox', { name: 'Active profile' })
const statusBar = (page: Page) => page.getByRole('contentinfo', { name: 'Status' })
const sendButton = (page: Page) => page.getByRole('button', { name: /^Get or create in / })

/** WCAG's contrast ratio of an element's text against its own background. */
const contrastOf = (locator: Locator) =>
  locator.evaluate((element) => {
    const style = getComputedStyle(element)
    const luminance = (color: string) => {
      const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((value) => {
        const channel = Number(value) / 255
        return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
      })
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
    }
    const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a)
    return (light! + 0.05) / (dark! + 0.05)
  })

const backgroundOf = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).backgroundColor)

test('the built-in sandbox and its groups say Sandbox, and writes there say they stay on this machine', async ({ page }) => {
  await page.goto(own.app.url)
  await expect(switcher(page).locator('option:checked')).toHaveText('Local sandbox')
  await expect(page.getByTestId('environment-kind')).toHaveText('Sandbox')
  await idField(page).fill('sandbox-group')
  await sendButton(page).click()
  await expect(result(page)).toContainText('Get or create succeeded')
  await expect(result(page).getByText('Sandbox', { exact: true })).toBeVisible()
  const row = page.getByRole('listbox', { name: 'Groups' }).getByRole('option', { name: /sandbox-group/ })
  await expect(row).toContainText('Sandbox')
  await expect(row).not.toContainText('Customer')
  await expect(statusBar(page)).toContainText('Writes go to the local sandbox, on this machine')
  expect(await backgroundOf(sendButton(page))).toBe('rgb(52, 81, 209)')
  await checkScreen(page, 'groups-sandbox-cues')
})

test('a Customer profile colours the send button and the status bar, with a readable badge and a name not cut short', async ({ page }) => {
  await page.goto(own.app.url)
  const created = await page.evaluate(
    async (body) =>
      (
        await fetch('/ipc/profiles.create', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      ).json() as Promise<{ ok: boolean }>,
    {
      name: 'Acme Production',
      environmentLabel: 'Production EU',
      environmentKind: 'customer',
      baseUrl: own.sandbox.baseUrl,
      apiToken: own.sandbox.tokens.Customer,
      tokenStorage: 'session',
    },
  )
  expect(created).toMatchObject({ ok: true })
  await page.reload()
  await switcher(page).selectOption({ label: 'Acme Production · Production EU' })
  const badge = page.getByTestId('environment-kind')
  await expect(badge).toHaveText('Customer · production')
  expect(await contrastOf(badge)).toBeGreaterThanOrEqual(4.5)
  // The chosen profile's whole name shows: the select is not narrower than its text.
  expect(await switcher(page).evaluate((select) => select.scrollWidth <= select.clientWidth)).toBe(true)
  await expect(statusBar(page)).toContainText(`Writes go to production: “Acme Production” at ${new URL(own.sandbox.baseUrl).host}`)
  await expect(statusBar(page)).not.toContainText('Local sandbox')
  expect(await contrastOf(statusBar(page).getByText(/^Writes go to production/))).toBeGreaterThanOrEqual(4.5)
  await idField(page).fill('production-group')
  await expect(sendButton(page)).toHaveText('Get or create in Acme Production')
  expect(await backgroundOf(sendButton(page))).toBe('rgb(179, 38, 30)')
  expect(await contrastOf(sendButton(page))).toBeGreaterThanOrEqual(4.5)
  await checkScreen(page, 'groups-production-cues')
  await page.emulateMedia({ colorScheme: 'dark' })
  expect(await contrastOf(badge)).toBeGreaterThanOrEqual(4.5)
  expect(await contrastOf(sendButton(page))).toBeGreaterThanOrEqual(4.5)
  await checkScreen(page, 'groups-production-cues-dark')
})
