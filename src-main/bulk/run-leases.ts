import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { Database } from '../storage/database'

/*
 * A bulk run is sent by one process at a time: the one holding its lease. The lease names its
 * holder (a random id per process, with its pid, host and kind, for the sentence another process
 * shows), is renewed while the run works, and expires if it is not. A holder that died is taken
 * over after expiry, or at once when it was a process of this machine that no longer exists: its
 * pid names no process, or one started at another time (the pid was reused). Each acquisition moves the lease's epoch on,
 * and every row is claimed fenced on the epoch, so a holder that lost its lease can never claim another row.
 *
 * The statements are plain SQL with times in milliseconds, so the same ones run on a server
 * database (team mode moves the leases to Postgres behind this interface).
 */

/** How long a lease lasts without renewal, and how often a holder renews it. */
export const LEASE_TTL_MS = 30_000
export const LEASE_RENEW_EVERY_MS = 5_000

export type LeaseClient = 'app' | 'browser' | 'cli'

const CLIENT_NAMES: Record<LeaseClient, string> = { app: 'the app', browser: 'browser mode', cli: 'the command line' }

/** The process asking: one per process (its services), never reused. */
export interface LeaseOwner {
  id: string
  pid: number
  host: string
  client: LeaseClient
  /** When its process started, as processStart says (absent where that cannot be read). */
  started?: string
}

let bootId: string | null | undefined

/**
 * When a process of this machine started, as a text equal only for the same process: the boot
 * and the start time the kernel keeps for the pid (Linux's /proc). Null when no process has this
 * pid; undefined where it cannot be told (another system).
 */
export function processStart(pid: number): string | null | undefined {
  if (process.platform !== 'linux') return undefined
  try {
    bootId ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  } catch {
    bootId = null
  }
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // Field 22 (starttime), counted after the command name, which may hold spaces and parentheses.
  const startTicks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  return startTicks === undefined ? undefined : `${bootId ?? 'boot'}:${startTicks}`
}

export const leaseOwner = (client: LeaseClient): LeaseOwner => {
  const started = processStart(process.pid)
  return { id: randomUUID(), pid: process.pid, host: hostname(), client, ...(started ? { started } : {}) }
}

/** A lease held: what every row claim is fenced on. */
export interface Lease {
  runId: string
  holder: string
  epoch: number
}

/** Who holds a run, for the sentence that refuses another process. */
export interface LeaseHolder {
  holder: string
  pid: number
  host: string
  client: LeaseClient
  since: number
  expiresAt: number
  /** When the holder's process started (see processStart), if it was recorded. */
  started?: string
}

export interface RunLeases {
  /** Takes the run for `owner` (a new epoch), or throws a refusal that names the holder. */
  acquire(runId: string, owner: LeaseOwner, label: string): Lease
  /** Keeps the lease; false when it was taken over (the holder must stop claiming rows). */
  renew(lease: Lease): boolean
  release(lease: Lease): void
  /** The live holder of a run, if any. */
  holder(runId: string): LeaseHolder | null
}

interface HolderRecord {
  lease_holder: string | null
  lease_pid: number | null
  lease_host: string | null
  lease_client: LeaseClient | null
  lease_since: number | null
  lease_expires_at: number | null
  lease_started: string | null
}

