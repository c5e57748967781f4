import type { Database } from '../storage/database'

/*
 * The outbox: calls recorded here, waiting for the team's audit log. A row is written in the
 * transaction that records its call (so nothing is published that was not recorded, and nothing
 * recorded is left out), read in order, and deleted only once the team database has it. A
 * process killed between the team's commit and the delete sends it again: the team database
 * writes each event once by its id, so a retry never duplicates an audit row.
 */

export interface OutboxRow {
  seq: number
  id: string
  event: unknown
}

export interface ParkedRow {
  seq: number
  id: string
  event: unknown
  parkedAt: string
  reason: string
}

export class TeamOutbox {
  constructor(
    private readonly db: Database,
    /** This Embed Console's version: an event parked by another version is tried again (it may store it). */
    private readonly version: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Queues an event under its id (in the caller's transaction). A newer event with an id already
   * queued replaces it, under a new position: a call first presumed unknown, then answered.
   */
  add(id: string, event: unknown): void {
    this.db.run(
      'INSERT OR REPLACE INTO team_outbox (id, event, created_at) VALUES (?, ?, ?)',
      id,
      JSON.stringify(event),
      this.now().toISOString(),
    )
  }

  /** The oldest events waiting (parked ones stay out of the queue). */
  next(limit: number): OutboxRow[] {
    return this.db
      .all<{
        seq: number
        id: string
        event: string
      }>('SELECT seq, id, event FROM team_outbox WHERE parked_at IS NULL ORDER BY seq LIMIT ?', limit)
      .map((row) => ({ seq: row.seq, id: row.id, event: JSON.parse(row.event) as unknown }))
  }

  /** An event the team database refused to store: out of the queue, kept with its sentence. */
  park(seq: number, reason: string): void {
    this.db.run(
      'UPDATE team_outbox SET parked_at = ?, parked_by_version = ?, last_error = ?, attempts = attempts + 1 WHERE seq = ?',
      this.now().toISOString(),
      this.version,
      reason.slice(0, 1000),
      seq,
    )
  }

  /** Events another Embed Console version parked go back in the queue: this one may store them. */
  unparkFromOtherVersions(): number {
    return this.db.run('UPDATE team_outbox SET parked_at = NULL WHERE parked_at IS NOT NULL AND parked_by_version IS NOT ?', this.version)
      .changes
  }

  parked(limit: number): ParkedRow[] {
    return this.db
      .all<{ seq: number; id: string; event: string; parked_at: string; last_error: string | null }>(
        'SELECT seq, id, event, parked_at, last_error FROM team_outbox WHERE parked_at IS NOT NULL ORDER BY seq DESC LIMIT ?',
        limit,
      )
      .map((row) => ({
        seq: row.seq,
        id: row.id,
        event: JSON.parse(row.event) as unknown,
        parkedAt: row.parked_at,
        reason: row.last_error ?? 'The team database refused it.',
      }))
  }

  parkedCount(): number {
    return this.db.get<{ n: number }>('SELECT count(*) AS n FROM team_outbox WHERE parked_at IS NOT NULL')?.n ?? 0
  }

  /** Why the oldest event waiting failed at its last attempt, if it did. */
  lastError(): string | null {
    return (
      this.db.get<{ last_error: string | null }>(
        'SELECT last_error FROM team_outbox WHERE parked_at IS NULL AND attempts > 0 ORDER BY seq LIMIT 1',
      )?.last_error ?? null
    )
  }

  /** The team database has them: gone (by position, so an event replaced meanwhile stays queued). */
  remove(seqs: readonly number[]): void {
    if (seqs.length === 0) return
    this.db.transaction(() => {
      for (const seq of seqs) this.db.run('DELETE FROM team_outbox WHERE seq = ?', seq)
    })
  }

  noteFailure(seqs: readonly number[], error: string): void {
    this.db.transaction(() => {
      for (const seq of seqs)
        this.db.run('UPDATE team_outbox SET attempts = attempts + 1, last_error = ? WHERE seq = ?', error.slice(0, 500), seq)
    })
  }

  /** Events still to publish (parked ones are not: nothing here can publish them). */
  backlog(): number {
    return this.db.get<{ n: number }>('SELECT count(*) AS n FROM team_outbox WHERE parked_at IS NULL')?.n ?? 0
  }
}
