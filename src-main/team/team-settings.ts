import type { Database } from '../storage/database'

/*
 * Whether this data folder is joined to a team, read without loading the Postgres driver: one
 * person's mode checks this once at start and loads nothing else. The address is kept without
 * its password (the vault keeps that, under TEAM_PASSWORD_KEY).
 */

export interface TeamSettings {
  /** postgres://ROLE@HOST:PORT/DATABASE?…, never with a password. */
  url: string
  user: string
  joinedAt: string
}

/** A place in the team's changes: the last one read, by its transaction's id and its number (both as text: bigints). */
export interface ChangeCursor {
  xid: string
  seq: string
}

export const START_OF_CHANGES: ChangeCursor = { xid: '0', seq: '0' }

/** How far this machine has pulled the team's catalog and profiles, and when it last talked to the team. */
export interface TeamSyncState {
  groupsCursor: ChangeCursor
  profilesCursor: ChangeCursor
  lastPullAt: string | null
  lastPublishAt: string | null
}

/**
 * Which profiles hold the team's whole catalog of their server: a profile created (or pointed at
 * another server) after the catalog was pulled is filled from the team database, a page at a
 * time, `after` the last group it has.
 */
export type BackfillMarks = Record<string, { server: string; after: string | null; done: boolean }>

const LINK_KEY = 'team.link'
const SYNC_KEY = 'team.sync'
const BACKFILL_KEY = 'team.backfill'

const EMPTY_SYNC: TeamSyncState = {
  groupsCursor: START_OF_CHANGES,
  profilesCursor: START_OF_CHANGES,
  lastPullAt: null,
  lastPublishAt: null,
}

const read = <T>(db: Database, key: string): T | null => {
  const row = db.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', key)
  if (!row) return null
  try {
    return JSON.parse(row.value) as T
  } catch {
    return null
  }
}

const write = (db: Database, key: string, value: unknown) =>
  db.run(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    key,
    JSON.stringify(value),
  )

export function readTeamSettings(db: Database): TeamSettings | null {
  const settings = read<Partial<TeamSettings>>(db, LINK_KEY)
  return settings && typeof settings.url === 'string' && typeof settings.user === 'string' && typeof settings.joinedAt === 'string'
    ? { url: settings.url, user: settings.user, joinedAt: settings.joinedAt }
    : null
}

export const writeTeamSettings = (db: Database, settings: TeamSettings) => write(db, LINK_KEY, settings)

export const readSyncState = (db: Database): TeamSyncState => ({ ...EMPTY_SYNC, ...read<Partial<TeamSyncState>>(db, SYNC_KEY) })

export function updateSyncState(db: Database, change: Partial<TeamSyncState>): void {
  db.transaction(() => write(db, SYNC_KEY, { ...readSyncState(db), ...change }))
}

export const readBackfillMarks = (db: Database): BackfillMarks => read<BackfillMarks>(db, BACKFILL_KEY) ?? {}

export function markBackfill(db: Database, marks: BackfillMarks): void {
  db.transaction(() => write(db, BACKFILL_KEY, { ...readBackfillMarks(db), ...marks }))
}

/** Leaving: the link, the sync state, the outbox and the team cache go; every other row stays. */
export function forgetTeam(db: Database): void {
  db.transaction(() => {
    db.run('DELETE FROM settings WHERE key IN (?, ?, ?)', LINK_KEY, SYNC_KEY, BACKFILL_KEY)
    db.run('DELETE FROM team_outbox')
    db.run('DELETE FROM team_groups')
  })
}
