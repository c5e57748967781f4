import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppServices, createAppServices } from '../../../src-main/app-services'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'

// A distinctive API token that the sandbox accepts: after a full session of calls it must appear
// in no IPC answer, no event, no log line and no file but the database that keeps it.
const CANARY = 'canary0api0token0d3adb33f0c0ffee0d3adb33f0c0ffee0d3adb33f0c0ffee'

describe('the API token never leaves main', () => {
  let sandbox: Sandbox
  let services: AppServices
  let dataDir: string
  const answers: unknown[] = []
  const events: unknown[] = []
  const logLines: string[] = []

  const call = async (name: string, input: unknown) => {
    const result = await services.router.dispatch(name, input, { transport: 'test' })
    answers.push(result)
    return result
  }

  beforeAll(async () => {
    const sandboxDir = await mkdtemp(join(tmpdir(), 'ec-canary-sandbox-'))
    sandbox = await startSandbox({ port: 0, dataFile: join(sandboxDir, 'sandbox.db'), customerToken: CANARY })
    dataDir = await mkdtemp(join(tmpdir(), 'ec-canary-app-'))
    services = await createAppServices({ dataDir, transport: 'browser', sandbox: false, log: (line) => logLines.push(line) })
    services.events.subscribe((event) => events.push(event))
  })
  afterAll(async () => {
    await services.close()
    await sandbox.close()
  })

  it('survives a full session of calls', async () => {
    const created = await call('profiles.create', {
      name: 'Canary',
      baseUrl: sandbox.baseUrl,
      apiToken: CANARY,
      tokenStorage: 'file',
      environmentLabel: 'Prod',
    })
    expect(created).toMatchObject({ ok: true })
    const profileId = (created as { value: { id: string } }).value.id
    await call('profiles.setActive', { id: profileId })
    expect(await call('profiles.testConnection', { id: profileId })).toMatchObject({ ok: true, value: { outcome: 'ok' } })

    const group = await call('groups.getOrCreate', { request: { user_group_id: 'canary-group', name: 'One', mapping: { s: 'd' } } })
    expect(group).toMatchObject({ ok: true, value: { newUserGroup: true } })
    expect(await call('groups.getOrCreate', { request: { user_group_id: 'canary-group' } })).toMatchObject({
      ok: true,
      value: { newUserGroup: false },
    })
    expect(await call('groups.update', { request: { user_group_id: 'canary-group', name: 'Two', properties: { tier: 1 } } })).toMatchObject(
      { ok: true, value: { group: { name: 'Two' } } },
    )
    expect(await call('groups.update', { request: { user_group_id: 'no-such-group' } })).toMatchObject({ ok: false })
    expect(await call('groups.rotateToken', { source: { kind: 'catalog', groupId: 'canary-group' } })).toMatchObject({ ok: true })
    expect(await call('groups.rotateToken', { source: { kind: 'token', currentToken: 'f'.repeat(64) } })).toMatchObject({ ok: false })
    expect(await call('groups.revealToken', { groupId: 'canary-group' })).toMatchObject({ ok: true })
    await call('catalog.list', {})
    await call('catalog.get', { groupId: 'canary-group' })
    await call('activity.list', {})
    for (const format of ['csv', 'jsonl']) {
      const download = services.router.download('activity', { format })
      if (!download.ok) throw new Error(download.error.message)
      for await (const chunk of download.value.chunks) answers.push(chunk)
    }
    await call('profiles.list', {})
    await call('profiles.export', {})
    await call('profiles.duplicate', { id: profileId })
    await call('profiles.update', { id: profileId, changes: { name: 'Canary renamed' } })
    await call('app.info', {})

    // A wrong token for the same sandbox: the refusal must not echo either token.
    const wrong = await call('profiles.create', {
      name: 'Wrong',
      baseUrl: sandbox.baseUrl,
      apiToken: `${CANARY}x`,
      tokenStorage: 'session',
    })
    const wrongId = (wrong as { value: { id: string } }).value.id
    expect(await call('profiles.testConnection', { id: wrongId })).toMatchObject({ ok: true, value: { outcome: 'token_refused' } })

    // Every call's request and answer are kept for the Activity screen (schema version 2): with
    // the API token, every group token issued, rotated or revealed in this session redacted.
    const groupTokens = new Set<string>()
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect)
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          if (key === 'token' && typeof inner === 'string') groupTokens.add(inner)
          else collect(inner)
        }
      }
    }
    collect(answers)
    expect(groupTokens.size).toBeGreaterThanOrEqual(2)
    const kept = services.db.all<{ operation: string; request: string | null; response: string | null }>(
      'SELECT operation, request, response FROM activity',
    )
    expect(kept.filter((row) => row.request !== null && row.response !== null).length).toBeGreaterThanOrEqual(5)
    expect(kept.find((row) => row.operation === 'rotateToken' && row.request !== null)?.request).toBe('{"current_token":"[redacted]"}')
    const keptText = JSON.stringify(kept)
    expect(keptText).not.toContain(CANARY)
    for (const token of groupTokens) expect(keptText).not.toContain(token)
    for (const row of ((await call('activity.list', { limit: 100 })) as { value: { entries: Array<{ id: string }> } }).value.entries) {
      await call('activity.get', { id: row.id })
    }
    const details = JSON.stringify(answers.slice(-kept.length))
    for (const token of groupTokens) expect(details).not.toContain(token)

    const everythingSaid = JSON.stringify({ answers, events, logLines })
    expect(everythingSaid).not.toContain(CANARY)
    expect(everythingSaid).not.toContain(CANARY.slice(0, 24))

    const files = await readdir(dataDir, { recursive: true, withFileTypes: true })
    const holding: string[] = []
    for (const entry of files) {
      if (!entry.isFile()) continue
      const path = join(entry.parentPath, entry.name)
      if ((await readFile(path, 'utf8')).includes(CANARY)) holding.push(entry.name)
    }
    // Kept unencrypted, as the operator chose where no keychain exists: in the database, nowhere else.
    expect(holding.length > 0 && holding.every((name) => name.startsWith('embed-console.db'))).toBe(true)
  })
})
