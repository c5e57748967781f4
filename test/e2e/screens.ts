import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

export const SCREENSHOT_DIR = 'test-results/screens'

/** Saves a screenshot to look at (a CI artifact) and fails on serious or critical axe violations. */
export async function checkScreen(page: Page, name: string, { experimental = false }: { experimental?: boolean } = {}): Promise<void> {
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage: true })
  // `experimental` adds axe's rules still marked so (label-content-name-mismatch among them).
  const axe = new AxeBuilder({ page })
  const results = await (experimental ? axe.options({ rules: { 'label-content-name-mismatch': { enabled: true } } }) : axe).analyze()
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`)
  expect(serious, `accessibility violations on ${name}`).toEqual([])
}
