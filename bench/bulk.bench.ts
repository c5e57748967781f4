import { spawn } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, bench, describe } from 'vitest'
import { createAppServices } from '../src-main/app-services'
import { launchBrowserMode } from '../test/e2e/browser-mode'
import { launchChromium } from '../test/helpers/chromium'
import { addBenchProfile } from './lib/fixtures'
import { describeSpread, interleave, median, report, spread } from './lib/stats'

// Bulk runs' targets (npm run bench; never timed tests):
// - 10,000 new groups against the local sandbox at concurrency 8: < 15 s end to end (plan + run);
//   the baseline is the same 10,000 sent one call at a time through the router, as before bulk runs
//   (the CLI took a process per call: about an hour);
// - the UI stays responsive during a run: a keystroke in another screen < 50 ms.

const ROWS = 10_000
const folder = await mkdtemp(join(tmpdir(), 'ec-bench-bulk-'))
// The sandbox in a process of its own, as an API is: the app and the server do not share a core.
const sandboxProcess = spawn(process.execPath, ['bin/embed-console.js', 'sandbox', '--port', '0', '--data', join(folder, 'sandbox.db')], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
const sandbox = await new Promise<{ baseUrl: string; tokens: { Customer: string } }>((resolve, reject) => {
  let output = ''
  sandboxProcess.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
    const baseUrl = /running at (\S+)/.exec(output)?.[1]
    const customer = /Customer API token: (\S+)/.exec(output)?.[1]
    if (baseUrl && customer) resolve({ baseUrl, tokens: { Customer: customer } })
  })
  sandboxProcess.on('exit', (code) => reject(new Error(`embed-console sandbox exited with ${code}`)))
})
let round = 0

const csvOf = (prefix: string) =>
  [
    'user_group_id,name,properties',
    ...Array.from({ length: ROWS }, (_, index) => `${prefix}-${index},Customer ${index},"{""seats"": ${index % 50}}"`),
  ].join('\n')

async function freshApp() {
  const services = await createAppServices({ dataDir: join(folder, `app-${round++}`), transport: 'browser', sandbox: false })
  const profile = await addBenchProfile(services, { baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer, tokenStorage: 'session' })
  return { services, profileId: profile.id }
}

/** Plan and run a 10,000-row file at concurrency 8, as the Bulk screen does; seconds end to end. */
async function bulkRun(): Promise<number> {
  const { services, profileId } = await freshApp()
  const text = csvOf(`bulk-${round}`)
  const started = performance.now()
  const settings = { concurrency: 8, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false }
  const plan = services.bulk.plan({ kind: 'apply', target: { profileId }, fileName: 'bench.csv', text, excludeInvalid: false, settings })
  const state = await services.bulk.launch(plan.runId!, settings).done
  const seconds = (performance.now() - started) / 1000
  const { created } = services.bulk.tallies(plan.runId!)
  if (state !== 'finished' || created !== ROWS) throw new Error(`The bench run ended ${state} with ${created} created.`)
  await services.close()
  return seconds
}

/** The same groups one call at a time through the router: what an operator had before. */
async function oneAtATime(): Promise<number> {
  const { services, profileId } = await freshApp()
  const started = performance.now()
  for (let index = 0; index < ROWS; index++) {
    const result = await services.router.dispatch(
      'groups.getOrCreate',
      { profileId, request: { user_group_id: `single-${round}-${index}`, name: `Customer ${index}`, properties: { seats: index % 50 } } },
      { transport: 'test' },
    )
    if (!result.ok) throw new Error(result.error.message)
  }
  const seconds = (performance.now() - started) / 1000
  await services.close()
  return seconds
}

const runs = await interleave(3, { bulk: bulkRun, single: oneAtATime })

// ---------------------------------------------------------------- keystrokes while a run goes
const app = await launchBrowserMode(join(folder, 'web'))
const browser = await launchChromium()
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
await page.goto(app.url)

const section = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name })

/** Starts a 10,000-row run from the Bulk screen, as an operator would. */
async function startUiRun(prefix: string) {
  await section('Bulk runs').click()
  const newRun = page.getByRole('button', { name: 'New run' })
  if (await newRun.isVisible()) await newRun.click()
  await page.getByLabel('File of groups').setInputFiles({ name: `${prefix}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csvOf(prefix)) })
  await page.getByRole('button', { name: `Send ${ROWS.toLocaleString('en')} rows` }).click()
  await page.getByRole('status').filter({ hasText: 'Sending…' }).waitFor()
}

// Keydown to the next painted frame, measured in the page (the Node ↔ browser round trip is not in it).
await page.evaluate(() => {
  const samples: number[] = []
  Object.assign(window, { keystrokeSamples: samples })
  window.addEventListener(
    'keydown',
    (event) => {
      const at = event.timeStamp
      requestAnimationFrame(() => {
        const channel = new MessageChannel()
        channel.port1.onmessage = () => samples.push(performance.now() - at)
        channel.port2.postMessage(null)
      })
    },
    true,
  )
})

/** Typing into the Groups screen's id field. */
async function keystrokes(count: number): Promise<number[]> {
  await section('Groups').click()
  const field = page.getByLabel('user_group_id', { exact: true })
  await field.click()
  await page.evaluate(() => (window as unknown as { keystrokeSamples: number[] }).keystrokeSamples.splice(0))
  for (let index = 0; index < count; index++) {
    await page.keyboard.press(index % 2 ? 'Backspace' : 'x')
    await page.waitForTimeout(40)
  }
  return page.evaluate(() => (window as unknown as { keystrokeSamples: number[] }).keystrokeSamples.splice(0))
}

let prefix = 0
const typing = await interleave(3, {
  idle: async () => median(await keystrokes(20)),
  running: async () => {
    await startUiRun(`ui-${prefix++}`)
    return median(await keystrokes(20))
  },
})

afterAll(async () => {
  report('Bulk runs: 3 interleaved rounds, median (min, max)', [
    [
      `${ROWS.toLocaleString('en')} new groups, bulk run at concurrency 8 (plan + run, the sandbox in its own process)`,
      describeSpread(spread(runs.bulk), 's'),
      '< 15 s',
    ],
    [
      `… baseline: the same ${ROWS.toLocaleString('en')} one call at a time through the router`,
      describeSpread(spread(runs.single), 's'),
      '',
    ],
    ['keystroke → painted in the Groups screen, no run going (median of 20)', describeSpread(spread(typing.idle), 'ms'), ''],
    ['keystroke → painted in the Groups screen while a 10,000-row run goes', describeSpread(spread(typing.running), 'ms'), '< 50 ms'],
  ])
  await browser.close()
  await app.stop()
  sandboxProcess.kill('SIGINT')
})

describe('bulk runs', () => {
  bench(
    'plan 10,000 rows (parse, validate, classify, journal)',
    async () => {
      const { services, profileId } = await freshApp()
      services.bulk.plan({
        kind: 'apply',
        target: { profileId },
        fileName: 'bench.csv',
        text: csvOf(`plan-${round}`),
        excludeInvalid: false,
        settings: { concurrency: 8, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false },
      })
      await services.close()
    },
    { iterations: 3, time: 0 },
  )
})
