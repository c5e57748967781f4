import { join } from 'node:path'
import { type FlakyProxy, startFlakyProxy } from '../helpers/flaky-proxy'
import { readSandboxData } from '../helpers/sandbox-data'
import { type BrowserModeApp, expect, launchBrowserMode, openSession, type SessionApp, sessionCookie, test } from './browser-mode'
import { checkScreen } from './screens'

// A rotation whose answer is lost on the way back (the server acted), as an operator meets it:
// the result says so and offers Check now; Activity lists it, and keeps what the check learned.
// An app of its own: the profiles made active here stay out of the other files' shared app.
test.describe.configure({ mode: 'serial' })

let proxy: FlakyProxy
let own: BrowserModeApp & SessionApp & { stop(): Promise<void> }
test.beforeAll(async () => {
  own = await openSession(await launchBrowserMode())
})
test.afterAll(() => own.stop())
test.beforeEach(({ context }) => context.addCookies([sessionCookie(own)]))

async function ipc(app: SessionApp, name: string, input: unknown): Promise<unknown> {
  const answer = await fetch(`${app.origin}/ipc/${name}`, {
    method: 'POST',
    headers: { cookie: app.cookieHeader, 'Content-Type': 'application/json' },
    body: JSON.stringify(input),
  })
  const result = (await answer.json()) as { ok: boolean; value?: unknown; error?: { message: string } }
  if (!result.ok) throw new Error(`${name}: ${result.error!.message}`)
  return result.value
}

test.afterAll(() => proxy?.close())

test('a lost rotation answer: outcome unknown with Check now, settled with the server’s token kept', async ({ page }) => {
  const app = own
  const info = (await ipc(app, 'app.info', {})) as { sandbox: { baseUrl: string } }
  // A gateway in front of the app's own sandbox that loses every answer to a rotation.
  proxy = await startFlakyProxy(info.sandbox.baseUrl, () => null, { loseAnswer: (_index, req) => req.method === 'POST' })
  const apiToken = readSandboxData(join(app.dataDir, 'sandbox.db')).apiTokens.Testing!
  const profile = (await ipc(app, 'profiles.create', {
    name: 'Lossy gateway',
    baseUrl: proxy.baseUrl,
    environmentKind: 'testing',
    apiToken,
    tokenStorage: 'session',
  })) as { id: string }
  await ipc(app, 'profiles.setActive', { id: profile.id })
  await ipc(app, 'groups.getOrCreate', { profileId: profile.id, request: { user_group_id: 'lossy-1' } })

  await page.goto(app.url)
  await page.getByRole('tab', { name: 'Rotate token' }).click()
  await page.getByLabel('Group', { exact: true }).fill('lossy-1')
  await page.getByRole('button', { name: 'Rotate token in Lossy gateway…' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate token', exact: true }).click()
  const result = page.getByRole('region', { name: 'Result' })
  await expect(result).toContainText('Token rotation failed')
  await expect(result).toContainText('outcome_unknown')
  await checkScreen(page, 'groups-rotation-unknown')

  await result.getByRole('button', { name: 'Check now' }).click()
  const serverToken = readSandboxData(join(app.dataDir, 'sandbox.db')).groups.find((group) => group.provided_id === 'lossy-1')!.token
  await expect(result.getByRole('status')).toHaveText(
    new RegExp(`^The rotation happened \\(confirmed at .+\\): the server’s new token …${serverToken.slice(-4)} is kept\\.$`),
  )
  await checkScreen(page, 'groups-rotation-settled')
  expect(await ipc(app, 'groups.revealToken', { profileId: profile.id, groupId: 'lossy-1' })).toEqual({ token: serverToken })

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Activity' }).click()
  const row = page.getByRole('row').filter({ hasText: 'lossy-1' }).filter({ hasText: 'Rotate token' })
  await expect(row.getByText('Rotated (confirmed later)')).toBeVisible()
  await row.getByRole('button', { name: /^Open the call/ }).click()
  const detail = page.getByRole('dialog', { name: /^Rotate token/ })
  await expect(detail).toContainText('Settled')
  await expect(detail).toContainText('The rotation happened')
  await expect(detail.getByRole('button', { name: 'Check now' })).toHaveCount(0)
  await checkScreen(page, 'activity-rotation-settled')
})

test('a run into a server that is down pauses itself, says why, and resumes once it is back', async ({ page }) => {
  const app = own
  const info = (await ipc(app, 'app.info', {})) as { sandbox: { baseUrl: string } }
  // A gateway that is down (every connection cut at once) until the test brings it back.
  let down = true
  const gateway = await startFlakyProxy(info.sandbox.baseUrl, () => (down ? (res) => res.socket?.destroy() : null))
  try {
    const apiToken = readSandboxData(join(app.dataDir, 'sandbox.db')).apiTokens.Testing!
    const profile = (await ipc(app, 'profiles.create', {
      name: 'Flaky gateway',
      baseUrl: gateway.baseUrl,
      environmentKind: 'testing',
      apiToken,
      tokenStorage: 'session',
    })) as { id: string }
    await ipc(app, 'profiles.setActive', { id: profile.id })
    await page.goto(app.url)
    await page.keyboard.press('ControlOrMeta+5')
    await page.getByLabel('File of groups').setInputFiles({
      name: 'down.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(['user_group_id', ...Array.from({ length: 50 }, (_, index) => `down-${index}`)].join('\n')),
    })
    await page.getByLabel('Requests a minute').fill('')
    await page.getByRole('button', { name: 'Send 50 rows' }).click()
    const paused = page.getByRole('alert').filter({ hasText: 'The server is not answering' })
    await expect(paused).toHaveText(
      /^The server is not answering: 5 requests in a row failed \(the last: .+\)\. The run is paused; resume it when the server is back\.$/,
    )
    await expect(page.getByRole('status').filter({ hasText: 'Paused' })).toBeVisible()
    await checkScreen(page, 'bulk-paused-server-down')

    down = false
    await page.getByRole('button', { name: 'Resume' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Finished.' })).toBeVisible()
    await expect(page.getByRole('progressbar', { name: 'Rows sent' })).toHaveAttribute('value', '50')
    await expect(paused).toHaveCount(0)
  } finally {
    await gateway.close()
  }
})
