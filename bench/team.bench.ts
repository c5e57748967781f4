import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, bench, describe } from 'vitest'
import { type AppServices, createAppServices } from '../src-main/app-services'
import { startSandbox } from '../src-main/sandbox/sandbox-server'
import { addOperator, migrateTeam } from '../src-main/team/team-admin'
import { startPostgres } from '../test/helpers/postgres'
import { addBenchProfile } from './lib/fixtures'
import { describeSpread, interleave, median, report, spread } from './lib/stats'

// Team mode's price on a call: the same calls through the router of a data folder in
// one person's mode and of one joined to a team on a local Postgres, interleaved round by round.
// A get-or-create adds its outbox row to the transaction that records it (publishing is after,
// off the call's path); a rotation first claims its group in the team database (one round trip)
// and the claim is settled when its record is published. And how fast a backlog of calls made
// while the team database was away reaches it once it is back.

const ROUNDS = 11
const CALLS_PER_ROUND = 20
const BACKLOG = 500
const BACKLOG_ROUNDS = 3

const cluster = await startPostgres()
const folder = await mkdtemp(join(tmpdir(), 'ec-bench-team-'))
const sandbox = await startSandbox({ port: 0, dataFile: join(folder, 'sandbox.db') })

async function folderWithProfile(name: string, teamUrl?: string): Promise<{ services: AppServices; profileId: string }> {
  const services = await createAppServices({ dataDir: join(folder, name), transport: 'browser', sandbox: false })
  const profile = await addBenchProfile(services, { baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer })
  if (teamUrl) await services.team.join(teamUrl)
  return { services, profileId: profile.id }
}

const rows: Array<[string, string, string]> = []

if (typeof cluster === 'string') {
  rows.push(['team mode', `skipped: ${cluster}`, ''])
} else {
  await migrateTeam(cluster.adminUrl)
  const { password } = await addOperator({ url: cluster.adminUrl, name: 'ops-bench', resetPassword: false })
  const alone = await folderWithProfile('alone')
  const joined = await folderWithProfile('joined', cluster.url('ops-bench', password))
  let seq = 0

  /** The median duration of `CALLS_PER_ROUND` calls, one after another. */
  const timedCalls = (call: () => Promise<unknown>) => async () => {
    const durations: number[] = []
    for (let index = 0; index < CALLS_PER_ROUND; index++) {
      const started = performance.now()
      await call()
      durations.push(performance.now() - started)
    }
    return median(durations)
  }
  const getOrCreate = (target: { services: AppServices; profileId: string }) => () =>
    target.services.groups.getOrCreate(target.profileId, { user_group_id: `bench-${seq++}`, name: 'Bench' })
  // Each folder rotates groups of its own, which it keeps the current token of.
  const groupsOf = async (target: { services: AppServices; profileId: string }, prefix: string) => {
    const ids = Array.from({ length: CALLS_PER_ROUND }, (_, index) => `${prefix}-${index}`)
    for (const id of ids) await target.services.groups.getOrCreate(target.profileId, { user_group_id: id })
    let next = 0
    return () => target.services.groups.rotateToken(target.profileId, { kind: 'catalog', groupId: ids[next++ % ids.length]! })
  }
  const rotateAlone = await groupsOf(alone, 'rotate-alone')
  const rotateJoined = await groupsOf(joined, 'rotate-joined')
  await joined.services.team.flush(10_000)

  const rounds = await interleave(ROUNDS, {
    createAlone: timedCalls(getOrCreate(alone)),
    createJoined: timedCalls(getOrCreate(joined)),
    rotateAlone: timedCalls(rotateAlone),
    rotateJoined: timedCalls(rotateJoined),
  })
  const more = (joinedCase: 'createJoined' | 'rotateJoined', aloneCase: 'createAlone' | 'rotateAlone') =>
    rounds[joinedCase].map((ms, index) => ms - rounds[aloneCase][index]!)

  // A backlog: calls made while the team database was away, published once it is back.
  const backlog: number[] = []
  for (let round = 0; round < BACKLOG_ROUNDS; round++) {
    await cluster.pause()
    for (let index = 0; index < BACKLOG; index++) await getOrCreate(joined)()
    await cluster.resume()
    const started = performance.now()
    if (!(await joined.services.team.flush(120_000))) throw new Error('The backlog was not published.')
    backlog.push(performance.now() - started)
  }

  rows.push(
    [
      'get-or-create through the router, one person’s mode (the baseline), median of 20 a round',
      describeSpread(spread(rounds.createAlone), 'ms'),
      '',
    ],
    ['… in a folder joined to a team (its outbox row in the same transaction)', describeSpread(spread(rounds.createJoined), 'ms'), ''],
    ['… more, per round', describeSpread(spread(more('createJoined', 'createAlone')), 'ms'), ''],
    ['rotation through the router, one person’s mode (the baseline)', describeSpread(spread(rounds.rotateAlone), 'ms'), ''],
    ['… joined (the group claimed in the team database first)', describeSpread(spread(rounds.rotateJoined), 'ms'), ''],
    ['… more, per round', describeSpread(spread(more('rotateJoined', 'rotateAlone')), 'ms'), ''],
    [
      `${BACKLOG} calls queued while the team database was away, published once it is back (${BACKLOG_ROUNDS} rounds)`,
      describeSpread(spread(backlog), 'ms'),
      '',
    ],
  )
  await alone.services.close()
  await joined.services.close()
  await cluster.stop()
}

afterAll(async () => {
  report(`Team mode: ${ROUNDS} interleaved rounds against the sandbox and a local Postgres, median (min, max)`, rows)
  await sandbox.close()
})

describe('team mode', () => {
  // The figures are the interleaved rounds above; vitest bench needs one case to run the file.
  bench('report', () => {}, { iterations: 1, time: 0 })
})
