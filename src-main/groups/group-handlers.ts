import type { groupCalls } from '../../src-shared/ipc/group-calls'
import type { ActivityLog } from '../activity/activity-log'
import type { GroupCatalog } from '../catalog/group-catalog'
import type { DownloadHandlers, HandlersFor } from '../router'
import type { GroupService } from './group-service'

const EXPORT_TYPES = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson; charset=utf-8' } as const

export function createGroupHandlers(groups: GroupService, catalog: GroupCatalog, activity: ActivityLog): HandlersFor<typeof groupCalls> {
  const profileOrActive = (profileId: string | undefined) => groups.profileNamedOrActive(profileId) ?? ''
  return {
    'profiles.testConnection': ({ id }) => groups.testConnection(id),
    'groups.getOrCreate': ({ profileId, request }) => groups.getOrCreate(profileId, request),
    'groups.update': ({ profileId, request }) => groups.update(profileId, request),
    'groups.rotateToken': ({ profileId, source }) => groups.rotateToken(profileId, source),
    'groups.checkRotation': ({ activityId }) => groups.checkRotation(activityId),
    'groups.revealToken': async ({ profileId, groupId }) => ({ token: await groups.revealToken(profileId, groupId) }),
    'catalog.list': (query) => {
      const profileId = profileOrActive(query.profileId)
      return { profileId, ...catalog.query({ ...query, profileId }, groups.sessionGroupIds(profileId)) }
    },
    'catalog.get': ({ profileId, groupId }) => {
      const id = profileOrActive(profileId)
      return { entry: catalog.get(id, groupId) ?? null, tokenKept: id !== '' && groups.tokenKept(id, groupId) }
    },
    'activity.list': ({ cursor, limit, ...filter }) => activity.page(filter, limit, cursor),
    'activity.get': ({ id }) => ({ entry: activity.get(id) ?? null }),
  }
}

export function createActivityDownload(activity: ActivityLog): DownloadHandlers['activity'] {
  return ({ format, ...filter }) => ({
    fileName: `embed-console-activity-${new Date().toISOString().slice(0, 10)}.${format}`,
    mimeType: EXPORT_TYPES[format],
    chunks: activity.export(format, filter),
  })
}
