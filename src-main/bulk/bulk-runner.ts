import {
  BREAKER_FAILURES,
  type BulkOutcome,
  type BulkProgress,
  type BulkRunState,
  type BulkSettings,
  type BulkTallies,
} from '../../src-shared/bulk/schemas'
import { messageOf } from '../../src-shared/ipc/error-message'
import { AppErrorException } from '../../src-shared/ipc/result'
import { visibleTail } from '../../src-shared/profiles/schemas'
import type { GetOrCreateRequest, UserGroup } from '../../src-shared/user-api/schemas'
import type { BulkJournal, ItemSettlement, JournalItem } from './bulk-journal'
import { rowDiffers } from './bulk-plan'
import { type Lease, LEASE_RENEW_EVERY_MS } from './run-leases'

/** What one request came back with. */
export interface SentGroup {
  group: UserGroup
  newUserGroup?: boolean
  httpStatus: number
  /** Set when the answer could not be recorded (a full disk): the run must stop. */
  unsaved?: string
}

export type SenderSettlement = { ok: true; sent: SentGroup } | { ok: false; error: AppErrorException }

/**
 * Sends the run's requests. `settle` is called with the call's outcome where its result is
 * recorded (for a profile, inside the transaction that writes the activity entry, the token and
 * the catalog row), so the journal row commits with them.
 */
export interface BulkSender {
  getOrCreate(request: GetOrCreateRequest, settle: (settlement: SenderSettlement) => void): Promise<SentGroup>
  update(request: GetOrCreateRequest, settle: (settlement: SenderSettlement) => void): Promise<SentGroup>
  /**
   * `claim` runs in the durable transaction that journals the rotation before it is sent (it
   * claims the row, fenced on the run's lease, and throws when the lease was lost).
   */
  rotate(
    groupId: string,
    settle: (settlement: SenderSettlement) => void,
    row: { claim: () => void; runId: string; seq: number },
  ): Promise<SentGroup>
  /** The mapping this app last sent for a group, when it knows it (the API never returns one). */
  knownMapping?(groupId: string): unknown
}

/** Another try after a wait: a 429 (every request waits) or a failure worth sending again. */
interface Retry {
  retryInMs: number
  rateLimited: boolean
}

/** Idempotent calls are tried this many times on a 5xx or a network failure. */
const MAX_ATTEMPTS = 4
/** A 429 is never a failure, but a server that refuses this often is not coming back. */
const MAX_RATE_LIMITED = 50
const MAX_BACKOFF_MS = 60_000
const FETCH_BATCH = 500
/**
 * Get-or-create and update rows are claimed this many at a time, in one commit, before they are
 * sent: after a crash they are known to have been tried (a group already there is the run's own),
 * at a commit per this many rows. Those a pause keeps from being sent are given back untried.
 */
const CLAIM_AHEAD = 32
const PROGRESS_EVERY_MS = 250
const RATE_WINDOW_MS = 10_000

/** The run's lease, as the runner keeps it: taken at start and on resume, renewed, given back when it stops. */
export interface RunLease {
  /** Takes the lease (a new epoch) and re-reads the journal; throws a refusal naming the holder. */
  acquire(): Lease
  renew(lease: Lease): boolean
  release(lease: Lease): void
}

export interface RunnerOptions {
  journal: BulkJournal
  lease: RunLease
  runId: string
  sender: BulkSender
  settings: BulkSettings
  onProgress?: (progress: BulkProgress) => void
  /** The pace shared with other runs to the same server; a run of its own pace otherwise. */
  pacer?: Pacer
  /** For tests: time and randomness. */
  now?: () => number
  random?: () => number
  sleep?: (ms: number) => Promise<void>
}

