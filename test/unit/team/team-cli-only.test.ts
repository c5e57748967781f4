import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../../src-main/cli/index'
import type { CliIo } from '../../../src-main/cli/usage'
import { startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { closedAfterEach, teamForThisFile } from '../../helpers/team'

/*
 * Team mode with the command line alone, from the admin's first step to two operators rotating
 * one plan: no app, no screen. The token a shared profile needs comes from standard input, never
 * a flag; a profile shared after the join arrives by itself; a colleague's rotations are caught
 * up in one command; and the team database going away is said, not hidden.
 */

const team = await teamForThisFile()
const closers = closedAfterEach()

async function cli(args: string[], input = '') {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = { env: {}, stdout: (text) => out.push(text), stderr: (text) => err.push(text), stdin: async () => input }
  const code = await main(args, io)
  return { code, out, err, stdout: out.join('\n'), stderr: err.join('\n') }
}

describe.skipIf(!team)('a team set up and worked with the command line alone', () => {
  it(
    'join, a profile shared later, its token from standard input, a colleague’s rotations fetched in bulk, the audit log page by page, and the database away said on stderr',
    { timeout: 180_000 },
    async () => {
      const sandbox = await startSandbox({ dataFile: join(await mkdtemp(join(tmpdir(), 'ec-cli-only-')), 'sandbox.db') })
      closers.push(() => sandbox.close())
      const apiToken = sandbox.tokens.Customer
      const admin = ['--url', team!.adminUrl]
      const dirs = {
        a: join(await mkdtemp(join(tmpdir(), 'ec-cli-a-')), 'data'),
        b: join(await mkdtemp(join(tmpdir(), 'ec-cli-b-')), 'data'),
      }
      const passwordOf = async (name: string) => {
        const added = await cli(['team', 'add-operator', name, ...admin, '--json'])
        expect(added.code, added.stderr).toBe(0)
        return (JSON.parse(added.stdout) as { value: { password: string } }).value.password
      }
      const as = (who: 'a' | 'b', args: string[], input?: string) => cli([...args, '--data-dir', dirs[who]], input)

      for (const who of ['a', 'b'] as const) {
        const name = `ops-cli-${who}`
        const joined = await as(who, ['team', 'join', '--url', team!.url(name), '--password', '-'], `${await passwordOf(name)}\n`)
        expect(joined.code, joined.stderr).toBe(0)
      }
      // Shared after both joined: each machine's next command finds it (it pulls first).
      expect(
        (await cli(['team', 'share-profile', 'Shared', '--base-url', sandbox.baseUrl, '--environment', 'customer', ...admin])).code,
      ).toBe(0)
      const noToken = await as('a', ['groups', 'get-or-create', '--profile', 'Shared', '--user-group-id', 'cli-0'])
      expect(noToken.code).toBe(1)
      expect(noToken.stderr).toBe('The profile “Shared” has no API token. Edit the profile and enter one.')
      const listed = await as('b', ['profiles', 'list'])
      expect(listed.out).toEqual([`Shared\t${sandbox.baseUrl}\tcustomer\tno token\tshared by the team`])

      // The token never as a flag's value; from standard input it is kept.
      const flagged = await as('a', ['profiles', 'set-token', 'Shared', '--token', apiToken])
      expect(flagged.code).toBe(2)
      expect(flagged.stderr).toMatch(/^profiles set-token never takes the token as a flag’s value/)
      expect(flagged.stderr).not.toContain(apiToken)
      for (const who of ['a', 'b'] as const) {
        const set = await as(who, ['profiles', 'set-token', 'Shared'], `${apiToken}\n`)
        expect(set.code, set.stderr).toBe(0)
        expect(set.stdout).toBe(`The API token of “Shared” (…${apiToken.slice(-4)}) is kept unencrypted in the owner-only database.`)
      }

      const ids = Array.from({ length: 6 }, (_, index) => `cli-${index}`)
      for (const id of ids) expect((await as('a', ['groups', 'get-or-create', '--profile', 'Shared', '--user-group-id', id])).code).toBe(0)
      const file = join(dirs.a, '..', 'ids.csv')
      await writeFile(file, ['user_group_id', ...ids, 'nobody-knows-me'].join('\n'))

      // B keeps no token of these groups yet: one command fetches them all (and leaves the unknown one alone).
      const fetched = await as('b', ['groups', 'apply', file, '--profile', 'Shared', '--fetch'])
      expect(fetched.code, fetched.stderr).toBe(0)
      expect(fetched.stdout).toBe('Fetched 6 groups (0 had a newer token than the one kept here, now kept), left 1 unknown alone.')
      expect(fetched.stderr).toContain(
        'ids.csv: nobody-knows-me: not a group this profile or the team knows (a fetch would create it): left alone.',
      )
      const rotateArgs = ['groups', 'apply', file, '--profile', 'Shared', '--rotate', '--exclude-invalid']
      const rotatedByB = await as('b', rotateArgs)
      expect(rotatedByB.stdout, rotatedByB.stderr).toMatch(/^Done: .*rotated 6/m)

      // A's tokens are stale now: its rotation plan is refused row by row, and says how to catch up.
      const refused = await as('a', rotateArgs)
      expect(refused.stdout).toMatch(/skipped 6/)
      expect(refused.stderr).toContain(
        `6 rows were skipped because the token kept here is no longer the group’s: fetch the current tokens with \`embed-console groups apply ids.csv --profile "Shared" --fetch\`, then run the rotation again.`,
      )
      const caughtUp = await as('a', ['groups', 'apply', file, '--profile', 'Shared', '--fetch'])
      expect(caughtUp.stdout).toBe('Fetched 6 groups (6 had a newer token than the one kept here, now kept), left 1 unknown alone.')
      const rotatedByA = await as('a', rotateArgs)
      expect(rotatedByA.stdout, rotatedByA.stderr).toMatch(/^Done: .*rotated 6/m)

      // The audit log, page by page with the cursor it gives.
      const first = await as('a', ['team', 'activity', '--operation', 'rotateToken', '--limit', '5'])
      expect(first.out).toHaveLength(5)
      const cursor = /^More: add --cursor (\d+)$/.exec(first.stderr)![1]!
      const second = await as('a', ['team', 'activity', '--operation', 'rotateToken', '--limit', '100', '--cursor', cursor])
      expect(second.out).toHaveLength(7)
      expect(second.out.some((line) => first.out.includes(line))).toBe(false)
      expect((await as('b', ['team', 'pull'])).code).toBe(0)

      // The team database away: a command's queued call is said on stderr; status exits 1, then 0 once it is back.
      await team!.pause()
      try {
        const queued = await as('a', ['groups', 'get-or-create', '--profile', 'Shared', '--user-group-id', 'while-away'])
        expect(queued.code).toBe(0)
        expect(queued.err.at(-1)).toMatch(
          /^1 call recorded here has not reached the team’s audit log yet \(The team database cannot be reached \(.+\)\): the next command \(or the app\) sends it\. `embed-console team status` shows the backlog\.$/,
        )
        const away = await as('a', ['team', 'status'])
        expect(away.code).toBe(1)
        expect(away.out[1]).toBe('Connected: no')
        expect(away.out).toContain(
          'Outbox: 1 call waiting for the audit log (last published ' +
            away.out.find((line) => line.startsWith('Outbox:'))!.split('(last published ')[1],
        )
      } finally {
        await team!.resume()
      }
      const back = await as('a', ['team', 'status'])
      expect(back.code).toBe(0)
      expect(back.out.find((line) => line.startsWith('Outbox:'))).toMatch(/^Outbox: empty/)
    },
  )
})
