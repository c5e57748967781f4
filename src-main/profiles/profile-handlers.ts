import type { profileCalls } from '../../src-shared/ipc/profile-calls'
import type { Profile, ProfileView } from '../../src-shared/profiles/schemas'
import type { HandlersFor } from '../router'
import { diagnoseConnection } from '../user-api/diagnose-connection'
import type { ProfileStore } from './profile-store'
import type { SecretVault } from './vault'
import { profileProxyPasswordKey, profileTokenKey } from './vault-keys'

export type ProfileHandlers = HandlersFor<typeof profileCalls>

export function createProfileHandlers(store: ProfileStore, vault: SecretVault): ProfileHandlers {
  const view = (profile: Profile): ProfileView => ({
    ...profile,
    token: vault.describe(profileTokenKey(profile.id)),
    proxyPasswordSet: vault.has(profileProxyPasswordKey(profile.id)),
  })

  return {
    'profiles.list': () => ({
      profiles: store.list().map(view),
      activeId: store.activeId(),
      vault: vault.status(),
      notices: [...store.notices(), ...vault.notices()],
    }),
    'profiles.create': async (draft) => view(await store.create(draft)),
    'profiles.update': async ({ id, changes }) => view(await store.update(id, changes)),
    'profiles.duplicate': async ({ id }) => view(await store.duplicate(id)),
    'profiles.delete': async ({ id }) => {
      await store.delete(id)
      return { activeId: store.activeId() }
    },
    'profiles.setActive': async ({ id }) => ({ activeId: await store.setActive(id) }),
    'profiles.export': () => {
      const file = store.exportProfiles()
      return { text: `${JSON.stringify(file, null, 2)}\n`, count: file.profiles.length }
    },
    'profiles.import': async ({ text }) => {
      const imported = await store.importProfiles(text)
      return { imported: imported.length, names: imported.map((profile) => profile.name) }
    },
    'profiles.diagnose': async ({ id }) => diagnoseConnection(await store.connectionForDiagnosis(id)),
    'profiles.vaultStatus': () => vault.status(),
  }
}
