import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type AppServices, createAppServices } from '../../../src-main/app-services'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import type { BulkProgress, BulkSettings } from '../../../src-shared/bulk/schemas'
import { badGateway, type FlakyProxy, startFlakyProxy, tooManyRequests } from '../../helpers/flaky-proxy'
import { readSandboxData } from '../../helpers/sandbox-data'

const settings = (overrides: Partial<BulkSettings> = {}): BulkSettings => ({
  concurrency: 4,
  ratePerMinute: null,
  sendCreate: true,
  sendUpdate: true,
  bail: false,
  ...overrides,
})

interface Setup {
  sandbox: Sandbox
  sandboxFile: string
  services: AppServices
  profileId: string
  proxy?: FlakyProxy
  progress: BulkProgress[]
}

let setup: Setup | undefined
afterEach(async () => {
  await setup?.services.close()
  await setup?.proxy?.close()
  await setup?.sandbox.close()
  setup = undefined
})

async function start(options: { proxy?: (sandbox: Sandbox) => Promise<FlakyProxy> } = {}): Promise<Setup> {
  const dir = await mkdtemp(join(tmpdir(), 'ec-bulk-'))
  const sandbox = await startSandbox({ dataFile: join(dir, 'sandbox.db') })
  const proxy = await options.proxy?.(sandbox)
  const progress: BulkProgress[] = []
  const services = await createAppServices({ dataDir: join(dir, 'app'), transport: 'browser', sandbox: false })
  services.events.subscribe((event) => event.name === 'bulk.progress' && progress.push(event.payload))
  const profile = await services.profiles.create({
    name: 'Bulk',
    baseUrl: proxy?.baseUrl ?? sandbox.baseUrl,
    timeoutSeconds: 5,
    environmentLabel: '',
    apiToken: sandbox.tokens.Customer,
    tokenStorage: 'session',
  })
  setup = { sandbox, sandboxFile: join(dir, 'sandbox.db'), services, profileId: profile.id, proxy, progress }
  return setup
}

const csv = (rows: string[]) => ['user_group_id,name,properties', ...rows].join('\n')
const newRows = (count: number, prefix = 'g') => Array.from({ length: count }, (_, index) => `${prefix}-${index},Group ${index},`)

