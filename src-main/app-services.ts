import { join } from 'node:path'
import pkg from '../package.json'
import type { SandboxStatus } from '../src-shared/ipc/events'
import { createActivityDownload, createActivityHandlers } from './activity/activity-handlers'
import { openAppCore } from './app-core'
import { createBulkDownload, createBulkHandlers } from './bulk/bulk-handlers'
import { type BulkService, createBulkService } from './bulk/bulk-service'
import type { LeaseClient } from './bulk/run-leases'
import { createCatalogHandlers } from './catalog/catalog-handlers'
import { EventHub } from './event-hub'
import { createConnectionHandlers } from './groups/connection-handlers'
import { createGroupHandlers } from './groups/group-handlers'
import type { GroupService } from './groups/group-service'
import type { SafeStorageLike } from './ports'
import { createProfileHandlers } from './profiles/profile-handlers'
import type { ProfileStore } from './profiles/profile-store'
import { createRouter, type Handlers, type Router } from './router'
import { LEGACY_SANDBOX_DATA_FILE, type Sandbox, SANDBOX_DATA_FILE, startSandbox } from './sandbox/sandbox-server'
import { createPreviewFiles, type PreviewFiles } from './site-files/preview-files'
import { siteHandlers } from './site-files/site-file-handlers'
import type { Database } from './storage/database'
import { createTeamHandlers } from './team/team-handlers'
import type { TeamService } from './team/team-service'
import { FileAccessPolicy } from './user-files/file-access'
import type { FileDialogs } from './user-files/file-dialogs'

export interface AppServicesOptions {
  dataDir: string
  transport: 'electron' | 'browser'
  /** Who this process is, as a run's lease names it to another process (default: from the transport). */
  client?: LeaseClient
  log?: (line: string) => void
  /** Electron's safeStorage in the desktop app; absent in browser mode and the CLI. */
  safeStorage?: SafeStorageLike
  /** The embedded sandbox starts with the app unless this is false (the CLI's groups command). */
  sandbox?: boolean
  /** The system's file dialogs in the desktop app; browser mode types paths instead. */
  fileDialogs?: FileDialogs
  /** The docs-folder index's worker script (the build's, by default); null indexes on main's thread (a benchmark's baseline). */
  docsIndexWorker?: string | null
}

export interface AppServices {
  router: Router
  events: EventHub
  db: Database
  profiles: ProfileStore
  groups: GroupService
  bulk: BulkService
  team: TeamService
  /** The site preview's read-only view of docs folders (the frame's pictures), for both transports. */
  preview: PreviewFiles
  close(): Promise<void>
}

export const SANDBOX_PROFILE_ID = 'local-sandbox'
export const SANDBOX_TESTING_PROFILE_ID = 'local-sandbox-testing'

/**
 * The composition root: builds every feature's service once and joins their handlers into the
 * one table the router needs. Both transports (Electron and browser mode) and the CLI start here.
 */
