import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ActivityLog } from '../../../src-main/activity/activity-log'
import { type AppServices, createAppServices } from '../../../src-main/app-services'
import { type HostileServer, type ReceivedRequest, startHostileServer } from '../../helpers/hostile-server'

// Tokens that are not hex (so only a search in any case finds them upper-cased), kept for the
// session only: no file of the data folder may hold any of them, in any case, whatever was typed
// or answered.
const ALPHA_API_TOKEN = 'alpha-Api-token-Kq7w-Zx9m-Pl3n'
const BRAVO_API_TOKEN = 'bravo-Api-token-Rt5y-Uv2b-Hj8k'
const groupToken = (groupId: string) => `grp-${groupId}-Token-Wq4e-Ty6u`

/**
 * An API that does its job, and a hostile one on top: for the group "echo" it echoes what it
 * was sent upper-cased (the Authorization header included) and the token it issued for "first",
 * in the name, the properties and loose fields.
 */
function answer(received: ReceivedRequest, res: ServerResponse) {
  const sent = received.body ? (JSON.parse(received.body) as Record<string, unknown>) : {}
  const id = typeof sent.user_group_id === 'string' ? sent.user_group_id : 'rotated'
  const echo = id === 'echo' ? ` ${(received.headers.authorization ?? '').toUpperCase()} ${groupToken('first')}` : ''
  res.writeHead(200, { 'Content-Type': 'application/json' })
  res.end(
    JSON.stringify({
      success: 1,
      new_user_group: received.method === 'GET',
      ...(echo ? { note: `seen:${echo}` } : {}),
      user_group: {
        team_id: 7,
        token: received.method === 'POST' ? `${groupToken('first')}-rotated` : groupToken(id),
        provided_id: received.method === 'POST' ? 'first' : id,
        name: `${typeof sent.name === 'string' ? sent.name : id}${echo}`,
        api_environment_tag: 'Testing',
        properties: echo ? { seen: echo.toLowerCase() } : {},
      },
    }),
  )
}

/**
 * Every file of the data folder that holds one of the secrets, in any case. A closed libsql
 * database lets go of its -wal and -shm files when the handle is collected, folding the log into
 * the database file: a file gone mid-scan starts the scan again, so what moved is read where it went.
 */
