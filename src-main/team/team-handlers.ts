import type { teamCalls } from '../../src-shared/ipc/team-calls'
import type { HandlersFor } from '../router'
import type { TeamService } from './team-service'

export function createTeamHandlers(team: TeamService, activeProfileId: () => string | null): HandlersFor<typeof teamCalls> {
  return {
    'team.status': () => team.status(),
    'team.pull': async () => {
      await team.pull()
      return team.status()
    },
    'team.join': ({ url, password }) => team.join(url, password),
    'team.leave': ({ discardUnpublished }) => team.leave(discardUnpublished),
    'team.migrate': ({ url, password }) => team.migrate(url, password),
    'team.addOperator': ({ url, password, name, resetPassword }) => team.addOperator(url, password, name, resetPassword),
    'team.activity': (query) => team.activity(query),
    'team.group': ({ profileId, groupId }) => {
      const id = profileId ?? activeProfileId()
      return { info: id ? team.group(id, groupId) : null }
    },
  }
}
