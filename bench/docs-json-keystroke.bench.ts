import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { afterAll, bench, describe } from 'vitest'
import { launchBrowserMode, openSession, sessionCookie } from '../test/e2e/browser-mode'
import { launchChromium } from '../test/helpers/chromium'
import { corpusFile } from './lib/corpus-file'
import {
  clearKeystrokeSamples,
  installKeystrokeProbe,
  keystrokeAnswered,
  keystrokeSamples,
  keystrokesAnswered,
} from './lib/keystroke-probe'
import { describeSpread, report, spread } from './lib/stats'

// Keystroke → Problems on the largest real docs.json (crewAI's, 2.3 MB, 22,992 pages) in a folder
// without its pages (so the folder part names all 22,992: the Problems list at its largest),
// against the same keystroke in a 5 kB docs.json (a real one of the shared corpus, its folder
// without pages too), interleaved. Each file has a browser of its own: two tabs of one browser
// share a renderer process, and each key would wait behind what the other tab's key left. Four places: the primary
// colour (a setting beside the navigation), a group's name deep in the navigation tree, and the
// raw JSON view at the start of the text and at its end (where a break is found only after the
// whole text is read). Each keystroke makes the Problems list change (the colour between valid and not,
// the group name between empty and not, the raw text between valid JSON and not); the time is
// taken in the page, from the keydown's own timestamp to the Problems list's change in the DOM and
// to the frame after it (bench/lib/keystroke-probe.ts).

const KEYSTROKES = Number(process.env.BENCH_KEYSTROKES ?? 20)
const LARGEST = corpusFile('docsjson', 'crewAIInc__crewAI__docs_docs.json')
const SMALL = corpusFile('docsjson', '00-Aakash-00__kicbac-docs__docs.json')

/** How long the raw view is left after it opens, before its keys (see focusPlace). */
const RAW_VIEW_SETTLE_MS = 5000

type Place = 'colour' | 'group' | 'raw' | 'raw-end'
const ALL_PLACES: Place[] = ['colour', 'group', 'raw', 'raw-end']
/** BENCH_PLACES=group (or a comma-separated list) measures only those places. */
const PLACES = process.env.BENCH_PLACES ? ALL_PLACES.filter((place) => process.env.BENCH_PLACES!.split(',').includes(place)) : ALL_PLACES

async function folderWith(file: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'ec-bench-docs-json-'))
  await writeFile(join(folder, 'docs.json'), await readFile(file))
  return folder
}

async function openIn(page: Page, url: string, path: string) {
  // A tab in the background gets no keystrokes and no animation frames.
  await page.bringToFront()
  await page.goto(url)
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Site config' }).click()
  await page.getByLabel('Open a file by its path').fill(path)
  await page.getByRole('form', { name: 'Open a file' }).getByRole('button', { name: 'Open', exact: true }).click()
  await page
    .getByRole('textbox', { name: 'Primary colour', exact: true })
    .waitFor({ timeout: 180_000 })
    .catch(async (error: unknown) => {
      await page.screenshot({ path: 'test-results/bench-docs-json-open.png' })
      throw error
    })
  // Measured once the docs folder is indexed and its pages read, as a writer would work.
  await page
    .getByText('Watching for changes')
    .or(page.locator('.docs-view'))
    .first()
    .waitFor({ state: 'attached', timeout: 120_000 })
    .catch(() => {})
  await page.waitForTimeout(3000)
  await installKeystrokeProbe(page)
}

/** Puts the caret where the place's keystrokes go. */
async function focusPlace(page: Page, place: Place) {
  await page.bringToFront()
  if (place === 'raw' || place === 'raw-end') {
    await page.getByRole('tab', { name: 'JSON' }).click()
    const text = page.getByRole('textbox', { name: 'docs.json text' })
    await text.waitFor({ timeout: 60_000 })
    await text.focus()
    // After the opening brace, or after the closing one: 'x' there breaks the JSON, Backspace mends it.
    if (place === 'raw') {
      await page.keyboard.press('ControlOrMeta+Home')
      await page.keyboard.press('End')
    } else await page.keyboard.press('ControlOrMeta+End')
    // Monaco colours a text's tokens in idle time once it is shown: 50,000 lines of crewAI's file
    // take about 0.3 s of work spread over the next seconds, and keys typed meanwhile share the
    // thread with it. Measured once that is done, as a writer types after opening the view.
    await page.waitForTimeout(RAW_VIEW_SETTLE_MS)
    return
  }
  await page.getByRole('tab', { name: 'Form' }).click()
  if (place === 'colour') {
    const primary = page.getByRole('textbox', { name: 'Primary colour', exact: true })
    await primary.click()
    await primary.press('End')
    return
  }
  // The first group of the first tab, at whatever depth: rows are opened down to it.
  const tree = page.getByRole('list', { name: 'Navigation tree' })
  await tree.scrollIntoViewIfNeeded()
  for (let depth = 0; depth < 4; depth++) {
    const group = tree.getByRole('textbox', { name: /^Group \d+ name$/ }).first()
    if (await group.count()) break
    const expand = tree.getByRole('button', { name: /^Expand / }).first()
    if (!(await expand.count())) break
    await expand.click()
  }
  const name = tree.getByRole('textbox', { name: /^Group \d+ name$/ }).first()
  await name.click()
  // One letter: Backspace empties it (a problem), the letter mends it.
  await name.fill('G')
  await name.press('End')
}

