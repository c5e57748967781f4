import { AppErrorException } from '../../src-shared/ipc/result'
import { type Lease, LEASE_TTL_MS, type LeaseHolder, type LeaseOwner, type RunLeases } from '../bulk/run-leases'
import type { Database } from '../storage/database'

/*
 * Run leases in a joined data folder. The run's journal is this folder's, so the lease that
 * fences its rows stays the local one (synchronous, in the transaction that re-reads the journal
 * on takeover); the same lease is taken in the team database too, where the per-group claims of
 * the run's rotations are fenced on its epoch, and where the team sees who sends what. A shared
 * lease that another holder took makes the local one lost at its next renewal; a team database
 * that is away fails the next claim, which pauses the run.
 */

export interface SharedRunLease {
  runId: string
  holder: string
  epoch: number
}

export interface SharedRunHolder {
  actor: string
  pid: number
  host: string
  client: string
  expiresAt: Date
}

/** The team database's side of run leases (TeamLink). */
export interface SharedLeases {
  acquireRun(runId: string, label: string, owner: LeaseOwner, ttlMs: number): Promise<SharedAnswer>
  renewRun(lease: SharedRunLease, ttlMs: number): Promise<boolean>
  releaseRun(lease: SharedRunLease): Promise<void>
}

type SharedAnswer = { lease: SharedRunLease } | { holder: SharedRunHolder }

const clock = (at: Date) => at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })

export class TeamRunLeases implements RunLeases {
  /** The runs this process holds: who asked, and their shared lease as the last acquisition left it (acquisitions run in order). */
  private readonly held = new Map<string, { owner: LeaseOwner; label: string; shared: Promise<SharedAnswer> | null }>()
  private readonly lost = new Set<string>()

  constructor(
    private readonly local: RunLeases,
    private readonly db: Database,
    /** The team database while this folder is joined; null in one person's mode (then only the local lease exists). */
    private readonly team: () => SharedLeases | null,
  ) {}

  /** Takes the run's lease in the team database after any acquisition already under way. */
  private acquireShared(runId: string): Promise<SharedAnswer> | null {
    const team = this.team()
    const run = this.held.get(runId)
    if (!team || !run) return null
    const next = (run.shared ?? Promise.resolve(null))
      .catch(() => null)
      .then(() => team.acquireRun(runId, run.label, run.owner, LEASE_TTL_MS))
    next.catch(() => {})
    run.shared = next
    return next
  }

  acquire(runId: string, owner: LeaseOwner, label: string): Lease {
    const lease = this.local.acquire(runId, owner, label)
    // Once the local lease is on the disk: a transaction rolled back takes nothing in the team either.
    this.db.afterCommit(() => {
      this.lost.delete(runId)
      this.held.set(runId, { owner, label, shared: this.held.get(runId)?.shared ?? null })
      this.acquireShared(runId)
    })
    return lease
  }

  renew(lease: Lease): boolean {
    if (!this.local.renew(lease)) return false
    if (this.lost.has(lease.runId)) return false
    const team = this.team()
    const pending = this.held.get(lease.runId)?.shared
    if (team && pending) {
      void pending
        .then(async (taken) => {
          if ('lease' in taken && !(await team.renewRun(taken.lease, LEASE_TTL_MS))) this.lost.add(lease.runId)
        })
        // Away: the next claim says so and pauses the run.
        .catch(() => {})
    }
    return true
  }

  release(lease: Lease): void {
    this.local.release(lease)
    // After the acquisition this transaction may have scheduled (a cancel takes and gives back at once).
    this.db.afterCommit(() => {
      const pending = this.held.get(lease.runId)?.shared
      const team = this.team()
      this.held.delete(lease.runId)
      if (team && pending) void pending.then((taken) => ('lease' in taken ? team.releaseRun(taken.lease) : undefined)).catch(() => {})
    })
  }

  holder(runId: string): LeaseHolder | null {
    return this.local.holder(runId)
  }

  /**
   * The shared lease of a run this process sends, for fencing a row's claim: waits for its
   * acquisition, and tries again when none was made (the folder joined the team mid-run) or the
   * last attempt found the team database away. Refused when another holder has it there
   * (lease_lost), or when the team database is away (team_offline).
   */
  async sharedLease(runId: string): Promise<SharedRunLease> {
    const run = this.held.get(runId)
    if (!run) throw new AppErrorException('lease_lost', 'This process does not hold the run’s lease any more: it stopped sending.')
    const pending = run.shared ?? this.acquireShared(runId)
    const taken = await (
      pending ?? Promise.reject(new AppErrorException('team_offline', 'This data folder is not joined to a team any more.'))
    ).catch(() => {
      const retried = this.acquireShared(runId)
      if (!retried) throw new AppErrorException('team_offline', 'This data folder is not joined to a team any more.')
      return retried
    })
    if ('lease' in taken) return taken.lease
    const { holder } = taken
    throw new AppErrorException(
      'lease_lost',
      `The run is held in the team database by ${holder.actor} (${holder.client}, pid ${holder.pid} on ${holder.host}) until ${clock(holder.expiresAt)}: resume it after that.`,
    )
  }
}
