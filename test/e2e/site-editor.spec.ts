import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { serializeSiteConfig } from '../../src-shared/site-config/serialize'
import { generateLargeMintConfig } from '../fixtures/site-config/large-mint-config'
import { expect, test } from './browser-mode'
import { checkScreen, SCREENSHOT_DIR } from './screens'

// One writer's session, in order: the steps share the app, its data folder and the files.
test.describe.configure({ mode: 'serial' })

const ORIGINAL = {
  name: 'Acme',
  logo: '/logo.svg',
  colors: { primary: '#0D9373', background: { light: '#FFFFFF', dark: '#0F1117' } },
  topbarLinks: [{ name: 'Support', url: 'mailto:support@acme.test' }],
  topbarCtaButton: { name: 'Dashboard', url: 'https://dashboard.acme.test' },
  versions: ['v1', 'v2'],
  anchors: [
    { name: 'API', url: 'api', icon: 'code', color: { from: '#7C3AED', to: '#2563EB' }, version: 'v2' },
    { name: 'Blog', url: 'blog', color: '#F59E0B' },
  ],
  tabs: [{ name: 'Guides', url: 'guides' }],
  navigation: [
    { group: 'Start', pages: ['intro', 'quickstart'] },
    { group: 'API', pages: ['api/overview'] },
  ],
  'x-team': { owner: 'docs' },
}

let folder: string
let sitePath: string
/** One tab for the whole session, as a writer would keep it open. */
let page: Page

test.beforeAll(async ({ browser }) => {
  folder = await mkdtemp(join(tmpdir(), 'ec-e2e-site-'))
  sitePath = join(folder, 'site.json')
  await writeFile(sitePath, serializeSiteConfig(ORIGINAL))
  // The docs folder beside it holds the pages and images the file names, so only real problems show.
  await mkdir(join(folder, 'api'))
  for (const file of ['intro.mdx', 'quickstart.md', 'changelog.mdx', 'api/overview.mdx'])
    await writeFile(join(folder, file), `---\ntitle: ${file}\n---\n`)
  for (const file of ['logo.svg', 'favicon.ico']) await writeFile(join(folder, file), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
})
test.afterAll(() => page.context().close())

async function openSiteEditor(url: string) {
  await page.goto(url)
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Site config' }).click()
}

async function openByPath(path: string) {
  await page.getByLabel('Open a file by its path').fill(path)
  await page.getByRole('form', { name: 'Open a file' }).getByRole('button', { name: 'Open', exact: true }).click()
  await expect(page.getByLabel('Project name')).toBeVisible()
}

/** Monaco closes brackets and quotes as keys are typed (docs/platform-notes.md): replace the text in one insertion. */
async function setJsonText(text: string) {
  await page.locator('.monaco-editor .view-lines').click()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Delete')
  await page.keyboard.insertText(text)
}

const problems = () => page.getByRole('complementary', { name: 'Problems' })
const view = (name: 'Form' | 'JSON' | 'Docs folder') => page.getByRole('tablist', { name: 'View' }).getByRole('tab', { name })

test('starts empty, opens a file by its path and shows it in the form', async ({ app }) => {
  await openSiteEditor(app.url)
  await expect(page.getByRole('heading', { name: 'No docs.json or site.json open' })).toBeVisible()
  await checkScreen(page, 'site-editor-empty')

  await openByPath(sitePath)
  await expect(page.getByLabel('Project name')).toHaveValue('Acme')
  await expect(page.getByText('Saved', { exact: true })).toBeVisible()
  // The unknown key is kept, and said so.
  await expect(problems()).toContainText('0 errors, 1 warning')
  await expect(problems().getByRole('button', { name: /kept as written.*x-team/ })).toBeVisible()
  const preview = page.frameLocator('iframe[title="Site preview"]')
  await expect(preview.getByRole('navigation', { name: 'Top bar links' }).getByText('Dashboard')).toBeVisible()
  await checkScreen(page, 'site-editor-form')
})

test('a wrong colour is a problem beside its field and in Problems; a click focuses the field; fixing it clears both', async () => {
  await page.getByLabel('Project name').fill('Acme docs')
  await expect(page.getByText('Unsaved changes')).toBeVisible()

  const primary = page.getByRole('textbox', { name: 'Primary', exact: true })
  await primary.fill('#0D93')
  const problem = problems().getByRole('button', { name: /Primary colour must be a hex colour.*colors\.primary/ })
  await expect(problem).toBeVisible()
  await expect(problems()).toContainText('1 error, 1 warning')
  await expect(primary).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('Error: must be a hex colour like #0D9373 or #0D9')).toBeVisible()
  await primary.evaluate((element) => element.scrollIntoView({ block: 'center' }))
  await checkScreen(page, 'site-editor-problem')

  await page.getByLabel('Project name').focus()
  await problem.click()
  await expect(primary).toBeFocused()

  await primary.fill('#0D9373')
  await expect(problem).toHaveCount(0)
  await expect(problems()).toContainText('0 errors, 1 warning')
  await expect(primary).not.toHaveAttribute('aria-invalid')
})

