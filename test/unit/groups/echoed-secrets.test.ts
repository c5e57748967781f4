import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openAppDatabase } from '../../../src-main/app-database'
import { type AppServices, createAppServices } from '../../../src-main/app-services'
import { openSecretVault } from '../../../src-main/profiles/vault'
import { type HostileServer, type ReceivedRequest, startHostileServer } from '../../helpers/hostile-server'

// Distinctive secrets: none may come back from main, nor be written to the data folder. The API
// token is kept for the session only, so no file holds it legitimately either.
const API_TOKEN = 'echo0api0token0c4n4ry0c4n4ry0c4n4ry0c4n4ry'
const OLD_GROUP_TOKEN = 'echo0old0group0token0c4n4ry0c4n4ry0c4n4ry'
const NEW_GROUP_TOKEN = 'echo0new0group0token0f1sh0f1sh0f1sh0f1sh0f1'

/**
 * A server that does the job and echoes everything it was sent into a 200 answer: the
 * Authorization header and the request body, at the top level, in loose fields of the group, in
 * its name and in its properties; and the group token it hands out a second time.
 */
function echoingAnswer(received: ReceivedRequest, groupToken: string) {
  const authorization = received.headers.authorization ?? ''
  const sent = received.body ? (JSON.parse(received.body) as Record<string, unknown>) : {}
  return {
    success: 1,
    new_user_group: received.method === 'GET',
    echo: { authorization, body: received.body, headers: received.headers },
    user_group: {
      team_id: 7,
      token: groupToken,
      name: `Seen ${authorization}`,
      provided_id: typeof sent.user_group_id === 'string' ? sent.user_group_id : 'acme',
      api_environment_tag: 'Customer',
      properties: { seen: authorization, sent, [authorization]: 'as a key', token_again: groupToken },
      debug_authorization: authorization,
      previous_token: typeof sent.current_token === 'string' ? sent.current_token : OLD_GROUP_TOKEN,
    },
  }
}

async function filesHolding(dir: string, secrets: string[]): Promise<string[]> {
  const holding: string[] = []
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const text = await readFile(join(entry.parentPath, entry.name), 'latin1')
    for (const secret of secrets) if (text.includes(secret)) holding.push(`${entry.name}: ${secret.slice(0, 16)}…`)
  }
  return holding
}