export interface RunControl {
  /** Takes no new row; the rows in flight finish, then the run is `paused` (and its lease given back). */
  pause(): void
  /** Takes the lease again (throws a refusal when another process holds it) and goes on. */
  resume(): void
  /** Takes no new row; the rows in flight finish, the rest are skipped and the run is `cancelled`. */
  cancel(): void
  setRate(ratePerMinute: number | null): void
  progress(): BulkProgress
  /** Resolves the next time nothing is in flight: paused, cancelled or finished. */
  idle(): Promise<BulkRunState>
  /** Resolves when the run is finished or cancelled. */
  done: Promise<BulkRunState>
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

const statusOf = (error: AppErrorException): number | undefined => {
  const status = (error.details as { status?: unknown } | undefined)?.status
  return typeof status === 'number' ? status : undefined
}

/** Retry-After in ms: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterMs(error: AppErrorException, now: number): number | undefined {
  const headers = (error.details as { headers?: Record<string, string> } | undefined)?.headers
  const value = headers?.['retry-after']?.trim()
  if (!value) return undefined
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** Worth sending again if the call is idempotent: the server failed, or the request may not have arrived. */
const isTransient = (error: AppErrorException) => {
  const status = statusOf(error)
  if (status !== undefined && status >= 500) return true
  return ['connect_failed', 'timeout', 'outcome_unknown'].includes(error.code) || (error.code === 'bad_response' && status === undefined)
}

/** The server is not there, or not well: what the circuit breaker counts (a 4xx is an answer). */
const isServerDown = (error: AppErrorException) => isTransient(error) || error.code === 'dns_failed' || error.code === 'tls_failed'

/**
 * Failures that say nothing of the row: the run cannot go on here (it lost its lease, the disk is
 * full, the team database that must claim each rotation is away).
 */
const stopsTheRun = (error: AppErrorException) => error.code === 'lease_lost' || error.code === 'storage' || error.code === 'team_offline'

/** Team mode: another machine rotates (or rotated) this group; the refusal names who. Nothing was sent. */
const claimedElsewhere = (error: AppErrorException) =>
  error.code === 'conflict' && typeof (error.details as { claim?: unknown } | undefined)?.claim === 'object'

/**
 * The pace of requests to one server: a rate a minute, evenly spaced (a token bucket of one),
 * and a time before which nothing is sent (a 429's Retry-After). Shared by every run going to
 * the same profile, so two runs together keep to the profile's limit.
 */
export class Pacer {
  private nextAt = 0
  private notBefore = 0
  constructor(
    private perMinute: number | null,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = defaultSleep,
  ) {}

  setRate(perMinute: number | null) {
    this.perMinute = perMinute
  }

  /** The server asked to wait this long (every request holds back, not only the refused one). */
  holdFor(ms: number) {
    this.notBefore = Math.max(this.notBefore, this.now() + ms)
  }

  waitingUntil(): number | null {
    return this.notBefore > this.now() ? this.notBefore : null
  }

