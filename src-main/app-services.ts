import { join } from 'node:path'
import pkg from '../package.json'
import type { SandboxStatus } from '../src-shared/ipc/events'
import { ActivityLog } from './activity/activity-log'
import { GroupCatalog } from './catalog/group-catalog'
import { ensureDataDir } from './data-dir'
import { EventHub } from './event-hub'
import { createGroupHandlers } from './groups/group-handlers'
import { createGroupService, type GroupService } from './groups/group-service'
import { createProfileHandlers } from './profiles/profile-handlers'
import { openProfileStore, type ProfileStore } from './profiles/profile-store'
import { openSecretVault } from './profiles/vault'
import { createRouter, type Handlers, type Router } from './router'
import { SANDBOX_DATA_FILE, startSandbox, type Sandbox } from './sandbox/sandbox-server'
import type { SiteFileDialogs } from './site-files/file-dialogs'
import { siteHandlers } from './site-files/site-file-service'

/** The part of Electron's safeStorage the vault uses; typed here so nothing else imports Electron. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
  getSelectedStorageBackend?(): string
}

export interface AppServicesOptions {
  dataDir: string
  transport: 'electron' | 'browser'
  log?: (line: string) => void
  /** Electron's safeStorage in the desktop app; absent in browser mode and the CLI. */
  safeStorage?: SafeStorageLike
  /** The embedded sandbox starts with the app unless this is false (the CLI's groups command). */
  sandbox?: boolean
  /** The system's file dialogs in the desktop app; browser mode types paths instead. */
  fileDialogs?: SiteFileDialogs
}

export interface AppServices {
  router: Router
  events: EventHub
  profiles: ProfileStore
  groups: GroupService
  close(): Promise<void>
}

export const SANDBOX_PROFILE_ID = 'local-sandbox'
export const SANDBOX_TESTING_PROFILE_ID = 'local-sandbox-testing'

/**
 * The composition root: builds every feature's service once and joins their handlers into the
 * one table the router needs. Both transports (Electron and browser mode) and the CLI start here.
 */
export async function createAppServices(options: AppServicesOptions): Promise<AppServices> {
  const dataDir = ensureDataDir(options.dataDir)
  const events = new EventHub()
  const log = options.log ?? (() => {})

  const vault = await openSecretVault({ dataDir, safeStorage: options.safeStorage })
  const profiles = await openProfileStore({ dataDir, vault })
  const [catalog, activity] = await Promise.all([GroupCatalog.open(dataDir), ActivityLog.open(dataDir)])
  const groups = createGroupService({ profiles, vault, catalog, activity })

  let sandboxStatus: SandboxStatus = { state: 'disabled' }
  let sandbox: Sandbox | null = null
  if (options.sandbox !== false) {
    try {
      sandbox = await startSandbox({ port: 0, dataFile: join(dataDir, SANDBOX_DATA_FILE), log })
      // One profile per sandbox environment; the Customer one is preselected on a first launch.
      await profiles.registerBuiltin(
        { id: SANDBOX_PROFILE_ID, name: 'Local sandbox', baseUrl: sandbox.baseUrl, environmentLabel: 'Sandbox · Customer' },
        sandbox.tokens.Customer,
      )
      await profiles.registerBuiltin(
        { id: SANDBOX_TESTING_PROFILE_ID, name: 'Local sandbox (Testing)', baseUrl: sandbox.baseUrl, environmentLabel: 'Sandbox · Testing' },
        sandbox.tokens.Testing,
      )
      sandboxStatus = { state: 'running', baseUrl: sandbox.baseUrl }
    } catch (error) {
      sandboxStatus = { state: 'failed', message: `The local sandbox could not start: ${(error as Error).message}` }
      log(sandboxStatus.message!)
    }
  }
  if (catalog.loadProblem) log(catalog.loadProblem)

  const profileHandlers = createProfileHandlers(profiles, vault)
  const handlers: Handlers = {
    'app.info': () => ({
      name: 'Embed Console',
      version: pkg.version,
      transport: options.transport,
      dataDir,
      platform: process.platform,
      sandbox: sandboxStatus,
    }),
    'app.echo': ({ text }) => ({ text, receivedAt: new Date().toISOString() }),
    ...profileHandlers,
    'profiles.delete': async (input, context) => {
      const answer = await profileHandlers['profiles.delete'](input, context)
      await catalog.removeProfile(input.id)
      return answer
    },
    ...createGroupHandlers(groups, catalog, activity, () => profiles.activeId()),
    ...siteHandlers(dataDir, { dialogs: options.fileDialogs, events }),
  }

  const router = createRouter(handlers, {
    onInternalError: (name, error) => log(`internal error in ${name}: ${error instanceof Error ? error.message : 'unknown'}`),
  })

  return {
    router,
    events,
    profiles,
    groups,
    async close() {
      await sandbox?.close()
      sandboxStatus = { state: 'stopped' }
    },
  }
}
