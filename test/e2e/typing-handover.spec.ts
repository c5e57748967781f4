import type { Page } from '@playwright/test'
import { expect, test } from './browser-mode'

// Typing key by key is slow on a loaded machine: these tests get more time than most.
test.describe.configure({ timeout: 180_000 })
import { editor, idField, monacoHasFocus } from './groups-page'

// A deferred JSON editor starts as a plain text view and hands over to Monaco once Monaco has
// loaded: whatever is typed meanwhile, at any speed, is what is sent, in the order it was typed.

/** Long enough that Monaco, let in after the first keys, mounts while the rest are still coming. */
const TYPED = `{${Array.from({ length: 5 }, (_, index) => `"key${index}": "value ${index}", "n${index}": ${index}`).join(', ')}}`

/** Holds Monaco's chunk back until `release()`: the test decides when the editor can mount. */
async function holdMonaco(page: Page): Promise<{ release(): void }> {
  let release = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/assets\/JsonEditorImpl-[^/]*\.js$/, async (route) => {
    await gate
    await route.continue()
  })
  return { release: () => release() }
}

/** When Monaco's editor first appeared on the page (performance.now), or null. */
const watchMount = (page: Page) =>
  page.evaluate(() => {
    const found = window as unknown as { monacoMountedAt?: number }
    new MutationObserver((_, observer) => {
      if (document.querySelector('.monaco-editor')) {
        found.monacoMountedAt = performance.now()
        observer.disconnect()
      }
    }).observe(document.body, { childList: true, subtree: true })
  })
const mountedAt = (page: Page) => page.evaluate(() => (window as unknown as { monacoMountedAt?: number }).monacoMountedAt ?? null)
const pageNow = (page: Page) => page.evaluate(() => performance.now())

/** What the form sends to main for the next get-or-create: the request as it left the page. */
function nextSentRequest(page: Page): Promise<Record<string, unknown>> {
  return page
    .waitForRequest((request) => request.url().endsWith('/ipc/groups.getOrCreate') && request.method() === 'POST')
    .then((request) => (request.postDataJSON() as { request: Record<string, unknown> }).request)
}

/** The properties editor's text (the second JSON field): the plain view's, or Monaco's once it took over. */
const editorText = (page: Page) =>
  page
    .locator('.json-field')
    .nth(1)
    .evaluate(
      (field) =>
        field.querySelector<HTMLTextAreaElement>('textarea.json-editor--light')?.value ??
        (field.querySelector('.view-lines')?.textContent ?? '').replace(/\u00a0/g, ' '),
    )

/**
 * Right after a reload (nothing cached: Playwright's routing bypasses the cache), clicks into
 * properties and types; Monaco's chunk is let in after `releaseAfter` characters, so the editor
 * mounts while the keys still come. Checks that it did, then what the editor holds and what the
 * form sends.
 */
async function typeThroughHandOver(page: Page, url: string, groupId: string, delay: number, releaseAfter = 8) {
  await page.goto(url)
  const monaco = await holdMonaco(page)
  await page.reload()
  await watchMount(page)
  await idField(page).fill(groupId)
  await editor(page, 'properties').click()
  await page.keyboard.type(TYPED.slice(0, releaseAfter), { delay })
  monaco.release()
  await page.keyboard.type(TYPED.slice(releaseAfter), { delay })
  const typedUntil = await pageNow(page)
  const mounted = await mountedAt(page)
  // The test is only worth something if Monaco came while the keys did.
  expect(mounted, 'Monaco mounted while the keys were typed').not.toBeNull()
  expect(mounted!).toBeLessThan(typedUntil)
  // Monaco has the editor after the pause that ends the typing, with every key in its place.
  await expect.poll(() => monacoHasFocus(page)).toBe(true)
  expect(await editorText(page)).toBe(TYPED)
  const sent = nextSentRequest(page)
  await page.keyboard.press('ControlOrMeta+Enter')
  expect((await sent).properties).toEqual(JSON.parse(TYPED))
}

for (const delay of [0, 20]) {
  test(`keys typed ${delay} ms apart while Monaco loads are all sent, in order`, async ({ page, app }) => {
    await typeThroughHandOver(page, app.url, `typed-${delay}`, delay)
  })
}

test('keys typed on both sides of a hand-over that comes in a pause are all sent, in order', async ({ page, app }) => {
  await page.goto(app.url)
  await idField(page).fill('typed-with-pause')
  await editor(page, 'properties').click()
  const cut = TYPED.indexOf('"key3"')
  await page.keyboard.type(TYPED.slice(0, cut), { delay: 5 })
  // The pause in which Monaco takes over; the rest is typed into Monaco itself, whose closing
  // brackets and quotes must not double what the plain view held.
  await expect.poll(() => monacoHasFocus(page)).toBe(true)
  await page.keyboard.type(TYPED.slice(cut), { delay: 5 })
  expect(await editorText(page)).toBe(TYPED)
  const sent = nextSentRequest(page)
  await page.keyboard.press('ControlOrMeta+Enter')
  expect((await sent).properties).toEqual(JSON.parse(TYPED))
})
