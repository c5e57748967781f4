import type { groupCalls } from '../../src-shared/ipc/group-calls'
import type { ActivityLog } from '../activity/activity-log'
import type { GroupCatalog } from '../catalog/group-catalog'
import type { HandlersFor } from '../router'
import type { GroupService } from './group-service'

const EXPORT_TYPES = { csv: 'text/csv', jsonl: 'application/x-ndjson' } as const

export function createGroupHandlers(groups: GroupService, catalog: GroupCatalog, activity: ActivityLog, activeProfileId: () => string | null): HandlersFor<typeof groupCalls> {
  const profileOrActive = (profileId: string | undefined) => profileId ?? activeProfileId() ?? ''
  return {
    'profiles.testConnection': ({ id }) => groups.testConnection(id),
    'groups.getOrCreate': ({ profileId, request }) => groups.getOrCreate(profileId, request),
    'groups.update': ({ profileId, request }) => groups.update(profileId, request),
    'groups.rotateToken': ({ profileId, source }) => groups.rotateToken(profileId, source),
    'groups.revealToken': async ({ profileId, groupId }) => ({ token: await groups.revealToken(profileId, groupId) }),
    'catalog.list': (query) => {
      const profileId = profileOrActive(query.profileId)
      return { profileId, ...catalog.query({ ...query, profileId }) }
    },
    'catalog.get': ({ profileId, groupId }) => ({ entry: catalog.get(profileOrActive(profileId), groupId) ?? null }),
    'activity.list': ({ outcome, limit }) => {
      const entries = activity.list(outcome ? { outcome } : {})
      return { entries: entries.slice(0, limit), total: entries.length }
    },
    'activity.export': ({ format, outcome }) => ({
      fileName: `embed-console-activity-${new Date().toISOString().slice(0, 10)}.${format}`,
      mimeType: EXPORT_TYPES[format],
      text: activity.export(format, outcome ? { outcome } : {}),
    }),
  }
}