test('navigation: pages are added and reordered from the keyboard, groups dragged', async () => {
  const start = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: /^▾?\s*Start/ }) })
  await start.getByRole('button', { name: 'Add page' }).click()
  const newPage = page.getByRole('combobox', { name: 'Page 3', exact: true })
  await expect(newPage).toBeFocused()
  await page.keyboard.type('changelog')
  await page.getByRole('button', { name: 'Move page 3 up' }).click()
  await expect(page.getByRole('button', { name: 'Move page 2 up' })).toBeFocused()
  await expect(page.getByRole('combobox', { name: 'Page 2', exact: true }).first()).toHaveValue('changelog')
  await expect(page.getByRole('combobox', { name: 'Page 3', exact: true })).toHaveValue('quickstart')
  await expect(start.getByRole('button', { name: /Start/ }).first()).toContainText('3 pages')

  // Groups move by dragging the handle too; the buttons move the group back.
  const groups = page.getByRole('list', { name: 'Navigation groups' })
  const apiHandle = groups.locator('.nav-group').nth(1).locator('.nav-group__header .drag-handle')
  const startHeader = groups.locator('.nav-group__header').first()
  // Both ends of the drag in view: the mouse cannot press a handle scrolled out of the window.
  await startHeader.evaluate((header) => header.scrollIntoView({ block: 'start' }))
  const from = (await apiHandle.boundingBox())!
  const to = (await startHeader.boundingBox())!
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
  await page.mouse.down()
  await page.mouse.move(from.x + from.width / 2, to.y + 4, { steps: 12 })
  // A row being dragged may leave its section, which then draws all it holds rather than clip it.
  const drawnWhole = () => groups.evaluate((list) => getComputedStyle(list.closest('section')!).contentVisibility)
  expect(await drawnWhole()).toBe('visible')
  await page.mouse.up()
  await expect.poll(drawnWhole).toBe('auto')
  await expect(groups.locator('.nav-group__name').first()).toHaveText('API')
  await page.getByRole('button', { name: 'Move group 1 down' }).click()
  await expect(groups.locator('.nav-group__name').first()).toHaveText('Start')
})

/** What the document should hold after the form edits above. */
const edited = (name: string) => ({
  ...ORIGINAL,
  name,
  navigation: [{ group: 'Start', pages: ['intro', 'changelog', 'quickstart'] }, ORIGINAL.navigation[1]],
})

test('the JSON view follows the form; while its text is broken the form says where and waits, losing nothing', async () => {
  await view('JSON').click()
  const text = page.getByRole('textbox', { name: 'site.json text' })
  await expect(text).toBeVisible()
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('"name": "Acme docs"')
  // A small text's brackets are coloured by depth.
  await expect(page.locator('.monaco-editor .view-lines [class*="bracket-highlighting-"]').first()).toBeVisible()

  // One line each: Monaco would re-indent a pasted multi-line text as it was typed.
  const broken = JSON.stringify(edited('Half typed')).replace('"/logo.svg",', '"/logo.svg"')
  const column = broken.indexOf('"colors"') + 1
  await setJsonText(broken)
  await expect(
    problems().getByRole('button', { name: new RegExp(`not valid JSON at line 1, column ${column}: .*is a comma missing`) }),
  ).toBeVisible()
  await view('Form').click()
  await expect(page.getByText(`The text is not valid JSON at line 1, column ${column}:`)).toBeVisible()
  // The form keeps the last valid version, read-only.
  await expect(page.getByLabel('Project name')).toHaveValue('Acme docs')
  await expect(page.locator('.site-form')).toHaveAttribute('inert', '')
  await checkScreen(page, 'site-editor-syntax-error')

  await page.getByRole('button', { name: 'Show in JSON' }).click()
  await expect(view('JSON')).toHaveAttribute('aria-selected', 'true')
  await expect(text).toBeFocused()
  await setJsonText(JSON.stringify(edited('From JSON')))
  await view('Form').click()
  await expect(page.getByLabel('Project name')).toHaveValue('From JSON')
  await expect(page.locator('.site-form')).not.toHaveAttribute('inert')
})