async function filesHolding(dir: string, secrets: string[]): Promise<string[]> {
  for (;;) {
    try {
      return await scanForSecrets(dir, secrets)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
}

async function scanForSecrets(dir: string, secrets: string[]): Promise<string[]> {
  const holding: string[] = []
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const text = (await readFile(join(entry.parentPath, entry.name), 'latin1')).toLowerCase()
    for (const secret of secrets) if (text.includes(secret.toLowerCase())) holding.push(`${entry.name}: ${secret}`)
  }
  return holding
}

describe('a token in the wrong field', () => {
  let server: HostileServer | undefined
  let services: AppServices | undefined
  afterEach(async () => {
    await services?.close()
    await server?.close()
  })

  async function twoProfiles() {
    server = await startHostileServer({ onRequest: answer })
    const dataDir = await mkdtemp(join(tmpdir(), 'ec-wrong-field-'))
    services = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
    const call = (name: string, input: unknown) => services!.router.dispatch(name, input, { transport: 'test' })
    const ids: string[] = []
    for (const [name, apiToken] of [
      ['Alpha', ALPHA_API_TOKEN],
      ['Bravo', BRAVO_API_TOKEN],
    ]) {
      const created = await call('profiles.create', { name, baseUrl: server.baseUrl, apiToken, tokenStorage: 'session' })
      if (!created.ok) throw new Error(created.error.message)
      ids.push((created.value as { id: string }).id)
    }
    await call('profiles.setActive', { id: ids[0] })
    return { dataDir, call, alpha: ids[0]!, bravo: ids[1]! }
  }

  it('is refused before sending, with a sentence, and nothing stored anywhere holds a kept token in any case', async () => {
    const { dataDir, call, alpha } = await twoProfiles()
    expect(await call('groups.getOrCreate', { request: { user_group_id: 'first', name: 'First' } })).toMatchObject({ ok: true })
    const sentBefore = server!.requests.length

    // Another profile's API token in the name, and the first group's token in a property, upper-cased.
    expect(await call('groups.getOrCreate', { request: { user_group_id: 'second', name: `Second ${BRAVO_API_TOKEN}` } })).toEqual({
      ok: false,
      error: {
        code: 'refused',
        message:
          'The name holds the API token of the profile “Bravo”. A token or password is never sent in a group’s fields: take it out and send again. Nothing was sent.',
        details: { field: 'name' },
      },
    })
    expect(
      await call('groups.update', { request: { user_group_id: 'first', properties: { note: groupToken('first').toUpperCase() } } }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'refused',
        message: expect.stringMatching(/^The properties hold the token of the group “first” \(profile “Alpha”\)\./),
      },
    })
    // The profile's own API token as the token to rotate: not a group's token.
    expect(await call('groups.rotateToken', { source: { kind: 'token', currentToken: ALPHA_API_TOKEN } })).toMatchObject({
      ok: false,
      error: { code: 'refused', message: expect.stringMatching(/^The current token holds the API token of the profile “Alpha”\./) },
    })
    expect(server!.requests.length).toBe(sentBefore)
    expect(await call('activity.list', {})).toMatchObject({ ok: true, value: { total: 1 } })

    // A rotation sends the group's own token, where it belongs; a hostile answer echoes tokens upper-cased.
    expect(await call('groups.rotateToken', { source: { kind: 'catalog', groupId: 'first' } })).toMatchObject({ ok: true })
    expect(await call('groups.getOrCreate', { request: { user_group_id: 'echo', name: 'Echo' } })).toMatchObject({ ok: true })

    // A bulk file: the rows carrying kept tokens are problems, named by line and column, never planned.
    const plan = services!.bulk.plan({
      kind: 'apply',
      target: { profileId: alpha },
      fileName: 'groups.csv',
      text: `user_group_id,name\nbulk-1,One\nbulk-2,Two ${ALPHA_API_TOKEN.toUpperCase()}\nbulk-3,${groupToken('echo')}\n`,
      excludeInvalid: true,
      settings: { concurrency: 1, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false },
    })
    expect(plan.problems).toEqual([
      { line: 3, column: 'name', message: expect.stringMatching(/^This cell holds the API token of the profile “Alpha”/) },
      { line: 4, column: 'name', message: expect.stringMatching(/^This cell holds the token of the group “echo” \(profile “Alpha”\)/) },
    ])
    expect(plan.planned.total).toBe(1)
    await services!.bulk.launch(plan.runId!, { concurrency: 1, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false }).done

    const secrets = [ALPHA_API_TOKEN, BRAVO_API_TOKEN, groupToken('first'), `${groupToken('first')}-rotated`, groupToken('echo')]
    // The log as the operator searches and exports it.
    const log = new ActivityLog(services!.db)
    for (const format of ['csv', 'jsonl'] as const) {
      let exported = ''
      for await (const chunk of log.export(format, {})) exported += chunk
      expect(exported).toContain('[redacted]')
      for (const secret of secrets) expect(exported.toLowerCase()).not.toContain(secret.toLowerCase())
    }
    expect(await call('activity.list', { search: 'Kq7w' })).toMatchObject({ ok: true, value: { total: 0 } })
    expect(await call('catalog.get', { groupId: 'echo' })).toMatchObject({
      ok: true,
      value: { entry: { name: 'Echo TOKEN [redacted] [redacted]', properties: { seen: ' token [redacted] [redacted]' } } },
    })
    await services!.close()
    services = undefined
    expect(await filesHolding(dataDir, secrets)).toEqual([])
  })
})
