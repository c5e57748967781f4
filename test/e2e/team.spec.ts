import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { promisify } from 'node:util'
import Libsql from 'libsql'
import pgDriver from 'pg'
import { type PostgresCluster, startPostgres } from '../helpers/postgres'
import { readSandboxData } from '../helpers/sandbox-data'
import { type BrowserModeApp, expect, launchBrowserMode, openSession, type SessionApp, sessionCookie, test } from './browser-mode'
import { checkScreen } from './screens'

// Team mode as operators meet it: two machines (two browser-mode apps, each its own data folder)
// joined to one Postgres as ops-2 and ops-3. This page is ops-2's; ops-3 works through its own
// app's calls. Apps of their own: joining changes what the shared app's other files see.
test.describe.configure({ mode: 'serial' })

const run = promisify(execFile)
const cli = async (...args: string[]) => (await run(process.execPath, ['bin/embed-console.js', ...args])).stdout

type App = BrowserModeApp & SessionApp & { stop(): Promise<void> }
let cluster: PostgresCluster | string
let mine: App
let theirs: App
let passwords: Record<string, string>
let serverUrl: string

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

/** A profile on the shared API server (mine's sandbox), active, with the Testing token. */
async function teamProfile(app: App, name: string): Promise<string> {
  const apiToken = readSandboxData(join(mine.dataDir, 'sandbox.db')).apiTokens.Testing!
  const profile = (await ipc(app, 'profiles.create', {
    name,
    baseUrl: serverUrl,
    environmentKind: 'testing',
    apiToken,
    tokenStorage: 'session',
  })) as { id: string }
  await ipc(app, 'profiles.setActive', { id: profile.id })
  return profile.id
}

test.beforeAll(async () => {
  cluster = await startPostgres()
  if (typeof cluster === 'string') return
  await cli('team', 'migrate', '--url', cluster.adminUrl)
  passwords = {}
  for (const name of ['ops-2', 'ops-3']) passwords[name] = (await cli('team', 'add-operator', name, '--url', cluster.adminUrl)).trim()
  mine = await openSession(await launchBrowserMode())
  theirs = await openSession(await launchBrowserMode())
  serverUrl = ((await ipc(mine, 'app.info', {})) as { sandbox: { baseUrl: string } }).sandbox.baseUrl
})
test.afterAll(async () => {
  await mine?.stop()
  await theirs?.stop()
  if (typeof cluster !== 'string') await cluster?.stop()
})
test.beforeEach(({ context }) => {
  test.skip(typeof cluster === 'string', `Team-mode end-to-end tests skipped: ${String(cluster)}.`)
  return context.addCookies([sessionCookie(mine)])
})

test('one person’s mode offers to join; joining from the Team screen shows the link', async ({ page }) => {
  const pg = cluster as PostgresCluster
  await page.goto(mine.url)
  await page.keyboard.press('Control+6')
  await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeFocused()
  const join = page.getByRole('form', { name: 'Join a team' })
  await expect(join).toBeVisible()
  await checkScreen(page, 'team-not-joined')
  await page.emulateMedia({ colorScheme: 'dark' })
  await checkScreen(page, 'team-not-joined-dark')
  await page.emulateMedia({ colorScheme: 'light' })

  await join.getByLabel('Team database address').fill('postgres://ops-2@db.example.com/embed_team')
  await join.getByRole('button', { name: 'Join the team' }).click()
  await expect(join.getByRole('alert')).toHaveText(/^Off this computer the team database is reached over TLS/)

  await join.getByLabel('Team database address').fill(pg.url('ops-2'))
  await join.getByLabel('Password').fill(passwords['ops-2']!)
  await join.getByRole('button', { name: 'Join the team' }).click()
  const link = page.getByRole('region', { name: 'This machine in the team' })
  await expect(link.getByText('Connected', { exact: true })).toBeVisible()
  await expect(link).toContainText('ops-2')
  await expect(link).toContainText('unencrypted in this machine’s owner-only database (no keychain here)')
  await checkScreen(page, 'team-joined')
})

