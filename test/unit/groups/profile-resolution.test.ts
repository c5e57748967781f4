import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { type AppServices, createAppServices } from '../../../src-main/app-services'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'

let sandbox: Sandbox | undefined
let services: AppServices | undefined
afterEach(async () => {
  await services?.close()
  await sandbox?.close()
})

it('a call without a profile means the active one, the same for a write as for reading the catalog; none active: writes refused, an empty catalog', async () => {
  sandbox = await startSandbox({ port: 0, dataFile: join(await mkdtemp(join(tmpdir(), 'ec-resolve-sandbox-')), 'sandbox.db') })
  services = await createAppServices({ dataDir: await mkdtemp(join(tmpdir(), 'ec-resolve-')), transport: 'browser', sandbox: false })
  const dispatch = (name: string, input: unknown) => services!.router.dispatch(name, input, { transport: 'test' })
  const call = async (name: string, input: unknown) => {
    const result = await dispatch(name, input)
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`)
    return result.value as never
  }

  const refused = await dispatch('groups.getOrCreate', { request: { user_group_id: 'nobody' } })
  expect(refused).toMatchObject({
    ok: false,
    error: { code: 'refused', message: expect.stringMatching(/No connection profile is active/) },
  })
  expect(await call('catalog.list', {})).toMatchObject({ profileId: '', total: 0 })

  const create = async (name: string) =>
    (
      (await call('profiles.create', { name, baseUrl: sandbox!.baseUrl, apiToken: sandbox!.tokens.Customer, tokenStorage: 'file' })) as {
        id: string
      }
    ).id
  const alpha = await create('Alpha')
  const bravo = await create('Bravo')
  for (const active of [alpha, bravo]) {
    await call('profiles.setActive', { id: active })
    await call('groups.getOrCreate', { request: { user_group_id: `made-under-${active}` } })
    const list = (await call('catalog.list', {})) as { profileId: string; rows: unknown[] }
    expect(list.profileId).toBe(active)
    expect(list.rows).toEqual([expect.objectContaining({ groupId: `made-under-${active}` })])
    expect(await call('catalog.get', { groupId: `made-under-${active}` })).toMatchObject({ entry: { groupId: `made-under-${active}` } })
  }
  // A profile named explicitly wins over the active one, for reading as for writing.
  expect(await call('catalog.get', { profileId: alpha, groupId: `made-under-${alpha}` })).toMatchObject({
    entry: { groupId: `made-under-${alpha}` },
  })
  expect(await call('catalog.get', { groupId: `made-under-${alpha}` })).toMatchObject({ entry: null })
})
