import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { afterAll, bench, describe } from 'vitest'
import { launchChromium } from '../test/helpers/chromium'
import { describeSpread, interleave, report, spread } from './lib/stats'

// The first screen's targets, on the built app in browser mode and Debian's Chromium:
// - the first screen (everything fetched until Groups is usable) < 300 kB transferred;
// - start (spawning `embed-console web`) → Groups usable < 800 ms, median;
// - first focus of an editor → Monaco has the caret and shows a typed key < 1 s.
// Baseline in the same rounds: the same screen fetched uncompressed with an editor loaded at
// once, as release 0.1 sent it (two Monaco editors mounted with the screen).

const ROUNDS = 7
const folder = await mkdtemp(join(tmpdir(), 'ec-bench-first-screen-'))
const browser = await launchChromium()
let seq = 0

async function startApp(): Promise<{ url: string; child: ChildProcess; startedAt: number }> {
  const startedAt = performance.now()
  const child = spawn(
    process.execPath,
    ['bin/embed-console.js', 'web', '--port', '0', '--no-open', '--data-dir', join(folder, `data-${seq++}`)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const url = await new Promise<string>((resolve, reject) => {
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      const match = /running at (\S+)/.exec(output)
      if (match) resolve(match[1]!)
    })
    child.on('exit', (code) => reject(new Error(`embed-console web exited with ${code}`)))
  })
  return { url, child, startedAt }
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGINT'))))

/** Bytes on the wire (headers and encoded bodies) of every request that finished. */
function countBytes(page: Page): () => number {
  let total = 0
  page.on('requestfinished', (request) => {
    void request.sizes().then((sizes) => (total += sizes.responseHeadersSize + sizes.responseBodySize))
  })
  return () => total
}

async function groupsUsable(page: Page): Promise<void> {
  await page.getByLabel('user_group_id', { exact: true }).waitFor()
  await page.getByText('No groups yet.').waitFor()
}

/** Focus → Monaco holds the caret and shows a key typed into it. */
async function monacoUsable(page: Page): Promise<number> {
  const started = performance.now()
  await page.getByRole('textbox', { name: 'mapping (JSON)' }).focus()
  await page.waitForFunction(() => Boolean(document.activeElement?.closest('.monaco-editor')))
  await page.keyboard.type('7')
  await page.locator('.monaco-editor .view-lines').filter({ hasText: '7' }).waitFor()
  return performance.now() - started
}

const rounds = await interleave(ROUNDS, {
  // The browser is already open (a tab of the operator's): its start is not the app's.
  now: async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const bytes = countBytes(page)
    const app = await startApp()
    await page.goto(app.url)
    await groupsUsable(page)
    const startMs = performance.now() - app.startedAt
    await page.waitForLoadState('networkidle')
    const firstScreenBytes = bytes()
    const focusMs = await monacoUsable(page)
    await context.close()
    await stop(app.child)
    return { startMs, firstScreenBytes, focusMs }
  },
  release01: async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      extraHTTPHeaders: { 'Accept-Encoding': 'identity' },
    })
    const page = await context.newPage()
    const bytes = countBytes(page)
    const app = await startApp()
    await page.goto(app.url)
    await groupsUsable(page)
    const focusMs = await monacoUsable(page)
    const startMs = performance.now() - app.startedAt
    await page.waitForLoadState('networkidle')
    const firstScreenBytes = bytes()
    await context.close()
    await stop(app.child)
    return { startMs, firstScreenBytes, focusMs }
  },
})

const kB = (bytes: number) => bytes / 1000

afterAll(async () => {
  report(`First screen: ${ROUNDS} interleaved rounds, median (min, max)`, [
    [
      'first screen transferred: Groups usable, compressed, Monaco not loaded',
      describeSpread(spread(rounds.now.map((run) => kB(run.firstScreenBytes))), 'kB'),
      '< 300 kB',
    ],
    [
      '… baseline: uncompressed, with an editor loaded (as 0.1 sent it)',
      describeSpread(spread(rounds.release01.map((run) => kB(run.firstScreenBytes))), 'kB'),
      '',
    ],
    ['start (spawn `embed-console web`) → Groups usable', describeSpread(spread(rounds.now.map((run) => run.startMs)), 'ms'), '< 800 ms'],
    [
      '… baseline: start → an editor usable, uncompressed (as 0.1 had it)',
      describeSpread(spread(rounds.release01.map((run) => run.startMs)), 'ms'),
      '',
    ],
    [
      'first focus of an editor → Monaco has the caret and shows a typed key',
      describeSpread(spread(rounds.now.map((run) => run.focusMs)), 'ms'),
      '< 1 s',
    ],
    ['… the same, uncompressed', describeSpread(spread(rounds.release01.map((run) => run.focusMs)), 'ms'), ''],
  ])
  await browser.close()
})

describe('first screen', () => {
  bench(
    'start → Groups usable (browser mode, Chromium)',
    async () => {
      const page = await browser.newPage()
      const app = await startApp()
      await page.goto(app.url)
      await groupsUsable(page)
      await page.close()
      await stop(app.child)
    },
    { iterations: 2, time: 0 },
  )
})
