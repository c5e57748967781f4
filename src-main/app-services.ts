import pkg from '../package.json'
import { EventHub } from './event-hub'
import { createRouter, type Handlers, type Router } from './router'
import { ensureDataDir } from './data-dir'

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
}

export interface AppServices {
  router: Router
  events: EventHub
  close(): Promise<void>
}

/**
 * The composition root: builds every feature's service once and joins their handlers into the
 * one table the router needs. Both transports (Electron and browser mode) start here.
 */
export async function createAppServices(options: AppServicesOptions): Promise<AppServices> {
  const dataDir = ensureDataDir(options.dataDir)
  const events = new EventHub()
  const log = options.log ?? (() => {})

  const handlers: Handlers = {
    'app.info': () => ({
      name: 'Embed Console',
      version: pkg.version,
      transport: options.transport,
      dataDir,
      platform: process.platform,
    }),
    'app.echo': ({ text }) => ({ text, receivedAt: new Date().toISOString() }),
  }

  const router = createRouter(handlers, {
    onInternalError: (name, error) => log(`internal error in ${name}: ${error instanceof Error ? error.message : 'unknown'}`),
  })

  return {
    router,
    events,
    async close() {},
  }
}