const clock = (at: number) => new Date(at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * A holder that is certainly gone: a process of this machine whose pid names no process any
 * more, or names one that started at another time than the holder did (the pid was reused).
 * A holder elsewhere, or whose start cannot be compared, is never presumed gone.
 */
export function holderGone(holder: Pick<LeaseHolder, 'pid' | 'host' | 'started'>, ownHost = hostname()): boolean {
  if (holder.host !== ownHost) return false
  if (!isAlive(holder.pid)) return true
  if (!holder.started) return false
  const now = processStart(holder.pid)
  return now === null || (now !== undefined && now !== holder.started)
}

/**
 * "rows.csv is being sent by the app, pid 4242, since 10:02 — pause it there or wait." A holder
 * on this machine whose process is gone is said so, with when its lease ends.
 */
export function leaseRefusal(label: string, holder: LeaseHolder, now: number, ownHost = hostname()): AppErrorException {
  const where = holder.host === ownHost ? '' : ` on ${holder.host}`
  const who = `${CLIENT_NAMES[holder.client] ?? 'another process'}, pid ${holder.pid}${where}, since ${clock(holder.since)}`
  const gone = holderGone(holder, ownHost)
  const seconds = Math.max(1, Math.ceil((holder.expiresAt - now) / 1000))
  const message = gone
    ? `${label} was being sent by ${who}, which has stopped. Its lease ends at ${clock(holder.expiresAt)} (in ${seconds} s): resume it then, and the rows it was sending will be checked first.`
    : `${label} is being sent by ${who} — pause it there or wait.`
  return new AppErrorException('conflict', message, {
    owner: { client: holder.client, pid: holder.pid, host: holder.host, since: new Date(holder.since).toISOString() },
  })
}

/** The leases in the app's SQLite database (the bulk_runs row carries its lease). */
export class SqliteRunLeases implements RunLeases {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  acquire(runId: string, owner: LeaseOwner, label: string): Lease {
    const at = this.now()
    // A holder that is certainly gone (kill -9, a crash) is taken over at once, not after expiry:
    // named in the statement, so a holder that came in meanwhile is never the one replaced.
    const current = this.record(runId, at)
    const gone = current && holderGone(current) ? current.holder : null
    const taken = this.db.get<{ lease_epoch: number }>(
      `UPDATE bulk_runs
          SET lease_epoch = lease_epoch + 1, lease_holder = ?, lease_pid = ?, lease_host = ?, lease_client = ?, lease_since = ?, lease_expires_at = ?,
              lease_started = ?
        WHERE id = ? AND state NOT IN ('finished', 'cancelled')
          AND (lease_holder IS NULL OR lease_holder = ? OR lease_expires_at <= ? OR lease_holder = ?)
        RETURNING lease_epoch`,
      owner.id,
      owner.pid,
      owner.host,
      owner.client,
      at,
      at + LEASE_TTL_MS,
      owner.started ?? null,
      runId,
      owner.id,
      at,
      gone,
    )
    if (taken) return { runId, holder: owner.id, epoch: taken.lease_epoch }
    const holder = this.holder(runId)
    if (holder) throw leaseRefusal(label, holder, at)
    throw new AppErrorException('refused', `${label} has ended: plan the file again to send it again.`)
  }

  renew(lease: Lease): boolean {
    return (
      this.db.run(
        'UPDATE bulk_runs SET lease_expires_at = ? WHERE id = ? AND lease_holder = ? AND lease_epoch = ?',
        this.now() + LEASE_TTL_MS,
        lease.runId,
        lease.holder,
        lease.epoch,
      ).changes === 1
    )
  }

  release(lease: Lease): void {
    this.db.run(
      'UPDATE bulk_runs SET lease_holder = NULL, lease_expires_at = NULL WHERE id = ? AND lease_holder = ? AND lease_epoch = ?',
      lease.runId,
      lease.holder,
      lease.epoch,
    )
  }

  /** The live holder of a run: one whose lease has not expired and whose process is not certainly gone. */
  holder(runId: string): LeaseHolder | null {
    const current = this.record(runId, this.now())
    return current && !holderGone(current) ? current : null
  }

  /** The holder of an unexpired lease, gone or not. */
  private record(runId: string, at: number): LeaseHolder | null {
    const row = this.db.get<HolderRecord>(
      'SELECT lease_holder, lease_pid, lease_host, lease_client, lease_since, lease_expires_at, lease_started FROM bulk_runs WHERE id = ? AND lease_holder IS NOT NULL AND lease_expires_at > ?',
      runId,
      at,
    )
    if (!row?.lease_holder) return null
    return {
      holder: row.lease_holder,
      pid: row.lease_pid ?? 0,
      host: row.lease_host ?? '',
      client: row.lease_client ?? 'cli',
      since: row.lease_since ?? 0,
      expiresAt: row.lease_expires_at ?? 0,
      ...(row.lease_started ? { started: row.lease_started } : {}),
    }
  }
}
