import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { createAppServices } from '../../../src-main/app-services'
import { createRouter, type Handlers } from '../../../src-main/router'
import { AppErrorException } from '../../../src-shared/ipc/result'

const context = { transport: 'test' } as const

async function realRouter() {
  // The app's own handler table, so these cases run against the real contract.
  const dataDir = await mkdtemp(join(tmpdir(), 'ec-router-'))
  return (await createAppServices({ dataDir, transport: 'browser' })).router
}

describe('router', () => {
  it('answers a valid call with ok and the handler’s value', async () => {
    const router = await realRouter()
    const result = await router.dispatch('catalog.get', { groupId: 'hello' }, context)
    expect(result).toEqual({ ok: true, value: { entry: null, tokenKept: false } })
  })

  it('refuses an unknown call without running anything', async () => {
    const router = await realRouter()
    const result = await router.dispatch('app.deleteEverything', {}, context)
    expect(result).toEqual({ ok: false, error: { code: 'unknown_call', message: 'There is no call named "app.deleteEverything".' } })
  })

  it('does not treat inherited object keys as calls', async () => {
    const router = await realRouter()
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const result = await router.dispatch(name, {}, context)
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.error.code).toBe('unknown_call')
    }
  })

  it('validates the input before the handler runs, with the failing path in details', async () => {
    const handler = vi.fn()
    const router = createRouter({ 'catalog.get': handler } as unknown as Handlers)
    const result = await router.dispatch('catalog.get', { groupId: 42 }, context)
    expect(handler).not.toHaveBeenCalled()
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.code).toBe('invalid_input')
      expect(result.error.details).toEqual({ issues: [expect.objectContaining({ path: ['groupId'] })] })
    }
  })

  it('refuses keys the contract does not name (strict inputs)', async () => {
    const handler = vi.fn()
    const router = createRouter({ 'catalog.get': handler } as unknown as Handlers)
    const result = await router.dispatch('catalog.get', { groupId: 'x', extra: true }, context)
    expect(handler).not.toHaveBeenCalled()
    expect(result.ok).toBe(false)
  })

  it('refuses an input nested more than 64 levels deep before zod or the handler see it', async () => {
    const handler = vi.fn()
    const router = createRouter({ 'groups.getOrCreate': handler } as unknown as Handlers)
    let deep: unknown = 1
    for (let level = 0; level < 5000; level++) deep = { a: deep }
    const result = await router.dispatch('groups.getOrCreate', { request: { user_group_id: 'x', properties: deep } }, context)
    expect(handler).not.toHaveBeenCalled()
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'invalid_input',
        message: 'The input to groups.getOrCreate is nested more than 64 levels deep, which Embed Console does not accept.',
      },
    })
    // A structured clone may share or cycle references: the walk still ends.
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect((await router.dispatch('groups.getOrCreate', { request: { user_group_id: 'x', properties: cyclic } }, context)).ok).toBe(false)
    let shared: unknown[] = []
    for (let level = 0; level < 40; level++) shared = [shared, shared]
    expect((await router.dispatch('groups.getOrCreate', { request: { user_group_id: 'x', properties: { shared } } }, context)).ok).toBe(
      false,
    )
  })

  it('turns a thrown AppErrorException into its typed error', async () => {
    const router = createRouter({
      'catalog.get': () => {
        throw new AppErrorException('not_found', 'No such thing.', { id: 7 })
      },
    } as unknown as Handlers)
    expect(await router.dispatch('catalog.get', { groupId: 'x' }, context)).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'No such thing.', details: { id: 7 } },
    })
  })

  it('turns any other throw or rejection into an internal error and reports it', async () => {
    const onInternalError = vi.fn()
    const router = createRouter({ 'catalog.get': async () => Promise.reject(new TypeError('boom')) } as unknown as Handlers, {
      onInternalError,
    })
    const result = await router.dispatch('catalog.get', { groupId: 'x' }, context)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.code).toBe('internal')
    expect(onInternalError).toHaveBeenCalledWith('catalog.get', expect.any(TypeError))
  })

  it('refuses an output that breaks the contract instead of passing it on', async () => {
    const router = createRouter({ 'catalog.get': () => ({ entry: 5 }) } as unknown as Handlers)
    const result = await router.dispatch('catalog.get', { groupId: 'x' }, context)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.code).toBe('internal')
  })

  it('strips fields a handler returned that the contract does not declare', async () => {
    const router = createRouter({
      'catalog.get': () => ({ entry: null, tokenKept: false, apiToken: 'secret-token' }),
    } as unknown as Handlers)
    const result = await router.dispatch('catalog.get', { groupId: 'x' }, context)
    expect(result).toEqual({ ok: true, value: { entry: null, tokenKept: false } })
  })
})
