import type { Database } from '../storage/database'
import type { RotationIntent, RotationJournal } from './rotation-journal'
import type { TeamHooks } from './team-hooks'

/** A rotation about to be sent: journaled first (see RotationJournal). */
export interface RotationToSend {
  groupId: string | null
  sentToken: string
}

/**
 * The only way a rotation reaches the network: claimed across the team (in team mode), then
 * journaled on the disk, synced, before its request leaves, so a crash from here on can never
 * send it again. Returns once it is journaled; throws, having sent nothing and journaled nothing,
 * when an earlier rotation of the token or group is unsettled, the team refuses the claim, or
 * `claimRow` throws (with the team's claim given back).
 */
export async function journalBeforeSending({
  db,
  rotations,
  team,
  intent,
  claimRow,
}: {
  db: Database
  rotations: RotationJournal
  /** Team mode's hooks as the call found them, or null outside a team. */
  team: TeamHooks | null
  intent: RotationIntent
  /**
   * A bulk run's claim of its row, fenced on its lease: inside the durable transaction, so it commits with the journal entry or
   * not at all.
   */
  claimRow?: () => void
}): Promise<void> {
  let teamClaim: { release(): Promise<void> } | undefined
  if (team) {
    // Refused here first, before another machine is asked to hold a claim for a rotation this one would refuse anyway.
    rotations.assertNoneUnsettled(intent.profileId, intent.groupId, intent.sentToken)
    // No other machine rotates the group from here on (refused otherwise, before anything is journaled).
    teamClaim = await team.claimRotation(intent)
  }
  try {
    db.transaction(
      () => {
        // Again, in the transaction: another process of this folder may have journaled one while the claim was awaited.
        rotations.assertNoneUnsettled(intent.profileId, intent.groupId, intent.sentToken)
        claimRow?.()
        rotations.begin(intent)
      },
      { durable: true },
    )
  } catch (error) {
    await teamClaim?.release()
    throw error
  }
}
