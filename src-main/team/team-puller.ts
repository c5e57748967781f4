import { jsonTextTooDeep } from '../../src-shared/json/depth'
import { ProfileSchema } from '../../src-shared/profiles/schemas'
import type { GroupCatalog } from '../catalog/group-catalog'
import type { ProfileStore } from '../profiles/profile-store'
import { insertImportedProfile } from '../profiles/profile-store'
import type { Database } from '../storage/database'
import type { SharedGroupRow, SharedProfileRow, TeamLink } from './team-link'
import { readSyncState, updateSyncState } from './team-settings'
import { serverKey } from './team-url'

/*
 * Pulls what the team changed since this machine last looked, by the change numbers the team
 * database hands out in commit order: the shared catalog into the team cache (who changed and
 * rotated each group, its current token's fingerprint) and into the local catalog of every
 * profile here that reaches the same server; the admin's shared profiles into this machine's
 * profiles (each operator enters their own API token). Never a token: the team has none.
 */

const PAGE = 500

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

/** The local id of a shared profile: the same on every pull, so a pull cut short never makes two. */
export const sharedProfileId = (sharedId: string) => `team-${sharedId}`

export class TeamPuller {
  private running: Promise<{ groups: number; profiles: number }> | null = null
  private next: Promise<{ groups: number; profiles: number }> | null = null
  private timer: ReturnType<typeof setInterval> | undefined

  constructor(
    private readonly db: Database,
    private readonly link: TeamLink,
    private readonly catalog: GroupCatalog,
    private readonly profiles: ProfileStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

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

  private async pullAll(): Promise<{ groups: number; profiles: number }> {
    let groups = 0
    let profiles = 0
    for (;;) {
      const rows = await this.link.groupsChangedAfter(readSyncState(this.db).groupsSeq, PAGE)
      if (rows.length)
        this.db.transaction(() => {
          this.mergeGroups(rows)
          updateSyncState(this.db, { groupsSeq: Number(rows.at(-1)!.change_seq) })
        })
      groups += rows.length
      if (rows.length < PAGE) break
    }
    for (;;) {
      const rows = await this.link.profilesChangedAfter(readSyncState(this.db).profilesSeq, PAGE)
      for (const row of rows) await this.mergeProfile(row)
      if (rows.length) updateSyncState(this.db, { profilesSeq: Number(rows.at(-1)!.change_seq) })
      profiles += rows.length
      if (rows.length < PAGE) break
    }
    updateSyncState(this.db, { lastPullAt: this.now().toISOString() })
    return { groups, profiles }
  }

  private mergeGroups(rows: readonly SharedGroupRow[]): void {
    // The profiles here by the server they reach (the built-in sandbox is this machine's own).
    const byServer = new Map<string, string[]>()
    for (const profile of this.profiles.list()) {
      if (profile.builtin) continue
      const key = serverKey(profile.baseUrl)
      byServer.set(key, [...(byServer.get(key) ?? []), profile.id])
    }
    for (const row of rows) {
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
      const properties = sharedJson(row.properties)
      const mapping = sharedJson(row.mapping)
      for (const profileId of byServer.get(row.server) ?? []) {
        this.catalog.mergeShared(profileId, {
          groupId: row.group_id,
          ...(row.name !== null ? { name: row.name } : {}),
          ...(row.environment_tag !== null ? { environmentTag: row.environment_tag } : {}),
          ...(row.team_id !== null ? { teamId: Number(row.team_id) } : {}),
          ...(properties ? { properties: properties.value } : {}),
          ...(mapping ? { mapping: mapping.value } : {}),
          ...(row.token_last4 !== null ? { tokenLast4: row.token_last4 } : {}),
          changedAt: row.changed_at.toISOString(),
          ...(row.rotated_at ? { rotatedAt: row.rotated_at.toISOString() } : {}),
        })
      }
    }
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
