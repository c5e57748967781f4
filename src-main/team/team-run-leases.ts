import { AppErrorException } from '../../src-shared/ipc/result'
import { LEASE_TTL_MS, type Lease, type LeaseHolder, type LeaseOwner, type RunLeases } from '../bulk/run-leases'
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
  acquireRun(runId: string, label: string, owner: LeaseOwner, ttlMs: number): Promise<{ lease: SharedRunLease } | { holder: SharedRunHolder }>
  renewRun(lease: SharedRunLease, ttlMs: number): Promise<boolean>
  releaseRun(lease: SharedRunLease): Promise<void>
}

const clock = (at: Date) => at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })

export class TeamRunLeases implements RunLeases {
  /** Per run this process holds: its shared lease, as the last acquisition left it (acquisitions run in order). */
  private readonly shared = new Map<string, Promise<{ lease: SharedRunLease } | { holder: SharedRunHolder }>>()
  private readonly lost = new Set<string>()

  constructor(
    private readonly local: RunLeases,
    private readonly db: Database,
    /** The team database while this folder is joined; null in one person's mode (then only the local lease exists). */
    private readonly team: () => SharedLeases | null,
  ) {}

  acquire(runId: string, owner: LeaseOwner, label: string): Lease {
    const lease = this.local.acquire(runId, owner, label)
    const team = this.team()
    if (team) {
      // Once the local lease is on the disk: a transaction rolled back takes nothing in the team either.
      this.db.afterCommit(() => {
        this.lost.delete(runId)
        const previous = this.shared.get(runId) ?? Promise.resolve(null)
        const next = previous.catch(() => null).then(() => team.acquireRun(runId, label, owner, LEASE_TTL_MS))
        next.catch(() => {})
        this.shared.set(runId, next)
      })
    }
    return lease
  }

  renew(lease: Lease): boolean {
    if (!this.local.renew(lease)) return false
    if (this.lost.has(lease.runId)) return false
    const team = this.team()
    const pending = this.shared.get(lease.runId)
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
      const pending = this.shared.get(lease.runId)
      const team = this.team()
      this.shared.delete(lease.runId)
      if (team && pending) void pending.then((taken) => ('lease' in taken ? team.releaseRun(taken.lease) : undefined)).catch(() => {})
    })
  }

  holder(runId: string): LeaseHolder | null {
    return this.local.holder(runId)
  }

  /**
   * The shared lease of a run this process sends, for fencing a row's claim: waits for its
   * acquisition. Refused when another holder has it in the team database (lease_lost), or when
   * the team database is away (team_offline).
   */
  async sharedLease(runId: string): Promise<SharedRunLease> {
    const pending = this.shared.get(runId)
    if (!pending) throw new AppErrorException('lease_lost', 'This process does not hold the run’s lease any more: it stopped sending.')
    const taken = await pending
    if ('lease' in taken) return taken.lease
    const { holder } = taken
    throw new AppErrorException(
      'lease_lost',
      `The run is held in the team database by ${holder.actor} (${holder.client}, pid ${holder.pid} on ${holder.host}) until ${clock(holder.expiresAt)}: resume it after that.`,
    )
  }
}