describe('secrets a server echoes in a success answer', () => {
  let server: HostileServer | undefined
  let services: AppServices | undefined
  afterEach(async () => {
    await services?.close()
    await server?.close()
  })

  async function appAgainst(groupToken: () => string) {
    server = await startHostileServer({
      onRequest: (received, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(echoingAnswer(received, groupToken())))
      },
    })
    const dataDir = await mkdtemp(join(tmpdir(), 'ec-echo-'))
    services = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
    const call = (name: string, input: unknown) => services!.router.dispatch(name, input, { transport: 'test' })
    const created = await call('profiles.create', { name: 'Echo', baseUrl: server.baseUrl, apiToken: API_TOKEN, tokenStorage: 'session' })
    if (!created.ok) throw new Error(created.error.message)
    await call('profiles.setActive', { id: (created.value as { id: string }).id })
    return { dataDir, call }
  }

  it('reach neither the IPC answers nor the database: only user_group.token carries the group token', async () => {
    let token = OLD_GROUP_TOKEN
    const { dataDir, call } = await appAgainst(() => token)
    const answers: unknown[] = []
    const answer = async (name: string, input: unknown) => {
      const result = await call(name, input)
      answers.push(result)
      return result
    }

    const created = await answer('groups.getOrCreate', { request: { user_group_id: 'acme', name: 'Acme', properties: { tier: 1 } } })
    expect(created).toMatchObject({
      ok: true,
      value: { group: { token: OLD_GROUP_TOKEN }, raw: { user_group: { token: OLD_GROUP_TOKEN } } },
    })
    const updated = await answer('groups.update', { request: { user_group_id: 'acme', properties: { tier: 2 } } })
    expect(updated).toMatchObject({ ok: true, value: { group: { token: OLD_GROUP_TOKEN, debug_authorization: 'Token [redacted]' } } })
    token = NEW_GROUP_TOKEN
    const rotated = await answer('groups.rotateToken', { source: { kind: 'catalog', groupId: 'acme' } })
    expect(rotated).toMatchObject({ ok: true, value: { group: { token: NEW_GROUP_TOKEN, previous_token: '[redacted]' } } })
    await answer('catalog.get', { groupId: 'acme' })
    await answer('catalog.list', {})
    await answer('activity.list', {})
    expect(await answer('groups.revealToken', { groupId: 'acme' })).toEqual({ ok: true, value: { token: NEW_GROUP_TOKEN } })

    // The catalog kept the properties as the server returned them, scrubbed.
    expect(answers.at(3)).toMatchObject({
      ok: true,
      value: { entry: { properties: { seen: 'Token [redacted]', 'Token [redacted]': 'as a key' } } },
    })

    const said = JSON.stringify(answers)
    expect(said).not.toContain(API_TOKEN)
    // A group token is answered where it belongs, group.token and raw.user_group.token of the
    // call that returned it (and revealToken, on request), and nowhere else.
    const occurrences = (value: unknown, secret: string) => JSON.stringify(value).split(secret).length - 1
    expect(occurrences(created, OLD_GROUP_TOKEN)).toBe(2)
    expect(occurrences(updated, OLD_GROUP_TOKEN)).toBe(2)
    expect(occurrences(rotated, NEW_GROUP_TOKEN)).toBe(2)
    expect(occurrences(rotated, OLD_GROUP_TOKEN)).toBe(0)
    expect(occurrences(answers.slice(3, 6), OLD_GROUP_TOKEN) + occurrences(answers.slice(3, 6), NEW_GROUP_TOKEN)).toBe(0)

    // Session-only tokens: the data folder holds none of the three, echoed or not.
    expect(await filesHolding(dataDir, [API_TOKEN, OLD_GROUP_TOKEN, NEW_GROUP_TOKEN])).toEqual([])
  })

  it('refuses an answer that gives the API token as the group token, and keeps nothing of it', async () => {
    const { dataDir, call } = await appAgainst(() => `prefix-${API_TOKEN}`)
    const result = await call('groups.getOrCreate', { request: { user_group_id: 'acme' } })
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_response' } })
    expect(JSON.stringify(result)).not.toContain(API_TOKEN)
    expect(await call('catalog.get', { groupId: 'acme' })).toEqual({ ok: true, value: { entry: null, tokenKept: false } })
    expect(await filesHolding(dataDir, [API_TOKEN])).toEqual([])
  })
})

describe('a secret another process keeps while a call is out', () => {
  let server: HostileServer | undefined
  let services: AppServices | undefined
  const others: Array<{ close(): void }> = []
  afterEach(async () => {
    await services?.close()
    await server?.close()
    for (const db of others.splice(0)) db.close()
  })

  it('is redacted from the answer, the activity log and the catalog, though this process never asked for it', async () => {
    const LATE_SECRET = 'late0secret0kept0elsewhere0c4n4ry0c4n4ry'
    const dataDir = await mkdtemp(join(tmpdir(), 'ec-late-'))
    // The CLI or the desktop app on the same folder, as another process: its own database connection and vault.
    const otherDb = openAppDatabase(dataDir)
    others.push(otherDb)
    const elsewhere = openSecretVault({ db: otherDb })
    server = await startHostileServer({
      onRequest: (received, res) => {
        elsewhere.set('profile:elsewhere:api-token', LATE_SECRET, 'file')
        const sent = JSON.parse(received.body || '{}') as { user_group_id?: string }
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end(
          JSON.stringify({
            success: 1,
            new_user_group: true,
            echo: LATE_SECRET,
            user_group: {
              team_id: 7,
              token: 'late0group0token0f1sh0f1sh0f1sh0f1sh',
              name: `Seen ${LATE_SECRET}`,
              provided_id: sent.user_group_id,
              properties: { seen: LATE_SECRET },
            },
          }),
        )
      },
    })
    services = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
    const call = (name: string, input: unknown) => services!.router.dispatch(name, input, { transport: 'test' })
    const created = await call('profiles.create', { name: 'Late', baseUrl: server.baseUrl, apiToken: API_TOKEN, tokenStorage: 'session' })
    if (!created.ok) throw new Error(created.error.message)
    const profileId = (created.value as { id: string }).id

    const answered = await call('groups.getOrCreate', { profileId, request: { user_group_id: 'late' } })
    expect(answered).toMatchObject({ ok: true, value: { group: { name: 'Seen [redacted]' } } })
    const listed = await call('activity.list', { profileId })
    const entryId = (listed as { value: { entries: Array<{ id: string }> } }).value.entries[0]!.id
    const kept = [answered, listed, await call('activity.get', { id: entryId }), await call('catalog.get', { profileId, groupId: 'late' })]
    expect(kept.at(2)).toMatchObject({ ok: true, value: { entry: { response: { echo: '[redacted]' } } } })
    expect(kept.at(3)).toMatchObject({ ok: true, value: { entry: { name: 'Seen [redacted]', properties: { seen: '[redacted]' } } } })
    expect(JSON.stringify(kept)).not.toContain(LATE_SECRET)
  })
})

