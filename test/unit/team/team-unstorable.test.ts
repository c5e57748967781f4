import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { createAppServices } from '../../../src-main/app-services'
import { main } from '../../../src-main/cli/index'
import type { CliIo } from '../../../src-main/cli/usage'
import { storableEvent } from '../../../src-main/team/team-events'
import { type ReceivedRequest, startHostileServer } from '../../helpers/hostile-server'
import { closedAfterEach, joinedFolder, openFolder, profileIdOf, type TeamCluster, teamForThisFile } from '../../helpers/team'

/*
 * Values the API accepts and Postgres does not: a NUL (valid JSON, refused by every text and
 * jsonb value), half a surrogate pair, numbers no int or bigint holds. Each call still reaches
 * the audit log, made storable, and so does every call after it; an event the database refuses
 * all the same is parked alone, with its sentence, where the operator looks.
 */

const team = await teamForThisFile()
const closers = closedAfterEach()

function io(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  return { out, err, env: {}, stdout: (text) => out.push(text), stderr: (text) => err.push(text), stdin: async () => '' }
}

/** An API whose answers hold what Postgres cannot keep as sent, group by group. */
async function unstorableApi() {
  let issued = 0
  const group = (id: string, extra: Record<string, unknown> = {}) => ({
    team_id: 7,
    token: `token-${id}-${String((issued += 1)).padStart(4, '0')}-abcdefgh`,
    name: id,
    provided_id: id,
    properties: null,
    api_environment_tag: 'Customer',
    ...extra,
  })
  const WEIRD: Record<string, Record<string, unknown>> = {
    'nul-name': { name: 'Ac\u0000me', properties: { 'k\u0000ey': 'v\u0000al', half: 'x\ud800y' }, team_id: 1e30 },
    fraction: { team_id: 1.5 },
    huge: { team_id: 2 ** 63 },
  }
  const server = await startHostileServer({
    onRequest: (received: ReceivedRequest, res) => {
      const body = JSON.parse(received.body || '{}') as { user_group_id?: string; current_token?: string }
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(value))
      }
      if (received.method === 'POST') {
        // As docs/user-group-api.md section 4 has it, a rotation's answer holds no properties.
        const { properties: _none, ...rotated } = group('nul-name', { name: 'Rotated \u0000 name', team_id: 1e30 })
        return send(200, { success: 1, user_group: rotated })
      }
      const id = body.user_group_id ?? 'unknown'
      if (received.method === 'PUT' && id === 'failing') return send(500, { success: 0, error: 'The database said \u0000 and \udc00 no.' })
      return send(200, { success: 1, new_user_group: true, user_group: group(id, WEIRD[id] ?? {}) })
    },
  })
  closers.push(() => server.close())
  return server
}

describe('events as the team database can store them', () => {
  it('every string (keys too) without NUL or half surrogate pairs, every number within what Postgres casts it to', () => {
    expect(
      storableEvent({
        kind: 'call',
        message: 'a\u0000b\ud800c\udc00d\ud83d\ude00',
        httpStatus: 1e10,
        durationMs: -5,
        group: { name: 'n\u0000', teamId: 1.5, properties: { 'k\u0000': ['\u0000'] }, tokenSha256: 'f'.repeat(64) },
      }),
    ).toEqual({
      kind: 'call',
      message: 'a\uFFFDb\uFFFDc\uFFFDd\ud83d\ude00',
      httpStatus: null,
      durationMs: 0,
      group: { name: 'n\uFFFD', properties: { 'k\uFFFD': ['\uFFFD'] }, tokenSha256: 'f'.repeat(64) },
    })
    expect(storableEvent({ kind: 'call', httpStatus: 404, durationMs: 12.5, group: { teamId: 2 ** 53 - 1 } })).toEqual({
      kind: 'call',
      httpStatus: 404,
      durationMs: 12.5,
      group: { teamId: 2 ** 53 - 1 },
    })
  })
})

