import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { validate } from '@readme/openapi-parser'
import { buildOpenApiDocument } from '../../src-shared/user-api/openapi'
import { type BrowserModeApp, expect, launchBrowserMode, openSession, type SessionApp, sessionCookie, test } from './browser-mode'
import { checkScreen } from './screens'

// "Add the API reference" in the site editor, as an operator does it: a site.json in a folder of
// its own, the action, its one question, then openapi.json on disk (valid), site.json changed one
// field per hunk, and the docs-folder checks finding the file valid. The steps share an app of
// their own, since they make a profile active.
test.describe.configure({ mode: 'serial' })

const PRODUCTION = 'https://api.acme.test'
/** The endpoint pages, as Mintlify's scraper names them: a folder per tag, a page per operation. */
const ENDPOINT_PAGES = ['get-or-create-a-user-group', 'update-a-user-group', 'rotate-a-user-groups-token'].map(
  (name) => `api-reference/user-groups/${name}`,
)
/** 4 spaces, an inline list and object, and a key order no serializer would choose: all kept. */
const ORIGINAL = [
  '{',
  '    "name": "Acme",',
  '    "openapi": "https://petstore.example.com/openapi.json",',
  '    "navigation": [{"group": "Start", "pages": ["intro"]}],',
  '    "api": {',
  '        "baseUrl": "https://old.acme.test",',
  '        "playground": {"mode": "simple"},',
  '        "auth": {"method": "bearer"}',
  '    }',
  '}',
  '',
].join('\n')

let own: BrowserModeApp & SessionApp & { stop(): Promise<void> }
let folder: string
let sitePath: string
let referencePath: string
let page: Page

async function ipc(name: string, input: unknown) {
  const answer = await fetch(`${own.origin}/ipc/${name}`, {
    method: 'POST',
    headers: { cookie: own.cookieHeader },
    body: JSON.stringify(input),
  })
  const result = (await answer.json()) as { ok: boolean; value: unknown }
  expect(result.ok, `${name}: ${JSON.stringify(result)}`).toBe(true)
  return result.value
}

test.beforeAll(async ({ browser }) => {
  // Its key opens one session: the calls below and the page share it.
  own = await openSession(await launchBrowserMode())
  folder = await mkdtemp(join(tmpdir(), 'ec-e2e-apiref-'))
  sitePath = join(folder, 'site.json')
  referencePath = join(folder, 'openapi.json')
  await writeFile(sitePath, ORIGINAL)
  await writeFile(join(folder, 'intro.mdx'), '---\ntitle: Introduction\n---\n')
  // The production deployment is the active profile: its address is the one readers can reach.
  const created = (await ipc('profiles.create', { name: 'Acme production', baseUrl: PRODUCTION })) as { id: string }
  await ipc('profiles.setActive', { id: created.id })
  page = await (
    await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: { cookies: [sessionCookie(own)], origins: [] } })
  ).newPage()
})
test.afterAll(async () => {
  await page.context().close()
  await own.stop()
})

const problems = () => page.getByRole('complementary', { name: 'Problems' })
const view = (name: 'Form' | 'JSON' | 'Docs folder') => page.getByRole('tablist', { name: 'View' }).getByRole('tab', { name })
const action = () => page.getByRole('toolbar', { name: 'Document' }).getByRole('button', { name: 'Add the API reference…' })
const question = () => page.getByRole('dialog', { name: 'Add the API reference' })

/** The unified diff of two files without context: one hunk per run of changed lines. */
function hunks(before: string, after: string): string[] {
  const diff = spawnSync('git', ['diff', '--no-index', '--no-color', '--unified=0', before, after], { encoding: 'utf8' })
  expect(diff.status, diff.stderr).toBe(1)
  return diff.stdout
    .split(/^(?=@@ )/m)
    .slice(1)
    .map((hunk) => hunk.trimEnd())
}

