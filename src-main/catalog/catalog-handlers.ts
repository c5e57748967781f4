import type { catalogCalls } from '../../src-shared/ipc/catalog-calls'
import type { GroupService } from '../groups/group-service'
import type { HandlersFor } from '../router'
import type { GroupCatalog } from './group-catalog'

export function createCatalogHandlers(catalog: GroupCatalog, groups: GroupService): HandlersFor<typeof catalogCalls> {
  // The profile asked for, else the active one; '' when there is none (an empty catalog answers).
  const profileIdOrNone = (profileId: string | undefined) => groups.profileNamedOrActive(profileId) ?? ''
  return {
    'catalog.list': (query) => {
      const profileId = profileIdOrNone(query.profileId)
      return { profileId, ...catalog.query({ ...query, profileId }, groups.sessionGroupIds(profileId)) }
    },
    'catalog.get': ({ profileId, groupId }) => {
      const id = profileIdOrNone(profileId)
      return { entry: catalog.get(id, groupId) ?? null, tokenKept: id !== '' && groups.tokenKept(id, groupId) }
    },
  }
}
