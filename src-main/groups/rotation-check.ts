import type { GroupCallResult, RotationCheck } from '../../src-shared/ipc/group-calls'
import { AppErrorException } from '../../src-shared/ipc/result'
import { visibleTail } from '../../src-shared/profiles/schemas'
import type { ActivityLog } from '../activity/activity-log'
import type { GroupCatalog } from '../catalog/group-catalog'
import type { RotationJournal } from './rotation-journal'

/**
 * "Check now" on a rotation whose answer was lost: a get-or-create of its group (`fetchGroup`),
 * whose record settles it against the token the server holds (see RotationJournal.settle). Only a
 * group that existed can answer: one that get-or-create had to create says nothing of the
 * rotation, which stays unknown. A rotation settled already answers as it was settled, without a
 * call.
 */
export async function checkRotation(
  activityId: string,
  {
    activity,
    catalog,
    rotations,
    fetchGroup,
  }: {
    activity: ActivityLog
    catalog: GroupCatalog
    rotations: RotationJournal
    fetchGroup: (profileId: string, groupId: string) => Promise<GroupCallResult>
  },
): Promise<RotationCheck> {
  const entry = activity.get(activityId)
  if (!entry || entry.operation !== 'rotateToken')
    throw new AppErrorException('not_found', 'There is no rotation with this id in the activity log.')
  if (entry.settledOutcome && entry.settledAt)
    return {
      outcome: entry.settledOutcome,
      checkedAt: entry.settledAt,
      tokenLast4: catalog.get(entry.profileId, entry.groupId ?? '')?.tokenLast4 ?? null,
    }
  if (entry.outcome !== 'unknown')
    throw new AppErrorException('refused', 'The outcome of this rotation is known already: nothing to check.')
  if (!entry.groupId) {
    throw new AppErrorException(
      'refused',
      'This rotation was sent with a pasted token and named no group, so it cannot be checked here: fetch the group by its id (Get or create) and compare its token with the one you pasted.',
    )
  }
  if (!rotations.unsettled(entry.profileId, entry.groupId).some((earlier) => earlier.id === activityId)) {
    throw new AppErrorException(
      'refused',
      'This rotation was recorded before Embed Console kept what each rotation sent, so it cannot be checked: fetch the group to see its current token.',
    )
  }
  const fetched = await fetchGroup(entry.profileId, entry.groupId)
  const settled = fetched.settledRotations?.find((item) => item.activityId === activityId)
  if (!settled)
    throw new AppErrorException(
      'refused',
      `The group “${entry.groupId}” did not exist any more: get-or-create made a new one, which says nothing of the rotation.`,
    )
  return { outcome: settled.outcome, checkedAt: settled.at, tokenLast4: visibleTail(fetched.group.token) ?? null }
}
