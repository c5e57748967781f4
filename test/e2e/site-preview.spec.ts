import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FrameLocator, Locator, Page } from '@playwright/test'
import { startProxy } from '../helpers/company-network'
import { PIXEL, startCanary, startPictureServer } from '../helpers/web-pictures'
import { expect, launchBrowserMode, openSession, sessionCookie, test } from './browser-mode'
import { checkScreen } from './screens'

// The site preview on real docs folders (trimmed copies of public Mintlify repositories, under
// test/fixtures/preview): hydra (versions, tabs, pages that name their OpenAPI operation, a
// snippet, components) and formal (groups generated from an OpenAPI file, global anchors).
// The hydra copy lists get-started/v2/core-concepts without its file: the missing page.
test.describe.configure({ mode: 'serial' })

const FIXTURES = join(import.meta.dirname, '../fixtures/preview')
let folder: string
let page: Page

test.beforeAll(async ({ browser }) => {
  folder = await mkdtemp(join(tmpdir(), 'ec-e2e-preview-'))
  await cp(FIXTURES, folder, { recursive: true })
  page = await (await browser.newContext({ viewport: { width: 1440, height: 960 } })).newPage()
})
test.afterAll(() => page.context().close())

const preview = (): FrameLocator => page.frameLocator('iframe[title="Site preview"]')
const sidebar = () => preview().getByRole('complementary', { name: 'Sidebar' })
const content = () => preview().getByRole('main')

/**
 * Opens a page from the preview's sidebar, and sees the click arrive: the sidebar marks the page
 * as the open one. The frame runs in a process of its own (a sandboxed frame); once in CI, under
 * full load, a click right after the editor had scrolled never reached it, and nothing on the
 * app's side could be found that drops one. So a click the sidebar does not answer within 2 s is
 * given again, as a reader would; an app that never answers still fails here.
 */
async function openFromSidebar(row: Locator) {
  await expect(async () => {
    await row.click()
    await expect(row).toHaveAttribute('aria-current', 'page', { timeout: 2_000 })
  }).toPass({ timeout: 20_000 })
}

async function open(url: string, path: string) {
  await page.goto(url)
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Site config' }).click()
  await page.getByLabel('Open a file by its path').fill(path)
  await page.getByRole('form', { name: 'Open a file' }).getByRole('button', { name: 'Open', exact: true }).click()
  await expect(page.getByLabel('Project name')).toBeVisible()
}

