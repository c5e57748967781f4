import { jsonTextTooDeep } from '../../src-shared/json/depth'
import { ProfileSchema } from '../../src-shared/profiles/schemas'
import type { GroupCatalog, SharedGroup } from '../catalog/group-catalog'
import type { ProfileStore } from '../profiles/profile-store'
import { insertImportedProfile } from '../profiles/profile-store'
import type { Database } from '../storage/database'
import type { SharedGroupRow, SharedProfileRow, TeamLink } from './team-link'
import { type ChangeCursor, markBackfill, readBackfillMarks, readSyncState, START_OF_CHANGES, updateSyncState } from './team-settings'
import { serverKey } from './team-url'

/*
 * Pulls what the team changed since this machine last looked, by the change numbers the team
 * database hands out in commit order: the shared catalog into the team cache (who changed and
 * rotated each group, its current token's fingerprint) and into the local catalog of every
 * profile here that reaches the same server; the admin's shared profiles into this machine's
 * profiles (each operator enters their own API token). Never a token: the team has none.
 */

const PAGE = 500
/** A slice of merging holds the event loop at most about this long, then lets everything else run. */
const SLICE_MS = 10

/**
 * A JSON field another machine stored, parsed only when it nests no deeper than the app accepts
 * anywhere (a deeper one would overflow the stack of whatever reads it next): left out otherwise.
 */
function sharedJson(text: string | null): { value: unknown } | null {
  if (text === null || jsonTextTooDeep(text)) return null
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    return null
  }
}

/** The catalog's view of a shared row. */
function sharedGroup(row: SharedGroupRow): SharedGroup {
  const properties = sharedJson(row.properties)
  const mapping = sharedJson(row.mapping)
  return {
    groupId: row.group_id,
    ...(row.name !== null ? { name: row.name } : {}),
    ...(row.environment_tag !== null ? { environmentTag: row.environment_tag } : {}),
    ...(row.team_id !== null ? { teamId: Number(row.team_id) } : {}),
    ...(properties ? { properties: properties.value } : {}),
    ...(mapping ? { mapping: mapping.value } : {}),
    ...(row.token_last4 !== null ? { tokenLast4: row.token_last4 } : {}),
    changedAt: row.changed_at.toISOString(),
    ...(row.rotated_at ? { rotatedAt: row.rotated_at.toISOString() } : {}),
  }
}

/** The local id of a shared profile: the same on every pull, so a pull cut short never makes two. */
export const sharedProfileId = (sharedId: string) => `team-${sharedId}`

const cursorOf = (row: { change_xid: string; change_seq: string }): ChangeCursor => ({
  xid: String(row.change_xid),
  seq: String(row.change_seq),
})

export interface PullerOptions {
  now?: () => Date
  /** Milliseconds, for the slices' budget (performance.now; a test may count instead). */
  clock?: () => number
  sliceMs?: number
}

export class TeamPuller {
  private running: Promise<{ groups: number; profiles: number }> | null = null
  private next: Promise<{ groups: number; profiles: number }> | null = null
  private timer: ReturnType<typeof setInterval> | undefined
  private readonly now: () => Date
  private readonly clock: () => number
  private readonly sliceMs: number

  constructor(
    private readonly db: Database,
    private readonly link: TeamLink,
    private readonly catalog: GroupCatalog,
    private readonly profiles: ProfileStore,
    options: PullerOptions = {},
  ) {
    this.now = options.now ?? (() => new Date())
    this.clock = options.clock ?? (() => performance.now())
    this.sliceMs = options.sliceMs ?? SLICE_MS
  }

