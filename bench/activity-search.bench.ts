import { randomUUID } from 'node:crypto'
import { copyFile, mkdir, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Libsql from 'libsql'
import { afterAll, bench, describe } from 'vitest'
import { ActivityLog } from '../src-main/activity/activity-log'
import { ACTIVITY_SEARCH } from '../src-main/activity/activity-search'
import { APP_DATABASE_FILE, appMigrations, openAppDatabase } from '../src-main/app-database'
import { type Database, openDatabase } from '../src-main/storage/database'
import type { ActivityEntry } from '../src-shared/activity/schemas'
import { BENCH_PROFILE_ID, buildAppFolder } from './lib/fixtures'
import { describeSpread, interleave, median, report, spread } from './lib/stats'

// The activity log searched in full text (an FTS5 trigram index kept by triggers), at
// 1M calls. What it costs: a search against the unfiltered first page the screen shows anyway; a
// call's log entry with the index's triggers against the same entry without them (the baseline
// folder is a copy with the index dropped); and the one-time migration of a 1M-call log.

const ROUNDS = 5
const CALLS = 1_000_000
const folder = await mkdtemp(join(tmpdir(), 'ec-bench-activity-'))
const ms = (start: number) => performance.now() - start

const indexedDir = join(folder, 'indexed')
const plainDir = join(folder, 'plain')
await buildAppFolder(indexedDir, { catalog: 100_000, activity: CALLS })
await mkdir(plainDir)
await copyFile(join(indexedDir, APP_DATABASE_FILE), join(plainDir, APP_DATABASE_FILE))
{
  const plain = new Libsql(join(plainDir, APP_DATABASE_FILE))
  for (const trigger of ['insert', 'delete', 'update']) plain.exec(`DROP TRIGGER ${ACTIVITY_SEARCH.name}_${trigger}`)
  plain.exec(`DROP TABLE ${ACTIVITY_SEARCH.name}`)
  plain.close()
}
const indexed = openAppDatabase(indexedDir)
const plain = openAppDatabase(plainDir)
const indexedLog = new ActivityLog(indexed)
const plainLog = new ActivityLog(plain)

// ---------------------------------------------------------------- a search's first page, against the unfiltered one
const QUERIES = 40
let seed = 19
const nextIndex = () => (seed = (seed * 48_271) % 2_147_483_647) % 100_000
const searches = [() => `existing-${nextIndex()}`, () => `group ${nextIndex()}`, () => `XISTING-${nextIndex()}`]
const searchRuns = await interleave(ROUNDS, {
  search: async () => {
    const samples: number[] = []
    for (let index = 0; index < QUERIES; index++) {
      const text = searches[index % searches.length]!()
      const started = performance.now()
      const page = indexedLog.page({ search: text }, 200)
      samples.push(ms(started))
      if (page.total === 0) throw new Error(`Nothing found for ${text}`)
    }
    return median(samples)
  },
  unfiltered: async () => {
    const samples: number[] = []
    for (let index = 0; index < QUERIES; index++) {
      const started = performance.now()
      indexedLog.page({}, 200)
      samples.push(ms(started))
    }
    return median(samples)
  },
})

// ---------------------------------------------------------------- a call's log entry, with the index's triggers and without
const APPENDS = 2_000
const entry = (index: number): ActivityEntry => ({
  id: randomUUID(),
  time: new Date().toISOString(),
  profileId: BENCH_PROFILE_ID,
  profileName: 'Bench',
  operation: 'getOrCreate',
  groupId: `appended-${index}`,
  groupName: `Appended group ${index}`,
  outcome: 'failure',
  errorCode: 'api_failure',
  message: 'The API refused the token (HTTP 401). The server said: “Invalid token.”',
  durationMs: 1.5,
})
let appended = 0
const appendRun = (log: ActivityLog) => async () => {
  const samples: number[] = []
  for (let index = 0; index < APPENDS; index++) {
    const started = performance.now()
    log.append(entry(appended++))
    samples.push(ms(started))
  }
  return median(samples)
}
const appendRuns = await interleave(ROUNDS, { indexed: appendRun(indexedLog), plain: appendRun(plainLog) })
const appendOverhead = appendRuns.indexed.map((value, index) => value - appendRuns.plain[index]!)

// ------------------------------------------------ migration 8 on a log of 1M calls (once, at the first start after the upgrade)
async function oldDatabase(dir: string): Promise<void> {
  const db: Database = openDatabase({
    path: join(dir, APP_DATABASE_FILE),
    migrations: appMigrations.filter((migration) => migration.version <= 5),
  })
  const at = new Date().toISOString()
  for (let start = 0; start < CALLS; start += 50_000) {
    db.transaction(() => {
      for (let index = start; index < start + 50_000; index++) {
        db.run(
          `INSERT INTO activity (id, time, profile_id, profile_name, operation, group_id, outcome, http_status, duration_ms, request, response)
           VALUES (?, ?, ?, 'Bench', 'getOrCreate', ?, 'success', 200, 1.5, ?, ?)`,
          randomUUID(),
          at,
          BENCH_PROFILE_ID,
          `existing-${index}`,
          JSON.stringify({ user_group_id: `existing-${index}` }),
          JSON.stringify({
            success: 1,
            user_group: { provided_id: `existing-${index}`, name: `Existing group ${index}`, token: '[redacted]' },
          }),
        )
      }
    })
  }
  db.close()
}
const migrationSeconds: number[] = []
for (let round = 0; round < 3; round++) {
  const dir = join(folder, `old-${round}`)
  await oldDatabase(dir)
  const started = performance.now()
  openAppDatabase(dir).close()
  migrationSeconds.push(ms(started) / 1000)
}

afterAll(() => {
  report(`Activity search: ${CALLS.toLocaleString('en')} calls, ${ROUNDS} interleaved rounds unless said, median (min, max)`, [
    [
      `search (any part of a group id or name), first page of 200 + count, median of ${QUERIES} a round`,
      describeSpread(spread(searchRuns.search), 'ms'),
      '< 50 ms',
    ],
    ['… against the unfiltered first page of 200 + count', describeSpread(spread(searchRuns.unfiltered), 'ms'), ''],
    [`a call's log entry with the full-text index (median of ${APPENDS} a round)`, describeSpread(spread(appendRuns.indexed), 'ms'), ''],
    ['… against the same entry without the index', describeSpread(spread(appendRuns.plain), 'ms'), ''],
    ['… difference, per round', describeSpread(spread(appendOverhead), 'ms'), '< 0.5 ms'],
    [
      'migration 8 (group names, index built) on a log of 1M calls, once after the upgrade (3 rounds)',
      describeSpread(spread(migrationSeconds), 's'),
      '',
    ],
  ])
  indexed.close()
  plain.close()
})

describe('activity search', () => {
  bench('search the activity log of 1M calls', () => void indexedLog.page({ search: `existing-${nextIndex()}` }, 200), {
    iterations: 20,
    time: 0,
  })
})