test('shows the sidebar with each page’s front-matter title, and marks the page whose file is missing', async ({ app }) => {
  await open(app.url, join(folder, 'hydra/docs.json'))
  // Titles come from the pages' front matter, once the docs folder is indexed (on a worker thread).
  await expect(sidebar().getByRole('button', { name: 'Introduction' })).toBeVisible({ timeout: 30_000 })
  await expect(sidebar().getByRole('button', { name: 'Quickstart' })).toBeVisible()
  await expect(sidebar().getByRole('button', { name: 'Knowledge' })).toBeVisible()
  const missing = sidebar().getByRole('button', { name: /core-concepts.*missing/ })
  await expect(missing).toBeVisible()
  await expect(missing).toHaveAttribute('title', /no get-started\/v2\/core-concepts\.mdx/)
  // The first page opens by itself, with its title from the front matter.
  await expect(content().getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible()
  await expect(preview().getByRole('combobox')).toHaveValue('0')
  await checkScreen(page, 'site-preview-light')
  // A click on the missing page goes to its field in the form.
  await missing.click()
  await expect(page.locator(':focus')).toHaveValue('get-started/v2/core-concepts')
})

test('a page with its components: a code group with highlighted code, a callout, and a snippet put in place', async () => {
  await openFromSidebar(sidebar().getByRole('button', { name: 'Quickstart' }))
  await expect(content().getByRole('heading', { level: 1, name: 'Quickstart' })).toBeVisible()
  await expect(content().getByRole('tab', { name: 'Python SDK' })).toHaveAttribute('aria-selected', 'true')
  await expect(content().locator('.hljs-keyword').first()).toBeVisible()
  await content().getByRole('tab', { name: 'TypeScript SDK' }).click()
  await expect(content().getByText('HydraDBClient').first()).toBeVisible()
  await openFromSidebar(sidebar().getByRole('button', { name: 'Knowledge' }))
  await expect(content().locator('aside.callout--info')).toContainText('One endpoint, two stores')
  // import TryIt from "/snippets/try-it.mdx" … <TryIt />: the snippet's Tip, in place.
  await expect(content().locator('aside.callout--tip')).toContainText('Hit the `Try it` button'.replace(/`/g, ''))
  await expect(content().getByRole('table')).toBeVisible()
  await page.getByRole('button', { name: 'Dark', exact: true }).click()
  await checkScreen(page, 'site-preview-components-dark')
  await page.getByRole('button', { name: 'Light', exact: true }).click()
})

test('an API page shows its operation from the OpenAPI file: method, path, body and responses', async () => {
  await preview().getByRole('navigation', { name: 'Tabs' }).getByRole('button', { name: 'API Reference' }).click()
  await openFromSidebar(sidebar().getByRole('button', { name: 'Create Database' }))
  const operation = content().locator('.operation')
  await expect(operation.locator('.method')).toHaveText('POST')
  await expect(operation.locator('.operation__path')).toContainText('/databases')
  await expect(operation.getByRole('heading', { name: /Body/ })).toBeVisible()
  await expect(operation.getByRole('tablist', { name: 'Response status' }).getByRole('tab').first()).toBeVisible()
  await checkScreen(page, 'site-preview-openapi')
})

test('an edit in the form shows in the preview: the project name in the top bar, a version switched', async () => {
  await page.getByLabel('Project name').fill('Hydra Preview')
  await expect(preview().getByRole('img', { name: 'Hydra Preview' })).toBeVisible()
  await preview().getByRole('combobox').selectOption('1')
  await expect(sidebar().getByRole('button', { name: 'Introduction' })).toBeVisible()
  await expect(sidebar().getByRole('button', { name: 'Quickstart' })).toHaveCount(0)
})

test('groups generated from an OpenAPI file list its operations with their method; a generated page shows the operation', async ({
  app,
}) => {
  await open(app.url.split('#')[0]!, join(folder, 'formal/docs.json'))
  await expect(sidebar().getByRole('button', { name: 'Status' })).toHaveCount(0)
  await expect(sidebar().getByRole('link', { name: 'Status' })).toBeVisible()
  await preview().getByRole('navigation', { name: 'Tabs' }).getByRole('button', { name: 'API' }).click()
  const generated = sidebar().getByRole('button', { name: /POST/ }).first()
  await expect(generated).toBeVisible()
  await openFromSidebar(generated)
  await expect(content().locator('.operation .method')).toHaveText('POST')
  await expect(content().locator('.operation__path')).toContainText('/core.v1.GroupService/')
  await page.getByRole('button', { name: 'Full window' }).click()
  await expect(page.getByRole('region', { name: 'Site preview' })).toHaveClass(/site-preview--full/)
  await checkScreen(page, 'site-preview-full-window')
  await page.keyboard.press('Escape')
  await expect(page.getByRole('region', { name: 'Site preview' })).not.toHaveClass(/site-preview--full/)
})

test('a hostile page stays inert in the real frame: nothing it holds reaches the network, and the frame cannot reach the app', async ({
  app,
}) => {
  const canary = await startCanary()
  const at = `http://127.0.0.1:${canary.port}`
  const root = join(folder, 'hostile')
  await mkdir(join(root, 'docs'), { recursive: true })
  await writeFile(join(folder, 'outside.mdx'), 'THE SECRET OUTSIDE')
  await writeFile(
    join(root, 'docs.json'),
    JSON.stringify({
      $schema: 'https://mintlify.com/docs.json',
      theme: 'mint',
      name: 'Hostile',
      colors: { primary: '#16A34A' },
      navigation: { groups: [{ group: 'Bad', pages: ['docs/bad', 'docs/after'] }] },
    }),
  )
  // The fence: a page after the hostile one, with a picture of the folder's own.
  await writeFile(join(root, 'docs/after.mdx'), ['---', 'title: After', '---', '', '![fence](fence.png)', ''].join('\n'))
  await writeFile(join(root, 'docs/fence.png'), PIXEL)
  await writeFile(
    join(root, 'docs/bad.mdx'),
    [
      '---',
      'title: Hostile page',
      '---',
      `import Secret from "../../outside.mdx"`,
      `export const x = fetch("${at}/export")`,
      '',
      `<script>{\`fetch("${at}/script")\`}</script>`,
      '',
      `<img src="missing.png" onerror="fetch('${at}/onerror')" />`,
      '',
      `Expression: {fetch("${at}/expression")}`,
      '',
      `[run me](javascript:fetch("${at}/javascript"))`,
      '',
      `![from the web](${at}/pixel.png)`,
      '',
      '<Secret />',
      '',
    ].join('\n'),
  )
  await open(app.url.split('#')[0]!, join(root, 'docs.json'))
  await expect(content().getByRole('heading', { level: 1, name: 'Hostile page' })).toBeVisible()
  await expect(content().locator('code.mdx-inert')).toContainText('fetch(')
  await expect(content().getByText('THE SECRET OUTSIDE')).toHaveCount(0)
  await content().getByText('run me').click()
  // The frame has no origin of its own: it cannot read the app's page or call main.
  const frame = page.frames().find((candidate) => candidate.url().includes('/preview-frame.html'))!
  const reach = await frame.evaluate(async () => {
    let parentDocument = 'blocked'
    try {
      parentDocument = String(window.parent.document.title)
    } catch {
      // Cross-origin: as it should be.
    }
    const call = await fetch('/ipc/app.info', { method: 'POST', body: '{}' }).then(
      (answer) => `answered ${answer.status}`,
      () => 'refused',
    )
    return { parentDocument, call, origin: window.origin, api: typeof (window as unknown as { api?: unknown }).api }
  })
  expect(reach).toEqual({ parentDocument: 'blocked', call: 'refused', origin: 'null', api: 'undefined' })
  // The fence: the frame opens the next page and loads its picture from the app's server. The
  // frame asks for what a page shows as the page is drawn, so whatever the hostile page (drawn,
  // then clicked, before) asked of the network was asked for before the fence picture was.
  await openFromSidebar(sidebar().getByRole('button', { name: 'After' }))
  const fence = content().getByRole('img', { name: 'fence' })
  await expect.poll(() => fence.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1)
  expect(canary.hits).toEqual([])
  await canary.close()
})

/** A docs folder of one page that shows `pictures` (addresses), and its docs.json. */
async function pictureFolder(name: string, pictures: string[]): Promise<string> {
  const root = join(folder, name)
  await mkdir(root, { recursive: true })
  await writeFile(
    join(root, 'docs.json'),
    JSON.stringify({
      theme: 'mint',
      name,
      colors: { primary: '#0D9373' },
      navigation: { groups: [{ group: 'Pictures', pages: ['index'] }] },
    }),
  )
  await writeFile(
    join(root, 'index.mdx'),
    ['---', `title: ${name}`, '---', '', ...pictures.map((src, index) => `![picture ${index + 1}](${src})\n`)].join('\n'),
  )
  return join(root, 'docs.json')
}

test('pictures from the web: blocked with a notice until allowed for the document, then fetched by main through the proxy, never from this computer', async ({
  browser,
}) => {
  // 203.0.113.7 is an address on the web as far as the app can tell; only the company proxy knows
  // the way there (to a picture server on loopback). The canary is this computer, asked directly.
  // An app of its own (started with the proxy) and two screens checked: more than one test's time.
  test.slow()
  const canary = await startCanary()
  const pictures = await startPictureServer()
  const proxy = await startProxy({ '203.0.113.7:80': `127.0.0.1:${pictures.port}` })
  const proxyUrl = proxy.url
  const app = await openSession(
    await launchBrowserMode(undefined, '.', { HTTP_PROXY: proxyUrl, http_proxy: proxyUrl, NO_PROXY: '', no_proxy: '' }),
  )
  const context = await browser.newContext({
    viewport: { width: 1440, height: 960 },
    storageState: { cookies: [sessionCookie(app)], origins: [] },
  })
  const tab = await context.newPage()
  const frame = () => tab.frameLocator('iframe[title="Site preview"]').getByRole('main')
  const notice = () => tab.getByRole('region', { name: 'Site preview' }).getByRole('status')
  // Each document opened from the one before it (Open…), in the same page: nothing is reloaded between them.
  const openIn = async (path: string) => {
    await tab.getByRole('button', { name: 'Open…' }).click()
    const dialog = tab.getByRole('dialog', { name: /^Open a/ })
    await dialog.getByLabel('File path').fill(path)
    await dialog.getByRole('button', { name: 'Open', exact: true }).click()
  }
  const first = await pictureFolder('First', [
    'http://203.0.113.7/pixel.png',
    `http://127.0.0.1:${canary.port}/by-address.png`,
    `http://localhost:${canary.port}/by-name.png`,
  ])
  const second = await pictureFolder('Second', ['http://203.0.113.7/other.png'])
  const fence = await pictureFolder('Fence', ['http://203.0.113.7/fence.png'])
  try {
    await tab.goto(app.origin)
    await tab.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Site config' }).click()
    await tab.getByLabel('Open a file by its path').fill(first)
    await tab.getByRole('form', { name: 'Open a file' }).getByRole('button', { name: 'Open', exact: true }).click()
    // The first page, once the app (started for this test) has indexed the folder and the frame has loaded.
    await expect(frame().getByRole('heading', { level: 1, name: 'First' })).toBeVisible({ timeout: 30_000 })
    await expect(notice()).toContainText('3 pictures from the web are not shown (203.0.113.7')
    await expect(frame().getByText('Picture from the web (203.0.113.7): not loaded in the preview')).toBeVisible()
    await checkScreen(tab, 'site-preview-web-pictures-blocked')
    expect(proxy.forwarded).toEqual([])

    await notice().getByRole('button', { name: 'Show pictures from the web' }).click()
    await expect(notice()).toContainText('Pictures from the web are shown for this document')
    const loaded = frame().getByRole('img', { name: 'picture 1' })
    await expect(loaded).toBeVisible()
    await expect.poll(() => loaded.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1)
    // Even allowed, this computer is refused by main: in its place, a sentence, and the canary heard nothing.
    await expect(frame().getByText(/Picture from the web \(127\.0\.0\.1:\d+\) could not be loaded/)).toBeVisible()
    await expect(frame().getByText(/Picture from the web \(localhost:\d+\) could not be loaded/)).toBeVisible()
    await checkScreen(tab, 'site-preview-web-pictures-allowed')
    expect(proxy.forwarded).toEqual(['http://203.0.113.7/pixel.png'])
    expect(canary.hits).toEqual([])

    // The leave is the document's: another document asks again, and so does the first one reopened.
    await openIn(second)
    await expect(frame().getByRole('heading', { level: 1, name: 'Second' })).toBeVisible()
    await expect(notice()).toContainText('One picture from the web is not shown (203.0.113.7)')
    await openIn(first)
    await expect(frame().getByRole('heading', { level: 1, name: 'First' })).toBeVisible()
    await expect(notice().getByRole('button', { name: 'Show pictures from the web' })).toBeVisible()
    // The fence: a third document, its picture from the web allowed, fetched the same way (the
    // frame asks the app's route, main asks the proxy, the proxy the picture server). It is
    // opened once the first was drawn again, so a picture that page asked for was on its way
    // before the fence's: once the fence picture reached the server, so had it.
    await openIn(fence)
    await expect(frame().getByRole('heading', { level: 1, name: 'Fence' })).toBeVisible()
    await notice().getByRole('button', { name: 'Show pictures from the web' }).click()
    await expect.poll(() => pictures.hits.includes('/fence.png')).toBe(true)
    expect(proxy.forwarded).toEqual(['http://203.0.113.7/pixel.png', 'http://203.0.113.7/fence.png'])
    expect(pictures.hits).toEqual(['/pixel.png', '/fence.png'])
    expect(canary.hits).toEqual([])
  } finally {
    await context.close()
    await app.stop()
    await Promise.all([canary.close(), pictures.close(), proxy.close()])
  }
})
