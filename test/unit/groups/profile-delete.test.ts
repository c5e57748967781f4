import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type AppServices, createAppServices } from '../../../src-main/app-services'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'

describe('deleting a profile', () => {
  let sandbox: Sandbox | undefined
  let services: AppServices | undefined
  afterEach(async () => {
    await services?.close()
    await sandbox?.close()
  })

  it('takes its catalog and its group tokens with it, in the app as composed, and leaves other profiles’ alone', async () => {
    sandbox = await startSandbox({ port: 0, dataFile: join(await mkdtemp(join(tmpdir(), 'ec-delete-sandbox-')), 'sandbox.db') })
    services = await createAppServices({ dataDir: await mkdtemp(join(tmpdir(), 'ec-delete-')), transport: 'browser', sandbox: false })
    const call = async (name: string, input: unknown) => {
      const result = await services!.router.dispatch(name, input, { transport: 'test' })
      if (!result.ok) throw new Error(`${name}: ${result.error.message}`)
      return result.value as never
    }
    const profile = async (name: string) =>
      (
        (await call('profiles.create', { name, baseUrl: sandbox!.baseUrl, apiToken: sandbox!.tokens.Customer, tokenStorage: 'file' })) as {
          id: string
        }
      ).id
    const doomed = await profile('Doomed')
    const kept = await profile('Kept')
    for (const profileId of [doomed, kept]) {
      for (const id of ['g1', 'g2']) await call('groups.getOrCreate', { profileId, request: { user_group_id: `${profileId}-${id}` } })
    }
    const catalogRows = (profileId: string) =>
      services!.db.get<{ n: number }>('SELECT count(*) AS n FROM catalog WHERE profile_id = ?', profileId)!.n
    const secretRows = (profileId: string) =>
      services!.db.get<{ n: number }>('SELECT count(*) AS n FROM secrets WHERE key LIKE ?', `%${profileId}%`)!.n
    expect(catalogRows(doomed)).toBe(2)
    expect(secretRows(doomed)).toBe(3)

    await call('profiles.delete', { id: doomed })
    expect(catalogRows(doomed)).toBe(0)
    expect(secretRows(doomed)).toBe(0)
    expect(await call('catalog.list', { profileId: kept })).toMatchObject({ total: 2 })
    expect(catalogRows(kept)).toBe(2)
    expect(secretRows(kept)).toBe(3)
  })
})
