import { mkdtemp } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../../src-main/app-services'
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/sandbox-server'

const context = { transport: 'test' } as const

describe('group service through the router, against the sandbox', () => {
  let sandbox: Sandbox
  let services: AppServices
  let dataDir: string
  let profileId: string

  const dispatch = (name: string, input: unknown) => services.router.dispatch(name, input, context)

  beforeAll(async () => {
    const sandboxDir = await mkdtemp(join(tmpdir(), 'ec-groups-sandbox-'))
    sandbox = await startSandbox({ port: 0, dataFile: join(sandboxDir, 'sandbox.db') })
    dataDir = await mkdtemp(join(tmpdir(), 'ec-groups-app-'))
    services = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
    const created = await dispatch('profiles.create', { name: 'Prod', baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer, tokenStorage: 'session' })
    profileId = (created as { value: { id: string } }).value.id
  })
  afterAll(async () => {
    await services.close()
    await sandbox.close()
  })

  it('remembers a group in the catalog, its token in the vault and never in the catalog row', async () => {
    const result = await dispatch('groups.getOrCreate', { profileId, request: { user_group_id: 'cat-1', name: 'Cat', mapping: { s1: 'warehouse' } } })
    expect(result.ok).toBe(true)
    const token = (result as { value: { group: { token: string } } }).value.group.token

    const entry = await dispatch('catalog.get', { profileId, groupId: 'cat-1' })
    expect(entry).toMatchObject({ ok: true, value: { entry: { groupId: 'cat-1', name: 'Cat', environmentTag: 'Customer', mapping: { s1: 'warehouse' }, tokenLast4: token.slice(-4) } } })
    expect(await dispatch('groups.revealToken', { profileId, groupId: 'cat-1' })).toEqual({ ok: true, value: { token } })
    const row = services.db.get<Record<string, unknown>>('SELECT * FROM catalog WHERE group_id = ?', 'cat-1')
    expect(JSON.stringify(row)).not.toContain(token)
  })

  it('searches, filters and sorts the catalog', async () => {
    for (const id of ['b-2', 'a-10', 'a-9']) await dispatch('groups.getOrCreate', { profileId, request: { user_group_id: id, name: `Name ${id}` } })
    const sorted = await dispatch('catalog.list', { profileId, search: 'a-', sortBy: 'groupId', sortDirection: 'asc' })
    expect(sorted).toMatchObject({ ok: true, value: { rows: [{ groupId: 'a-9' }, { groupId: 'a-10' }] } })
    const testing = await dispatch('catalog.list', { profileId, environment: 'Testing' })
    expect(testing).toMatchObject({ ok: true, value: { rows: [] } })
  })

  it('warns when an id comes back under another environment tag than before', async () => {
    await dispatch('groups.getOrCreate', { profileId, request: { user_group_id: 'shared-id' } })
    await dispatch('profiles.update', { id: profileId, changes: { apiToken: sandbox.tokens.Testing, tokenStorage: 'session' } })
    const again = await dispatch('groups.getOrCreate', { profileId, request: { user_group_id: 'shared-id' } })
    expect(again).toMatchObject({ ok: true, value: { newUserGroup: true, group: { api_environment_tag: 'Testing' } } })
    expect((again as { value: { warnings: string[] } }).value.warnings[0]).toMatch(/tagged Customer before and is now tagged Testing/)
    await dispatch('profiles.update', { id: profileId, changes: { apiToken: sandbox.tokens.Customer, tokenStorage: 'session' } })
  })

  it('rotates a catalog group with the token it kept, and logs every call with its outcome', async () => {
    const before = await dispatch('groups.revealToken', { profileId, groupId: 'cat-1' })
    const rotated = await dispatch('groups.rotateToken', { profileId, source: { kind: 'catalog', groupId: 'cat-1' } })
    expect(rotated.ok).toBe(true)
    const after = await dispatch('groups.revealToken', { profileId, groupId: 'cat-1' })
    expect(after).not.toEqual(before)
    const stale = await dispatch('groups.rotateToken', { profileId, source: { kind: 'token', currentToken: (before as { value: { token: string } }).value.token } })
    expect(stale).toMatchObject({ ok: false })

    const log = await dispatch('activity.list', { outcome: 'failure' })
    expect(log).toMatchObject({ ok: true, value: { entries: [{ operation: 'rotateToken', outcome: 'failure', httpStatus: 404 }] } })
    const csv = services.router.download('activity', { format: 'csv' })
    if (!csv.ok) throw new Error(csv.error.message)
    let text = ''
    for await (const chunk of csv.value.chunks) text += chunk
    expect(text.split('\n')[0]).toBe('id,time,profileId,profileName,operation,groupId,outcome,httpStatus,errorCode,message,durationMs')
    expect(text).not.toContain((before as { value: { token: string } }).value.token)
  })

  it('keeps the activity log across a restart', async () => {
    const restarted = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
    const log = await restarted.router.dispatch('activity.list', {}, context)
    expect((log as { value: { entries: unknown[] } }).value.entries.length).toBeGreaterThanOrEqual(6)
    await restarted.close()
  })
})

describe('a rotation whose answer is lost', () => {
  let server: Server
  let services: AppServices

  beforeAll(async () => {
    // Reads the whole request, then drops the connection: the server may have rotated.
    server = createServer((req) => req.on('data', () => {}).on('end', () => req.socket.destroy()))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    services = await createAppServices({ dataDir: await mkdtemp(join(tmpdir(), 'ec-lost-')), transport: 'browser', sandbox: false })
  })
  afterAll(async () => {
    await services.close()
    server.close()
  })

  it('is reported as outcome unknown, recorded as such, and not retried', async () => {
    let requests = 0
    server.on('request', () => (requests += 1))
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const created = await services.router.dispatch('profiles.create', { name: 'Lossy', baseUrl, apiToken: 'lossy-api-token-123', tokenStorage: 'session' }, context)
    const id = (created as { value: { id: string } }).value.id
    const result = await services.router.dispatch('groups.rotateToken', { profileId: id, source: { kind: 'token', currentToken: 'group-token-abcdef' } }, context)
    expect(result).toMatchObject({ ok: false, error: { code: 'outcome_unknown' } })
    expect((result as { error: { message: string } }).error.message).toMatch(/old token may already be invalid/)
    expect(requests).toBe(1)
    const log = await services.router.dispatch('activity.list', { outcome: 'unknown' }, context)
    expect(log).toMatchObject({ ok: true, value: { entries: [{ operation: 'rotateToken', outcome: 'unknown', errorCode: 'outcome_unknown' }] } })
    expect(JSON.stringify(log)).not.toContain('group-token-abcdef')
  })
})