describe('a bulk run against the sandbox', () => {
  it('plans rows against the catalog: new ids are creates, changed ones updates, the rest unchanged', async () => {
    const { services, profileId } = await start()
    await services.groups.getOrCreate(profileId, { user_group_id: 'known-same', name: 'Same' })
    await services.groups.getOrCreate(profileId, { user_group_id: 'known-changed', name: 'Before' })
    const plan = services.bulk.plan({
      kind: 'apply',
      target: { profileId },
      fileName: 'groups.csv',
      text: csv(['new-1,New,', 'known-same,Same,', 'known-changed,After,', 'known-same-props,,"{""a"":1}"']),
      excludeInvalid: false,
      settings: settings(),
    })
    expect(plan).toMatchObject({ format: 'csv', problemCount: 0, planned: { total: 4, create: 2, update: 1, unchanged: 1 } })
    const items = services.bulk.items(plan.runId!, {}, 0, 10).items
    expect(items.map((item) => [item.groupId, item.action, item.state])).toEqual([
      ['new-1', 'create', 'pending'],
      ['known-same', 'unchanged', 'done'],
      ['known-changed', 'update', 'pending'],
      ['known-same-props', 'create', 'pending'],
    ])
  })

  it('refuses a file with problems until they are excluded, then plans the valid rows', async () => {
    const { services, profileId } = await start()
    const text = csv(['ok,OK,', ',no id,', 'ok,dup,'])
    const refused = services.bulk.plan({
      kind: 'apply',
      target: { profileId },
      fileName: 'g.csv',
      text,
      excludeInvalid: false,
      settings: settings(),
    })
    expect(refused).toMatchObject({ runId: null, problemCount: 2, planned: { total: 1 } })
    const excluded = services.bulk.plan({
      kind: 'apply',
      target: { profileId },
      fileName: 'g.csv',
      text,
      excludeInvalid: true,
      settings: settings(),
    })
    expect(excluded.runId).toEqual(expect.any(String))
    expect(excluded.planned.total).toBe(1)
  })

  it('sends every row once, in the catalog and the activity log, with progress along the way', async () => {
    const { services, profileId, sandboxFile, progress } = await start()
    await services.groups.getOrCreate(profileId, { user_group_id: 'g-0', name: 'Old name' })
    const plan = services.bulk.plan({
      kind: 'apply',
      target: { profileId },
      fileName: 'g.csv',
      text: csv(newRows(200)),
      excludeInvalid: false,
      settings: settings(),
    })
    expect(plan.planned).toMatchObject({ create: 199, update: 1 })
    const runner = services.bulk.launch(plan.runId!, settings({ concurrency: 8 }))
    expect(await runner.done).toBe('finished')
    const run = services.bulk.run(plan.runId!)
    expect(run.state).toBe('finished')
    expect(run.tallies).toMatchObject({ created: 199, updated: 1, failed: 0, pending: 0 })
    expect(readSandboxData(sandboxFile).groups).toHaveLength(200)
    expect(await services.router.dispatch('catalog.list', { profileId, limit: 1 }, { transport: 'test' })).toMatchObject({
      ok: true,
      value: { total: 200 },
    })
    const activity = await services.router.dispatch('activity.list', { profileId, limit: 1 }, { transport: 'test' })
    expect(activity).toMatchObject({ ok: true, value: { total: 201 } })
    expect(progress.at(-1)).toMatchObject({ runId: plan.runId, state: 'finished', total: 200, done: 200, failed: 0 })
  })

  it('honours 429 Retry-After and never counts it a failure: every group created exactly once', { timeout: 90_000 }, async () => {
    // 30% of requests answered 429 with Retry-After: 1 by a gateway in front of the sandbox.
    const { services, profileId, proxy } = await start({
      proxy: (sandbox) => startFlakyProxy(sandbox.baseUrl, (index) => (index % 10 < 3 ? tooManyRequests(1) : null)),
    })
    const plan = services.bulk.plan({
      kind: 'apply',
      target: { profileId },
      fileName: 'g.csv',
      text: csv(newRows(20)),
      excludeInvalid: false,
      settings: settings(),
    })
    const runner = services.bulk.launch(plan.runId!, settings({ concurrency: 4 }))
    expect(await runner.done).toBe('finished')
    const run = services.bulk.run(plan.runId!)
    expect(run.tallies).toMatchObject({ created: 20, failed: 0, unknown: 0, pending: 0 })
    expect(proxy!.refused).toBeGreaterThan(0)
    expect(runner.progress().retried).toBe(proxy!.refused)
    expect([...proxy!.created.values()].every((count) => count === 1)).toBe(true)
    expect(proxy!.created.size).toBe(20)
  })

  it('sends get-or-create again after a 5xx, up to a limit, and then fails the row', async () => {
    const { services, profileId, proxy } = await start({
      proxy: (sandbox) =>
        startFlakyProxy(sandbox.baseUrl, (index, req) => (req.headers['x-never'] !== undefined ? null : index < 2 ? badGateway : null)),
    })
    const plan = services.bulk.plan({
      kind: 'apply',
      target: { profileId },
      fileName: 'g.csv',
      text: csv(['flaky,Flaky,']),
      excludeInvalid: false,
      settings: settings(),
    })
    const runner = services.bulk.launch(plan.runId!, settings({ concurrency: 1 }))
    expect(await runner.done).toBe('finished')
    expect(services.bulk.run(plan.runId!).tallies).toMatchObject({ created: 1, failed: 0 })
    expect(proxy!.refused).toBe(2)
    expect(services.bulk.items(plan.runId!, {}, 0, 1).items[0]).toMatchObject({ outcome: 'created', attempts: 3 })
  })

  it('spaces requests to the rate limit', async () => {
    const { services, profileId, proxy } = await start({ proxy: (sandbox) => startFlakyProxy(sandbox.baseUrl, () => null) })
    const plan = services.bulk.plan({
      kind: 'apply',
      target: { profileId },
      fileName: 'g.csv',
      text: csv(newRows(8)),
      excludeInvalid: false,
      settings: settings(),
    })
    const startedAt = proxy!.elapsed()
    const runner = services.bulk.launch(plan.runId!, settings({ concurrency: 4, ratePerMinute: 600 }))
    await runner.done
    // 600 a minute: the k-th request is sent no sooner than k × 100 ms after the start (a busy
    // machine may send one late, never early; 5 ms of slack for the timers' rounding).
    proxy!.arrivals.forEach((at, index) => expect(at - startedAt).toBeGreaterThanOrEqual(index * 100 - 5))
  })

  it('keeps two runs to one profile to its rate together: the pace is the profile’s, not each run’s', async () => {
    const { services, profileId, proxy } = await start({ proxy: (sandbox) => startFlakyProxy(sandbox.baseUrl, () => null) })
    const runs = ['a', 'b'].map(
      (prefix) =>
        services.bulk.plan({
          kind: 'apply',
          target: { profileId },
          fileName: `${prefix}.csv`,
          text: csv(newRows(5, prefix)),
          excludeInvalid: false,
          settings: settings(),
        }).runId!,
    )
    const startedAt = proxy!.elapsed()
    await Promise.all(runs.map((runId) => services.bulk.launch(runId, settings({ concurrency: 4, ratePerMinute: 600 })).done))
    expect(proxy!.arrivals).toHaveLength(10)
    proxy!.arrivals.forEach((at, index) => expect(at - startedAt).toBeGreaterThanOrEqual(index * 100 - 5))
  })

  it('pauses with the requests in flight finished, resumes, and cancel skips the rest', async () => {
    const { services, profileId, sandboxFile } = await start()
    const plan = services.bulk.plan({
      kind: 'apply',
      target: { profileId },
      fileName: 'g.csv',
      text: csv(newRows(300)),
      excludeInvalid: false,
      settings: settings(),
    })
    const runner = services.bulk.launch(plan.runId!, settings({ concurrency: 2, ratePerMinute: 3000 }))
    // Paused once some rows are sent: the journal says so, whatever the machine's speed.
    await vi.waitFor(() => expect(services.bulk.run(plan.runId!).tallies.created).toBeGreaterThan(0), { timeout: 10_000 })
    runner.pause()
    expect(await runner.idle()).toBe('paused')
    const paused = services.bulk.run(plan.runId!)
    expect(paused.state).toBe('paused')
    // Nothing half-sent: every row is pending or settled, none in flight.
    expect(services.bulk.items(plan.runId!, { state: 'sending' }, 0, 1).matching).toBe(0)
    const groupsWhilePaused = readSandboxData(sandboxFile).groups.map((group) => group.provided_id)
    const sentWhilePaused = groupsWhilePaused.length
    expect(sentWhilePaused).toBe(paused.tallies.created)
    // The fence: a run of one row to the same profile at the same pace. The profile's pace hands
    // out turns in the order they are asked for, 20 ms apart, and every row takes its turn before
    // it is sent: a row the paused run still sent took its turn before the fence row, so it is
    // in the sandbox, ahead of the fence group, once the fence row is answered.
    const fence = services.bulk.plan({
      kind: 'apply',
      target: { profileId },
      fileName: 'fence.csv',
      text: csv(['fence,Fence,']),
      excludeInvalid: false,
      settings: settings(),
    })
    expect(await services.bulk.launch(fence.runId!, settings({ concurrency: 1, ratePerMinute: 3000 })).done).toBe('finished')
    expect(readSandboxData(sandboxFile).groups.map((group) => group.provided_id)).toEqual([...groupsWhilePaused, 'fence'])

    runner.resume()
    await vi.waitFor(() => expect(services.bulk.run(plan.runId!).tallies.created).toBeGreaterThan(sentWhilePaused), { timeout: 10_000 })
    runner.cancel()
    expect(await runner.done).toBe('cancelled')
    const cancelled = services.bulk.run(plan.runId!)
    expect(cancelled.tallies.pending).toBe(0)
    expect(cancelled.tallies.created + cancelled.tallies.skipped).toBe(300)
    expect(cancelled.tallies.created).toBeGreaterThan(sentWhilePaused)
    expect(readSandboxData(sandboxFile).groups.length).toBe(cancelled.tallies.created + 1)
    // The counters say what was sent, not what the cancel skipped.
    expect(runner.progress()).toMatchObject({ state: 'cancelled', total: 300, done: cancelled.tallies.created })
    expect(setup!.progress.at(-1)).toMatchObject({ state: 'cancelled', done: cancelled.tallies.created })
  })
})

