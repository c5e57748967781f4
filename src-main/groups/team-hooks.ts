import type { ActivityEntry } from '../../src-shared/activity/schemas'
import type { Mapping, Properties, UserGroup } from '../../src-shared/user-api/schemas'
import type { SettledRotation } from './rotation-journal'

/*
 * Team mode, as the group service meets it. Declared here, beside the parts that call it, so
 * that the group service and its parts name one interface; the team runtime implements it
 * (groups never import team/).
 */

/** A rotation about to be journaled, as the team's claim sees it. */
export interface TeamRotation {
  /** Its activity entry's id: the claim's id, settled when that entry reaches the team. */
  id: string
  profileId: string
  groupId: string | null
  sentToken: string
  timeoutMs: number
  run?: { runId: string; seq: number }
}

/** A call as recorded here (in the transaction that records it), for the team's audit log and catalog. */
export interface TeamRecordedCall {
  entry: ActivityEntry
  /** The group as answered (its token is only fingerprinted, never passed on). */
  group?: UserGroup
  newUserGroup?: boolean
  /** What the call sent that the answer does not echo (mapping), already scrubbed of secrets. */
  sent?: { mapping?: Mapping; properties?: Properties }
  settled?: readonly SettledRotation[]
}

/**
 * Team mode, as the group service meets it: a rotation claims its group across machines before
 * it is journaled (online: refused with a sentence naming who holds or rotated it, or while the
 * team database is away), and every recorded call is queued for the team in the transaction that
 * records it.
 */
export interface TeamHooks {
  /** The claim, with its release for when nothing was sent after all. */
  claimRotation(rotation: TeamRotation): Promise<{ release(): Promise<void> }>
  /** Synchronous: runs inside the recording transaction. */
  recorded(call: TeamRecordedCall): void
}

/** Asked at each use: a data folder joins or leaves its team while the app runs. */
export type CurrentTeamHooks = () => TeamHooks | null