test('undo and redo work across both views, and a burst of typing is one step', async () => {
  const name = page.getByLabel('Project name')
  await name.fill('Undo me')
  await view('JSON').click()
  await page.locator('.monaco-editor .view-lines').click()
  await page.keyboard.press('ControlOrMeta+Z')
  // The text as it was typed, compact, not reformatted.
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('{"name":"From JSON",')
  await view('Form').click()
  await expect(name).toHaveValue('From JSON')
  await page.getByRole('button', { name: 'Redo' }).click()
  await expect(name).toHaveValue('Undo me')

  await name.click()
  await name.press('End')
  await page.keyboard.type(' abc')
  await expect(name).toHaveValue('Undo me abc')
  await page.keyboard.press('ControlOrMeta+Z')
  await expect(name).toHaveValue('Undo me')
  await page.keyboard.press('ControlOrMeta+Shift+Z')
  await expect(name).toHaveValue('Undo me abc')
  await page.keyboard.press('ControlOrMeta+Z')
  await page.keyboard.press('Control+Y')
  await expect(name).toHaveValue('Undo me abc')
})

test('Ctrl+S saves the text as it is laid out, the unknown key kept where it was', async () => {
  await page.keyboard.press('ControlOrMeta+S')
  await expect(page.getByText('Saved site.json.')).toBeVisible()
  await expect(page.getByText('Saved', { exact: true })).toBeVisible()
  // The JSON view made it one line; the form's edits since changed only the name in that line.
  expect(await readFile(sitePath, 'utf8')).toBe(JSON.stringify(edited('Undo me abc')))
})

