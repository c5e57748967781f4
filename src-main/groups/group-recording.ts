import type { ActivityEntry } from '../../src-shared/activity/schemas'
import type { CatalogEntry } from '../../src-shared/catalog/schemas'
import { messageOf } from '../../src-shared/ipc/error-message'
import type { GroupCallResult } from '../../src-shared/ipc/group-calls'
import { environmentMismatch, environmentMismatchWarning } from '../../src-shared/profiles/environment'
import { type Profile, type TokenStorage, visibleTail } from '../../src-shared/profiles/schemas'
import type { Mapping, Properties, UserGroup } from '../../src-shared/user-api/schemas'
import type { ActivityLog } from '../activity/activity-log'
import type { GroupCatalog } from '../catalog/group-catalog'
import type { ProfileStore } from '../profiles/profile-store'
import type { SecretVault } from '../profiles/vault'
import { groupTokenKey, profileTokenKey } from '../profiles/vault-keys'
import type { Database } from '../storage/database'
import type { Redactor } from '../user-api/redact'
import type { CallOptions } from './call-options'
import { redactAnswer } from './call-redaction'
import type { Called } from './group-call'
import type { RecordsWaiting } from './records-waiting'
import { writeRecoveryFile } from './recovery-file'
import type { RotationJournal, SettledRotation } from './rotation-journal'
import type { CurrentTeamHooks } from './team-hooks'

type GroupResponse = { user_group: UserGroup; new_user_group?: boolean }

/** How the caller wants an answered group call recorded. */
export interface RecordingPlan {
  /**
   * What the call sent that the answer does not echo (mapping, properties), for the catalog:
   * none for a rotation, nor for a group that existed already (none of it was applied).
   */
  sent?: { mapping?: Mapping; properties?: Properties }
  /** A rotation: the record closes its journal entry, and its new token is handed back even if the record fails. */
  rotated: boolean
  options: CallOptions
  /** What the caller has to tell the operator (fields get-or-create did not apply). */
  callWarnings?: string[]
  /** The group's catalog entry as the caller read it before the call, when it did. */
  before?: { entry: CatalogEntry | undefined }
}

export interface GroupRecordingDeps {
  db: Database
  profiles: ProfileStore
  vault: SecretVault
  catalog: GroupCatalog
  activity: ActivityLog
  rotations: RotationJournal
  team: CurrentTeamHooks
  waiting: RecordsWaiting
  /** Where a rotated token that could not be recorded is written for the operator (owner-only). */
  recoveryDir: string
  now: () => Date
}

/** An answered call on its way to the records: redacted everywhere but the group's own token. */
interface AnswerRecord {
  profile: Profile
  entry: ActivityEntry
  keptExchange: Called<GroupResponse>['keptExchange']
  group: UserGroup
  newUserGroup: boolean | undefined
  sent: RecordingPlan['sent']
  rotated: boolean
  /** The group's token as kept before the call: an answer giving it again is not written again. */
  tokensKnownBefore: string[]
  scrub: Redactor
}

/** An answer made ready to record: what is handed back of it (before warnings) and what is written. */
interface Prepared {
  record: AnswerRecord
  answer: GroupCallResult
  /** Where the server put the group, when the profile's kind says otherwise. */
  mismatchWarnings: string[]
  /** The group the call named, if any (the caller's `before` is that group's). */
  knownGroupId: string | undefined
}

/** What writing the record learned, from which the operator's warnings are told. */
interface Learned {
  settled: SettledRotation[]
  catalogWarnings: string[]
}

const settledWarning = ({ outcome, at }: { outcome: 'rotated' | 'not_rotated'; at: string }) =>
  outcome === 'rotated'
    ? `An earlier rotation of this group whose answer was lost did happen: the server's new token is kept now (checked ${new Date(at).toLocaleTimeString('en-GB')}).`
    : `An earlier rotation of this group whose answer was lost did not happen: the old token still works (checked ${new Date(at).toLocaleTimeString('en-GB')}).`

