import pkg from '../../package.json'
import type { ActivityEntry } from '../../src-shared/activity/schemas'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { LeaseOwner } from '../bulk/run-leases'
import type { GroupCatalog } from '../catalog/group-catalog'
import { tokenFingerprint } from '../groups/rotation-journal'
import type { TeamHooks, TeamRecordedCall, TeamRotation } from '../groups/team-hooks'
import type { ProfileStore } from '../profiles/profile-store'
import type { Database } from '../storage/database'
import { callEvent, settledEvent, settledEventId } from './team-events'
import { type ClaimAnswer, TeamLink } from './team-link'
import { TeamOutbox } from './team-outbox'
import { OutboxPublisher } from './team-publisher'
import { TeamPuller } from './team-puller'
import type { SharedLeases, TeamRunLeases } from './team-run-leases'
import { type TeamSettings, updateSyncState } from './team-settings'
import { serverKey } from './team-url'

/*
 * Team mode in a process whose data folder is joined: the link to the team database, the outbox
 * and its publisher, the puller, and the hooks the group service calls. Loaded (with the Postgres
 * driver) only when the folder is joined.
 */

/** A rotation's claim outlives its request by this much before others treat it as unknown. */
const CLAIM_GRACE_MS = 30_000
/** Before a claim, this machine's own unpublished calls go first (its latest fetches), for at most this long. */
const FLUSH_BEFORE_CLAIM_MS = 2_000
const PULL_EVERY_MS = 15_000
/** On close, what is left in the outbox gets this long to reach the team (the rest waits for the next start). */
const FLUSH_ON_CLOSE_MS = 5_000