test('a file changed on disk is not overwritten: reload it, and undo brings the edit back', async () => {
  const theirs = serializeSiteConfig({ ...edited('Changed elsewhere'), favicon: '/favicon.ico' })
  await writeFile(sitePath, theirs)
  const name = page.getByLabel('Project name')
  await name.fill('Mine')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  const banner = page.getByRole('alert').filter({ hasText: 'changed on disk' })
  await expect(banner).toBeVisible()
  expect(await readFile(sitePath, 'utf8')).toBe(theirs)
  await checkScreen(page, 'site-editor-changed-on-disk')

  await banner.getByRole('button', { name: 'Reload from disk' }).click()
  await expect(name).toHaveValue('Changed elsewhere')
  await expect(page.getByLabel('Favicon')).toHaveValue('/favicon.ico')
  await expect(page.getByText('Saved', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(name).toHaveValue('Mine')
  await page.getByRole('button', { name: 'Redo' }).click()
  await expect(name).toHaveValue('Changed elsewhere')
})

test('export is refused while there are errors, with their count, then writes a valid copy', async () => {
  const exportPath = join(folder, 'site.export.json')
  await page.getByRole('textbox', { name: 'Primary', exact: true }).fill('green')
  await page.getByLabel('Logo image').fill('')
  await page.getByRole('button', { name: 'Export…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Export a valid copy' })
  await expect(dialog).toContainText('The file has 1 error; fix it before exporting.')
  await expect(dialog.getByRole('button', { name: 'Export', exact: true })).toBeDisabled()
  await checkScreen(page, 'site-editor-export-refused')
  await dialog.getByRole('button', { name: 'Cancel' }).click()

  await page.getByRole('textbox', { name: 'Primary', exact: true }).fill('#16A34A')
  await page.getByRole('button', { name: 'Export…' }).click()
  await expect(dialog.getByLabel('File path')).toHaveValue(exportPath)
  await dialog.getByRole('button', { name: 'Export', exact: true }).click()
  await expect(page.getByText(`Exported a valid copy to ${exportPath}`)).toBeVisible()
  const { logo: _logo, ...withoutLogo } = { ...edited('Changed elsewhere'), favicon: '/favicon.ico' }
  expect(await readFile(exportPath, 'utf8')).toBe(
    serializeSiteConfig({ ...withoutLogo, colors: { ...ORIGINAL.colors, primary: '#16A34A' } }),
  )
})

test('"Use active profile" says a local address is not for readers, then fills the API base URL and authentication, never a token', async ({
  app,
}) => {
  await page.getByRole('button', { name: 'Use active profile' }).click()
  const question = page.getByRole('dialog', { name: 'Write a local address into the site?' })
  await expect(question).toContainText('only this computer can reach')
  await checkScreen(page, 'site-editor-local-address-question')
  await question.getByRole('button', { name: 'Write it anyway' }).click()
  // The app is shared by the test files of this worker, so ask it which profile is active.
  const answer = await fetch(`${app.origin}/ipc/profiles.list`, { method: 'POST', headers: { cookie: app.cookieHeader }, body: '{}' })
  const { value } = (await answer.json()) as { value: { activeId: string; profiles: { id: string; baseUrl: string }[] } }
  const activeUrl = value.profiles.find((profile) => profile.id === value.activeId)!.baseUrl
  await expect(page.getByLabel('Base URL')).toHaveValue(activeUrl)
  await expect(page.getByLabel('Method')).toHaveValue('2')
  await expect(page.getByLabel('Parameter name')).toHaveValue('Authorization')
  await expect(page.getByLabel('Input prefix')).toHaveValue('Token ')
  await view('JSON').click()
  await expect(page.locator('.monaco-editor .view-lines')).not.toContainText(/token"\s*:/i)
  await view('Form').click()
})

test('unsaved changes are asked about before New, and restored after a crash', async ({ app, browser }) => {
  await page.getByRole('toolbar', { name: 'File' }).getByRole('button', { name: 'New' }).click()
  const question = page.getByRole('dialog', { name: 'Save the changes to site.json?' })
  await expect(question).toBeVisible()
  await checkScreen(page, 'site-editor-unsaved-question')
  await question.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByLabel('Base URL')).not.toHaveValue('')

  // Once the autosave has written the draft with the last edit in it (the authentication "Use active profile" filled in),
  // the tab dies without a chance to ask.
  const drafts = join(app.dataDir, 'site-drafts')
  const draftTexts = async () => Promise.all((await readdir(drafts).catch(() => [])).map((name) => readFile(join(drafts, name), 'utf8')))
  await expect.poll(async () => (await draftTexts()).join('\n'), { timeout: 5000 }).toContain('Authorization')
  await page.close({ runBeforeUnload: false })
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
  await openSiteEditor(app.url)
  await expect(page.getByText(/Restore unsaved changes to site\.json from/)).toBeVisible()
  await checkScreen(page, 'site-editor-restore-offer')
  await page.getByRole('button', { name: 'Restore unsaved changes to site.json' }).click()
  await expect(page.getByLabel('Base URL')).not.toHaveValue('')
  await expect(page.getByLabel('Primary', { exact: true })).toHaveValue('#16A34A')
  await expect(page.getByText('Unsaved changes')).toBeVisible()
  // Undo returns to the file as it is on disk.
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(page.getByLabel('Base URL')).toHaveValue('')
  await expect(page.getByText('Saved', { exact: true })).toBeVisible()
  // Nothing unsaved is left, so the draft goes.
  await expect.poll(() => readdir(join(app.dataDir, 'site-drafts')), { timeout: 5000 }).toEqual([])
})

test('New starts from the template; saving it asks for a path, and asks again before replacing a file', async () => {
  await page.getByRole('toolbar', { name: 'File' }).getByRole('button', { name: 'New' }).click()
  await expect(page.getByText('Untitled', { exact: true })).toBeVisible()
  await expect(page.getByLabel('Project name')).toHaveValue('My docs')
  await page.getByLabel('Project name').fill('Fresh docs')
  await page.keyboard.press('ControlOrMeta+S')
  const dialog = page.getByRole('dialog', { name: 'Save as' })
  await dialog.getByLabel('File path').fill(sitePath)
  await dialog.getByRole('button', { name: 'Save', exact: true }).click()
  const replace = page.getByRole('dialog', { name: 'Replace site.json?' })
  await expect(replace).toContainText('already exists')
  await checkScreen(page, 'site-editor-replace-question')
  await replace.getByRole('button', { name: 'Cancel' }).click()

  const freshPath = join(folder, 'fresh.json')
  await page.keyboard.press('ControlOrMeta+S')
  await dialog.getByLabel('File path').fill(freshPath)
  await dialog.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Saved fresh.json.')).toBeVisible()
  expect(await readFile(freshPath, 'utf8')).toBe(
    serializeSiteConfig({ name: 'Fresh docs', navigation: [{ group: 'Get started', pages: ['introduction'] }] }),
  )
})

test('colours can be picked as well as typed; the editor reads well in dark mode', async () => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.getByRole('button', { name: 'Pick the primary colour' }).click()
  const picker = page.getByRole('group', { name: 'Primary colour picker' })
  await picker.getByRole('slider', { name: 'Hue' }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('textbox', { name: 'Primary', exact: true })).toHaveValue(/^#[0-9a-f]{6}$/)
  await checkScreen(page, 'site-editor-dark-picker')
  await page.keyboard.press('Escape')
  await expect(picker).toHaveCount(0)
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(page.getByText('Saved', { exact: true })).toBeVisible()

  // The last field's picker reaches past the end of its section, which clips what overflows it
  // while the section may skip its layout off screen: the picker must be drawn, and take clicks, whole.
  await page.getByRole('button', { name: 'Pick the background in dark mode colour' }).click()
  const lastPicker = page.getByRole('group', { name: 'Background in dark mode colour picker' })
  await lastPicker.scrollIntoViewIfNeeded()
  const hitWhole = await lastPicker.evaluate((picker) => {
    const box = picker.getBoundingClientRect()
    return [box.top + 4, box.top + box.height / 2, box.bottom - 4].map((y) =>
      picker.contains(document.elementFromPoint(box.left + box.width / 2, y)),
    )
  })
  expect(hitWhole).toEqual([true, true, true])
  await page.keyboard.press('Escape')
  await expect(lastPicker).toHaveCount(0)

  await page.locator('#main').evaluate((main) => main.scrollTo(0, 0))
  await checkScreen(page, 'site-editor-dark')
  await page.emulateMedia({ colorScheme: 'light' })
})

test('a file that is not JSON opens as text at the break, with the form waiting', async () => {
  const brokenPath = join(folder, 'broken.json')
  const broken = '{\n  "name": "Half",\n  "navigation": [\n}\n'
  await writeFile(brokenPath, broken)
  await page.getByRole('button', { name: 'Open…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Open a docs.json or site.json file' })
  await dialog.getByLabel('File path').fill(brokenPath)
  await checkScreen(page, 'site-editor-open-dialog')
  await dialog.getByRole('button', { name: 'Open', exact: true }).click()
  await expect(view('JSON')).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('textbox', { name: 'site.json text' })).toBeFocused()
  await expect(problems().getByRole('button', { name: /not valid JSON at line 4, column 1/ })).toBeVisible()
  await view('Form').click()
  await expect(page.getByText('The text is not valid JSON at line 4, column 1:')).toBeVisible()
  expect(await readFile(brokenPath, 'utf8')).toBe(broken)
})

test('a 6,000-page file draws only the rows in view; a problem deep inside opens its group and focuses its page', async () => {
  const large = generateLargeMintConfig()
  large.navigation[150]!.pages[7] = 42 as unknown as string
  const largePath = join(folder, 'large.json')
  await writeFile(largePath, serializeSiteConfig(large))
  await page.getByRole('button', { name: 'Open…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Open a docs.json or site.json file' })
  await dialog.getByLabel('File path').fill(largePath)
  await dialog.getByRole('button', { name: 'Open', exact: true }).click()
  await expect(page.getByLabel('Project name')).toHaveValue('Large docs')
  await expect(page.getByText('300 groups')).toBeVisible()
  expect(await page.locator('.nav-group').count()).toBeLessThan(40)
  // Its thousands of problems are counted; the first 50 are drawn, and 50 more on request.
  const listed = problems().locator('.problems__list').first().getByRole('listitem')
  await expect(listed).toHaveCount(50)
  await problems().getByRole('button', { name: 'Show 50 more' }).click()
  await expect(listed).toHaveCount(100)

  await problems()
    .getByRole('button', { name: /Group 151 “Group 151” › Page 8 must be a string/ })
    .click()
  const field = page.locator('[id="site-field:navigation[150].pages[7]"]')
  await expect(field).toBeFocused()
  // Not text: shown as it is, and typing cannot turn it into a string; only Replace does.
  await expect(field).toHaveValue('The number: 42')
  await page.keyboard.type('x')
  await expect(field).toHaveValue('The number: 42')
  await page.getByRole('button', { name: 'Replace Page 8 with text' }).click()
  await expect(field).toBeFocused()
  await field.fill('section-151/page-8')
  await expect(problems()).toContainText('0 errors')
  // A screenshot only: axe takes some 14 s over the 50 anchors' hundreds of controls, which are
  // the same components it checked on the small file above.
  await page.screenshot({ path: `${SCREENSHOT_DIR}/site-editor-large.png` })
  // A section off screen keeps a height but no width of its own: none widens the form under the side column.
  const sectionsEnd = await page
    .locator('.form-section')
    .evaluateAll((sections) => Math.max(...sections.map((section) => section.getBoundingClientRect().right)))
  const sideStart = await page.locator('.site-editor__side').evaluate((side) => side.getBoundingClientRect().left)
  expect(sectionsEnd).toBeLessThanOrEqual(sideStart)

  // The problem, answered, is not answered again when the form is drawn anew: back from the JSON view the list is at its
  // top, every group folded, and the group it opened is not drawn.
  await view('JSON').click()
  await view('Form').click()
  const firstGroup = page.locator('[id="site-field:navigation[0]"]').getByRole('button', { name: /^Group 1 / })
  await firstGroup.click()
  await expect(firstGroup).toHaveAttribute('aria-expanded', 'true')
  await expect(field).toHaveCount(0)
})

test('while the text does not parse its syntax error is listed alone; mended, the same rows come back, not drawn anew', async () => {
  // The 6,000-page file of the test before, its list shown to 100 rows: thousands of pages the docs folder does not hold.
  await view('JSON').click()
  const text = page.getByRole('textbox', { name: 'site.json text' })
  await text.focus()
  await page.keyboard.press('ControlOrMeta+Home')
  await page.keyboard.press('End')
  const warnings = problems().getByRole('button', { name: /^Warning:/ })
  await expect(warnings).toHaveCount(100)
  const firstRow = (await warnings.first().elementHandle())!
  // A text this large has no bracket colours: Monaco would parse its brackets again before each frame.
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('"Large docs"')
  await expect(page.locator('.monaco-editor .view-lines [class*="bracket-highlighting-"]')).toHaveCount(0)

  await page.keyboard.type('x')
  await expect(problems().getByRole('button', { name: /not valid JSON at line 1, column 2/ })).toBeVisible()
  await expect(warnings).toHaveCount(0)
  await expect(problems().getByRole('listitem')).toHaveCount(1)

  await page.keyboard.press('Escape')
  await page.keyboard.press('Backspace')
  await expect(warnings).toHaveCount(100)
  await expect(warnings.first()).toBeVisible()
  // The very element, kept hidden meanwhile: its layout came back with it.
  expect(await firstRow.evaluate((row) => row.isConnected && row === document.querySelector('.problems .problem--warning'))).toBe(true)
  await view('Form').click()
})

test('every id on the screen is unique, so each label names its own control', async () => {
  const duplicates = await page.evaluate(() => {
    const seen = new Map<string, number>()
    for (const element of document.querySelectorAll('[id]')) seen.set(element.id, (seen.get(element.id) ?? 0) + 1)
    return [...seen].filter(([, count]) => count > 1).map(([id]) => id)
  })
  expect(duplicates).toEqual([])
})

const FIXTURES = join(import.meta.dirname, '../fixtures/site-config')

async function openPathFromDialog(path: string) {
  await page.getByRole('button', { name: 'Open…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Open a docs.json or site.json file' })
  await dialog.getByLabel('File path').fill(path)
  await dialog.getByRole('button', { name: 'Open', exact: true }).click()
}

test('Open… and the recent files ask about unsaved changes before replacing them', async () => {
  // The large file above was edited and not saved.
  await expect(page.getByText('Unsaved changes')).toBeVisible()
  await openPathFromDialog(sitePath)
  const question = page.getByRole('dialog', { name: 'Save the changes to large.json?' })
  await expect(question).toBeVisible()
  await question.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByLabel('Project name')).toHaveValue('Large docs')

  await page.getByRole('button', { name: 'Open…' }).click()
  await page
    .getByRole('dialog', { name: 'Open a docs.json or site.json file' })
    .getByRole('button', { name: /^site\.json/ })
    .click()
  await expect(question).toBeVisible()
  await question.getByRole('button', { name: 'Don’t save' }).click()
  await expect(page.getByLabel('Project name')).toHaveValue('Changed elsewhere')
})

