import { join } from 'node:path'
import { ActivityLog } from './activity/activity-log'
import { openAppDatabase } from './app-database'
import { BulkJournal } from './bulk/bulk-journal'
import { type LeaseClient, type LeaseOwner, leaseOwner } from './bulk/run-leases'
import { GroupCatalog } from './catalog/group-catalog'
import { ensureDataDir } from './data-dir'
import { createGroupService, type GroupService } from './groups/group-service'
import { RotationJournal } from './groups/rotation-journal'
import type { SafeStorageLike } from './ports'
import { ACTIVE_PROFILE_SETTING, insertImportedProfile, openProfileStore, type ProfileStore } from './profiles/profile-store'
import { insertImportedSecret, openSecretVault, type SecretVault } from './profiles/vault'
import type { Database } from './storage/database'
import { hasLegacyFiles } from './storage/legacy-files'
import { createTeamService, type TeamService } from './team/team-service'
import { createRedactor } from './user-api/redact'

export interface AppCoreOptions {
  dataDir: string
  /** Who this process is, as a run's lease names it to another process. */
  client: LeaseClient
  log: (line: string) => void
  safeStorage?: SafeStorageLike
}

/** What every call to the API needs: the data folder's database, profiles and vault, the catalog and log, team mode, the group service. */
export interface AppCore {
  dataDir: string
  db: Database
  vault: SecretVault
  catalog: GroupCatalog
  activity: ActivityLog
  profiles: ProfileStore
  owner: LeaseOwner
  team: TeamService
  rotations: RotationJournal
  groups: GroupService
  /** What the operator should be told of opening the folder (a damaged file moved aside, files imported, rotations left in flight). */
  notices: string[]
  close(): Promise<void>
}

/**
 * The part of the composition root a call to the API needs, and no more: what the CLI's
 * `groups` command opens for one call with a profile (nothing of the docs site, bulk runs, the
 * sandbox or the router is loaded), and what createAppServices builds the rest of the app on.
 */
export async function openAppCore(options: AppCoreOptions): Promise<AppCore> {
  const dataDir = ensureDataDir(options.dataDir)
  const { log } = options

  // Nothing is loaded whole here: the database is opened (and migrated), the files of release
  // 0.1.0 imported once, and every screen then asks for the rows it shows.
  const notices: string[] = []
  const db = openAppDatabase(dataDir, (notice) => notices.push(notice))
  if (hasLegacyFiles(dataDir)) {
    const { importLegacyFiles } = await import('./storage/legacy-import')
    notices.push(
      ...(await importLegacyFiles(db, dataDir, {
        profile: (profile) => insertImportedProfile(db, profile),
        activeProfile: (id) => db.run('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)', ACTIVE_PROFILE_SETTING, id),
        secret: (key, stored, last4, updatedAt) => insertImportedSecret(db, key, stored, last4, updatedAt),
        catalog: (entries) => new GroupCatalog(db).importEntries(entries),
        activity: (entries) => new ActivityLog(db).importEntries(entries),
      })),
    )
  }
  const vault = openSecretVault({ db, safeStorage: options.safeStorage })
  // Whatever the app stores is cleared of every secret the vault keeps, whoever wrote it.
  const redactKept = createRedactor([], vault.knownSecrets)
  const catalog = new GroupCatalog(db, { redact: redactKept })
  const activity = new ActivityLog(db, redactKept)
  const profiles = openProfileStore({ db, vault, onDelete: (profileId) => catalog.removeProfile(profileId) })
  const owner = leaseOwner(options.client)
  const profileName = (profileId: string) => profiles.nameOf(profileId) ?? profileId
  // Team mode, when this folder has joined a team (nothing more is loaded otherwise).
  const team = createTeamService({ db, vault, profiles, catalog, owner, background: owner.client !== 'cli', log })
  await team.open()
  const rotations = new RotationJournal(db, activity, profileName, owner.id)
  const groups = createGroupService({
    db,
    profiles,
    vault,
    catalog,
    activity,
    rotations,
    recoveryDir: join(dataDir, 'recovered-tokens'),
    team: team.hooks,
  })
  // A rotation of a bulk run's row settles the row too.
  const journal = new BulkJournal(db)
  rotations.listen({
    unknown: (run, message) => journal.rotationUnknown(run, message),
    settled: (run, outcome, message) => journal.rotationSettled(run, outcome, message),
    presumed: (entry) => team.presumed(entry),
  })
  // Rotations a process left in flight when it died become unknown, for the operator to settle.
  const lostRotations = rotations.sweep()
  if (lostRotations)
    notices.push(
      `${lostRotations === 1 ? 'A token rotation was' : `${lostRotations} token rotations were`} being sent when Embed Console last stopped: Activity lists ${lostRotations === 1 ? 'it' : 'them'} as unknown, with Check now.`,
    )
  return {
    dataDir,
    db,
    vault,
    catalog,
    activity,
    profiles,
    owner,
    team,
    rotations,
    groups,
    notices,
    async close() {
      // Calls recorded here reach the team before the process goes, if the team database answers.
      await team.close()
      db.close()
    },
  }
}