describe('a profile moved to another server', () => {
  let servers: HostileServer[] = []
  let services: AppServices | undefined
  afterEach(async () => {
    await services?.close()
    await Promise.all(servers.map((server) => server.close()))
    servers = []
  })

  it('sends the old tokens nowhere: the new host receives no request until the new token is given', async () => {
    const answer = (received: ReceivedRequest, res: ServerResponse) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify(echoingAnswer(received, OLD_GROUP_TOKEN)))
    }
    const trusted = await startHostileServer({ onRequest: answer })
    const stranger = await startHostileServer({ onRequest: answer })
    servers = [trusted, stranger]
    services = await createAppServices({ dataDir: await mkdtemp(join(tmpdir(), 'ec-move-')), transport: 'browser', sandbox: false })
    const call = (name: string, input: unknown) => services!.router.dispatch(name, input, { transport: 'test' })
    const created = await call('profiles.create', {
      name: 'Moving',
      baseUrl: trusted.baseUrl,
      apiToken: API_TOKEN,
      tokenStorage: 'session',
    })
    const id = (created as { value: { id: string } }).value.id
    await call('profiles.setActive', { id })
    expect(await call('groups.getOrCreate', { request: { user_group_id: 'acme' } })).toMatchObject({ ok: true })

    // Another port on the same host is another server.
    const moved = await call('profiles.update', { id, changes: { baseUrl: stranger.baseUrl } })
    expect(moved).toMatchObject({ ok: true, value: { token: { set: false, storage: 'none' } } })
    expect(await call('profiles.testConnection', { id })).toMatchObject({ ok: true, value: { outcome: 'unexpected' } })
    expect(await call('groups.rotateToken', { source: { kind: 'catalog', groupId: 'acme' } })).toMatchObject({
      ok: false,
      error: { code: 'refused' },
    })
    expect(await call('groups.getOrCreate', { request: { user_group_id: 'acme' } })).toMatchObject({
      ok: false,
      error: { code: 'refused' },
    })
    expect(stranger.requests).toEqual([])

    // Duplicating the moved profile and moving the copy back copies no token either way.
    const copy = await call('profiles.duplicate', { id })
    expect(copy).toMatchObject({ ok: true, value: { token: { set: false } } })

    await call('profiles.update', { id, changes: { apiToken: 'stranger-api-token-5555', tokenStorage: 'session' } })
    expect(await call('profiles.testConnection', { id })).toMatchObject({ ok: true })
    expect(stranger.requests.map((request) => request.headers.authorization)).toEqual(['Token stranger-api-token-5555'])
    expect(JSON.stringify(stranger.requests)).not.toContain(API_TOKEN)
    expect(JSON.stringify(stranger.requests)).not.toContain(OLD_GROUP_TOKEN)
  })
})