const broken = new Map<Page, boolean>()
async function keystroke(page: Page, place: Place) {
  await page.bringToFront()
  const before = await keystrokesAnswered(page)
  const breaking = !broken.get(page)
  await page.keyboard.press(place === 'group' ? (breaking ? 'Backspace' : 'G') : breaking ? 'x' : 'Backspace')
  broken.set(page, breaking)
  await keystrokeAnswered(page, before)
}

let large: Page | null = null
let small: Page | null = null
let stop: (() => Promise<void>) | null = null
const results = new Map<Place, { large: { dom: number[]; painted: number[] }; small: { dom: number[]; painted: number[] } }>()

const [largeRoot, smallRoot] = await Promise.all([folderWith(LARGEST), folderWith(SMALL)])
const app = await openSession(
  await launchBrowserMode(await mkdtemp(join(tmpdir(), 'ec-bench-docs-data-')), process.env.BENCH_APP_DIR ?? '.'),
)
const browsers = await Promise.all([launchChromium(), launchChromium()])
async function pageIn(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    storageState: { cookies: [sessionCookie(app)], origins: [] },
  })
  return context.newPage()
}
large = await pageIn(browsers[0])
small = await pageIn(browsers[1])
await openIn(large, app.origin, join(largeRoot, 'docs.json'))
await openIn(small, app.origin, join(smallRoot, 'docs.json'))
stop = async () => {
  await Promise.all(browsers.map((browser) => browser.close()))
  await app.stop()
}

async function measure(place: Place) {
  if (!large || !small) return
  broken.clear()
  for (const page of [large, small]) await focusPlace(page, place)
  // Warm up, then count.
  for (let index = 0; index < 4; index++) {
    await keystroke(large, place)
    await keystroke(small, place)
  }
  for (const page of [large, small]) await clearKeystrokeSamples(page)
  for (let index = 0; index < KEYSTROKES; index++) {
    await keystroke(large, place)
    await keystroke(small, place)
  }
  const [onLarge, onSmall] = await Promise.all([keystrokeSamples(large), keystrokeSamples(small)])
  results.set(place, { large: onLarge, small: onSmall })
  // Leave the file valid for the next place.
  if (broken.get(large)) await keystroke(large, place)
  if (broken.get(small)) await keystroke(small, place)
}

const WHERE: Record<Place, string> = {
  colour: 'the primary colour (form)',
  group: 'a group’s name in the navigation tree',
  raw: 'the raw JSON view (Monaco)',
  'raw-end': 'the raw JSON view, at the end of the text',
}

afterAll(async () => {
  if (!large || !small) return
  const rows: [string, string, string][] = []
  for (const place of PLACES) {
    const measured = results.get(place)
    if (!measured) continue
    const ratio = measured.large.painted.map((value, index) => value / measured.small.painted[index]!)
    rows.push(
      [
        `${WHERE[place]}: crewAI’s docs.json, keystroke → the frame after the Problems changed`,
        describeSpread(spread(measured.large.painted), 'ms'),
        '< 50 ms',
      ],
      ['… the 5 kB docs.json (baseline), the same keystroke', describeSpread(spread(measured.small.painted), 'ms'), ''],
      ['… ratio, keystroke by keystroke', describeSpread(spread(ratio), '×'), '≤ 2×'],
      [
        '… keystroke → Problems list in the DOM (crewAI / 5 kB)',
        `${describeSpread(spread(measured.large.dom), 'ms')} / ${describeSpread(spread(measured.small.dom), 'ms')}`,
        '',
      ],
    )
  }
  report(`docs.json keystrokes, ${KEYSTROKES} each, interleaved with the 5 kB file: median (min, max)`, rows)
  await stop?.()
})

describe('docs.json keystrokes in the site editor, crewAI’s 2.3 MB file against a 5 kB one', () => {
  for (const place of PLACES) bench(`keystrokes in ${WHERE[place]}`, () => measure(place), { iterations: 1, time: 0, warmupIterations: 0 })
})