test('an unedited save is byte for byte the file; a one-field edit changes one line, tabs kept', async () => {
  const tabbed = join(folder, 'tabs.json')
  await cp(join(FIXTURES, 'real-world-shaped/tabs.json'), tabbed)
  const original = await readFile(tabbed, 'utf8')
  await openPathFromDialog(tabbed)
  await expect(page.getByLabel('Project name')).toHaveValue('Tabbed Docs')
  await page.keyboard.press('ControlOrMeta+S')
  await expect(page.getByText('Saved tabs.json.')).toBeVisible()
  expect(await readFile(tabbed, 'utf8')).toBe(original)

  await page.getByLabel('Project name').fill('Tabbed docs, renamed')
  // Cleared and typed again, a field keeps its place in the file.
  await page.getByLabel('Favicon').fill('')
  await page.getByLabel('Favicon').fill('/favicon.svg')
  await page.keyboard.press('ControlOrMeta+S')
  await expect(page.getByText('Saved', { exact: true })).toBeVisible()
  expect(await readFile(tabbed, 'utf8')).toBe(original.replace('"Tabbed Docs"', '"Tabbed docs, renamed"'))
})

test('a nested group is never typed over under the spec; the Mintlify-compatible rules edit it, and are remembered for the file', async () => {
  const nestedPath = join(folder, 'nested-groups.json')
  await cp(join(FIXTURES, 'real-world-shaped/nested-groups.json'), nestedPath)
  const original = await readFile(nestedPath, 'utf8')
  await openPathFromDialog(nestedPath)
  await expect(
    page.getByText(
      /This file is written for Mintlify \(2 nested groups; footer platform telegram; a background colour for one mode only\)/,
    ),
  ).toBeVisible()
  const concepts = page.locator('[id="site-field:navigation[0].pages[1]"]')
  await expect(concepts).toHaveValue('A nested group, “Concepts”, with 2 pages')
  await concepts.focus()
  await page.keyboard.type('x')
  await expect(concepts).toHaveValue('A nested group, “Concepts”, with 2 pages')
  await expect(page.getByText('Unsaved changes')).toHaveCount(0)

  await page.getByRole('button', { name: 'Use the Mintlify-compatible rules' }).click()
  await expect(page.getByLabel('Rules')).toHaveValue('mintlify')
  await expect(problems()).toContainText('0 errors')
  await expect(page.getByRole('group', { name: 'Nested group' })).toHaveCount(2)
  await page.locator('[id="site-field:navigation[0].pages[1].pages[1].pages[0]"]').fill('concepts/deep/two')
  await page.keyboard.press('ControlOrMeta+S')
  await expect(page.getByText('Saved', { exact: true })).toBeVisible()
  expect(await readFile(nestedPath, 'utf8')).toBe(original.replace('"concepts/deep/one"', '"concepts/deep/two"'))

  await openPathFromDialog(join(folder, 'tabs.json'))
  await openPathFromDialog(nestedPath)
  await expect(page.getByLabel('Rules')).toHaveValue('mintlify')
})

