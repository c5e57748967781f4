import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { expect, type Frame, type Page } from '@playwright/test'
import type { AxeResults, Result, RunOptions } from 'axe-core'

export const SCREENSHOT_DIR = 'test-results/screens'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/**
 * axe run in one frame's document, its own frames left to their own run. @axe-core/playwright's
 * analyze() runs each frame in part and then joins the parts in a new blank page: 5–6 s a screen
 * here, against about 1.5 s for the same documents run one by one, and the screens are checked a
 * hundred times a run. What the join adds is the rules that compare one frame's landmarks and
 * headings with its parent's, all of moderate impact, which this check does not fail on.
 */
async function violationsIn(frame: Frame, options: RunOptions): Promise<Result[]> {
  // A frame that loads a new document while it is checked (the preview drawing another page) is
  // checked again in that document: what the operator sees next is still checked, never skipped.
  for (let attempt = 1; ; attempt++) {
    if (frame.isDetached() || frame.url() === 'about:blank') return []
    try {
      if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(AXE_SOURCE)
      const results = await frame.evaluate(
        (runOptions) =>
          (window as unknown as { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } }).axe.run(
            document,
            runOptions,
          ),
        options,
      )
      return results.violations
    } catch (error) {
      if (attempt === 3 || !/Execution context was destroyed|Frame was detached/.test(String(error))) throw error
      await frame.waitForLoadState('load').catch(() => undefined)
    }
  }
}

/**
 * Saves a screenshot to look at and fails on serious or critical axe violations, in the page and
 * its frames. CI keeps no files of a run, so there it only checks.
 */
export async function checkScreen(page: Page, name: string, { experimental = false }: { experimental?: boolean } = {}): Promise<void> {
  if (!process.env.CI) await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage: true })
  const options: RunOptions = {
    iframes: false,
    resultTypes: ['violations'],
    // `experimental` adds axe's rules still marked so (label-content-name-mismatch among them).
    ...(experimental ? { rules: { 'label-content-name-mismatch': { enabled: true } } } : {}),
  }
  const violations = (await Promise.all(page.frames().map((frame) => violationsIn(frame, options)))).flat()
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`)
  expect(serious, `accessibility violations on ${name}`).toEqual([])
}
