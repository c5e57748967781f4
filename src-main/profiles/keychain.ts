import { AppErrorException } from '../../src-shared/ipc/result'
import type { VaultStatus } from '../../src-shared/profiles/schemas'
import type { SafeStorageLike } from '../ports'

const CHOOSE_ANOTHER_PLACE = 'Choose: keep the token for this session only, or store it in an owner-only file, unencrypted.'

/** Electron's name for the Linux fallback that encrypts with a key built into Chromium. */
const HARD_CODED_KEY_BACKEND = 'basic_text'

export interface Keychain {
  status(): VaultStatus
  /** Base64 ciphertext and the backend that made it. */
  encrypt(secret: string): { ciphertext: string; backend: string }
  decrypt(ciphertext: string): string
}

/**
 * The system keychain as Electron's safeStorage offers it. It counts as available only when
 * safeStorage says so and, on Linux, the backend is a real password store: `basic_text` would
 * "encrypt" with a key anyone can read in Chromium's source. Without safeStorage (browser mode,
 * the CLI) there is no keychain at all.
 */
export function createKeychain(safeStorage: SafeStorageLike | undefined, platform: NodeJS.Platform = process.platform): Keychain {
  const backendName = (): string => {
    if (!safeStorage) return 'none'
    if (platform === 'darwin') return 'macos_keychain'
    if (platform === 'win32') return 'windows_dpapi'
    return safeStorage.getSelectedStorageBackend?.() ?? 'unknown'
  }

  const status = (): VaultStatus => {
    const backend = backendName()
    if (!safeStorage || !safeStorage.isEncryptionAvailable()) {
      return {
        encryptionAvailable: false,
        backend,
        message: `No system keychain is available here, so tokens cannot be encrypted at rest. ${CHOOSE_ANOTHER_PLACE}`,
      }
    }
    if (backend === HARD_CODED_KEY_BACKEND) {
      return {
        encryptionAvailable: false,
        backend,
        message: `No system keychain was found (Electron would fall back to "${HARD_CODED_KEY_BACKEND}", a key built into the app), so tokens cannot be encrypted at rest. ${CHOOSE_ANOTHER_PLACE}`,
      }
    }
    return { encryptionAvailable: true, backend, message: `Tokens are encrypted with the system keychain (${backend}).` }
  }

  return {
    status,
    encrypt(secret) {
      const current = status()
      if (!safeStorage || !current.encryptionAvailable) throw new AppErrorException('refused', current.message)
      return { ciphertext: safeStorage.encryptString(secret).toString('base64'), backend: current.backend }
    },
    decrypt(ciphertext) {
      if (!safeStorage || !status().encryptionAvailable) {
        throw new AppErrorException(
          'refused',
          'This token is encrypted with the system keychain, which cannot be reached here (browser mode or the command line). Open the desktop app, or enter the token again.',
        )
      }
      try {
        return safeStorage.decryptString(Buffer.from(ciphertext, 'base64'))
      } catch {
        throw new AppErrorException(
          'refused',
          'The stored token could not be decrypted: the system keychain may have changed. Enter the token again.',
        )
      }
    },
  }
}