  /**
   * One pull at a time. A caller who asks while one is under way gets the pull after it, shared
   * with everyone who asked meanwhile: the one under way may have read the team's changes before
   * the caller's reason to ask (another machine's flush) was committed.
   */
  pull(): Promise<{ groups: number; profiles: number }> {
    if (!this.running) {
      this.running = this.pullAll().finally(() => (this.running = null))
      return this.running
    }
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = null
        return this.pull()
      })
    return this.next
  }

  every(intervalMs: number, onError: (error: unknown) => void): void {
    clearInterval(this.timer)
    this.timer = setInterval(() => void this.pull().catch(onError), intervalMs)
    this.timer.unref?.()
  }

  stop(): void {
    clearInterval(this.timer)
  }

  /**
   * Runs `work` over `items` in slices, each one transaction of at most about `sliceMs`, and
   * lets the event loop run between them: a pull of tens of thousands of groups never holds
   * browser mode's server (or the app's main process) for longer than a slice.
   */
  private async inSlices<T>(items: readonly T[], work: (item: T) => void): Promise<void> {
    let index = 0
    while (index < items.length) {
      const started = this.clock()
      this.db.transaction(() => {
        do work(items[index++]!)
        while (index < items.length && this.clock() - started < this.sliceMs)
      })
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
  }

  private async pullAll(): Promise<{ groups: number; profiles: number }> {
    let groups = 0
    let profiles = 0
    const first = readSyncState(this.db).groupsCursor.xid === START_OF_CHANGES.xid
    // On a first pull, the profiles here get every group as it comes: no backfill needed after.
    const present = first ? this.reachable() : []
    for (;;) {
      const rows = await this.link.groupsChangedAfter(readSyncState(this.db).groupsCursor, PAGE)
      if (rows.length) {
        const targets = this.reachable()
        await this.inSlices(rows, (row) => this.mergeGroup(row, targets))
        updateSyncState(this.db, { groupsCursor: cursorOf(rows.at(-1)!) })
      }
      groups += rows.length
      if (rows.length < PAGE) break
    }
    if (present.length)
      markBackfill(this.db, Object.fromEntries(present.map(({ id, server }) => [id, { server, after: null, done: true }])))
    for (;;) {
      const rows = await this.link.profilesChangedAfter(readSyncState(this.db).profilesCursor, PAGE)
      for (const row of rows) await this.mergeProfile(row)
      if (rows.length) updateSyncState(this.db, { profilesCursor: cursorOf(rows.at(-1)!) })
      profiles += rows.length
      if (rows.length < PAGE) break
    }
    await this.backfill()
    updateSyncState(this.db, { lastPullAt: this.now().toISOString() })
    return { groups, profiles }
  }

  /** The profiles here and the server each reaches (the built-in sandbox is this machine's own). */
  private reachable(): Array<{ id: string; server: string }> {
    return this.profiles
      .list()
      .filter((profile) => !profile.builtin)
      .map((profile) => ({ id: profile.id, server: serverKey(profile.baseUrl) }))
  }

  /**
   * Fills every profile that does not hold its server's whole catalog yet (created, shared or
   * pointed at another server after the catalog was pulled), a page at a time, remembering
   * where it stopped: a pull cut short goes on from there.
   */
  private async backfill(): Promise<void> {
    const marks = readBackfillMarks(this.db)
    for (const { id, server } of this.reachable()) {
      const mark = marks[id]?.server === server ? marks[id] : undefined
      if (mark?.done) continue
      let after = mark?.after ?? null
      for (;;) {
        const rows = await this.link.groupsOfServer(server, after, PAGE)
        await this.inSlices(rows, (row) => this.catalog.mergeShared(id, sharedGroup(row)))
        after = rows.at(-1)?.group_id ?? after
        markBackfill(this.db, { [id]: { server, after, done: rows.length < PAGE } })
        if (rows.length < PAGE) break
      }
    }
  }

  private mergeGroup(row: SharedGroupRow, targets: ReadonlyArray<{ id: string; server: string }>): void {
    this.db.run(
      `INSERT INTO team_groups (server, group_id, name, token_last4, token_sha256, changed_by, changed_at, rotated_by, rotated_at, change_seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (server, group_id) DO UPDATE SET name = excluded.name, token_last4 = excluded.token_last4, token_sha256 = excluded.token_sha256,
         changed_by = excluded.changed_by, changed_at = excluded.changed_at, rotated_by = excluded.rotated_by, rotated_at = excluded.rotated_at,
         change_seq = excluded.change_seq`,
      row.server,
      row.group_id,
      row.name,
      row.token_last4,
      row.token_sha256,
      row.changed_by,
      row.changed_at.toISOString(),
      row.rotated_by,
      row.rotated_at?.toISOString() ?? null,
      Number(row.change_seq),
    )
    const reaching = targets.filter((target) => target.server === row.server)
    if (reaching.length === 0) return
    const shared = sharedGroup(row)
    for (const { id } of reaching) this.catalog.mergeShared(id, shared)
  }

  /**
   * A shared profile becomes (or updates) this machine's profile `team-<id>`, without a token.
   * One deleted by the admin stays here: it may hold this operator's API token and group tokens.
   * A name taken here by another profile keeps the local one's name.
   */
  private async mergeProfile(row: SharedProfileRow): Promise<void> {
    const id = sharedProfileId(row.id)
    if (row.deleted) return
    const at = row.updated_at.toISOString()
    const settings = {
      name: row.name,
      baseUrl: row.base_url,
      timeoutSeconds: row.timeout_seconds,
      environmentLabel: row.environment_label,
      environmentKind: row.environment_kind,
    }
    const parsed = ProfileSchema.safeParse({ id, ...settings, createdAt: at, updatedAt: at })
    if (!parsed.success) return
    const existing = this.profiles.list().find((profile) => profile.id === id)
    if (!existing) {
      this.db.transaction(() => {
        insertImportedProfile(this.db, parsed.data)
        this.db.run('UPDATE profiles SET environment_kind = ? WHERE id = ?', parsed.data.environmentKind, id)
      })
      return
    }
    const nameFree = !this.profiles.list().some((profile) => profile.id !== id && profile.name.toLowerCase() === row.name.toLowerCase())
    const { name, ...rest } = parsed.data
    await this.profiles.update(id, {
      ...(nameFree ? { name } : {}),
      baseUrl: rest.baseUrl,
      timeoutSeconds: rest.timeoutSeconds,
      environmentLabel: rest.environmentLabel,
      environmentKind: rest.environmentKind,
    })
  }
}
