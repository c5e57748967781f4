import { availableParallelism } from 'node:os'
import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/helpers/chromium'

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  // Each test starts its own browser-mode app on a free port with its own data folder, so files
  // run side by side, one worker per core; the tests inside a file stay in order.
  fullyParallel: false,
  workers: availableParallelism(),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    // A trace records every action's page and screen, about a third of the suite's time on these
    // 2 cores; CI prints only the failure, so it records none there. Locally a failure keeps one.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
  },
})
