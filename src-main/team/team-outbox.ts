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

export class TeamOutbox {
  constructor(
    private readonly db: Database,
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

  next(limit: number): OutboxRow[] {
    return this.db
      .all<{ seq: number; id: string; event: string }>('SELECT seq, id, event FROM team_outbox ORDER BY seq LIMIT ?', limit)
      .map((row) => ({ seq: row.seq, id: row.id, event: JSON.parse(row.event) as unknown }))
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

  backlog(): number {
    return this.db.get<{ n: number }>('SELECT count(*) AS n FROM team_outbox')?.n ?? 0
  }
}
