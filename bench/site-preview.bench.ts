import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { afterAll, bench, describe } from 'vitest'
import { siteModel } from '../src-renderer/features/site-editor/preview/site-model'
import { launchBrowserMode, openSession, sessionCookie } from '../test/e2e/browser-mode'
import { launchChromium } from '../test/helpers/chromium'
import { corpusFile } from './lib/corpus-file'
import { docsJsonFolder } from './lib/docs-json-folder'
import {
  clearKeystrokeSamples,
  installKeystrokeProbe,
  keystrokeAnswered,
  keystrokeSamples,
  keystrokesAnswered,
} from './lib/keystroke-probe'
import {
  changePainted,
  changesSeen,
  editorRecord,
  installPreviewProbe,
  lastFrameClick,
  longestGap,
  previewFrame,
  settle,
} from './lib/preview-probe'
import { PREVIEW_SITE_PAGES, writePreviewSite } from './lib/preview-site'
import { describeSpread, report, spread } from './lib/stats'

// The site preview in the real renderer, in Chromium, against the built app in browser mode:
//  - an edit in the form, and in the raw view, until the preview has drawn it (a 50-page site),
//    against the same keystroke's Problems list with the preview open and hidden;
//  - opening a page (a click in the preview's sidebar until the page is drawn), against a
//    message the frame draws without reading anything (switching light and dark);
//  - crewAI's 2.3 MB docs.json (22,992 pages, 4 languages × 35 versions): the editor's keystroke
//    with the preview showing it, against the preview hidden, and the longest the editor went
//    without drawing a frame (a freeze) meanwhile; its largest tab's sidebar drawn, virtualised;
//  - showing the preview (the frame loaded and drawn), on both sites.
// Every case runs once a round, in turn with the others; times are taken inside the pages
// (bench/lib/preview-probe.ts), so Playwright's round trips are not in them.

const ROUNDS = 4
/** Showing the preview loads its frame anew: every `SHOW_EVERY` rounds. */
const SHOW_EVERY = 4

const crewAi = corpusFile('docsjson', 'crewAIInc__crewAI__docs_docs.json')

const app = await launchBrowserMode(await mkdtemp(join(tmpdir(), 'ec-bench-preview-data-')), process.env.BENCH_APP_DIR ?? '.')
const session = await openSession(app)
const browser = await launchChromium()

/**
 * A tab with a document open. Each tab is a browser context of its own (with the one session's
 * cookie): a browser opens at most six connections to a host, and each tab of the app holds
 * event streams open, so five tabs in one context would wait on each other's connections.
 */
async function openDocument(path: string, options: { preview: boolean; view?: 'JSON' }): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    storageState: { cookies: [sessionCookie(session)], origins: [] },
  })
  await installPreviewProbe(context)
  const page = await context.newPage()
  await page.goto(app.origin)
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Site config' }).click()
  await page.bringToFront()
  await page.getByLabel('Open a file by its path').fill(path)
  await page.getByRole('form', { name: 'Open a file' }).getByRole('button', { name: 'Open', exact: true }).click()
  const primary = page.getByRole('textbox', { name: 'Primary colour', exact: true })
  await primary.waitFor({ timeout: 180_000 })
  // Measured once the docs folder is indexed, as a writer would work.
  await page.waitForFunction(() => (document.querySelector('#site-docs-pages')?.childElementCount ?? 0) > 0, null, { timeout: 180_000 })
  if (options.preview)
    await page.frameLocator('iframe[title="Site preview"]').locator('.sidebar__rows li').first().waitFor({ timeout: 60_000 })
  else await page.getByRole('region', { name: 'Site preview' }).getByRole('button', { name: 'Hide' }).click()
  if (options.view === 'JSON') {
    await page.getByRole('tab', { name: 'JSON' }).click()
    const colour = page.locator('.view-lines').getByText('"#0D9373"')
    await colour.waitFor({ timeout: 60_000 })
    await colour.click()
    await page.keyboard.press('End')
    await page.keyboard.press('ArrowLeft')
  } else {
    await primary.click()
    await primary.press('End')
  }
  await installKeystrokeProbe(page)
  return page
}

// The 50-page site three times (the form with the preview, the form without, the raw view with
// it), each a folder of its own; crewAI's once, in two tabs (with the preview, without).
const site = (name: string) => mkdtemp(join(tmpdir(), `ec-bench-preview-${name}-`)).then((folder) => writePreviewSite(folder))
const [formPath, basePath, rawPath, crewFolder] = await Promise.all([site('form'), site('base'), site('raw'), docsJsonFolder(crewAi)])
const tabs = {
  form: await openDocument(formPath, { preview: true }),
  base: await openDocument(basePath, { preview: false }),
  raw: await openDocument(rawPath, { preview: true, view: 'JSON' }),
  crew: await openDocument(join(crewFolder, 'docs.json'), { preview: true }),
  crewBase: await openDocument(join(crewFolder, 'docs.json'), { preview: false }),
}

