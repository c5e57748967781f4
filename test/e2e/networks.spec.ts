import { mkdtemp } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { type Sandbox, startSandbox } from '../../src-main/sandbox/sandbox-server'
import {
  API_HOST,
  type Certificates,
  type Gateway,
  makeCertificates,
  type Proxy,
  startGateway,
  startProxy,
} from '../helpers/company-network'
import { expect, test } from './browser-mode'
import { checkScreen } from './screens'

// A profile behind a company proxy, with a private CA, as an operator sets it up and checks it.
test.describe.configure({ mode: 'serial' })

const PROXY_PASSWORD = 'e2e-proxy-password-7c1d'
let sandbox: Sandbox
let certificates: Certificates
let gateway: Gateway
let proxy: Proxy

test.beforeAll(async () => {
  certificates = makeCertificates()
  sandbox = await startSandbox({ port: 0, dataFile: join(await mkdtemp(join(tmpdir(), 'ec-e2e-network-')), 'sandbox.db') })
  gateway = await startGateway(sandbox.baseUrl, certificates.server)
  proxy = await startProxy({ [`${API_HOST}:443`]: `127.0.0.1:${gateway.port}` }, `alice:${PROXY_PASSWORD}`)
})
test.afterAll(async () => {
  await proxy.close()
  await gateway.close()
  await sandbox.close()
})

async function openProfiles(page: Page, url: string) {
  await page.goto(url)
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Profiles' }).click()
}

test('a profile behind a proxy with a private CA: saved, tested and diagnosed', async ({ page, app }) => {
  await openProfiles(page, app.url)
  await page.getByRole('button', { name: 'New profile' }).click()
  const form = page.getByRole('form', { name: 'New profile' })
  await form.getByLabel('Name', { exact: true }).fill('Corp')
  await form.getByLabel('Base URL').fill(`https://${API_HOST}`)
  await form.getByLabel('API token').fill(sandbox.tokens.Customer)
  await form.getByText('Network: proxy and certificates').click()
  await form.getByLabel('This proxy').check()
  await form.getByLabel('Proxy address').fill(proxy.url)
  await form.getByLabel('Proxy user name').fill('alice')
  await form.getByLabel('Proxy password').fill(PROXY_PASSWORD)
  await form.getByLabel('CA bundle file').fill(join(certificates.dir, 'missing.pem'))
  await expect(form.getByRole('group', { name: 'Keep the token and the proxy password' })).toBeVisible()
  await form.getByLabel('For this session only').check()
  await form.getByRole('button', { name: 'Create profile' }).click()
  // Main reads the bundle when the profile is saved: a wrong path is said in the form.
  await expect(form.getByRole('alert')).toContainText('missing.pem cannot be read (ENOENT)')
  await form.getByLabel('CA bundle file').fill(certificates.caFile)
  await checkScreen(page, 'profiles-network-form')
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.setViewportSize({ width: 800, height: 900 })
  await form.getByLabel('Proxy address').scrollIntoViewIfNeeded()
  await checkScreen(page, 'profiles-network-form-dark-800')
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 800 })
  await form.getByRole('button', { name: 'Create profile' }).click()

  const card = page.getByRole('listitem', { name: 'Corp' })
  await expect(page.locator('body')).not.toContainText(PROXY_PASSWORD)
  await card.getByRole('button', { name: 'Test connection' }).click()
  await expect(card.getByRole('status')).toContainText('Connected')
  expect(proxy.connects).toContain(`${API_HOST}:443`)

  await card.getByRole('button', { name: 'Diagnose connection' }).click()
  const diagnosis = card.getByRole('region', { name: 'Diagnosis of Corp' })
  await expect(diagnosis.getByRole('status')).toHaveText('The connection works: every step passed, and the API accepted the token.')
  await expect(diagnosis).toContainText(`${proxy.url} (from the profile)`)
  await expect(diagnosis).toContainText(`The profile's CA bundle ${certificates.caFile}: 1 certificate`)
  await expect(diagnosis).toContainText(/TLSv1\.[23]/)
  await expect(diagnosis.getByRole('list', { name: 'Steps' }).getByRole('listitem')).toHaveText([
    /DNS/,
    /TCP/,
    /Proxy CONNECT/,
    /TLS/,
    /HTTP/,
  ])
  await expect(page.locator('body')).not.toContainText(PROXY_PASSWORD)
  await diagnosis.scrollIntoViewIfNeeded()
  await checkScreen(page, 'profiles-diagnosis')
})

test('the diagnosis says where it fails: the certificate, its issuer and what would trust it', async ({ page, app }) => {
  await openProfiles(page, app.url)
  const card = page.getByRole('listitem', { name: 'Corp' })
  await card.getByRole('button', { name: 'Edit' }).click()
  const form = page.getByRole('form', { name: 'Edit profile Corp' })
  await expect(form.getByRole('textbox', { name: 'Proxy password' })).toHaveValue('')
  await expect(form.getByText('Set. Type a new one to replace it')).toBeVisible()
  await form.getByLabel('CA bundle file').fill('')
  await form.getByRole('button', { name: 'Save changes' }).click()

  await card.getByRole('button', { name: 'Test connection' }).click()
  await expect(card.getByRole('status')).toContainText('issued by “O=Embed Test Corp, CN=Embed Test Private CA”')
  await expect(card.getByRole('status')).toContainText('“Diagnose connection” says where it fails.')
  await card.getByRole('button', { name: 'Diagnose connection' }).click()
  const diagnosis = card.getByRole('region', { name: 'Diagnosis of Corp' })
  await expect(diagnosis.getByRole('status')).toHaveText('It fails at the TLS step.')
  await expect(diagnosis).toContainText("give its PEM file as the profile's CA bundle")
  await expect(diagnosis.getByRole('listitem').filter({ hasText: 'HTTP' })).toContainText('Not tried: an earlier step failed.')
  for (const [scheme, width] of [
    ['dark', 1280],
    ['light', 800],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.setViewportSize({ width, height: 900 })
    await diagnosis.scrollIntoViewIfNeeded()
    await checkScreen(page, `profiles-diagnosis-failed-${scheme}-${width}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 800 })
})

test('a page of another origin calls the sandbox from the browser: the preflight passes', async ({ page }) => {
  // A docs site's playground, in short: a page on another port than the sandbox.
  const site: Server = createServer((_req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Docs</title>'),
  )
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  try {
    await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`)
    const answer = await page.evaluate(
      async ({ baseUrl, token }) => {
        const created = await fetch(`${baseUrl}/api/user`, {
          method: 'PUT',
          headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ user_group_id: 'from-a-browser' }),
        })
        return { status: created.status, body: await created.json() }
      },
      { baseUrl: sandbox.baseUrl, token: sandbox.tokens.Customer },
    )
    // The API's own 404 (no such group), read by the page: the preflight and the answer both passed.
    expect(answer).toMatchObject({ status: 404, body: { success: 0 } })
  } finally {
    await new Promise<void>((resolve) => site.close(() => resolve()))
  }
})
