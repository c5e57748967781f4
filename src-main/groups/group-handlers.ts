import type { groupCalls } from '../../src-shared/ipc/group-calls'
import type { HandlersFor } from '../router'
import type { GroupService } from './group-service'

export function createGroupHandlers(groups: GroupService): HandlersFor<typeof groupCalls> {
  return {
    'groups.getOrCreate': ({ profileId, request }) => groups.getOrCreate(profileId, request),
    'groups.update': ({ profileId, request }) => groups.update(profileId, request),
    'groups.rotateToken': ({ profileId, source }) => groups.rotateToken(profileId, source),
    'groups.checkRotation': ({ activityId }) => groups.checkRotation(activityId),
    'groups.revealToken': async ({ profileId, groupId }) => ({ token: await groups.revealToken(profileId, groupId) }),
  }
}
