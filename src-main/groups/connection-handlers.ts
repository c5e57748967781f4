import type { connectionCalls } from '../../src-shared/ipc/connection-calls'
import type { HandlersFor } from '../router'
import type { GroupService } from './group-service'

export function createConnectionHandlers(groups: GroupService): HandlersFor<typeof connectionCalls> {
  return { 'profiles.testConnection': ({ id }) => groups.testConnection(id) }
}
