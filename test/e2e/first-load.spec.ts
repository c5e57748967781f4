import { expect, test } from './browser-mode'

// Each screen that mounts while the app loads reads the same cached answers: no call is made twice.
test('the first screen asks main for each thing once', async ({ page, app }) => {
  const calls: string[] = []
  page.on('request', (request) => {
    const call = /\/ipc\/([\w.-]+)$/.exec(new URL(request.url()).pathname)?.[1]
    if (call) calls.push(call)
  })
  await page.goto(app.url)
  await expect(page.getByText('No groups yet.')).toBeVisible()
  // Whatever is still on its way lands first.
  await page.waitForLoadState('networkidle')
  const counts = Object.fromEntries([...new Set(calls)].map((name) => [name, calls.filter((call) => call === name).length]))
  expect(Object.entries(counts).filter(([, count]) => count > 1)).toEqual([])
})
