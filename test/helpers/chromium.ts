import { type Browser, chromium } from '@playwright/test'

// Debian's Chromium: Playwright cannot download its own browser on these machines (docs/platform-notes.md).
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Without the background-networking flags Chromium keeps calling out, and this network refuses it. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Chromium as the end-to-end tests run it, for the benchmarks that drive a page. */
export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