test('a nested group under the spec can be flattened into its parent, moved to the Mintlify rules, or removed after a question; the view passes axe', async () => {
  const nestedPath = join(folder, 'nested-settle.json')
  await cp(join(FIXTURES, 'real-world-shaped/nested-groups.json'), nestedPath)
  await openPathFromDialog(nestedPath)
  await expect(page.getByLabel('Rules')).toHaveValue('spec')
  const pageField = (index: number) => page.locator(`[id="site-field:navigation[0].pages[${index}]"]`)
  await expect(pageField(1)).toHaveValue('A nested group, “Concepts”, with 2 pages')
  await pageField(1).scrollIntoViewIfNeeded()
  await checkScreen(page, 'site-editor-nested-spec')
  await page.setViewportSize({ width: 800, height: 800 })
  await page.emulateMedia({ colorScheme: 'dark' })
  await pageField(1).scrollIntoViewIfNeeded()
  await checkScreen(page, 'site-editor-nested-spec-800-dark')
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.emulateMedia({ colorScheme: 'light' })

  // Removing it asks, from its own Remove… and from the row's ✕ alike; Cancel keeps it.
  await page.getByRole('button', { name: 'Remove page 2…' }).click()
  const ask = page.getByRole('dialog', { name: 'Remove this nested group?' })
  await expect(ask).toContainText('The nested group “Concepts” goes with the 2 pages it lists.')
  await checkScreen(page, 'site-editor-nested-remove-question')
  await ask.getByRole('button', { name: 'Cancel' }).click()
  await expect(pageField(1)).toHaveValue('A nested group, “Concepts”, with 2 pages')
  await page.getByRole('button', { name: 'Remove…', exact: true }).first().click()
  await ask.getByRole('button', { name: 'Remove', exact: true }).click()
  await expect(pageField(1)).toHaveValue('quickstart')
  await page.keyboard.press('ControlOrMeta+Z')
  await expect(pageField(1)).toHaveValue('A nested group, “Concepts”, with 2 pages')

  // Flatten: its pages, at any depth, stand where it stood.
  await page.getByRole('button', { name: 'Flatten into the parent' }).first().click()
  await expect(pageField(1)).toHaveValue('concepts/overview')
  await expect(pageField(2)).toHaveValue('concepts/deep/one')
  await expect(pageField(3)).toHaveValue('quickstart')
  // What is left is not the navigation's doing: errors under docs/site-json.md elsewhere (a Mintlify footer platform and a
  // one-mode background).
  await expect(problems()).toContainText('2 errors')
  await expect(problems()).not.toContainText('Error: Navigation')
  await page.keyboard.press('ControlOrMeta+Z')
  await expect(pageField(1)).toHaveValue('A nested group, “Concepts”, with 2 pages')

  // Or keep it, under the rules that accept it.
  await page.getByRole('button', { name: 'Use Mintlify rules for this file' }).first().click()
  await expect(page.getByLabel('Rules')).toHaveValue('mintlify')
  await expect(page.getByRole('group', { name: 'Nested group' })).toHaveCount(2)
  await checkScreen(page, 'site-editor-nested-mintlify')
  // Under those rules too, a nested group goes only after the question.
  await page.locator('[id="site-field:navigation[0].pages[1]:remove"]').click()
  await page.getByRole('dialog', { name: 'Remove this nested group?' }).getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('group', { name: 'Nested group' })).toHaveCount(2)
})

