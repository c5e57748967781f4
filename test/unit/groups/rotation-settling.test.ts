import { createHash } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Libsql from 'libsql'
import { afterEach, describe, expect, it } from 'vitest'
import { type AppServices, createAppServices } from '../../../src-main/app-services'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { AppErrorException } from '../../../src-shared/ipc/result'
import { createOpsProfile, type FlakyOptions, type FlakyProxy, startFlakyProxy } from '../../helpers/flaky-proxy'
import { readSandboxData } from '../../helpers/sandbox-data'

interface Setup {
  services: AppServices
  sandbox: Sandbox
  sandboxFile: string
  proxy: FlakyProxy
  profileId: string
  dataDir: string
}

let opened: Setup | undefined
afterEach(async () => {
  await opened?.services.close()
  await opened?.proxy.close()
  await opened?.sandbox.close()
  opened = undefined
})

type Refuse = (index: number, req: IncomingMessage) => ((res: ServerResponse) => void) | null

/** The app with one profile that reaches the sandbox through a proxy the test controls. */
async function start(refuse: Refuse = () => null, options: FlakyOptions = {}): Promise<Setup> {
  const dir = await mkdtemp(join(tmpdir(), 'ec-settle-'))
  const sandboxFile = join(dir, 'sandbox.db')
  const sandbox = await startSandbox({ dataFile: sandboxFile })
  const proxy = await startFlakyProxy(sandbox.baseUrl, refuse, options)
  const dataDir = join(dir, 'app')
  const services = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
  const profile = await createOpsProfile(services, proxy, sandbox.tokens.Customer)
  opened = { services, sandbox, sandboxFile, proxy, profileId: profile.id, dataDir }
  return opened
}

const serverToken = (setup: Setup, groupId: string) =>
  readSandboxData(setup.sandboxFile).groups.find((group) => group.provided_id === groupId)!.token
const posts = (setup: Setup) => setup.proxy.arrivals.length - setup.proxy.refused

async function failureOf(promise: Promise<unknown>): Promise<AppErrorException> {
  try {
    await promise
  } catch (error) {
    if (error instanceof AppErrorException) return error
    throw error
  }
  throw new Error('The call succeeded.')
}