const clock = (at: Date | null) => (at ? at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' }) : 'an unknown time')

/** The sentence that refuses a rotation another machine holds or made; `details.claim` marks it for bulk runs. */
export function claimRefusal(answer: ClaimAnswer, groupId: string | null): AppErrorException {
  const group = groupId ? `“${groupId}”` : 'this group'
  const who = answer.actor ?? 'another operator'
  const at = clock(answer.at)
  const details = { claim: { outcome: answer.outcome, actor: answer.actor, at: answer.at?.toISOString() ?? null } }
  switch (answer.outcome) {
    case 'held':
      return new AppErrorException(
        'conflict',
        `Claimed by ${who}: ${group} is being rotated on another machine (since ${at}). Fetch it once that is done for its new token.`,
        details,
      )
    case 'stale':
      return new AppErrorException(
        'conflict',
        `Rotated by ${who} at ${at}; fetch the current token first: the token kept here for ${group} is no longer the group’s (Get or create returns the current one).`,
        details,
      )
    case 'changed':
      return new AppErrorException(
        'conflict',
        `${group} has another token now (seen by ${who} at ${at}); fetch the current token first (Get or create returns it).`,
        details,
      )
    case 'unknown':
      return new AppErrorException(
        'conflict',
        `A rotation of ${group} by ${who} (at ${at}) has an unknown outcome: fetch the group first (Get or create settles it), then rotate it if it still needs it.`,
        details,
      )
    case 'lease_lost':
      return new AppErrorException('lease_lost', 'Another Embed Console process took this run over: this one stopped sending.')
    default:
      return new AppErrorException('internal', 'The team database gave an answer this Embed Console does not know.')
  }
}

/**
 * A rotation cannot be claimed while the team database is away, or has a schema this version
 * cannot write: said for rotations, and as `team_offline`, which pauses a run (resumable) rather
 * than failing its rows.
 */
function rotationRefused(error: unknown): AppErrorException {
  if (!(error instanceof AppErrorException))
    return new AppErrorException('internal', `The rotation could not be claimed: ${(error as Error).message}`)
  const schemaVersion = (error.details as { schemaVersion?: unknown } | undefined)?.schemaVersion
  if (typeof schemaVersion === 'number') return new AppErrorException('team_offline', error.message, error.details)
  if (error.code !== 'team_offline') return error
  return new AppErrorException(
    'team_offline',
    `${error.message.replace(/\.$/, '')}: rotations wait until it answers, so no other machine can rotate the same group. Get or create and update still work; their audit is sent when it is back.`,
    error.details,
  )
}

export interface TeamRuntimeOptions {
  db: Database
  profiles: ProfileStore
  catalog: GroupCatalog
  owner: LeaseOwner
  settings: TeamSettings
  password: string | undefined
  leases: TeamRunLeases
  /** The app and browser mode publish and pull in the background; a CLI call publishes on the way out. */
  background: boolean
  log: (line: string) => void
}

export interface TeamRuntime {
  link: TeamLink
  outbox: TeamOutbox
  publisher: OutboxPublisher
  puller: TeamPuller
  hooks: TeamHooks
  shared: SharedLeases
  /** A rotation presumed unknown at start (its process died): queued unless its call's own event is. */
  presumed(entry: ActivityEntry): void
  close(): Promise<void>
}

export function startTeamRuntime(options: TeamRuntimeOptions): TeamRuntime {
  const { db, profiles, owner } = options
  const link = new TeamLink(options.settings, options.password)
  const outbox = new TeamOutbox(db, pkg.version)
  // An event an earlier version parked may be storable now.
  outbox.unparkFromOtherVersions()
  const publisher = new OutboxPublisher(outbox, (events) => link.recordCalls(events), {
    background: options.background,
    onPublished: (at) => updateSyncState(db, { lastPublishAt: at.toISOString() }),
  })
  const puller = new TeamPuller(db, link, options.catalog, profiles)

  /** Whether this folder ever journaled (or recorded) the rotation of a claim: if not, it was never sent. */
  const traced = (claimId: string) =>
    db.get('SELECT 1 AS traced FROM rotations WHERE id = ? UNION ALL SELECT 1 FROM activity WHERE id = ? LIMIT 1', claimId, claimId) !==
    undefined

  /** The server a profile reaches, or null for the built-in sandbox (this machine's own) and a profile gone. */
  const serverOf = (profileId: string): string | null => {
    try {
      const profile = profiles.get(profileId)
      return profile.builtin ? null : serverKey(profile.baseUrl)
    } catch {
      return null
    }
  }

  const queue = (call: TeamRecordedCall) => {
    const server = serverOf(call.entry.profileId)
    const event = server ? callEvent(call, server) : null
    if (!event) return
    outbox.add(event.id, event)
    for (const settled of call.settled ?? []) outbox.add(settledEventId(settled.id), settledEvent(settled))
    db.afterCommit(() => publisher.kick())
  }

  const hooks: TeamHooks = {
    async claimRotation(rotation: TeamRotation) {
      const server = serverOf(rotation.profileId)
      if (!server) return { release: async () => {} }
      let answer: ClaimAnswer
      try {
        await publisher.flush(FLUSH_BEFORE_CLAIM_MS)
        const run = rotation.run ? await options.leases.sharedLease(rotation.run.runId) : null
        const claim = () =>
          link.claimGroup({
            server,
            groupId: rotation.groupId,
            claimId: rotation.id,
            sentSha256: tokenFingerprint(rotation.sentToken),
            holder: owner.id,
            host: owner.host,
            run,
            ttlMs: rotation.timeoutMs + CLAIM_GRACE_MS,
          })
        answer = await claim()
        // This run's own row, claimed under an earlier lease by a process that died before it
        // journaled the rotation: never sent (the journal would say), and that holder can journal
        // nothing more (its lease is gone). The run that took over gives it back and claims again.
        const own = answer.ownClaim
        if (
          own &&
          run &&
          own.runId === run.runId &&
          own.runEpoch !== null &&
          own.runEpoch < run.epoch &&
          !traced(own.id) &&
          (await link.releaseClaim(own.id))
        )
          answer = await claim()
      } catch (error) {
        throw rotationRefused(error)
      }
      if (answer.outcome !== 'claimed') throw claimRefusal(answer, rotation.groupId)
      return {
        release: async () => {
          await link.releaseClaim(rotation.id).catch(() => {})
        },
      }
    },
    recorded: queue,
  }

  if (options.background) {
    publisher.kick()
    void puller.pull().catch((error: unknown) => options.log(`Team: the first pull failed: ${(error as Error).message}`))
    puller.every(PULL_EVERY_MS, () => {})
  }

  return {
    link,
    outbox,
    publisher,
    puller,
    hooks,
    shared: {
      acquireRun: (runId, label, leaseOwner, ttlMs) => link.acquireRun(runId, label, leaseOwner, ttlMs),
      renewRun: (lease, ttlMs) => link.renewRun(lease, ttlMs),
      releaseRun: (lease) => link.releaseRun(lease),
    },
    presumed(entry) {
      const server = serverOf(entry.profileId)
      const event = server ? callEvent({ entry }, server) : null
      if (!event) return
      // The call's own event, if it was queued, says more than a presumption.
      if (db.get('SELECT 1 AS queued FROM team_outbox WHERE id = ?', event.id)) return
      outbox.add(event.id, event)
      db.afterCommit(() => publisher.kick())
    },
    async close() {
      puller.stop()
      await publisher.flush(FLUSH_ON_CLOSE_MS).catch(() => false)
      await publisher.close()
      await link.close()
    },
  }
}
