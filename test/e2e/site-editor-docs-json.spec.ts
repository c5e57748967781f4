import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './browser-mode'
import { checkScreen } from './screens'

// docs.json in the site editor, in order: detected, checked by Mintlify's rules, its navigation
// edited as a tree (a tab that lives in a $ref file saved there), and a mint.json upgraded.
test.describe.configure({ mode: 'serial' })

const FIXTURE = join(import.meta.dirname, '../fixtures/site-config/docs-json-site')
let folder: string
let page: Page

test.beforeAll(async ({ browser }) => {
  folder = await mkdtemp(join(tmpdir(), 'ec-e2e-docs-json-'))
  await cp(FIXTURE, folder, { recursive: true })
  await writeFile(
    join(folder, 'mint.json'),
    `${JSON.stringify(
      {
        name: 'Plant API',
        colors: { primary: '#16A34A', anchors: '#16A34A' },
        feedback: { thumbsRating: true },
        anchors: [{ name: 'API', url: 'api', icon: 'code' }],
        navigation: [{ group: 'Start', pages: ['index', 'quickstart', 'api/plants'] }],
      },
      null,
      2,
    )}\n`,
  )
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
})
test.afterAll(() => page.context().close())

const problems = () => page.getByRole('complementary', { name: 'Problems' })
const tree = () => page.getByRole('list', { name: 'Navigation tree' })

async function open(url: string, path: string) {
  await page.goto(url)
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Site config' }).click()
  await page.getByLabel('Open a file by its path').fill(path)
  await page.getByRole('form', { name: 'Open a file' }).getByRole('button', { name: 'Open', exact: true }).click()
  await expect(page.getByLabel('Project name')).toBeVisible()
}

test('a docs.json opens as one: its form, its navigation with the $ref tab, no problem', async ({ app }) => {
  await open(app.url, join(folder, 'docs.json'))
  await expect(page.getByText('docs.json', { exact: true }).first()).toBeVisible()
  await expect(page.getByLabel('Theme', { exact: true })).toHaveValue(/./)
  await expect(page.getByLabel('Project name')).toHaveValue('Plant API')
  await expect(problems()).toContainText('This docs.json follows Mintlify’s rules')
  await expect(tree().getByRole('listitem', { name: 'tab Reference' })).toBeVisible()
  await expect(tree().getByRole('listitem', { name: 'tab Reference' }).getByText('tabs/reference.json')).toBeVisible()
  await expect(tree().getByRole('listitem', { name: 'page GET /plants' })).toBeVisible()
  await checkScreen(page, 'site-editor-docs-json', { experimental: true })
})

test('Mintlify’s rules speak in Problems: an operation the OpenAPI file lacks, a page written with its extension', async () => {
  await tree().getByRole('combobox', { name: 'Page 2 path' }).nth(1).fill('DELETE /plants')
  await expect(
    problems().getByRole('button', { name: /names the operation DELETE \/plants, which openapi\.yaml does not have/ }),
  ).toBeVisible()
  // Named as the tree shows it, with the names of the items around it.
  await expect(
    problems().getByRole('button', { name: /Navigation › Tab 2 “API” › Group 1 “Plants” › Page 2 names the operation DELETE/ }),
  ).toBeVisible()
  await tree().getByRole('combobox', { name: 'Page 2 path' }).nth(1).fill('POST /plants')
  await tree().getByRole('combobox', { name: 'Page 1 path' }).first().fill('index.mdx')
  await expect(problems().getByRole('button', { name: /is written with its extension/ })).toBeVisible()
  await tree().getByRole('combobox', { name: 'Page 1 path' }).first().fill('index')
  await expect(problems()).toContainText('This docs.json follows Mintlify’s rules')
})

test('the tree moves rows from the keyboard, and saves a $ref tab’s pages in its own file', async () => {
  // Alt+↓ on a row moves it down its list.
  const quickstart = tree().getByRole('listitem', { name: 'page quickstart' })
  await quickstart.focus()
  await page.keyboard.press('Alt+ArrowDown')
  const pages = tree().locator('.docs-nav__row--page input')
  await expect(pages.nth(1)).toHaveValue('quickstart')

  // A page added to the tab that comes from tabs/reference.json goes there.
  await tree().getByRole('button', { name: 'Add a page to tab Reference' }).click()
  const added = tree().getByRole('listitem', { name: /^page/ }).last().getByRole('combobox')
  await expect(added).toBeFocused()
  await page.keyboard.type('quickstart')
  await expect(page.getByText('Unsaved changes')).toBeVisible()
  await tree().evaluate((element) => element.scrollIntoView({ block: 'center' }))
  await checkScreen(page, 'site-editor-docs-json-tree')
  await page.keyboard.press('ControlOrMeta+S')
  await expect(page.getByText('Saved', { exact: true })).toBeVisible()
  expect(JSON.parse(await readFile(join(folder, 'tabs/reference.json'), 'utf8'))).toEqual({
    tab: 'Reference',
    pages: ['reference/overview', 'quickstart'],
  })
  const docs = JSON.parse(await readFile(join(folder, 'docs.json'), 'utf8'))
  expect(docs.navigation.tabs[2]).toEqual({ $ref: 'tabs/reference.json' })
  expect(docs.navigation.tabs[0].groups[0].pages).toEqual(['index', { group: 'In depth', pages: ['guides/deep'] }, 'quickstart'])

  // The tree holds at 800 px, in dark mode too.
  await page.setViewportSize({ width: 800, height: 900 })
  await page.emulateMedia({ colorScheme: 'dark' })
  await tree().evaluate((element) => element.scrollIntoView({ block: 'center' }))
  await checkScreen(page, 'site-editor-docs-json-tree-dark-800')
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 900 })
})