describe.skipIf(!team)('a call the database cannot keep as sent blocks nothing', () => {
  it(
    'a NUL, half a surrogate pair, a team_id no bigint holds: every call reaches the audit log (made storable), its rotation claim clears, and the calls after it follow',
    { timeout: 60_000 },
    async () => {
      const api = await unstorableApi()
      const ops = await (team as TeamCluster).operator('ops-nul')
      const dataDir = await joinedFolder({ operatorUrl: ops.url, baseUrl: api.baseUrl, apiToken: 'api-token-nul-0001', profileName: 'Odd' })
      const services = await openFolder(dataDir)
      closers.push(() => services.close())
      const profileId = profileIdOf(services, 'Odd')
      for (const id of ['before-1', 'nul-name', 'fraction', 'huge', 'after-1'])
        await services.groups.getOrCreate(profileId, { user_group_id: id })
      await expect(services.groups.update(profileId, { user_group_id: 'failing', name: 'x' })).rejects.toThrow()
      await services.groups.rotateToken(profileId, { kind: 'catalog', groupId: 'nul-name' })
      await services.groups.getOrCreate(profileId, { user_group_id: 'after-2' })
      expect(await services.team.flush(10_000)).toBe(true)

      const audit = (
        await team!.query<{ group_id: string; operation: string; outcome: string; message: string | null }>(
          "SELECT group_id, operation, outcome, message FROM embed_console.activity WHERE actor = 'ops-nul' ORDER BY seq",
        )
      ).rows
      expect(audit.map((row) => `${row.operation} ${row.group_id} ${row.outcome}`)).toEqual([
        'getOrCreate before-1 success',
        'getOrCreate nul-name success',
        'getOrCreate fraction success',
        'getOrCreate huge success',
        'getOrCreate after-1 success',
        'update failing failure',
        'rotateToken nul-name success',
        'getOrCreate after-2 success',
      ])
      expect(audit[5]!.message).toContain('\uFFFD')
      expect(audit[5]!.message).not.toContain('\u0000')
      const [odd] = (
        await team!.query<{ name: string; properties: Record<string, string>; team_id: string | null; rotated_by: string }>(
          "SELECT name, properties, team_id, rotated_by FROM embed_console.groups WHERE group_id = 'nul-name'",
        )
      ).rows
      expect(odd).toEqual({
        name: 'Rotated \uFFFD name',
        properties: { 'k\uFFFDey': 'v\uFFFDal', half: 'x\uFFFDy' },
        team_id: null,
        rotated_by: 'ops-nul',
      })
      expect(
        (
          await team!.query<{ group_id: string; team_id: string | null }>(
            "SELECT group_id, team_id FROM embed_console.groups WHERE group_id IN ('fraction', 'huge') ORDER BY 1",
          )
        ).rows,
      ).toEqual([
        { group_id: 'fraction', team_id: null },
        { group_id: 'huge', team_id: null },
      ])
      // The rotation's claim cleared: no other machine reads “unknown outcome” for the group.
      expect(
        (await team!.query<{ n: number }>("SELECT count(*)::int AS n FROM embed_console.claims WHERE actor = 'ops-nul'")).rows[0]!.n,
      ).toBe(0)
      expect(await services.team.status()).toMatchObject({ connected: true, outboxBacklog: 0, parkedCount: 0, parked: [] })
    },
  )

  it(
    'an event the database refuses all the same (a newer version’s, another operator’s id) is parked alone with its sentence, shown by `team status`, its --json and the status the Team screen reads; the rest publish',
    { timeout: 60_000 },
    async () => {
      const api = await unstorableApi()
      const ops = await (team as TeamCluster).operator('ops-parked')
      const dataDir = await joinedFolder({
        operatorUrl: ops.url,
        baseUrl: api.baseUrl,
        apiToken: 'api-token-parked-0001',
        profileName: 'Parked',
      })
      // As the command line opens it: nothing publishes in the background, only when asked.
      const services = await createAppServices({ dataDir, transport: 'browser', client: 'cli', sandbox: false })
      const profileId = profileIdOf(services, 'Parked')
      // Twenty calls queued while the team database is away, published in one batch once it is
      // back: one of them an event this schema does not know (as a later Embed Console may
      // queue), and one whose id another operator wrote under first (a leaked id).
      await team!.pause()
      try {
        for (let index = 0; index < 20; index += 1) {
          await services.groups.getOrCreate(profileId, { user_group_id: `queued-${String(index).padStart(2, '0')}` })
          if (index === 9)
            services.db.run(
              'INSERT INTO team_outbox (id, event, created_at) VALUES (?, ?, ?)',
              'from-a-newer-version',
              JSON.stringify({
                kind: 'deleted',
                id: '6f1b8c3e-7d1a-4d2b-9a6e-2f4f0b9d1c11',
                operation: 'deleteGroup',
                groupId: 'queued-09',
                calledAt: new Date().toISOString(),
              }),
              new Date().toISOString(),
            )
        }
      } finally {
        await team!.resume()
      }
      const leaked = services.db.get<{ id: string }>('SELECT id FROM team_outbox WHERE event LIKE \'%"queued-05"%\'')!.id
      const other = await (team as TeamCluster).operator('ops-leaker')
      const leaker = new pg.Client({ connectionString: other.url })
      await leaker.connect()
      await leaker.query('SELECT embed_console.record_calls($1::jsonb)', [
        JSON.stringify([
          {
            kind: 'call',
            id: leaked,
            calledAt: new Date().toISOString(),
            server: 'https://elsewhere.example.com',
            profileName: 'P',
            operation: 'update',
            groupId: 'x',
            outcome: 'success',
            durationMs: 1,
          },
        ]),
      ])
      await leaker.end()
      expect(await services.team.flush(10_000)).toBe(true)
      const published = (
        await team!.query<{ group_id: string }>("SELECT group_id FROM embed_console.activity WHERE actor = 'ops-parked' ORDER BY seq")
      ).rows.map((row) => row.group_id)
      expect(published).toEqual(
        Array.from({ length: 20 }, (_, index) => `queued-${String(index).padStart(2, '0')}`).filter((id) => id !== 'queued-05'),
      )
      const sentence =
        'The team database refused this call’s record: its kind (deleted) is not one this schema knows: update Embed Console here, or the team database.'
      expect(await services.team.status()).toMatchObject({
        connected: true,
        outboxBacklog: 0,
        parkedCount: 2,
        parked: [
          { id: 'from-a-newer-version', operation: 'deleteGroup', groupId: 'queued-09', reason: sentence },
          {
            id: leaked,
            operation: 'getOrCreate',
            groupId: 'queued-05',
            reason:
              'The team database refused this call’s record: its id is a call of ops-leaker in the audit log: an operator records only calls of their own.',
          },
        ],
      })
      await services.close()

      const text = io()
      expect(await main(['team', 'status', '--data-dir', dataDir], text)).toBe(0)
      expect(text.out).toContain('Parked: 2 calls the team database refused to store (kept here, out of the queue; the rest went on):')
      expect(text.out.find((line) => line.startsWith('  ') && line.includes('deleteGroup of queued-09'))).toMatch(
        new RegExp(`: ${sentence.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
      )
      const json = io()
      expect(await main(['team', 'status', '--json', '--data-dir', dataDir], json)).toBe(0)
      expect(JSON.parse(json.out.join('\n'))).toMatchObject({
        ok: true,
        value: { parkedCount: 2, parked: [{ reason: sentence }, { id: leaked }] },
      })
      // Leaving is not held back by it (nothing can publish it); what waits still would be.
      expect(await main(['team', 'leave', '--data-dir', dataDir], io())).toBe(0)
    },
  )
})
