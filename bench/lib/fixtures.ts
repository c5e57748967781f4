import { randomBytes, randomUUID } from 'node:crypto'
import { ActivityLog } from '../../src-main/activity/activity-log'
import { openAppDatabase } from '../../src-main/app-database'
import type { AppServices } from '../../src-main/app-services'
import { GroupCatalog } from '../../src-main/catalog/group-catalog'
import { openProfileStore } from '../../src-main/profiles/profile-store'
import { openSecretVault } from '../../src-main/profiles/vault'
import { openSandboxStore } from '../../src-main/sandbox/sandbox-store'
import type { ActivityEntry } from '../../src-shared/activity/schemas'
import type { CatalogEntry } from '../../src-shared/catalog/schemas'

const BATCH = 50_000

/** A saved profile for a benchmark's calls, as an operator adds one: the default timeout, no label. */
export const addBenchProfile = (
  services: Pick<AppServices, 'profiles'>,
  {
    name = 'Bench',
    baseUrl,
    apiToken,
    tokenStorage = 'file',
  }: { name?: string; baseUrl: string; apiToken: string; tokenStorage?: 'file' | 'session' },
) => services.profiles.create({ name, baseUrl, timeoutSeconds: 15, environmentLabel: '', apiToken, tokenStorage })

/** A sandbox database holding `count` groups (half per environment), written as the sandbox writes them. */
export async function buildSandbox(path: string, count: number): Promise<void> {
  const store = await openSandboxStore({ path, log: () => {} })
  for (let start = 0; start < count; start += BATCH) {
    store.db.transaction(() => {
      for (let index = start; index < Math.min(count, start + BATCH); index++) {
        store.db.run(
          'INSERT INTO groups (environment, provided_id, name, token, mapping, properties) VALUES (?, ?, ?, ?, ?, ?)',
          index % 2 ? 'Testing' : 'Customer',
          `existing-${index}`,
          `Existing group ${index}`,
          randomBytes(32).toString('hex'),
          '{"sales":"warehouse"}',
          '{"plan":"pro","seats":12}',
        )
      }
    })
  }
  store.close()
}

export const BENCH_PROFILE_ID = 'bench-profile'

/** An app data folder with one profile, `catalog` groups of it and `activity` calls in the log. */
export async function buildAppFolder(dataDir: string, sizes: { catalog: number; activity: number }): Promise<void> {
  const db = openAppDatabase(dataDir)
  const vault = openSecretVault({ db })
  const profiles = openProfileStore({ db, vault, newId: () => BENCH_PROFILE_ID })
  await profiles.create({ name: 'Bench', baseUrl: 'http://127.0.0.1:1', timeoutSeconds: 15, environmentLabel: '' })
  const at = new Date().toISOString()
  const catalog = new GroupCatalog(db)
  for (let start = 0; start < sizes.catalog; start += BATCH) {
    const entries: CatalogEntry[] = []
    for (let index = start; index < Math.min(sizes.catalog, start + BATCH); index++) {
      // Both environments, team ids in another order than the ids, and times that differ: every order and filter has work to do.
      const updatedAt = new Date(Date.parse(at) - (index % 9973) * 1000).toISOString()
      entries.push({
        profileId: BENCH_PROFILE_ID,
        groupId: `existing-${index}`,
        name: `Existing group ${index}`,
        environmentTag: index % 2 ? 'Testing' : 'Customer',
        teamId: (index * 7919) % 1_000_003,
        mapping: { sales: 'warehouse' },
        properties: { plan: 'pro' },
        tokenLast4: 'abcd',
        createdAt: updatedAt,
        updatedAt,
      })
    }
    catalog.importEntries(entries)
  }
  const log = new ActivityLog(db)
  for (let start = 0; start < sizes.activity; start += BATCH) {
    const entries: ActivityEntry[] = []
    for (let index = start; index < Math.min(sizes.activity, start + BATCH); index++) {
      entries.push({
        id: randomUUID(),
        time: at,
        profileId: BENCH_PROFILE_ID,
        profileName: 'Bench',
        operation: 'getOrCreate',
        groupId: `existing-${index % sizes.catalog || index}`,
        groupName: `Existing group ${index % sizes.catalog || index}`,
        outcome: 'success',
        httpStatus: 200,
        durationMs: 1.5,
      })
    }
    log.importEntries(entries)
  }
  db.close()
}