test('asks once, saying what changes; writes a valid openapi.json beside site.json and fills the fields', async () => {
  await page.goto(own.url)
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Site config' }).click()
  await page.getByLabel('Open a file by its path').fill(sitePath)
  await page.getByRole('form', { name: 'Open a file' }).getByRole('button', { name: 'Open', exact: true }).click()
  await expect(page.getByLabel('Project name')).toHaveValue('Acme')
  await expect(problems()).toContainText('No problems')

  await action().click()
  const dialog = question()
  await expect(dialog).toContainText('Writes openapi.json')
  await expect(dialog).toContainText(`Its server: ${PRODUCTION}, from the profile Acme production.`)
  await expect(dialog).toContainText(
    'And an endpoint page for each of its 3 operations, as Mintlify’s scraper makes them, in api-reference/user-groups/',
  )
  const rows = dialog.getByRole('table').getByRole('row')
  await expect(rows).toHaveCount(5)
  await expect(rows.nth(1)).toHaveText(
    'OpenAPI file"https://petstore.example.com/openapi.json"["https://petstore.example.com/openapi.json", "openapi.json"]',
  )
  await expect(rows.nth(2)).toHaveText(`API › Base URL"https://old.acme.test""${PRODUCTION}"`)
  await expect(rows.nth(3)).toHaveText(
    'API › Authentication{"method": "bearer"}{"method": "key", "name": "Authorization", "inputPrefix": "Token "}',
  )
  await expect(rows.nth(4)).toHaveText(
    `Navigation › Group 2not set{"group": "User groups", "pages": [${ENDPOINT_PAGES.map((page) => `"${page}"`).join(', ')}]}`,
  )
  // The change to site.json shown as a diff of its text, before it is made.
  const diff = dialog.getByRole('figure', { name: 'site.json, line by line' })
  await expect(diff.locator('ins').first()).toContainText('Added:')
  await expect(diff).toContainText(`+ ${'    '}"navigation": [{"group": "Start", "pages": ["intro"]}, {"group": "User groups", "pages": [`)
  await expect(diff).toContainText(`- ${'    '}"navigation": [{"group": "Start", "pages": ["intro"]}],`)
  await expect(dialog).toContainText(
    'Undo takes back these changes to site.json in one step, and they are saved when you save; openapi.json and the endpoint pages stay as written.',
  )
  await checkScreen(page, 'site-editor-api-reference-question')
  await dialog.getByRole('button', { name: 'Add the API reference', exact: true }).click()

  await expect(dialog).toHaveCount(0)
  await expect(
    page.getByText(
      'Wrote openapi.json and 3 endpoint pages, and changed 4 fields of site.json. Undo takes back the changes to site.json; the files stay as written.',
    ),
  ).toBeVisible()
  // The pages are in the navigation, and on disk, each naming its operation.
  await page.getByRole('button', { name: /^User groups\s*3 pages$/ }).click()
  for (const [index, endpoint] of ENDPOINT_PAGES.entries()) {
    await expect(page.locator(`[id="site-field:navigation[1].pages[${index}]"]`)).toHaveValue(endpoint)
    expect(await readFile(join(folder, `${endpoint}.mdx`), 'utf8')).toContain(`openapi: "${['GET', 'PUT', 'POST'][index]} /api/user"`)
  }
  const written = JSON.parse(await readFile(referencePath, 'utf8'))
  expect(written).toEqual(buildOpenApiDocument({ serverUrl: PRODUCTION }))
  expect(written.servers).toEqual([{ url: PRODUCTION }])
  const validation = await validate(structuredClone(written))
  expect(validation.valid, JSON.stringify(validation)).toBe(true)
  // Published documentation: readable by all, not owner-only like the app's own files.
  expect((await stat(referencePath)).mode & 0o044).toBe(0o044)

  // The form and the JSON view show the fields; the token is nowhere.
  await expect(page.getByLabel('Base URL')).toHaveValue(PRODUCTION)
  await expect(page.getByLabel('Input prefix')).toHaveValue('Token ')
  await view('JSON').click()
  const text = page.locator('.monaco-editor .view-lines')
  await expect(text).toContainText('"openapi.json"')
  await expect(text).toContainText(`"baseUrl": "${PRODUCTION}"`)
  await expect(text).toContainText('"auth": {"method": "key", "name": "Authorization", "inputPrefix": "Token "}')
  await expect(text).not.toContainText(/token"\s*:/i)
  await checkScreen(page, 'site-editor-api-reference-json')
})

test('the docs folder finds openapi.json and validates it: no problem for the OpenAPI file', async () => {
  await view('Docs folder').click()
  const files = page.getByRole('region', { name: 'Files the site uses' })
  const reference = files.getByRole('listitem').filter({ hasText: 'openapi.json' }).filter({ hasNotText: 'petstore' })
  await expect(reference).toContainText('valid OpenAPI')
  await expect(reference).toContainText('User groups API')
  await expect(problems()).toContainText('No problems')
  await reference.scrollIntoViewIfNeeded()
  await checkScreen(page, 'site-editor-api-reference-docs-folder')
  await view('Form').click()
})

test('Undo takes back the field edits and the navigation group as one step; openapi.json and the pages stay', async () => {
  const written = await readFile(referencePath, 'utf8')
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(page.getByLabel('Base URL')).toHaveValue('https://old.acme.test')
  await expect(page.getByLabel('Input prefix')).toHaveValue('')
  await expect(page.locator('[id="site-field:navigation[1]"]')).toHaveCount(0)
  expect(await readFile(join(folder, `${ENDPOINT_PAGES[0]}.mdx`), 'utf8')).toContain('openapi:')
  await expect(page.getByText('Saved', { exact: true })).toBeVisible()
  expect(await readFile(referencePath, 'utf8')).toBe(written)
  await page.getByRole('button', { name: 'Redo' }).click()
  await expect(page.getByLabel('Base URL')).toHaveValue(PRODUCTION)
})

test('saved, site.json differs from the original by a hunk per run of changed lines, its layout kept', async () => {
  await page.keyboard.press('ControlOrMeta+S')
  await expect(page.getByText('Saved site.json.')).toBeVisible()
  const before = join(folder, 'site.original.json')
  await writeFile(before, ORIGINAL)
  expect(hunks(before, sitePath)).toEqual([
    // Adjacent lines, so one hunk: the openapi field, and the navigation's inline list, which keeps its layout.
    [
      '@@ -3,2 +3,5 @@',
      '-    "openapi": "https://petstore.example.com/openapi.json",',
      '-    "navigation": [{"group": "Start", "pages": ["intro"]}],',
      '+    "openapi": [',
      '+        "https://petstore.example.com/openapi.json",',
      '+        "openapi.json"',
      '+    ],',
      `+    "navigation": [{"group": "Start", "pages": ["intro"]}, {"group": "User groups", "pages": [${ENDPOINT_PAGES.map((endpoint) => `"${endpoint}"`).join(', ')}]}],`,
    ].join('\n'),
    ['@@ -6 +9 @@', '-        "baseUrl": "https://old.acme.test",', `+        "baseUrl": "${PRODUCTION}",`].join('\n'),
    [
      '@@ -8 +11 @@',
      '-        "auth": {"method": "bearer"}',
      '+        "auth": {"method": "key", "name": "Authorization", "inputPrefix": "Token "}',
    ].join('\n'),
  ])
})

test('with the local sandbox active, the address is written only if asked, and a broken openapi.json is replaced only when confirmed', async () => {
  // The watcher notices a broken file: the docs-folder check says so.
  await writeFile(referencePath, '{"openapi": "3.1.0", "info": {"title": "Half written"}}')
  const warning = problems().getByRole('button', { name: /OpenAPI file 2 is not a valid OpenAPI file/ })
  await expect(warning).toBeVisible()

  // Switched in the header, as an operator would, without leaving the editor.
  const switcher = page.getByRole('combobox', { name: 'Active profile' })
  const sandbox = await switcher.getByRole('option', { name: /^Local sandbox(?! \(Testing\))/ }).getAttribute('value')
  await switcher.selectOption(sandbox!)
  await expect(switcher).toHaveValue(sandbox!)

  await action().click()
  const dialog = question()
  await expect(dialog).toContainText('Replaces openapi.json')
  await expect(dialog).toContainText('It names no server, since the active profile, Local sandbox, is on this computer')
  await expect(dialog).toContainText(
    /Local sandbox is at http:\/\/127\.0\.0\.1:\d+, an address only this computer can reach: readers of the published site will not reach it/,
  )
  await expect(dialog).toContainText(
    'None: site.json already points at openapi.json with this authentication, and lists its endpoint pages.',
  )
  const add = dialog.getByRole('button', { name: 'Add the API reference', exact: true })
  await expect(add).toBeDisabled()
  // Writing the local address is a choice, shown before it is made.
  const writeLocal = dialog.getByRole('checkbox', { name: 'Write it into the base URL anyway, for a local preview' })
  await writeLocal.check()
  await expect(dialog.getByRole('table').getByRole('row')).toHaveCount(2)
  await expect(dialog.getByRole('table')).toContainText(/API › Base URL"https:\/\/api\.acme\.test""http:\/\/127\.0\.0\.1:\d+"/)
  await writeLocal.uncheck()
  await dialog
    .getByRole('checkbox', { name: /Replace the openapi\.json already there \(0\.1 kB, changed .+\): what it holds now is lost\./ })
    .check()
  await page.emulateMedia({ colorScheme: 'dark' })
  await checkScreen(page, 'site-editor-api-reference-replace-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await expect(add).toBeEnabled()
  await add.click()

  await expect(page.getByText('Replaced openapi.json; site.json already pointed at it.')).toBeVisible()
  const written = JSON.parse(await readFile(referencePath, 'utf8'))
  expect(written).toEqual(buildOpenApiDocument())
  expect(written.servers[0].url).toBe('{base_url}')
  await expect(warning).toHaveCount(0)
  await expect(problems()).toContainText('No problems')
  // Nothing changed in site.json: the local address was not asked for.
  await expect(page.getByLabel('Base URL')).toHaveValue(PRODUCTION)
  await expect(page.getByText('Saved', { exact: true })).toBeVisible()
})

test('an untitled document is asked to be saved first', async () => {
  await page.getByRole('toolbar', { name: 'File' }).getByRole('button', { name: 'New' }).click()
  await expect(page.getByText('Untitled', { exact: true })).toBeVisible()
  await action().click()
  const save = page.getByRole('dialog', { name: 'Save the site first' })
  await expect(save).toContainText('The API reference is written next to site.json, as openapi.json in the same folder')
  await checkScreen(page, 'site-editor-api-reference-untitled')
  await save.getByRole('button', { name: 'Save as…' }).click()
  await expect(page.getByRole('dialog', { name: 'Save as' })).toBeVisible()
  await checkScreen(page, 'site-editor-save-as')
  await page.getByRole('dialog', { name: 'Save as' }).getByRole('button', { name: 'Cancel' }).click()

  // The narrowest window the app supports: the Document group wraps, the action stays in reach.
  await page.setViewportSize({ width: 800, height: 700 })
  await expect(action()).toBeInViewport()
  await checkScreen(page, 'site-editor-api-reference-800')
})
