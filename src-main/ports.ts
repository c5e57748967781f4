/*
 * The interfaces main's features are given from outside (the Electron shell, the composition root)
 * rather than importing: a feature depends on what it needs, never on the module that wires it,
 * so the import graph has no circle back to app-services.
 */

/** The part of Electron's safeStorage the vault uses; typed here so nothing else imports Electron. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
  getSelectedStorageBackend?(): string
}
