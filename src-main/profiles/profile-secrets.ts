import { AppErrorException } from '../../src-shared/ipc/result'
import { type Profile, type ProfileChanges, sameOrigin, type TokenState, type TokenStorage } from '../../src-shared/profiles/schemas'
import type { NetworkSettings } from '../user-api/client'
import type { SecretVault } from './vault'
import { profileProxyPasswordKey, profileTokenKey } from './vault-keys'

/*
 * A profile's two secrets in the vault: its API token and its proxy password. Where each is put
 * when a profile is made or changed, and the one shape in which they leave the vault for a call.
 * Every function here is synchronous, so it runs inside the transaction that writes the profile.
 */

/** The secrets a new profile comes with, and where the operator asked them kept. */
export interface NewProfileSecrets {
  apiToken?: string
  proxyPassword?: string
  tokenStorage?: TokenStorage
}

/** What the client needs to reach the profile's server; the token null when none is kept. */
export interface ProfileConnection {
  baseUrl: string
  apiToken: string | null
  timeoutMs: number
  network: NetworkSettings
}

export interface ProfileSecrets {
  /** Keeps a new profile's token and proxy password. */
  keepNew(profileId: string, secrets: NewProfileSecrets): void
  /** Applies an edit's secrets (see the function for the rules); `current` is the profile before the edit. */
  applyChanges(current: Profile, changes: ProfileChanges): void
  /** Read from the vault at each call: a token changed by another process is the one sent. */
  connectionOf(profile: Profile): ProfileConnection
}

export function profileSecrets(vault: SecretVault): ProfileSecrets {
  /** A new token goes where the operator says, else where the old one was, else the keychain. */
  function placeForToken(requested: TokenStorage | undefined, current: TokenState): TokenStorage {
    if (requested) return requested
    if (current.storage !== 'none') return current.storage
    const status = vault.status()
    if (status.encryptionAvailable) return 'keychain'
    throw new AppErrorException('refused', status.message)
  }

  function moveToken(profile: Profile, storage: TokenStorage) {
    const key = profileTokenKey(profile.id)
    if (vault.describe(key).storage === storage) return
    const secret = vault.get(key)
    if (secret === null) {
      throw new AppErrorException('refused', `“${profile.name}” has no API token to move. Enter one first.`)
    }
    vault.set(key, secret, storage)
  }

  /**
   * The profile now reaches another server: the secrets were issued by the old one, and none may
   * reach another (ProfileChangesSchema). The proxy password belongs to the network, not the
   * server: it stays, where it was.
   */
  function keepOnlyTheProxyPassword(profileId: string) {
    const passwordKey = profileProxyPasswordKey(profileId)
    const password = vault.get(passwordKey)
    const passwordStorage = vault.describe(passwordKey).storage
    vault.deleteProfileSecrets(profileId)
    if (password !== null && passwordStorage !== 'none') vault.set(passwordKey, password, passwordStorage)
  }

  /** What the client needs to reach the profile's server, the proxy password out of the vault. */
  function networkOf(profile: Profile): NetworkSettings {
    const caBundle = profile.caBundlePath ? { caBundlePath: profile.caBundlePath } : {}
    if (profile.proxyMode !== 'custom') return { proxy: { mode: profile.proxyMode }, ...caBundle }
    const password = vault.get(profileProxyPasswordKey(profile.id))
    return {
      proxy: {
        mode: 'custom',
        url: profile.proxyUrl,
        ...(profile.proxyUsername ? { username: profile.proxyUsername } : {}),
        ...(password !== null ? { password } : {}),
      },
      ...caBundle,
    }
  }

  return {
    keepNew(profileId, secrets) {
      const none: TokenState = { set: false, storage: 'none' }
      if (secrets.apiToken !== undefined) {
        vault.set(profileTokenKey(profileId), secrets.apiToken, placeForToken(secrets.tokenStorage, none))
      }
      // The proxy password is kept where the API token is.
      if (secrets.proxyPassword !== undefined) {
        vault.set(
          profileProxyPasswordKey(profileId),
          secrets.proxyPassword,
          placeForToken(secrets.tokenStorage, vault.describe(profileTokenKey(profileId))),
        )
      }
    },

    /**
     * A token cleared or given goes; a storage alone moves the token kept (unless the server
     * changes, which drops it, or the storage came with a new proxy password and there is no
     * token: it is the password's). The proxy password is cleared or kept where the token is now.
     */
    applyChanges(current, changes) {
      const id = current.id
      const key = profileTokenKey(id)
      const passwordKey = profileProxyPasswordKey(id)
      const tokenBefore = vault.describe(key)
      const movesServer = changes.baseUrl !== undefined && !sameOrigin(changes.baseUrl, current.baseUrl)
      if (movesServer) keepOnlyTheProxyPassword(id)
      if (changes.clearToken) vault.delete(key)
      else if (changes.apiToken !== undefined) vault.set(key, changes.apiToken, placeForToken(changes.tokenStorage, tokenBefore))
      else if (changes.tokenStorage !== undefined && !movesServer && (tokenBefore.set || changes.proxyPassword === undefined))
        moveToken(current, changes.tokenStorage)
      if (changes.clearProxyPassword) vault.delete(passwordKey)
      else if (changes.proxyPassword !== undefined)
        vault.set(passwordKey, changes.proxyPassword, placeForToken(changes.tokenStorage, vault.describe(key)))
    },

    connectionOf: (profile) => ({
      baseUrl: profile.baseUrl,
      apiToken: vault.get(profileTokenKey(profile.id)),
      timeoutMs: profile.timeoutSeconds * 1000,
      network: networkOf(profile),
    }),
  }
}