type Sample = Record<string, number>
const samples: Record<string, Sample[]> = {}
const keep = (name: string, sample: Sample) => (samples[name] ??= []).push(sample)

const typed = new Map<Page, boolean>()
/** One keystroke that turns the primary colour invalid, or back: the Problems list and the preview's colours change. */
async function keystroke(page: Page, withPreview: boolean): Promise<Sample> {
  await page.bringToFront()
  // A click in the preview (a page opened, a tab picked, Show) took the focus: the caret goes back to the end of the colour.
  if (page !== tabs.raw)
    await page
      .getByRole('textbox', { name: 'Primary colour', exact: true })
      .evaluate((input: HTMLInputElement) => (input.focus(), input.setSelectionRange(input.value.length, input.value.length)))
  await settle(page)
  const frame = withPreview ? previewFrame(page) : null
  const seen = frame ? await changesSeen(frame, 'site') : 0
  const answered = await keystrokesAnswered(page)
  await page.keyboard.press(typed.get(page) ? 'Backspace' : 'x')
  typed.set(page, !typed.get(page))
  const change = frame ? await changePainted(frame, 'site', seen) : null
  await keystrokeAnswered(page, answered)
  const { painted } = await keystrokeSamples(page)
  const { keys, frames } = await editorRecord(page)
  const keyAt = keys.at(-1)!
  const end = Math.max(change?.painted ?? 0, keyAt + painted.at(-1)!)
  return {
    problems: painted.at(-1)!,
    ...(change ? { preview: change.painted! - keyAt } : {}),
    gap: longestGap(frames, keyAt, end),
  }
}

/** A click on a page in the preview's sidebar until that page is drawn (its text read through main, parsed, highlighted). */
const pageTitles = ['Guide 2', 'Guide 3']
let pageTurn = 0
async function openPage(page: Page): Promise<Sample> {
  await page.bringToFront()
  await settle(page)
  const frame = previewFrame(page)
  const seen = await changesSeen(frame, 'title')
  const title = pageTitles[pageTurn++ % pageTitles.length]!
  await page
    .frameLocator('iframe[title="Site preview"]')
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('button', { name: title, exact: true })
    .click()
  const change = await changePainted(frame, 'title', seen, title)
  const clickAt = await lastFrameClick(frame)
  const { frames } = await editorRecord(page)
  return { open: change.painted! - clickAt, gap: longestGap(frames, clickAt, change.painted!) }
}

/** Light or dark, picked in the editor until the frame drew it: a message and a drawing, nothing read. */
async function switchAppearance(page: Page): Promise<Sample> {
  await page.bringToFront()
  await settle(page)
  const frame = previewFrame(page)
  const seen = await changesSeen(frame, 'site')
  const dark = (await page.getByRole('button', { name: 'Dark', exact: true }).getAttribute('aria-pressed')) === 'true'
  await page.getByRole('button', { name: dark ? 'Light' : 'Dark', exact: true }).click()
  const change = await changePainted(frame, 'site', seen, dark ? 'site--light' : 'site--dark')
  const { clicks } = await editorRecord(page)
  return { appearance: change.painted! - clicks.at(-1)! }
}

/** A tab of the site picked in the preview until its sidebar is drawn. */
async function switchTab(page: Page, names: [string, string], turn: number): Promise<Sample> {
  await page.bringToFront()
  await settle(page)
  const frame = previewFrame(page)
  const seen = await changesSeen(frame, 'sidebar')
  const name = names[turn % 2]!
  await page.frameLocator('iframe[title="Site preview"]').getByRole('navigation', { name: 'Tabs' }).getByRole('button', { name }).click()
  const change = await changePainted(frame, 'sidebar', seen)
  const clickAt = await lastFrameClick(frame)
  const { frames } = await editorRecord(page)
  const drawn = await frame.evaluate(() => document.querySelectorAll('.sidebar__rows > li').length)
  return { tab: change.painted! - clickAt, gap: longestGap(frames, clickAt, change.painted!), drawn }
}

/** Hide, then Show: the frame loads anew (its script, the site, the first page) until its sidebar is drawn. */
async function showPreview(page: Page): Promise<Sample> {
  await page.bringToFront()
  const region = page.getByRole('region', { name: 'Site preview' })
  await region.getByRole('button', { name: 'Hide' }).click()
  await page.locator('iframe[title="Site preview"]').waitFor({ state: 'detached' })
  await settle(page)
  await region.getByRole('button', { name: 'Show' }).click()
  await page.frameLocator('iframe[title="Site preview"]').locator('.sidebar__rows li').first().waitFor({ timeout: 60_000 })
  const frame = previewFrame(page)
  const change = await changePainted(frame, 'sidebar', 0)
  const { clicks, frames } = await editorRecord(page)
  const clickAt = clicks.at(-1)!
  return { show: change.painted! - clickAt, gap: longestGap(frames, clickAt, change.painted!) }
}