describe('a rotation whose answer is lost', () => {
  it('after the server acted: unknown, never sent again, and settled by the next fetch with the server’s token kept', async () => {
    let losePost = true
    const setup = await start(() => null, { loseAnswer: (_index, req) => req.method === 'POST' && losePost })
    const { services, profileId } = setup
    const before = (await services.groups.getOrCreate(profileId, { user_group_id: 'acme' })).group.token

    const lost = await failureOf(services.groups.rotateToken(profileId, { kind: 'catalog', groupId: 'acme' }))
    expect(lost.code).toBe('outcome_unknown')
    const activityId = (lost.details as { activityId: string }).activityId
    const rotatedOnServer = serverToken(setup, 'acme')
    expect(rotatedOnServer).not.toBe(before)
    const logged = await services.router.dispatch('activity.get', { id: activityId }, { transport: 'test' })
    expect(logged).toMatchObject({ ok: true, value: { entry: { operation: 'rotateToken', groupId: 'acme', outcome: 'unknown' } } })

    // Rotating again is refused until the first is settled: nothing more reaches the server.
    losePost = false
    const forwardedBefore = setup.proxy.forwarded
    const again = await failureOf(services.groups.rotateToken(profileId, { kind: 'catalog', groupId: 'acme' }))
    expect(again.code).toBe('conflict')
    expect(again.message).toMatch(/^An earlier rotation of “acme” \(at \d\d:\d\d\) has an unknown outcome\. Check it first/)
    expect(setup.proxy.forwarded).toBe(forwardedBefore)

    // The next fetch of the group settles it: another token means it happened; it is kept.
    const fetched = await services.groups.getOrCreate(profileId, { user_group_id: 'acme' })
    expect(fetched.settledRotations).toEqual([{ activityId, outcome: 'rotated', at: expect.any(String) }])
    expect(fetched.warnings[0]).toMatch(
      /^An earlier rotation of this group whose answer was lost did happen: the server's new token is kept now/,
    )
    expect(await services.groups.revealToken(profileId, 'acme')).toBe(rotatedOnServer)
    const settled = await services.router.dispatch('activity.get', { id: activityId }, { transport: 'test' })
    expect(settled).toMatchObject({
      ok: true,
      value: { entry: { outcome: 'unknown', settledOutcome: 'rotated', settledAt: expect.any(String) } },
    })
    // Both moments are kept: when the call was made, and when its outcome was learned.
    const entry = (settled as { value: { entry: { time: string; settledAt: string } } }).value.entry
    expect(Date.parse(entry.settledAt)).toBeGreaterThanOrEqual(Date.parse(entry.time))

    // Settled, the group rotates again as usual, with the token the server holds.
    const next = await services.groups.rotateToken(profileId, { kind: 'catalog', groupId: 'acme' })
    expect(next.group.token).toBe(serverToken(setup, 'acme'))
    expect(setup.proxy.rotated.get('acme')).toBe(2)
  })

  it('before it reached the server: Check now finds the same token, says it did not happen, and keeps the old one', async () => {
    const setup = await start((_index, req) => (req.method === 'POST' ? (res) => res.socket?.destroy() : null))
    const { services, profileId } = setup
    const before = (await services.groups.getOrCreate(profileId, { user_group_id: 'beta' })).group.token
    const lost = await failureOf(services.groups.rotateToken(profileId, { kind: 'catalog', groupId: 'beta' }))
    const activityId = (lost.details as { activityId: string }).activityId

    const check = await services.router.dispatch('groups.checkRotation', { activityId }, { transport: 'test' })
    expect(check).toEqual({ ok: true, value: { outcome: 'not_rotated', checkedAt: expect.any(String), tokenLast4: before.slice(-4) } })
    expect(serverToken(setup, 'beta')).toBe(before)
    expect(await services.groups.revealToken(profileId, 'beta')).toBe(before)
    const entry = await services.router.dispatch('activity.get', { id: activityId }, { transport: 'test' })
    expect(entry).toMatchObject({ ok: true, value: { entry: { settledOutcome: 'not_rotated' } } })
    // Asked again, it answers what it learned, without another fetch.
    const arrivals = setup.proxy.arrivals.length
    expect(await services.router.dispatch('groups.checkRotation', { activityId }, { transport: 'test' })).toMatchObject({
      ok: true,
      value: { outcome: 'not_rotated' },
    })
    expect(setup.proxy.arrivals.length).toBe(arrivals)
  })

  it('is journaled, synced, before the request leaves: the server is reached only once the intent is on disk, by fingerprint, never the token', async () => {
    const seen: Array<{ state: string; group_id: string; sent_token_sha256: string; row: string }> = []
    const setup = await start((_index, req) => {
      if (req.method === 'POST') {
        // Read as another process would, at the moment the request arrives.
        const db = new Libsql(join(opened!.dataDir, 'embed-console.db'), { readonly: true })
        try {
          for (const row of db.prepare('SELECT * FROM rotations').all() as Array<Record<string, string>>) {
            seen.push({ state: row.state!, group_id: row.group_id!, sent_token_sha256: row.sent_token_sha256!, row: JSON.stringify(row) })
          }
        } finally {
          db.close()
        }
      }
      return null
    })
    const { services, profileId } = setup
    const before = (await services.groups.getOrCreate(profileId, { user_group_id: 'gamma' })).group.token
    await services.groups.rotateToken(profileId, { kind: 'catalog', groupId: 'gamma' })
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({
      state: 'sending',
      group_id: 'gamma',
      sent_token_sha256: createHash('sha256').update(before).digest('hex'),
    })
    expect(seen[0]!.row).not.toContain(before)
    // Answered, the intent is gone: nothing is left to settle.
    const db = new Libsql(join(setup.dataDir, 'embed-console.db'), { readonly: true })
    expect(db.prepare('SELECT count(*) AS n FROM rotations').get()).toMatchObject({ n: 0 })
    db.close()
    expect(posts(setup)).toBeGreaterThan(0)
  })
})
