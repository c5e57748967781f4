import type { teamCalls } from '../../src-shared/ipc/team-calls'
import type { HandlersFor } from '../router'
import type { TeamService } from './team-service'

/** `profileNamedOrActive` is the group service's rule for which profile a call means, passed in rather than written again. */
export function createTeamHandlers(
  team: TeamService,
  profileNamedOrActive: (profileId: string | undefined) => string | null,
): HandlersFor<typeof teamCalls> {
  return {
    'team.status': () => team.status(),
    'team.pull': async () => {
      await team.pull()
      return team.status()
    },
    'team.join': ({ url, password }) => team.join(url, password),
    'team.leave': ({ discardUnpublished }) => team.leave(discardUnpublished),
    'team.migrate': ({ url, password }) => team.migrate(url, password),
    'team.addOperator': (request) => team.addOperator(request),
    'team.activity': (query) => team.activity(query),
    'team.group': ({ profileId, groupId }) => {
      const id = profileNamedOrActive(profileId)
      return { info: id ? team.group(id, groupId) : null }
    },
  }
}