test('a mint.json is upgraded after showing what is not carried, and saved as the docs.json beside it', async () => {
  await page.getByRole('button', { name: 'Open…' }).click()
  await page
    .getByRole('dialog', { name: 'Open a docs.json or site.json file' })
    .getByRole('textbox')
    .first()
    .fill(join(folder, 'mint.json'))
  await page.getByRole('dialog', { name: 'Open a docs.json or site.json file' }).getByRole('button', { name: 'Open', exact: true }).click()
  await expect(page.getByText('mint.json', { exact: true }).first()).toBeVisible()
  await page.getByRole('button', { name: 'Upgrade to docs.json…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Upgrade to docs.json' })
  await expect(dialog.getByRole('list', { name: 'Settings not carried' })).toContainText('feedback')
  await checkScreen(page, 'site-editor-upgrade')
  await dialog.getByRole('button', { name: 'Upgrade and save as docs.json…' }).click()
  const pathField = page.getByRole('dialog').getByRole('textbox').first()
  await expect(pathField).toHaveValue(join(folder, 'docs.json'))
  await pathField.fill(join(folder, 'upgraded.json'))
  await page.getByRole('dialog').getByRole('button', { name: /^Save/ }).click()
  await expect(page.getByText('Saved', { exact: true })).toBeVisible()
  const upgraded = JSON.parse(await readFile(join(folder, 'upgraded.json'), 'utf8'))
  expect(upgraded).toMatchObject({
    $schema: 'https://mintlify.com/docs.json',
    theme: 'mint',
    navigation: { anchors: [{ anchor: 'Documentation' }, { anchor: 'API', color: { light: '#16A34A', dark: '#16A34A' } }] },
  })
  await expect(page.getByText('docs.json', { exact: true }).first()).toBeVisible()
})

test('at 1024×700 a docs.json opens with a field to type in on the first screen', async () => {
  await page.setViewportSize({ width: 1024, height: 700 })
  await open(page.url().split('#')[0]!, join(folder, 'docs.json'))
  await expect(page.getByRole('textbox', { name: 'Project name' })).toBeInViewport()
  await checkScreen(page, 'site-editor-docs-json-1024', { experimental: true })
  await page.setViewportSize({ width: 1280, height: 900 })
})

test('the tree keeps its folded rows across a switch to the JSON view and back, and opens them for a problem', async () => {
  // The tab read from its $ref file comes in after the tree is first drawn: it stays as it was shown, folded or not.
  const reference = tree().getByRole('listitem', { name: 'tab Reference' })
  await reference.scrollIntoViewIfNeeded()
  const toggle = reference.getByRole('button', { name: /^(Expand|Collapse) tab Reference$/ })
  const shown = await toggle.getAttribute('aria-expanded')
  await page.getByRole('tab', { name: 'JSON' }).click()
  await page.getByRole('tab', { name: 'Form' }).click()
  await expect(toggle).toHaveAttribute('aria-expanded', shown!)

  // Rows folded in the tree stay folded after the JSON view.
  if (shown === 'false') await toggle.click()
  const overview = tree()
    .getByRole('listitem', { name: /^page reference\/overview/ })
    .getByRole('combobox')
  await overview.fill('reference/overview.mdx')
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await page.getByRole('tab', { name: 'JSON' }).click()
  await page.getByRole('tab', { name: 'Form' }).click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')

  // A problem inside a folded row, clicked from the JSON view, opens the rows above it.
  await page.getByRole('tab', { name: 'JSON' }).click()
  await problems()
    .getByRole('button', { name: /is written with its extension/ })
    .click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await expect(overview).toBeFocused()
  await overview.fill('reference/overview')
  await expect(problems()).toContainText('This docs.json follows Mintlify’s rules')

  // An answered problem is not answered again: the row folded after it stays folded across the JSON view. The click after
  // the switch comes once the tree's effects have run, so it opens the row (not folds it) only if they left it folded.
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await page.getByRole('tab', { name: 'JSON' }).click()
  await page.getByRole('tab', { name: 'Form' }).click()
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
})

test('a problem that comes at the top of the list leaves the rows below it in place', async () => {
  const firstPage = tree().getByRole('combobox', { name: 'Page 1 path' }).first()
  await firstPage.fill('ghost-page')
  const missing = problems().getByRole('listitem').filter({ hasText: 'expected ghost-page.mdx' })
  await expect(missing).toHaveCount(1)
  // The row as drawn: the same element must still be there, second, once an error comes first.
  await missing.evaluate((row) => row.setAttribute('data-drawn', 'before'))
  const primary = page.getByRole('textbox', { name: 'Primary colour', exact: true })
  const colour = await primary.inputValue()
  await primary.fill('#12')
  await expect(problems().getByRole('listitem').first()).toContainText('Primary colour')
  await expect(problems().locator('li[data-drawn="before"]')).toHaveText(/expected ghost-page.mdx/)
  await expect(problems().getByRole('listitem').nth(1)).toHaveAttribute('data-drawn', 'before')
  await primary.fill(colour)
  await firstPage.fill('index')
  await expect(problems()).toContainText('This docs.json follows Mintlify’s rules')
})