  async take(): Promise<void> {
    while (this.notBefore > this.now()) await this.sleep(this.notBefore - this.now())
    if (this.perMinute === null) return
    const at = Math.max(this.now(), this.nextAt)
    this.nextAt = at + 60_000 / this.perMinute
    const wait = at - this.now()
    if (wait > 0) await this.sleep(wait)
  }
}

/**
 * Runs a planned bulk run: `concurrency` workers take the journal's pending rows in file order,
 * paced by the rate limit, each row claimed under the run's lease before it is sent. A 429 makes
 * every worker wait for its Retry-After (with backoff and jitter) and is never a failure;
 * get-or-create and update are sent again after a 5xx or a network failure, up to a limit; a
 * rotation is journaled before it is sent and never sent again. Requests that find the server
 * down five times in a row pause the run (the circuit breaker), as does a failed row under
 * `bail`; resuming goes on where it stopped. Pause and cancel let the requests in flight finish.
 */
export function startRun(options: RunnerOptions): RunControl {
  const { journal, runId, sender } = options
  const now = options.now ?? Date.now
  const random = options.random ?? Math.random
  const sleep = options.sleep ?? defaultSleep
  const pacer = options.pacer ?? new Pacer(options.settings.ratePerMinute, now, sleep)
  pacer.setRate(options.settings.ratePerMinute)

  let lease = options.lease.acquire()
  let tallies: BulkTallies = journal.tallies(runId)
  const planned = journal.planned(runId)
  // The rows this run sends: not the unchanged ones, nor those the operator chose not to send.
  const totalOf = () => planned.total - planned.unchanged - tallies.skipped
  let total = totalOf()

  let state: BulkRunState = 'running'
  let pausing = false
  let cancelling = false
  /** Why the run stops itself (the breaker, bail, a lost lease, a full disk); null when the operator paused it. */
  let stopReason: string | null = null
  let consecutiveDown = 0
  let retried = 0
  /** Rows a cancel skipped: never sent, so never counted as done. */
  let cancelledRows = 0
  let lastSeq = -1
  let exhausted = false
  let queue: JournalItem[] = []
  /** Idempotent rows claimed and not yet taken by a worker (see CLAIM_AHEAD). */
  let claimed: JournalItem[] = []
  const finishedAt: number[] = []
  let lastProgressAt = 0
  const idleWaiters: Array<(state: BulkRunState) => void> = []
  let resolveDone: (state: BulkRunState) => void = () => {}
  const done = new Promise<BulkRunState>((resolve) => (resolveDone = resolve))

  const progress = (): BulkProgress => {
    const cutoff = now() - RATE_WINDOW_MS
    while (finishedAt.length && finishedAt[0]! < cutoff) finishedAt.shift()
    const ratePerMinute = (finishedAt.length * 60_000) / RATE_WINDOW_MS
    return {
      runId,
      state,
      total,
      done: total - tallies.pending - cancelledRows,
      failed: tallies.failed,
      unknown: tallies.unknown,
      retried,
      ratePerMinute: Math.round(ratePerMinute),
      etaSeconds: ratePerMinute > 0 && state === 'running' ? Math.round((tallies.pending / ratePerMinute) * 60) : null,
      waitingUntil: pacer.waitingUntil() ? new Date(pacer.waitingUntil()!).toISOString() : null,
      pausedReason: state === 'paused' ? stopReason : null,
    }
  }

  const report = (force = false) => {
    if (!options.onProgress || (!force && now() - lastProgressAt < PROGRESS_EVERY_MS)) return
    lastProgressAt = now()
    options.onProgress(progress())
  }

  /** The run stops taking rows, for a reason the operator is told; the first reason stands. */
  const stopFor = (reason: string) => {
    if (stopReason === null) stopReason = reason
    pausing = true
  }

  let renewal: ReturnType<typeof setInterval> | undefined
  const keepLease = () => {
    clearInterval(renewal)
    renewal = setInterval(() => {
      if (!options.lease.renew(lease)) stopFor('Another Embed Console process took this run over: this one stopped sending.')
    }, LEASE_RENEW_EVERY_MS)
    renewal.unref?.()
  }
  keepLease()

  const record = (item: JournalItem, settlement: ItemSettlement, fence?: Lease) => {
    journal.settle(runId, item.seq, settlement, fence)
    tallies[settlement.outcome ?? 'failed'] += 1
    tallies.pending -= 1
    finishedAt.push(now())
    if (options.settings.bail && (settlement.outcome === 'failed' || settlement.outcome === 'unknown')) {
      stopFor(
        `Line ${item.line} (${item.groupId}) did not succeed${settlement.message ? `: ${settlement.message.replace(/\.$/, '')}` : ''}. This run stops at the first failure.`,
      )
    }
  }

  /** Counts requests that found the server down; an answer of any other kind resets the count. */
  const noteAnswer = (error?: AppErrorException) => {
    if (!error || !isServerDown(error)) {
      consecutiveDown = 0
      return
    }
    consecutiveDown += 1
    if (consecutiveDown >= BREAKER_FAILURES) {
      stopFor(
        `The server is not answering: ${consecutiveDown} requests in a row failed (the last: ${error.message.replace(/\.$/, '')}). The run is paused; resume it when the server is back.`,
      )
    }
  }

  function nextItem(): JournalItem | undefined {
    if (claimed.length) return claimed.shift()
    if (queue.length === 0 && !exhausted) {
      queue = journal.pending(runId, lastSeq, FETCH_BATCH)
      if (queue.length < FETCH_BATCH) exhausted = true
      if (queue.length) lastSeq = queue.at(-1)!.seq
    }
    // A rotation is claimed on its own, when it is journaled; the others a few at a time.
    const idempotentNext = () => queue.length > 0 && queue[0]!.action !== 'rotate'
    if (!idempotentNext()) return queue.shift()
    const batch: JournalItem[] = []
    while (batch.length < CLAIM_AHEAD && idempotentNext()) batch.push(queue.shift()!)
    let held: boolean
    try {
      held = journal.claimRows(
        lease,
        batch.map((item) => ({ seq: item.seq, attempts: item.attempts + 1 })),
      )
    } catch (error) {
      // The disk is full, or the database busy for too long: nothing was claimed, nothing is sent.
      stopFor(`${messageOf(error)} The run is paused; nothing more is sent until it is resumed.`)
      return undefined
    }
    if (!held) {
      stopFor('Another Embed Console process took this run over: this one stopped sending.')
      return undefined
    }
    claimed = batch
    return claimed.shift()
  }

  /** Rows claimed ahead that no worker took (the run is stopping): pending again, as untried as they were. */
  function giveBackClaimed(): void {
    for (const item of claimed.splice(0)) journal.unclaimRow(lease, item.seq, item.attempts)
  }

  /** What a failure leads to: a wait and another try, or a final outcome. */
  function decide(
    item: JournalItem,
    tries: number,
    attempts: number,
    rateLimited: number,
    error: AppErrorException,
  ): Retry | { settle: ItemSettlement } {
    const status = statusOf(error)
    const base = { attempts, httpStatus: status ?? null, errorCode: error.code, message: error.message }
    if (status === 429 && rateLimited < MAX_RATE_LIMITED) {
      const asked = retryAfterMs(error, now()) ?? Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(rateLimited, 6))
      return { retryInMs: asked * (1 + 0.2 * random()), rateLimited: true }
    }
    if (item.action === 'rotate') {
      if (claimedElsewhere(error)) return { settle: { ...base, state: 'skipped', outcome: 'skipped' } }
      // Never sent twice: a lost answer is listed for the operator, never retried.
      return {
        settle: {
          ...base,
          state: error.code === 'outcome_unknown' ? 'unknown' : 'failed',
          outcome: error.code === 'outcome_unknown' ? 'unknown' : 'failed',
        },
      }
    }
    if (isTransient(error) && tries < MAX_ATTEMPTS) {
      const backoff = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (tries - 1))
      return { retryInMs: backoff * (0.5 + random()), rateLimited: false }
    }
    return { settle: { ...base, state: 'failed', outcome: 'failed' } }
  }

  /** Sends one row to its end: retries, a follow-up update, and its journal row settled. */
  async function send(item: JournalItem): Promise<void> {
    let attempts = item.attempts
    let tries = 0
    let rateLimited = 0
    let followUp = false
    const previouslyTried = item.attempts > 0
    const held = lease
    for (;;) {
      await pacer.take()
      // The run stopped itself while this row waited (the server is down, the lease was lost):
      // it was not sent this time, so it waits for the resume as it stands.
      if (stopReason !== null) return journal.unclaimRow(held, item.seq, tries === 0 ? item.attempts : undefined)
      attempts += 1
      tries += 1
      const call = followUp || item.action === 'update' ? 'update' : item.action === 'rotate' ? 'rotate' : 'getOrCreate'
      const claim = () => {
        if (!journal.claimRow(held, item.seq, attempts))
          throw new AppErrorException('lease_lost', 'Another Embed Console process took this run over: this one stopped sending.')
      }
      // A rotation is claimed as it is journaled; an idempotent row was claimed ahead, and is settled only while the lease holds.
      const fence = call === 'rotate' ? undefined : held

      let outcome: { settled: true } | { followUp: true } | Retry = { settled: true }
      let heard = false
      const settle = (settlement: SenderSettlement) => {
        heard = true
        noteAnswer(settlement.ok ? undefined : settlement.error)
        if (!settlement.ok) {
          const decision = decide(item, tries, attempts, rateLimited, settlement.error)
          if ('settle' in decision) record(item, decision.settle, fence)
          else outcome = decision
          return
        }
        const { sent } = settlement
        const tokenLast4 = visibleTail(sent.group.token) ?? null
        const finish = (result: BulkOutcome, message: string | null = null) =>
          record(item, { state: 'done', outcome: result, attempts, httpStatus: sent.httpStatus, tokenLast4, message }, fence)
        if (call === 'rotate') return finish('rotated')
        if (call === 'update') return finish('updated')
        if (sent.newUserGroup !== false) return finish('created')
        // The group was there already. Sent again after a crash, it is ours if it looks like the row.
        const known = {
          name: sent.group.name,
          properties: sent.group.properties,
          mapping: previouslyTried ? item.request.mapping : sender.knownMapping?.(item.groupId),
        }
        if (!rowDiffers(item.request, known)) return finish(previouslyTried || attempts > 1 ? 'created' : 'unchanged')
        if (!options.settings.sendUpdate)
          return finish('skipped', 'The group exists with other fields; updates were not chosen for this run.')
        outcome = { followUp: true }
      }

      try {
        if (call === 'rotate') {
          const sent = await sender.rotate(item.groupId, settle, { claim, runId, seq: item.seq })
          if (sent.unsaved) stopFor(sent.unsaved)
        } else {
          // Claimed ahead (tried, should the process die); settled after its answer, with the rows around it.
          const sent = call === 'update' ? await sender.update(item.request, settle) : await sender.getOrCreate(item.request, settle)
          if (sent.unsaved) stopFor(sent.unsaved)
        }
      } catch (error) {
        if (!(error instanceof AppErrorException)) {
          record(item, {
            state: 'failed',
            outcome: 'failed',
            attempts,
            message: `The call failed unexpectedly: ${(error as Error).message}`,
          })
          return
        }
        if (stopsTheRun(error)) {
          // Nothing was sent (the claim or the journal refused): the row is not this run's to settle now.
          stopFor(
            error.code === 'storage' ? `${error.message} The run is paused; nothing more is sent until it is resumed.` : error.message,
          )
          if (!heard) journal.unclaimRow(held, item.seq)
          return
        }
        // Refused before anything was sent (the profile is gone, no token is kept): settle it here.
        if (!heard) settle({ ok: false, error })
      }
      const next = outcome as { settled: true } | { followUp: true } | Retry
      if ('settled' in next) return
      if ('followUp' in next) {
        followUp = true
        continue
      }
      retried += 1
      // A 429 holds back every request to this server; a failure waits its own backoff.
      if (next.rateLimited) {
        rateLimited += 1
        pacer.holdFor(next.retryInMs)
      } else await sleep(next.retryInMs)
      report()
    }
  }

  async function worker(): Promise<void> {
    for (;;) {
      if (pausing || cancelling) return
      const item = nextItem()
      if (!item) return
      await send(item)
      report()
    }
  }

  /**
   * Rotations whose answer was lost are settled before the run reports its end: a fetch of each
   * group tells whether it happened (another token) or not (the same). A failure leaves the row
   * unknown, for Check now later.
   */
  async function settleUnknowns(): Promise<void> {
    if (tallies.unknown === 0) return
    for (const item of journal.items(runId, { action: 'rotate', state: 'unknown' }, 0, 10_000).items) {
      await sender.getOrCreate({ user_group_id: item.groupId }, () => {}).catch(() => undefined)
    }
    tallies = journal.tallies(runId)
  }

  /** Runs the workers until they run dry or stop, then settles the run's state. */
  async function cycle(): Promise<void> {
    await Promise.all(Array.from({ length: options.settings.concurrency }, worker))
    giveBackClaimed()
    if (cancelling) {
      journal.skipPending(runId)
      cancelledRows = tallies.pending
      tallies.skipped += tallies.pending
      tallies.pending = 0
      state = 'cancelled'
    } else state = tallies.pending > 0 ? 'paused' : 'finished'
    pausing = false
    if (state === 'finished' && !stopReason) await settleUnknowns()
    journal.setState(runId, state, state === 'paused' ? stopReason : null)
    // Given back at once: a paused run may be resumed by another process (the CLI, another window).
    clearInterval(renewal)
    options.lease.release(lease)
    report(true)
    if (state !== 'paused') resolveDone(state)
    for (const waiter of idleWaiters.splice(0)) waiter(state)
  }

  void cycle()
  report(true)

  return {
    pause() {
      if (state === 'running') pausing = true
    },
    resume() {
      if (state !== 'paused' || cancelling) return
      lease = options.lease.acquire()
      keepLease()
      tallies = journal.tallies(runId)
      total = totalOf()
      state = 'running'
      stopReason = null
      consecutiveDown = 0
      queue = []
      exhausted = false
      lastSeq = -1
      report(true)
      void cycle()
    },
    cancel() {
      if (state === 'finished' || state === 'cancelled') return
      cancelling = true
      // A paused run has nothing in flight: it ends at once.
      if (state === 'paused') void cycle()
    },
    setRate(ratePerMinute) {
      pacer.setRate(ratePerMinute)
    },
    progress,
    idle: () => (state === 'running' ? new Promise((resolve) => idleWaiters.push(resolve)) : Promise.resolve(state)),
    done,
  }
}
