import type { Profile } from '../../src-shared/profiles/schemas'
import type { TeamGroupInfo } from '../../src-shared/team/schemas'
import { tokenFingerprint } from '../groups/rotation-journal'
import type { SecretVault } from '../profiles/vault'
import { groupTokenKey } from '../profiles/vault-keys'
import type { Database } from '../storage/database'
import { serverKey } from './team-url'

/*
 * What the team knows of one group, from the copy of the team's catalog the last pull left here,
 * set beside the token this folder keeps for it. No Postgres: it answers offline too.
 */

interface TeamGroupRecord {
  token_last4: string | null
  token_sha256: string | null
  changed_by: string
  changed_at: string
  rotated_by: string | null
  rotated_at: string | null
}

export interface TeamGroupQuery {
  db: Database
  vault: SecretVault
  /** The saved profile the group is reached through (built-in ones reach no team server). */
  profile: Profile
  groupId: string
}

/** Null when the team has no record of the group on the profile's server. */
export function readTeamGroupInfo({ db, vault, profile, groupId }: TeamGroupQuery): TeamGroupInfo | null {
  const row = db.get<TeamGroupRecord>('SELECT * FROM team_groups WHERE server = ? AND group_id = ?', serverKey(profile.baseUrl), groupId)
  if (!row) return null
  const kept = vault.get(groupTokenKey(profile.id, groupId))
  const token =
    kept === null ? 'not_kept' : row.token_sha256 === null ? 'unknown' : tokenFingerprint(kept) === row.token_sha256 ? 'current' : 'stale'
  return {
    changedBy: row.changed_by,
    changedAt: row.changed_at,
    rotatedBy: row.rotated_by,
    rotatedAt: row.rotated_at,
    tokenLast4: row.token_last4,
    token,
  }
}