const unsavedTokenWarning = (reason: string, recoveryFile: string | null) =>
  `The token was rotated, but it could not be saved (${reason}). Copy it now: the app has no other copy.` +
  (recoveryFile ? ` It was also written to ${recoveryFile} (owner-only): delete that file once the token is stored.` : '')

/**
 * Records an answered group call: the activity entry, the group's token (in the vault, beside the
 * profile's own) and its catalog row, with what the operator should know: the catalog's warnings,
 * the caller's, and where the server put the group when the profile's kind says otherwise (the
 * server's word, remembered on the profile). A fetch that found the group settles its unknown
 * rotations there too (its token is the server's word); a rotation's journal entry is closed
 * there.
 *
 * An idempotent call asked to defer (`options.deferred`) has its answer first and its record in
 * the next batch, but never a rotation, nor a fetch with rotations of its group to settle (its
 * answer tells their outcome). Everything else is recorded in one transaction before the answer;
 * a rotation whose recording fails (a full disk) still hands its new token back, once, with a
 * recovery file where one could be written: the server has the token, and this answer may be the
 * only other copy.
 */
export function createGroupRecording(deps: GroupRecordingDeps) {
  const { db, profiles, vault, catalog, activity, rotations, team, waiting, now } = deps

  /** The record: token, catalog row, the rotations a fetch settles, the activity entry and the team's copy. */
  function write(record: AnswerRecord, warningsOf: (learned: Learned) => string[]): { warnings: string[]; settled: SettledRotation[] } {
    const { profile, entry, group, sent, rotated, scrub } = record
    const profileId = profile.id
    const tokenKey = groupTokenKey(profileId, group.provided_id)
    // Group tokens are kept where the operator keeps this profile's API token (session if none).
    // A group fetched again answers the token kept already: kept where it should be, it is not written again.
    const [apiTokenStorage = 'none', tokenStorage] = vault.storagesOf(profileTokenKey(profileId), tokenKey)
    const storage: TokenStorage = apiTokenStorage === 'none' ? 'session' : apiTokenStorage
    if (!record.tokensKnownBefore.includes(group.token) || tokenStorage !== storage) vault.set(tokenKey, group.token, storage)
    const recorded = catalog.record({ profileId, group, sent: scrub(sent), tokenLast4: visibleTail(group.token), rotated, at: now() })
    // The profile as the call read it already says so: nothing to note.
    if (group.api_environment_tag && profile.serverEnvironment !== group.api_environment_tag)
      profiles.noteServerEnvironment(profileId, group.api_environment_tag)
    const settled = record.newUserGroup === false ? rotations.settle(profileId, group.provided_id, group.token) : []
    const warnings = warningsOf({ settled, catalogWarnings: recorded.warnings })
    const name = group.name ?? entry.groupName
    const logged = scrub({ ...entry, ...(name ? { groupName: name } : {}), ...(warnings.length ? { warnings } : {}) })
    activity.append(logged, scrub(record.keptExchange()))
    team()?.recorded({ entry: logged, group, newUserGroup: record.newUserGroup, sent: scrub(sent), settled })
    if (rotated) rotations.answered(entry.id)
    return { warnings, settled }
  }

  /** The answer redacted, what is handed back of it, and the record to write. */
  function prepare(called: Called<GroupResponse>, plan: RecordingPlan): Prepared {
    const { profile, entry, known } = called
    const profileId = profile.id
    const answeredId = called.result.value.user_group.provided_id
    const tokensKnownBefore = known.groupId === answeredId ? known.tokens : waiting.knownGroupToken(profileId, answeredId)
    const { result, scrub } = redactAnswer({
      answered: called.result,
      apiToken: called.apiToken,
      tokensKnownBefore,
      knownSecrets: vault.knownSecrets,
    })
    const group = result.value.user_group
    const mismatch = environmentMismatch(profile.environmentKind, group.api_environment_tag)
    const answer: GroupCallResult = {
      profileId,
      group,
      ...(result.value.new_user_group !== undefined ? { newUserGroup: result.value.new_user_group } : {}),
      raw: result.raw,
      httpStatus: result.status,
      durationMs: result.durationMs,
      warnings: [],
      ...(mismatch ? { environmentMismatch: mismatch } : {}),
    }
    const record: AnswerRecord = {
      profile,
      entry,
      keptExchange: called.keptExchange,
      group,
      newUserGroup: result.value.new_user_group,
      sent: plan.sent,
      rotated: plan.rotated,
      tokensKnownBefore,
      scrub,
    }
    return {
      record,
      answer,
      mismatchWarnings: mismatch ? [environmentMismatchWarning(profile.name, mismatch)] : [],
      knownGroupId: known.groupId,
    }
  }

  /** The answer now, its record in the next batch (with what `settle` defers, atomic together). */
  function recordAfterAnswer({ record, answer, mismatchWarnings, knownGroupId }: Prepared, plan: RecordingPlan): GroupCallResult {
    const { profile, group } = record
    const previous =
      plan.before && knownGroupId === group.provided_id ? plan.before.entry : waiting.catalogEntry(profile.id, group.provided_id)
    const warnings = [...mismatchWarnings, ...(plan.callWarnings ?? []), ...catalog.changeWarnings(previous, group)]
    const done: GroupCallResult = { ...answer, warnings }
    const release = waiting.hold(groupTokenKey(profile.id, group.provided_id), {
      token: group.token,
      ...(plan.sent?.mapping !== undefined ? { mapping: plan.sent.mapping } : {}),
    })
    // One work for the batch: the record and what `settle` defers (a bulk run's journal row), atomic together.
    db.deferTogether(() => {
      plan.options.settle?.({ ok: true, result: done })
      db.defer(() => {
        release()
        write(record, () => warnings)
      })
    })
    return done
  }

  /** The record in one transaction (with `settle`), then the answer; a rotation's token is handed back even if that fails. */
  async function recordBeforeAnswer({ record, answer, mismatchWarnings }: Prepared, plan: RecordingPlan): Promise<GroupCallResult> {
    const callWarnings = plan.callWarnings ?? []
    try {
      // A rotated token is never stored without its catalog row, nor the reverse.
      return db.transaction(() => {
        const { warnings, settled } = write(record, ({ settled, catalogWarnings }) => [
          ...mismatchWarnings,
          ...settled.map(settledWarning),
          ...callWarnings,
          ...catalogWarnings,
        ])
        const done: GroupCallResult = {
          ...answer,
          warnings,
          ...(settled.length ? { settledRotations: settled.map(({ id, outcome, at }) => ({ activityId: id, outcome, at })) } : {}),
        }
        plan.options.settle?.({ ok: true, result: done })
        return done
      })
    } catch (error) {
      if (!record.rotated) throw error
      rotations.unrecorded(record.entry.id)
      const { profile, group } = record
      const recoveryFile = await writeRecoveryFile({
        recoveryDir: deps.recoveryDir,
        at: now(),
        profileId: profile.id,
        groupId: group.provided_id,
        token: group.token,
      })
      return { ...answer, warnings: [unsavedTokenWarning(messageOf(error), recoveryFile), ...mismatchWarnings], unsaved: { recoveryFile } }
    }
  }

  async function remember(called: Called<GroupResponse>, plan: RecordingPlan): Promise<GroupCallResult> {
    const prepared = prepare(called, plan)
    const { profile, group, newUserGroup } = prepared.record
    // A fetch that found the group answers the outcome of its unsettled rotations: that is recorded before the answer.
    const settlesRotations = () => newUserGroup === false && rotations.unsettled(profile.id, group.provided_id).length > 0
    if (plan.options.deferred && !plan.rotated && !settlesRotations()) return recordAfterAnswer(prepared, plan)
    return recordBeforeAnswer(prepared, plan)
  }

  return { remember }
}