// Warm-up: the code paths compiled, Monaco loaded, the caches filled; then the samples are forgotten.
for (let turn = 0; turn < 4; turn++) {
  await keystroke(tabs.form, true)
  await keystroke(tabs.base, false)
  await keystroke(tabs.raw, true)
  await keystroke(tabs.crew, true)
  await keystroke(tabs.crewBase, false)
  await openPage(tabs.form)
}
for (const page of Object.values(tabs)) await clearKeystrokeSamples(page)

let round = 0
async function oneRound() {
  keep('form', await keystroke(tabs.form, true))
  keep('base', await keystroke(tabs.base, false))
  keep('raw', await keystroke(tabs.raw, true))
  keep('crew', await keystroke(tabs.crew, true))
  keep('crewBase', await keystroke(tabs.crewBase, false))
  keep('open', await openPage(tabs.form))
  keep('appearance', await switchAppearance(tabs.form))
  // There and back: the pages opened above are in the Guides tab.
  keep('tab50', await switchTab(tabs.form, ['API reference', 'Guides'], 0))
  keep('tab50', await switchTab(tabs.form, ['API reference', 'Guides'], 1))
  keep('crewTab', await switchTab(tabs.crew, ['Documentation', 'Home'], round))
  if (round % SHOW_EVERY === 0) {
    keep('show50', await showPreview(tabs.form))
    keep('showCrew', await showPreview(tabs.crew))
  }
  round++
}

const figure = (name: string, key: string, unit = 'ms') => describeSpread(spread(samples[name]!.map((sample) => sample[key]!)), unit)

afterAll(async () => {
  const crewConfig: unknown = JSON.parse(await readFile(crewAi, 'utf8'))
  const documentationRows = siteModel({
    config: crewConfig,
    docs: null,
    specs: new Map(),
    selection: { tabs: 1 },
    filesBase: null,
    current: null,
    webPictures: false,
  }).sidebar.length
  const crewDrawn = samples.crewTab!.filter((_, index) => index % 2 === 0).map((sample) => sample.drawn!)
  const frameScript = (await readFile('out/renderer/preview-frame.js')).length
  report(`Site preview (${ROUNDS} interleaved rounds; showing the preview ${samples.show50!.length} rounds): median (min, max)`, [
    [`${PREVIEW_SITE_PAGES}-page site: keystroke in the form → the preview drew the change`, figure('form', 'preview'), '≤ 100 ms'],
    ['… the same keystroke → Problems list painted, preview shown', figure('form', 'problems'), ''],
    ['… baseline: the same keystroke → Problems list painted, preview hidden', figure('base', 'problems'), ''],
    ['… longest the editor went without a frame, preview shown / hidden', `${figure('form', 'gap')} / ${figure('base', 'gap')}`, ''],
    [
      `${PREVIEW_SITE_PAGES}-page site: keystroke in the raw view (Monaco) → the preview drew the change`,
      figure('raw', 'preview'),
      '≤ 100 ms',
    ],
    ['… the same keystroke → Problems list painted', figure('raw', 'problems'), ''],
    [
      'opening a page: a click in the preview’s sidebar → the page drawn (read through main, parsed, highlighted)',
      figure('open', 'open'),
      '≤ 200 ms',
    ],
    ['… baseline: light/dark picked in the editor → the frame drew it (nothing read)', figure('appearance', 'appearance'), ''],
    ['… longest the editor went without a frame while a page opened', figure('open', 'gap'), ''],
    [`${PREVIEW_SITE_PAGES}-page site: a tab picked in the preview → its sidebar drawn`, figure('tab50', 'tab'), ''],
    [
      'crewAI’s docs.json (2.3 MB, 22,992 pages): keystroke in the form → Problems list painted, preview shown',
      figure('crew', 'problems'),
      '',
    ],
    ['… baseline: the same, preview hidden', figure('crewBase', 'problems'), ''],
    ['… the same keystroke → the preview drew the change', figure('crew', 'preview'), ''],
    [
      '… longest the editor went without a frame, preview shown / hidden',
      `${figure('crew', 'gap')} / ${figure('crewBase', 'gap')}`,
      'no freeze',
    ],
    [
      `crewAI: its Documentation tab picked in the preview → sidebar drawn (${documentationRows} rows; ${Math.max(...crewDrawn)} at most in the page: virtualised)`,
      figure('crewTab', 'tab'),
      '',
    ],
    ['… longest the editor went without a frame meanwhile', figure('crewTab', 'gap'), 'no freeze'],
    [
      `showing the preview (its frame loaded: ${(frameScript / 1e6).toFixed(2)} MB of script) → sidebar drawn: 50-page site / crewAI`,
      `${figure('show50', 'show')} / ${figure('showCrew', 'show')}`,
      '',
    ],
    [
      '… longest the editor went without a frame meanwhile: 50-page site / crewAI',
      `${figure('show50', 'gap')} / ${figure('showCrew', 'gap')}`,
      '',
    ],
  ])
  await browser.close()
  await app.stop()
}, 120_000)

describe('the site preview', () => {
  bench('one round: keystrokes on both sites with and without the preview, a page opened, a tab picked', oneRound, {
    iterations: ROUNDS,
    time: 0,
    warmupIterations: 0,
  })
})