test('a group another operator rotated: the Groups screen says who, and that the token kept here is stale, and fetches the current one', async ({
  page,
}) => {
  const pg = cluster as PostgresCluster
  const myProfile = await teamProfile(mine, 'Team API')
  await ipc(mine, 'groups.getOrCreate', { profileId: myProfile, request: { user_group_id: 'shared-1', name: 'Shared One' } })
  await ipc(mine, 'groups.getOrCreate', { profileId: myProfile, request: { user_group_id: 'mine-only', name: 'Made by ops-2' } })
  // The other machine joins as ops-3, fetches the group and rotates its token.
  await ipc(theirs, 'team.join', { url: pg.url('ops-3'), password: passwords['ops-3'] })
  const theirProfile = await teamProfile(theirs, 'Shared server')
  await ipc(theirs, 'groups.getOrCreate', { profileId: theirProfile, request: { user_group_id: 'shared-1' } })
  await ipc(theirs, 'groups.rotateToken', { profileId: theirProfile, source: { kind: 'catalog', groupId: 'shared-1' } })
  await expect.poll(async () => ((await ipc(theirs, 'team.status', {})) as { outboxBacklog: number }).outboxBacklog).toBe(0)

  await page.goto(mine.url)
  await page.keyboard.press('Control+6')
  const lastPull = async () => ((await ipc(mine, 'team.status', {})) as { lastPullAt: string | null }).lastPullAt
  const before = await lastPull()
  await page.getByRole('button', { name: 'Pull the team’s changes now' }).click()
  await expect.poll(lastPull).not.toBe(before)
  await page.keyboard.press('Control+1')
  await page.getByLabel('user_group_id').fill('shared-1')
  const note = page.getByRole('status', { name: 'What the team knows of this group' })
  await expect(note).toContainText(
    /Team: last changed by ops-3 at .+; rotated by ops-3 at .+\. The token kept here is not the group’s current one \(…\w{4}\): fetch the current token first\./,
  )
  await checkScreen(page, 'groups-team-stale-token')
  await page.setViewportSize({ width: 800, height: 900 })
  await checkScreen(page, 'groups-team-stale-token-800')
  await page.setViewportSize({ width: 1280, height: 800 })

  await note.getByRole('button', { name: 'Fetch the current token' }).click()
  await expect(note).not.toContainText('not the group’s current one')
  await expect(note).toContainText('rotated by ops-3')
  const current = readSandboxData(join(mine.dataDir, 'sandbox.db')).groups.find((group) => group.provided_id === 'shared-1')!.token
  expect(await ipc(mine, 'groups.revealToken', { profileId: myProfile, groupId: 'shared-1' })).toEqual({ token: current })
})

