import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { loginsEndedAfterEach, type TeamCluster, teamForThisFile } from '../../helpers/team'

/*
 * Which token the team's catalog holds as a group's current one, whatever the order calls are
 * published in and whatever the machines' clocks say: a rotation replaces the token it rotated,
 * a token rotated away never comes back, and only an observation nothing shows to be older
 * falls back on time. Events as the app publishes them, sent by each operator's own login.
 */

const team = await teamForThisFile()

const login = loginsEndedAfterEach()

const SERVER = 'https://api.tokens.example.com'
const fp = (char: string) => char.repeat(64)
const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString()

async function operator(name: string) {
  const client = await login((await (team as TeamCluster).operator(name)).url)
  const record = (event: Record<string, unknown>) =>
    client.query('SELECT embed_console.record_calls($1::jsonb)', [
      JSON.stringify([
        {
          kind: 'call',
          id: randomUUID(),
          server: SERVER,
          profileName: 'P',
          outcome: 'success',
          durationMs: 5,
          newUserGroup: false,
          ...event,
        },
      ]),
    ])
  return {
    fetch: (group: string, token: string, calledAt = new Date().toISOString()) =>
      record({ operation: 'getOrCreate', groupId: group, calledAt, group: { tokenSha256: token, tokenLast4: token.slice(0, 4) } }),
    /** Claims the group with the token it holds, then publishes the rotation to `next` (as the app does). */
    async rotate(group: string, from: string, next: string, calledAt = new Date().toISOString()) {
      const id = randomUUID()
      const claimed = await client.query<{ outcome: string }>(
        "SELECT outcome FROM embed_console.claim_group($1, $2, $3, $4, 'holder', 'host', NULL, NULL, 30000)",
        [SERVER, group, id, from],
      )
      expect(claimed.rows[0]!.outcome).toBe('claimed')
      return {
        publish: () =>
          record({ id, operation: 'rotateToken', groupId: group, calledAt, group: { tokenSha256: next, tokenLast4: next.slice(0, 4) } }),
      }
    },
    claim: (group: string, token: string) =>
      client
        .query<{ outcome: string; actor: string | null }>(
          "SELECT outcome, actor FROM embed_console.claim_group($1, $2, $3, $4, 'holder', 'host', NULL, NULL, 30000)",
          [SERVER, group, randomUUID(), token],
        )
        .then((result) => result.rows[0]!),
  }
}

const current = async (group: string) =>
  (
    await team!.query<{ token_sha256: string; rotated_by: string | null }>(
      'SELECT token_sha256, rotated_by FROM embed_console.groups WHERE server = $1 AND group_id = $2',
      [SERVER, group],
    )
  ).rows[0]

describe.skipIf(!team)('the catalog’s current token', () => {
  it('a rotation replaces the token it rotated even when its machine’s clock is behind the last fetch’s', async () => {
    const [a, b] = [await operator('tok-a'), await operator('tok-b')]
    await a.fetch('skewed', fp('1'))
    // B's clock runs 5 minutes behind: by its clock, its rotation came before A's fetch.
    const rotation = await b.rotate('skewed', fp('1'), fp('2'), minutes(-5))
    await rotation.publish()
    expect(await current('skewed')).toEqual({ token_sha256: fp('2'), rotated_by: 'tok-b' })
    expect(await a.claim('skewed', fp('1'))).toEqual({ outcome: 'stale', actor: 'tok-b' })
  })

  it('a token rotated away never comes back as current, whatever the clock of the fetch that saw it before', async () => {
    const [a, b] = [await operator('tok-c'), await operator('tok-d')]
    await a.fetch('retired', fp('3'))
    const rotation = await b.rotate('retired', fp('3'), fp('4'), minutes(-5))
    await rotation.publish()
    // A fetch made before the rotation, published after it, by a machine whose clock runs ahead.
    await a.fetch('retired', fp('3'), new Date().toISOString())
    expect(await current('retired')).toEqual({ token_sha256: fp('4'), rotated_by: 'tok-d' })
    expect(await b.claim('retired', fp('3'))).toEqual({ outcome: 'stale', actor: 'tok-d' })
  })

  it('a rotation that never happened (a teammate’s own claim, a made-up answer) is undone by a fetch well after it: the server’s word wins', async () => {
    const [honest, liar] = [await operator('tok-e'), await operator('tok-f')]
    await honest.fetch('forged', fp('5'))
    const fake = await liar.rotate('forged', fp('5'), fp('6'))
    await fake.publish()
    expect(await honest.claim('forged', fp('5'))).toEqual({ outcome: 'stale', actor: 'tok-f' })
    // Soon after, a fetch of the old token is taken for one made before the rotation...
    await honest.fetch('forged', fp('5'))
    expect(await current('forged')).toMatchObject({ token_sha256: fp('6') })
    // ...but long after the rotation was recorded, the API still answering it means it was never rotated.
    await team!.query("UPDATE embed_console.retired_tokens SET recorded_at = recorded_at - interval '10 minutes' WHERE group_id = 'forged'")
    await honest.fetch('forged', fp('5'))
    expect(await current('forged')).toMatchObject({ token_sha256: fp('5') })
    expect((await honest.claim('forged', fp('5'))).outcome).toBe('claimed')
  })
})