export async function createAppServices(options: AppServicesOptions): Promise<AppServices> {
  const events = new EventHub()
  const log = options.log ?? (() => {})
  const core = await openAppCore({
    dataDir: options.dataDir,
    client: options.client ?? (options.transport === 'electron' ? 'app' : 'browser'),
    log,
    ...(options.safeStorage ? { safeStorage: options.safeStorage } : {}),
  })
  const { dataDir, db, vault, catalog, activity, profiles, owner, team, groups, notices } = core
  const bulk = createBulkService({
    db,
    profiles,
    vault,
    catalog,
    groups,
    owner,
    leases: team.leases,
    onProgress: (progress) => events.emit('bulk.progress', progress),
  })
  const interrupted = bulk.interrupted()
  if (interrupted.length)
    notices.push(
      `${interrupted.length === 1 ? 'A bulk run was' : `${interrupted.length} bulk runs were`} interrupted when Embed Console last stopped: resume ${interrupted.length === 1 ? 'it' : 'them'} on the Bulk screen.`,
    )
  for (const notice of notices) log(notice)

  let sandboxStatus: SandboxStatus = { state: 'disabled' }
  let sandbox: Sandbox | null = null
  if (options.sandbox !== false) {
    try {
      sandbox = await startSandbox({
        port: 0,
        dataFile: join(dataDir, SANDBOX_DATA_FILE),
        legacyDataFile: join(dataDir, LEGACY_SANDBOX_DATA_FILE),
        log: (line) => {
          notices.push(line)
          log(line)
        },
      })
      // One profile per sandbox environment (the sandbox tags groups Customer or Testing by token, as
      // the API does); the first is preselected on a first launch. Neither is labelled "Customer":
      // nothing sent to the sandbox leaves this machine, and the app says Sandbox wherever it shows them.
      await profiles.registerBuiltin(
        { id: SANDBOX_PROFILE_ID, name: 'Local sandbox', baseUrl: sandbox.baseUrl, environmentLabel: '' },
        sandbox.tokens.Customer,
      )
      await profiles.registerBuiltin(
        {
          id: SANDBOX_TESTING_PROFILE_ID,
          name: 'Local sandbox (Testing)',
          baseUrl: sandbox.baseUrl,
          environmentLabel: '',
        },
        sandbox.tokens.Testing,
      )
      sandboxStatus = { state: 'running', baseUrl: sandbox.baseUrl }
    } catch (error) {
      sandboxStatus = { state: 'failed', message: `The local sandbox could not start: ${(error as Error).message}` }
      log(sandboxStatus.message!)
    }
  }
  const profileHandlers = createProfileHandlers(profiles, vault)
  // A profile saved in a joined folder gets the team's catalog of its server at once (a pull).
  const saved =
    <T, C, R>(handler: (input: T, context: C) => R | Promise<R>) =>
    async (input: T, context: C): Promise<R> => {
      const answer = await handler(input, context)
      team.profilesChanged()
      return answer
    }
  Object.assign(profileHandlers, {
    'profiles.create': saved(profileHandlers['profiles.create']),
    'profiles.update': saved(profileHandlers['profiles.update']),
  })
  const preview = createPreviewFiles(new FileAccessPolicy(dataDir))
  const site = siteHandlers(dataDir, {
    dialogs: options.fileDialogs,
    events,
    preview,
    ...(options.docsIndexWorker !== undefined ? { workerFile: options.docsIndexWorker } : {}),
  })
  const handlers: Handlers = {
    'app.info': () => ({
      name: 'Embed Console',
      version: pkg.version,
      transport: options.transport,
      fileDialogs: options.fileDialogs !== undefined,
      dataDir,
      platform: process.platform,
      sandbox: sandboxStatus,
      notices: [...notices, ...vault.notices(), ...profiles.notices()],
    }),
    ...profileHandlers,
    ...createConnectionHandlers(groups),
    ...createGroupHandlers(groups),
    ...createCatalogHandlers(catalog, groups),
    ...createActivityHandlers(activity),
    ...site.handlers,
    ...createBulkHandlers(bulk, { dataDir, dialogs: options.fileDialogs }),
    ...createTeamHandlers(team, (profileId) => groups.profileNamedOrActive(profileId)),
  }

  const router = createRouter(handlers, {
    onInternalError: (name, error) => log(`internal error in ${name}: ${error instanceof Error ? error.message : 'unknown'}`),
    downloads: { activity: createActivityDownload(activity), 'bulk-results': createBulkDownload(bulk) },
  })

  return {
    router,
    events,
    db,
    profiles,
    groups,
    bulk,
    team,
    preview,
    async close() {
      // The docs folder is no longer watched, nor indexed: nothing of it holds the process.
      await site.close()
      // Runs going in this process stop taking rows; the rows in flight finish first.
      await bulk.stopAll()
      await sandbox?.close()
      sandboxStatus = { state: 'stopped' }
      await core.close()
    },
  }
}
