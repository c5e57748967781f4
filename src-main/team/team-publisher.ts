import { messageOf } from '../../src-shared/ipc/error-message'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { OutboxRow, TeamOutbox } from './team-outbox'

/*
 * Publishes the outbox to the team database, oldest first, a batch a statement: after each
 * recording transaction commits (kicked), and again with a growing delay while the database is
 * away. One publication at a time in this process; another process publishing the same rows is
 * harmless (the team database writes each event once).
 *
 * A batch the database refuses for what it holds (a value it will not store, an id that is
 * another operator's) is sent again in halves until the one event is found: that one is parked,
 * with the database's sentence, and the rest go on. Anything else (the database away, a login
 * refused, a schema this version cannot write) leaves the batch queued, to try again.
 */

/** SQLSTATE classes that speak of the data sent: the schema's sentences (EC), data exceptions, integrity, limits. */
const EVENT_PROBLEM = /^(EC|22|23|54)/

/** Whether a failure is the event's fault (park it) rather than the link's (wait and try again). */
export function eventRefused(error: unknown): boolean {
  if (!(error instanceof AppErrorException)) return false
  const sqlState = (error.details as { sqlState?: unknown } | undefined)?.sqlState
  return typeof sqlState === 'string' && EVENT_PROBLEM.test(sqlState)
}

const BATCH = 200
/** Calls recorded within this long of each other are published together (a bulk run records hundreds a second). */
const GATHER_MS = 20
const FIRST_RETRY_MS = 1_000
const MAX_RETRY_MS = 30_000

export interface PublisherOptions {
  /** Retries on a timer (the app and browser mode); a CLI call only flushes before it exits. */
  background: boolean
  onPublished?: (at: Date) => void
}

export class OutboxPublisher {
  private running: Promise<void> | null = null
  private again = false
  private failures = 0
  private retry: ReturnType<typeof setTimeout> | undefined
  private closed = false
  lastError: string | null = null

  constructor(
    private readonly outbox: TeamOutbox,
    private readonly publish: (events: unknown[]) => Promise<unknown>,
    private readonly options: PublisherOptions,
  ) {}

  private gathering: ReturnType<typeof setTimeout> | undefined

  /** Publishes soon: what is recorded meanwhile goes in the same statement. */
  kick(): void {
    if (this.closed || this.gathering) return
    this.gathering = setTimeout(() => this.start(), GATHER_MS)
    this.gathering.unref?.()
  }

  private start(): void {
    clearTimeout(this.gathering)
    this.gathering = undefined
    if (this.closed) return
    if (this.running) {
      this.again = true
      return
    }
    this.running = this.drain().finally(() => {
      this.running = null
      if (this.again) {
        this.again = false
        this.start()
      }
    })
  }

  private async drain(): Promise<void> {
    for (;;) {
      const rows = this.outbox.next(BATCH)
      if (rows.length === 0) return
      try {
        await this.publishOrPark(rows)
      } catch (error) {
        this.failures += 1
        this.lastError = messageOf(error)
        this.outbox.noteFailure(
          rows.map((row) => row.seq),
          this.lastError,
        )
        this.scheduleRetry()
        return
      }
      this.failures = 0
      this.lastError = null
      this.options.onPublished?.(new Date())
    }
  }

  /**
   * Publishes `rows`, or, when the database refuses what they hold, each half on its own: the
   * one event it will not store is parked, everything else is published. Throws only what is
   * not an event's fault.
   */
  private async publishOrPark(rows: readonly OutboxRow[]): Promise<void> {
    try {
      await this.publish(rows.map((row) => row.event))
    } catch (error) {
      if (!eventRefused(error)) throw error
      if (rows.length === 1) {
        this.outbox.park(rows[0]!.seq, messageOf(error))
        return
      }
      const half = Math.ceil(rows.length / 2)
      await this.publishOrPark(rows.slice(0, half))
      await this.publishOrPark(rows.slice(half))
      return
    }
    this.outbox.remove(rows.map((row) => row.seq))
  }

  private scheduleRetry(): void {
    if (!this.options.background || this.closed) return
    clearTimeout(this.retry)
    this.retry = setTimeout(() => this.start(), Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(this.failures - 1, 5)))
    this.retry.unref?.()
  }

  /**
   * Publishes until the outbox is empty, the team database fails, or `timeoutMs` passes. True
   * when nothing is left.
   */
  async flush(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      if (this.outbox.backlog() === 0) return true
      const left = deadline - Date.now()
      if (left <= 0 || this.closed) return false
      const failuresBefore = this.failures
      this.start()
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([this.running ?? Promise.resolve(), new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))])
      clearTimeout(timer)
      if (this.failures > failuresBefore) return false
    }
  }

  /** Stops retrying; a publication under way finishes. */
  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.retry)
    clearTimeout(this.gathering)
    await this.running
  }
}