test('a key written twice is an error at both places, and the form waits', async () => {
  const duplicated = join(folder, 'duplicate-keys.json')
  await cp(join(FIXTURES, 'real-world-shaped/duplicate-keys.json'), duplicated)
  await openPathFromDialog(duplicated)
  await expect(page.getByText('“primary” is written twice in one object (lines 4 and 5).')).toBeVisible()
  await expect(page.locator('.site-form')).toHaveAttribute('inert', '')
  await expect(problems()).toContainText('4 errors')
  await expect(page.getByRole('toolbar', { name: 'Document' })).toContainText('4 errors')
})

test('the docs folder: missing pages and files reported, unlisted pages dragged into a group, the folder watched', async () => {
  const docs = await mkdtemp(join(tmpdir(), 'ec-e2e-docs-'))
  await cp(join(FIXTURES, 'docs-site'), docs, { recursive: true })
  await openPathFromDialog(join(docs, 'mint.json'))
  await expect(
    problems().getByRole('button', { name: /Page 3 has no page in the docs folder: expected guides\/missing-page\.mdx/ }),
  ).toBeVisible()
  await expect(problems().getByRole('button', { name: /Favicon is not in the docs folder/ })).toBeVisible()
  await expect(problems().getByRole('button', { name: /OpenAPI file 2 is not a valid OpenAPI file/ })).toBeVisible()

  // Page fields offer the folder's pages.
  await expect(page.locator('#site-docs-pages option')).toHaveCount(5)

  // The toolbar walks through the problems.
  await page.getByRole('button', { name: 'Next problem' }).click()
  await expect(page.locator('[id="site-field:navigation[0].pages[2]"]')).toBeFocused()
  await expect(page.getByRole('toolbar', { name: 'Document' })).toContainText('1 of 6')

  // Search across the navigation, by title too.
  await page.getByLabel('Search the navigation').fill('welcome')
  await page
    .getByRole('list', { name: 'Navigation matches' })
    .getByRole('button', { name: /Welcome \(introduction\)/ })
    .click()
  await expect(page.locator('[id="site-field:navigation[0].pages[0]"]')).toBeFocused()

  await view('Docs folder').click()
  const preview = page.getByRole('region', { name: 'Sidebar preview' })
  await expect(preview.getByRole('button', { name: 'Welcome' })).toBeVisible()
  const unlisted = page.getByRole('list', { name: 'Pages not in any group' })
  await expect(unlisted.getByRole('listitem')).toHaveCount(2)
  await page.getByRole('button', { name: 'Hide' }).click()
  // The README's picture of this view (docs/site-editor-docs-folder.png is a copy): a taller window, no notifications over it.
  const dismiss = page.getByRole('button', { name: 'Dismiss notification' })
  while ((await dismiss.count()) > 0) await dismiss.first().click()
  await page.setViewportSize({ width: 1280, height: 1180 })
  await page.locator('#main').evaluate((main) => main.scrollTo(0, 0))
  await page.locator('.site-editor').screenshot({ path: `${SCREENSHOT_DIR}/site-editor-docs-folder-readme.png` })
  await checkScreen(page, 'site-editor-docs-folder')

  await unlisted
    .getByRole('listitem')
    .filter({ hasText: 'An unlisted guide' })
    .dragTo(preview.getByRole('listitem', { name: 'Group API' }))
  await expect(unlisted.getByRole('listitem')).toHaveCount(1)
  await expect(preview.getByRole('listitem', { name: 'Group API' })).toContainText('An unlisted guide')
  await page.setViewportSize({ width: 1280, height: 800 })

  // The keyboard way: Add to a group.
  await unlisted.getByRole('button', { name: 'Add guides/plain to a group' }).click()
  const place = page.getByRole('dialog', { name: 'Add guides/plain to a group' })
  await place.getByLabel('Group').selectOption({ label: 'Get started' })
  await checkScreen(page, 'site-editor-place-page')
  await place.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(page.getByText('Every page in the folder is in a group.')).toBeVisible()

  // A page written on disk is noticed without asking.
  await writeFile(join(docs, 'guides', 'missing-page.mdx'), '---\ntitle: Found\n---\n')
  await expect(preview.getByRole('button', { name: 'Found' })).toBeVisible()
  await expect(problems().getByRole('button', { name: /guides\/missing-page/ })).toHaveCount(0)
  await page.getByRole('button', { name: 'Show' }).click()
})