describe('bulk rotation', () => {
  it('rotates kept tokens one at a time; a lost answer is never sent again, and is settled at the end of the run', async () => {
    const { services, profileId, proxy } = await start({
      // The third rotation is lost on the way: the gateway reads it, then drops the connection.
      proxy: (sandbox) => startFlakyProxy(sandbox.baseUrl, (index) => (index === 5 ? (res) => res.socket?.destroy() : null)),
    })
    for (const id of ['r-1', 'r-2', 'r-3']) await services.groups.getOrCreate(profileId, { user_group_id: id })
    const plan = services.bulk.plan({
      kind: 'rotate',
      target: { profileId },
      fileName: 'ids.csv',
      text: 'user_group_id\nr-1\nr-2\nr-3\nnot-kept',
      excludeInvalid: false,
      settings: settings(),
    })
    expect(plan.problems).toEqual([
      { line: 5, column: 'user_group_id', message: 'No token is kept for "not-kept" in this profile, so it cannot be rotated from here.' },
    ])
    const runId = services.bulk.plan({
      kind: 'rotate',
      target: { profileId },
      fileName: 'ids.csv',
      text: 'user_group_id\nr-1\nr-2\nr-3\nnot-kept',
      excludeInvalid: true,
      settings: settings(),
    }).runId!
    const runner = services.bulk.launch(runId, settings({ concurrency: 4 }))
    expect(await runner.done).toBe('finished')
    const items = services.bulk.items(runId, {}, 0, 10).items
    expect(items.map((item) => [item.groupId, item.outcome, item.attempts])).toEqual([
      ['r-1', 'rotated', 1],
      ['r-2', 'rotated', 1],
      ['r-3', 'failed', 1],
    ])
    // Never sent again: the end of the run fetched r-3 instead (one get-or-create), found the token
    // it had sent still in place, and so knows the rotation did not happen.
    expect(proxy!.arrivals).toHaveLength(7)
    expect(items[2]!.message).toMatch(/^The rotation did not happen \(checked at \d\d:\d\d\): the old token still works\.$/)
    expect(services.bulk.run(runId).tallies).toMatchObject({ rotated: 2, unknown: 0, failed: 1 })
  })
})
