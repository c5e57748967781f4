import { mkdtemp } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppServices, createAppServices } from '../../../src-main/app-services'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'

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
    const created = await dispatch('profiles.create', {
      name: 'Prod',
      baseUrl: sandbox.baseUrl,
      apiToken: sandbox.tokens.Customer,
      tokenStorage: 'session',
    })
    profileId = (created as { value: { id: string } }).value.id
  })
  afterAll(async () => {
    await services.close()
    await sandbox.close()
  })

  it('remembers a group in the catalog, its token in the vault and never in the catalog row', async () => {
    const result = await dispatch('groups.getOrCreate', {
      profileId,
      request: { user_group_id: 'cat-1', name: 'Cat', mapping: { s1: 'warehouse' } },
    })
    expect(result.ok).toBe(true)
    const token = (result as { value: { group: { token: string } } }).value.group.token

    const entry = await dispatch('catalog.get', { profileId, groupId: 'cat-1' })
    expect(entry).toMatchObject({
      ok: true,
      value: {
        entry: { groupId: 'cat-1', name: 'Cat', environmentTag: 'Customer', mapping: { s1: 'warehouse' }, tokenLast4: token.slice(-4) },
      },
    })
    expect(await dispatch('groups.revealToken', { profileId, groupId: 'cat-1' })).toEqual({ ok: true, value: { token } })
    const row = services.db.get<Record<string, unknown>>('SELECT * FROM catalog WHERE group_id = ?', 'cat-1')
    expect(JSON.stringify(row)).not.toContain(token)
  })

  it('searches, filters and sorts the catalog', async () => {
    for (const id of ['b-2', 'a-10', 'a-9'])
      await dispatch('groups.getOrCreate', { profileId, request: { user_group_id: id, name: `Name ${id}` } })
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
    const stale = await dispatch('groups.rotateToken', {
      profileId,
      source: { kind: 'token', currentToken: (before as { value: { token: string } }).value.token },
    })
    expect(stale).toMatchObject({ ok: false })

    const log = await dispatch('activity.list', { outcome: 'failure' })
    expect(log).toMatchObject({ ok: true, value: { entries: [{ operation: 'rotateToken', outcome: 'failure', httpStatus: 404 }] } })
    const csv = services.router.download('activity', { format: 'csv' })
    if (!csv.ok) throw new Error(csv.error.message)
    let text = ''
    for await (const chunk of csv.value.chunks) text += chunk
    expect(text.split('\n')[0]).toBe(
      'id,time,profileId,profileName,operation,groupId,groupName,outcome,httpStatus,errorCode,message,warnings,durationMs,settledOutcome,settledAt',
    )
    expect(text).not.toContain((before as { value: { token: string } }).value.token)
  })

  it('says when get-or-create found the group and did not apply the name, mapping and properties given', async () => {
    await dispatch('groups.getOrCreate', {
      profileId,
      request: { user_group_id: 'as-is', name: 'First', mapping: { s: 'a' }, properties: { plan: 'pro' } },
    })
    const again = await dispatch('groups.getOrCreate', {
      profileId,
      request: { user_group_id: 'as-is', name: 'Second', mapping: { s: 'b' }, properties: { plan: 'free' } },
    })
    expect(again).toMatchObject({
      ok: true,
      value: { newUserGroup: false, notApplied: ['name', 'mapping', 'properties'], group: { name: 'First' } },
    })
    expect((again as { value: { warnings: string[] } }).value.warnings[0]).toBe(
      '“as-is” already existed, so get-or-create returned it unchanged: the name, mapping and properties you gave were not applied. Use Update to change them.',
    )
    // The catalog keeps what the group is, not what was typed.
    expect(await dispatch('catalog.get', { profileId, groupId: 'as-is' })).toMatchObject({
      ok: true,
      value: { entry: { name: 'First', mapping: { s: 'a' }, properties: { plan: 'pro' } } },
    })

    const same = await dispatch('groups.getOrCreate', {
      profileId,
      request: { user_group_id: 'as-is', name: 'First', properties: { plan: 'pro' } },
    })
    expect(same).toMatchObject({ ok: true, value: { newUserGroup: false, warnings: [] } })
    expect((same as { value: object }).value).not.toHaveProperty('notApplied')
    const onlyName = await dispatch('groups.getOrCreate', {
      profileId,
      request: { user_group_id: 'as-is', name: 'Third', mapping: { s: 'a' } },
    })
    expect(onlyName).toMatchObject({ ok: true, value: { notApplied: ['name'] } })
    expect((onlyName as { value: { warnings: string[] } }).value.warnings[0]).toMatch(
      /the name you gave was not applied\. Use Update to change it\.$/,
    )
  })

  it('refuses an id with a space at either end or a hidden character, without sending it', async () => {
    const refused = [
      [' padded', /starts with a space/],
      ['padded ', /ends with a space/],
      ['zero\u200bwidth', /hidden character \(U\+200B, invisible or not a plain space\) at position 5: .* looks like “zerowidth”/],
    ] as const
    for (const [id, message] of refused) {
      for (const call of ['groups.getOrCreate', 'groups.update']) {
        const result = await dispatch(call, { profileId, request: { user_group_id: id, name: 'Should not exist' } })
        expect(result, `${call} ${JSON.stringify(id)}`).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
        expect((result as { error: { message: string } }).error.message).toMatch(message)
      }
    }
    // Nothing reached the API: no answer was logged and no group was remembered.
    const log = await dispatch('activity.list', { groupId: ' padded' })
    expect(log).toMatchObject({
      ok: true,
      value: {
        entries: [
          { outcome: 'failure', errorCode: 'invalid_input' },
          { outcome: 'failure', errorCode: 'invalid_input' },
        ],
      },
    })
    expect(JSON.stringify(log)).not.toContain('httpStatus')
    expect(await dispatch('catalog.list', { profileId, search: 'padded' })).toMatchObject({ ok: true, value: { matching: 0 } })
  })

  it('says which groups still have their token kept, and lists only those for a rotation', async () => {
    const created = await dispatch('profiles.create', {
      name: 'Kept in the file',
      baseUrl: sandbox.baseUrl,
      apiToken: sandbox.tokens.Testing,
      tokenStorage: 'file',
    })
    const fileProfile = (created as { value: { id: string } }).value.id
    for (const id of ['kept-1', 'lost-1']) await dispatch('groups.getOrCreate', { profileId: fileProfile, request: { user_group_id: id } })
    // As after a restart that lost it, or a clean-up by hand: the catalog row stays, the token is gone.
    services.db.run('DELETE FROM secrets WHERE key = ?', `group:${fileProfile}:lost-1:token`)

    const all = await dispatch('catalog.list', { profileId: fileProfile, sortBy: 'groupId', sortDirection: 'asc' })
    expect(all).toMatchObject({
      ok: true,
      value: {
        rows: [
          { groupId: 'kept-1', tokenKept: true },
          { groupId: 'lost-1', tokenKept: false },
        ],
      },
    })
    const rotatable = await dispatch('catalog.list', { profileId: fileProfile, tokenKept: true })
    expect(rotatable).toMatchObject({ ok: true, value: { total: 2, matching: 1, rows: [{ groupId: 'kept-1' }] } })
    expect(await dispatch('catalog.get', { profileId: fileProfile, groupId: 'lost-1' })).toMatchObject({
      ok: true,
      value: { tokenKept: false },
    })
    // Tokens kept for the session only (this profile's) count as kept too.
    expect(await dispatch('catalog.list', { profileId, tokenKept: true, search: 'cat-1' })).toMatchObject({
      ok: true,
      value: { matching: 1, rows: [{ groupId: 'cat-1', tokenKept: true }] },
    })
    expect(await dispatch('catalog.get', { profileId, groupId: 'cat-1' })).toMatchObject({ ok: true, value: { tokenKept: true } })

    // Deleting the profile takes its catalog and every token it kept, in one transaction.
    expect(await dispatch('profiles.delete', { id: fileProfile })).toMatchObject({ ok: true })
    expect(services.db.get<{ n: number }>('SELECT count(*) AS n FROM catalog WHERE profile_id = ?', fileProfile)?.n).toBe(0)
    expect(services.db.get<{ n: number }>("SELECT count(*) AS n FROM secrets WHERE key LIKE 'group:' || ? || ':%'", fileProfile)?.n).toBe(0)
  })

  it('opens a logged call with its request and its answer, tokens redacted', async () => {
    await dispatch('groups.update', { profileId, request: { user_group_id: 'cat-1', name: 'Shown later', properties: { plan: 'team' } } })
    const page = await dispatch('activity.list', { groupId: 'cat-1', operation: 'update', limit: 1 })
    const id = (page as { value: { entries: Array<{ id: string }> } }).value.entries[0]!.id
    const detail = await dispatch('activity.get', { id })
    expect(detail).toMatchObject({
      ok: true,
      value: {
        entry: {
          operation: 'update',
          request: { user_group_id: 'cat-1', name: 'Shown later', properties: { plan: 'team' } },
          response: { success: 1, user_group: { provided_id: 'cat-1', name: 'Shown later', token: '[redacted]' } },
        },
      },
    })
    expect(await dispatch('activity.get', { id: 'no-such-call' })).toEqual({ ok: true, value: { entry: null } })
  })

  it('a pasted token holding a lone surrogate gets the server’s sentence and is logged, never an internal error', async () => {
    const result = await dispatch('groups.rotateToken', { profileId, source: { kind: 'token', currentToken: 'zqx\ud800wvy-not-a-token' } })
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'api_failure', message: expect.stringMatching(/^No user group has this current token/) },
    })
    const logged = await dispatch('activity.list', { profileId, operation: 'rotateToken', limit: 1 })
    expect(logged).toMatchObject({
      ok: true,
      value: { entries: [{ operation: 'rotateToken', outcome: 'failure', errorCode: 'api_failure' }] },
    })
    // Letters no id, time or hex can hold: a random UUID once held 'abc'.
    expect(JSON.stringify(logged)).not.toContain('zqx')
  })

  it('calls out a profile marked Testing whose token writes Customer groups, on its first call, and remembers the server’s word', async () => {
    const created = await dispatch('profiles.create', {
      name: 'Bravo',
      baseUrl: sandbox.baseUrl,
      apiToken: sandbox.tokens.Customer,
      tokenStorage: 'session',
      environmentKind: 'testing',
    })
    const bravo = (created as { value: { id: string } }).value.id
    const first = await dispatch('groups.getOrCreate', { profileId: bravo, request: { user_group_id: 'bravo-1', name: 'Mislabelled' } })
    expect(first).toMatchObject({
      ok: true,
      value: { group: { api_environment_tag: 'Customer' }, environmentMismatch: { profileKind: 'testing', serverTag: 'Customer' } },
    })
    const warning = (first as { value: { warnings: string[] } }).value.warnings[0]
    expect(warning).toMatch(
      /^“Bravo” is marked Testing, but the server put the group in Customer\. .*confirmed like a Customer profile’s\. Correct the profile’s kind to Customer\.$/,
    )
    // The activity entry says it too, and the profile now carries the server's word.
    const log = await dispatch('activity.list', { groupId: 'bravo-1' })
    expect(log).toMatchObject({ ok: true, value: { entries: [{ groupName: 'Mislabelled', warnings: [warning] }] } })
    const listed = (await dispatch('profiles.list', {})) as {
      value: { profiles: Array<{ id: string; serverEnvironment?: string | null }> }
    }
    expect(listed.value.profiles.find((profile) => profile.id === bravo)?.serverEnvironment).toBe('Customer')

    // Corrected to Customer, the next call says nothing; a Customer profile holding a Testing token is called out the other way.
    await dispatch('profiles.update', { id: bravo, changes: { environmentKind: 'customer' } })
    expect(await dispatch('groups.update', { profileId: bravo, request: { user_group_id: 'bravo-1', name: 'Fine' } })).toMatchObject({
      ok: true,
      value: { warnings: [] },
    })
    await dispatch('profiles.update', { id: bravo, changes: { apiToken: sandbox.tokens.Testing, tokenStorage: 'session' } })
    const other = await dispatch('groups.getOrCreate', { profileId: bravo, request: { user_group_id: 'bravo-2' } })
    expect(other).toMatchObject({ ok: true, value: { environmentMismatch: { profileKind: 'customer', serverTag: 'Testing' } } })
    expect((other as { value: { warnings: string[] } }).value.warnings[0]).toMatch(
      /^“Bravo” is marked Customer, but the server put the group in Testing\./,
    )
    // A profile that says nothing (the first one here) is never called out.
    expect(await dispatch('groups.getOrCreate', { profileId, request: { user_group_id: 'says-nothing' } })).toMatchObject({
      ok: true,
      value: { warnings: [] },
    })
  })

  it('finds calls by any part of the group id, the group name or the error, any case, and a group’s history by its exact id', async () => {
    await dispatch('groups.getOrCreate', { profileId, request: { user_group_id: 'north-wind-7', name: 'Café Crème Ltd' } })
    await dispatch('groups.getOrCreate', { profileId, request: { user_group_id: 'north-wind-70' } })
    await dispatch('groups.rotateToken', { profileId, source: { kind: 'token', currentToken: 'no-such-group-token-123' } })
    const found = async (filter: object) =>
      ((await dispatch('activity.list', filter)) as { value: { entries: Array<{ groupId?: string; operation: string }>; total: number } })
        .value
    expect((await found({ search: 'WIND-7' })).entries.map((entry) => entry.groupId)).toEqual(['north-wind-70', 'north-wind-7'])
    expect((await found({ search: 'creme' })).entries.map((entry) => entry.groupId)).toEqual(['north-wind-7'])
    expect((await found({ search: 'crème wind' })).entries.map((entry) => entry.groupId)).toEqual(['north-wind-7'])
    expect((await found({ search: 'ltd 7' })).total).toBe(1)
    // By the error: every failed rotation said it, and no other call did.
    const byError = await found({ search: 'has THIS current token' })
    expect(byError.total).toBe((await found({ operation: 'rotateToken', outcome: 'failure' })).total)
    expect(new Set(byError.entries.map((entry) => entry.operation))).toEqual(new Set(['rotateToken']))
    // Words shorter than the index's trigrams still narrow the search.
    expect((await found({ search: 'wind 70' })).entries.map((entry) => entry.groupId)).toEqual(['north-wind-70'])
    expect((await found({ search: 'é' })).entries.map((entry) => entry.groupId)).toContain('north-wind-7')
    expect((await found({ search: '"unbalanced (' })).total).toBe(0)
    expect((await found({ search: '100%' })).total).toBe(0)
    expect((await found({ groupId: 'north-wind-7' })).entries.map((entry) => entry.groupId)).toEqual(['north-wind-7'])
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
    const created = await services.router.dispatch(
      'profiles.create',
      { name: 'Lossy', baseUrl, apiToken: 'lossy-api-token-123', tokenStorage: 'session' },
      context,
    )
    const id = (created as { value: { id: string } }).value.id
    const result = await services.router.dispatch(
      'groups.rotateToken',
      { profileId: id, source: { kind: 'token', currentToken: 'group-token-abcdef' } },
      context,
    )
    expect(result).toMatchObject({ ok: false, error: { code: 'outcome_unknown' } })
    expect((result as { error: { message: string } }).error.message).toMatch(/old token may already be invalid/)
    expect(requests).toBe(1)
    const log = await services.router.dispatch('activity.list', { outcome: 'unknown' }, context)
    expect(log).toMatchObject({
      ok: true,
      value: { entries: [{ operation: 'rotateToken', outcome: 'unknown', errorCode: 'outcome_unknown' }] },
    })
    expect(JSON.stringify(log)).not.toContain('group-token-abcdef')
    const entryId = (log as { value: { entries: Array<{ id: string }> } }).value.entries[0]!.id
    const detail = await services.router.dispatch('activity.get', { id: entryId }, context)
    expect(detail).toMatchObject({ ok: true, value: { entry: { request: { current_token: '[redacted]' } } } })
    expect(JSON.stringify(detail)).not.toContain('group-token-abcdef')
  })
})