test('Activity’s Team view lists every machine’s calls with their actor, and filters by actor', async ({ page }) => {
  // Every call of this machine published first, so the one below is the last the team database records.
  await expect.poll(async () => ((await ipc(mine, 'team.status', {})) as { outboxBacklog: number }).outboxBacklog).toBe(0)
  // ops-3 with psql rather than the app, dating a call three hours back by its own clock.
  const psql = new pgDriver.Client({ connectionString: (cluster as PostgresCluster).url('ops-3', passwords['ops-3']) })
  await psql.connect()
  const backdated = {
    kind: 'call',
    id: randomUUID(),
    calledAt: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    server: serverUrl,
    profileName: 'psql',
    operation: 'update',
    groupId: 'backdated-1',
    outcome: 'failure',
    httpStatus: 404,
    durationMs: 3,
  }
  await psql.query('SELECT embed_console.record_calls($1::jsonb)', [JSON.stringify([backdated])])
  await psql.end()

  await page.goto(mine.url)
  await page.keyboard.press('Control+4')
  await page.getByRole('tab', { name: 'Team' }).click()
  const calls = page.getByRole('table', { name: 'The team’s calls' })
  await expect(calls.getByRole('row').filter({ hasText: 'ops-3' }).filter({ hasText: 'Rotate token' })).toHaveCount(1)
  await expect(calls.getByRole('row').filter({ hasText: 'ops-2' }).filter({ hasText: 'mine-only' })).toHaveCount(1)
  // Shown and ordered by the team database's time: the backdated call comes first, its own clock beside it.
  const newest = calls.getByRole('row').nth(1)
  await expect(newest).toContainText('backdated-1')
  await expect(newest).toContainText(/\(made .+ by its machine’s clock\)/)
  await checkScreen(page, 'activity-team')
  await page.getByLabel('Actor').selectOption('ops-3')
  await expect(calls.getByRole('row').filter({ hasText: 'ops-2' })).toHaveCount(0)
  await expect(calls.getByRole('row').filter({ hasText: 'ops-3' })).toHaveCount(3)
  await page.emulateMedia({ colorScheme: 'dark' })
  await checkScreen(page, 'activity-team-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 800, height: 900 })
  await checkScreen(page, 'activity-team-800')
  await page.setViewportSize({ width: 1280, height: 800 })
  // This machine's own log is one tab away, as it always was.
  await page.getByRole('tab', { name: 'This machine' }).click()
  await expect(page.getByRole('table', { name: 'API calls' })).toBeVisible()
})

test('a call the team database refused is parked with its sentence on the Team screen, and the calls after it are published', async ({
  page,
}) => {
  // An event this schema does not know, as a later Embed Console may queue it, ahead of an ordinary call.
  const db = new Libsql(join(mine.dataDir, 'embed-console.db'))
  db.prepare('INSERT INTO team_outbox (id, event, created_at) VALUES (?, ?, ?)').run(
    'from-a-newer-version',
    JSON.stringify({
      kind: 'deleted',
      id: '6f1b8c3e-7d1a-4d2b-9a6e-2f4f0b9d1c11',
      operation: 'deleteGroup',
      groupId: 'shared-1',
      calledAt: new Date().toISOString(),
    }),
    new Date().toISOString(),
  )
  db.close()
  const { activeId } = (await ipc(mine, 'profiles.list', {})) as { activeId: string }
  await ipc(mine, 'groups.getOrCreate', { profileId: activeId, request: { user_group_id: 'after-parked' } })
  await expect.poll(async () => ((await ipc(mine, 'team.status', {})) as { parkedCount: number }).parkedCount).toBe(1)
  // The call after it goes on its own once the refused one is parked: a moment later on a busy machine.
  await expect.poll(async () => ((await ipc(mine, 'team.status', {})) as { outboxBacklog: number }).outboxBacklog).toBe(0)
  expect(await ipc(mine, 'team.status', {})).toMatchObject({ parkedCount: 1, outboxBacklog: 0 })

  await page.goto(mine.url)
  await page.keyboard.press('Control+6')
  const parked = page.getByRole('table', { name: 'Calls the team database refused' })
  await expect(parked.getByRole('row').filter({ hasText: 'deleteGroup' })).toContainText(
    'The team database refused this call’s record: its kind (deleted) is not one this schema knows: update Embed Console here, or the team database.',
  )
  await expect(page.getByRole('heading', { name: '1 call the team database refused' })).toBeVisible()
  await checkScreen(page, 'team-parked')
  await page.emulateMedia({ colorScheme: 'dark' })
  await checkScreen(page, 'team-parked-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 800, height: 900 })
  await checkScreen(page, 'team-parked-800')
  await page.setViewportSize({ width: 1280, height: 800 })
})

test('an admin adds an operator from the Team screen: the password shows once; leaving takes the folder back to one person’s mode', async ({
  page,
}) => {
  const pg = cluster as PostgresCluster
  await page.goto(mine.url)
  await page.keyboard.press('Control+6')
  await page.getByText('Administer the team database (admins)').click()
  await page.getByLabel('Admin address').fill(pg.url('postgres'))
  await page.getByLabel('Admin password').fill(pg.adminPassword)
  await page.getByRole('button', { name: 'Create or upgrade the schema' }).click()
  await expect(page.getByText('The team schema is at version 2 already: nothing to do.')).toBeVisible()
  const add = page.getByRole('form', { name: 'Add an operator' })
  await add.getByLabel('Operator name').fill('ops-4')
  await add.getByRole('button', { name: 'Add operator' }).click()
  await expect(page.getByLabel('Password of ops-4')).toHaveText(/^[\w-]{32}$/)
  await expect(
    page.getByText(`They join with the address postgres://ops-4@127.0.0.1:${pg.port}/embed_team and this password.`),
  ).toBeVisible()
  await checkScreen(page, 'team-admin-operator-added')
  await page.emulateMedia({ colorScheme: 'dark' })
  await checkScreen(page, 'team-admin-operator-added-dark')
  await page.emulateMedia({ colorScheme: 'light' })

  await page.getByRole('button', { name: 'Leave the team…' }).click()
  await page.getByRole('dialog', { name: 'Leave the team?' }).getByRole('button', { name: 'Leave the team' }).click()
  await expect(page.getByRole('form', { name: 'Join a team' })).toBeVisible()
  await page.keyboard.press('Control+4')
  await expect(page.getByRole('tab', { name: 'Team' })).toHaveCount(0)
})
