import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

export const SCREENSHOT_DIR = 'test-results/screens'

/** Saves a screenshot to look at (a CI artifact) and fails on serious or critical axe violations. */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage: true })
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`)
  expect(serious, `accessibility violations on ${name}`).toEqual([])
}
