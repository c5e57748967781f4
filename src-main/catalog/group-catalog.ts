import { CatalogEntrySchema, type CatalogEntry, type CatalogQuery, type CatalogRow } from '../../src-shared/catalog/schemas'
import type { Mapping, Properties, UserGroup } from '../../src-shared/user-api/schemas'
import { groupTokenKeySql } from '../profiles/vault-keys'
import type { Database, SqlValue } from '../storage/database'

export interface SeenGroup {
  profileId: string
  group: UserGroup
  /** Fields the call sent, which the response may not echo (mapping is never returned). */
  sent?: { mapping?: Mapping; properties?: Properties }
  tokenLast4?: string
  rotated?: boolean
  at: Date
}

/** A group as the team's catalog knows it (team mode): no token, only its last 4 characters. */
export interface SharedGroup {
  groupId: string
  name?: string
  environmentTag?: string
  teamId?: number
  mapping?: unknown
  properties?: unknown
  tokenLast4?: string
  changedAt: string
  rotatedAt?: string
}

interface CatalogRowRecord {
  profile_id: string
  group_id: string
  name: string | null
  environment_tag: string | null
  team_id: number | null
  mapping: string | null
  properties: string | null
  token_last4: string | null
  created_at: string
  updated_at: string
  rotated_at: string | null
}

/** Whether a catalog row's token is kept: a row of the secrets table, or a session key (bound as JSON). */
const TOKEN_KEPT_SQL = `(EXISTS (SELECT 1 FROM secrets WHERE secrets.key = ${groupTokenKeySql('catalog.profile_id', 'catalog.group_id')})
  OR catalog.group_id IN (SELECT value FROM json_each(?)))`

/** Case- and accent-insensitive text, for substring search. */
const searchKey = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()

/** A sort key in natural order: "g2" before "g10", whatever the case or accents. */
const naturalKey = (text: string) => searchKey(text).replace(/\d{1,20}/g, (digits) => digits.padStart(20, '0'))

const SORT_COLUMNS: Record<CatalogQuery['sortBy'], string> = {
  groupId: 'group_sort',
  name: 'name_sort',
  environmentTag: 'environment_tag',
  teamId: 'team_id',
  updatedAt: 'updated_at',
}

/** Sort columns that may be empty: they sort last, through indexes on (column IS NULL, column). */
const NULLABLE_SORT_COLUMNS = new Set(['name_sort', 'environment_tag', 'team_id'])

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value))

function entryOf(row: CatalogRowRecord): CatalogEntry {
  return CatalogEntrySchema.parse({
    profileId: row.profile_id,
    groupId: row.group_id,
    name: row.name ?? undefined,
    environmentTag: row.environment_tag ?? undefined,
    teamId: row.team_id ?? undefined,
    mapping: row.mapping === null ? undefined : JSON.parse(row.mapping),
    properties: row.properties === null ? undefined : JSON.parse(row.properties),
    tokenLast4: row.token_last4 ?? undefined,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    rotatedAt: row.rotated_at ?? undefined,
  })
}

const rowOf = (row: CatalogRowRecord & { token_kept: number }): CatalogRow => ({
  groupId: row.group_id,
  ...(row.name !== null ? { name: row.name } : {}),
  ...(row.environment_tag !== null ? { environmentTag: row.environment_tag as CatalogRow['environmentTag'] } : {}),
  ...(row.team_id !== null ? { teamId: row.team_id } : {}),
  ...(row.token_last4 !== null ? { tokenLast4: row.token_last4 } : {}),
  updatedAt: row.updated_at,
  ...(row.rotated_at !== null ? { rotatedAt: row.rotated_at } : {}),
  tokenKept: row.token_kept === 1,
})

export interface CatalogWindow {
  /** Groups of this profile. */
  total: number
  /** Groups that match the search and filter. */
  matching: number
  offset: number
  rows: CatalogRow[]
}

/**
 * The local catalog of groups, per profile: one row per group in the app database. Searched,
 * filtered, sorted and windowed in SQL, so the renderer asks only for the rows it shows and
 * nothing is loaded at start.
 */
export class GroupCatalog {
  constructor(private readonly db: Database) {}

  get(profileId: string, groupId: string): CatalogEntry | undefined {
    const row = this.db.get<CatalogRowRecord>('SELECT * FROM catalog WHERE profile_id = ? AND group_id = ?', profileId, groupId)
    return row ? entryOf(row) : undefined
  }

  /**
   * Records what a call returned and says what deserves a warning: spec section 2 lets one id
   * exist once per environment, so the same id coming back under another tag is worth knowing.
   * Synchronous, so the caller can write it in one transaction with the group's token.
   */
  record(seen: SeenGroup): { entry: CatalogEntry; warnings: string[] } {
    return this.db.transaction(() => {
      const { group, profileId } = seen
      const groupId = group.provided_id
      const previous = this.get(profileId, groupId)
      const at = seen.at.toISOString()
      const warnings: string[] = []
      const tag = group.api_environment_tag
      if (previous?.environmentTag && tag && previous.environmentTag !== tag) {
        warnings.push(
          `Group "${groupId}" was tagged ${previous.environmentTag} before and is now tagged ${tag}. Ids are unique per environment: check that this profile points at the environment you meant.`,
        )
      }
      const entry = CatalogEntrySchema.parse({
        profileId,
        groupId,
        name: group.name ?? previous?.name,
        environmentTag: tag ?? previous?.environmentTag,
        teamId: group.team_id ?? previous?.teamId,
        mapping: seen.sent?.mapping ?? previous?.mapping,
        properties: group.properties !== undefined ? (group.properties as CatalogEntry['properties']) : (seen.sent?.properties ?? previous?.properties),
        tokenLast4: seen.tokenLast4 ?? previous?.tokenLast4,
        createdAt: previous?.createdAt ?? at,
        updatedAt: at,
        rotatedAt: seen.rotated ? at : previous?.rotatedAt,
      } satisfies CatalogEntry)
      this.write(entry, 'REPLACE')
      return { entry, warnings }
    })
  }

  /**
   * A group as the team's catalog has it (team mode), for a profile here that reaches its server.
   * Its fields are taken when the team's change is newer than this row; the token's last 4
   * characters only for a group this machine has not seen (its own kept token's tail stays).
   */
  mergeShared(profileId: string, shared: SharedGroup): void {
    this.db.transaction(() => {
      const previous = this.get(profileId, shared.groupId)
      if (previous && previous.updatedAt >= shared.changedAt) return
      const merged = CatalogEntrySchema.safeParse({
        profileId,
        groupId: shared.groupId,
        name: shared.name ?? previous?.name,
        environmentTag: shared.environmentTag ?? previous?.environmentTag,
        teamId: shared.teamId ?? previous?.teamId,
        mapping: shared.mapping ?? previous?.mapping,
        properties: shared.properties !== undefined ? shared.properties : previous?.properties,
        tokenLast4: previous ? previous.tokenLast4 : shared.tokenLast4,
        createdAt: previous?.createdAt ?? shared.changedAt,
        updatedAt: shared.changedAt,
        rotatedAt: shared.rotatedAt ?? previous?.rotatedAt,
      })
      // A shape this version does not know (a newer teammate's) is left out rather than stored half-read.
      if (merged.success) this.write(merged.data, 'REPLACE')
    })
  }

  /** Entries carried over from an earlier release's file; rows already here win. */
  importEntries(entries: readonly CatalogEntry[]): number {
    return this.db.transaction(() => entries.reduce((added, entry) => added + this.write(entry, 'IGNORE'), 0))
  }

  private write(entry: CatalogEntry, onConflict: 'REPLACE' | 'IGNORE'): number {
    return this.db.run(
      `INSERT OR ${onConflict} INTO catalog (profile_id, group_id, group_sort, name, name_sort, search_text, environment_tag, team_id,
         mapping, properties, token_last4, created_at, updated_at, rotated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      entry.profileId,
      entry.groupId,
      naturalKey(entry.groupId),
      entry.name ?? null,
      entry.name === undefined ? null : naturalKey(entry.name),
      `${searchKey(entry.groupId)}\u0000${searchKey(entry.name ?? '')}`,
      entry.environmentTag ?? null,
      entry.teamId ?? null,
      json(entry.mapping),
      json(entry.properties),
      entry.tokenLast4 ?? null,
      entry.createdAt,
      entry.updatedAt,
      entry.rotatedAt ?? null,
    ).changes
  }

  removeProfile(profileId: string): void {
    this.db.run('DELETE FROM catalog WHERE profile_id = ?', profileId)
  }

  /**
   * A window of the profile's groups, searched, filtered and sorted in SQL. `sessionGroupIds`
   * are the groups whose token the vault keeps in memory for this session only.
   */
  query(query: CatalogQuery, sessionGroupIds: readonly string[] = []): CatalogWindow {
    const sessionIds = JSON.stringify(sessionGroupIds)
    const where = ['profile_id = ?']
    const params: SqlValue[] = [query.profileId]
    if (query.tokenKept) {
      where.push(TOKEN_KEPT_SQL)
      params.push(sessionIds)
    }
    if (query.environment === 'untagged') where.push('environment_tag IS NULL')
    else if (query.environment !== 'all') {
      where.push('environment_tag = ?')
      params.push(query.environment)
    }
    const search = searchKey(query.search.trim())
    if (search) {
      where.push('instr(search_text, ?) > 0')
      params.push(search)
    }
    const column = SORT_COLUMNS[query.sortBy]
    const direction = query.sortDirection === 'asc' ? 'ASC' : 'DESC'
    const filter = where.join(' AND ')
    const total = this.db.get<{ n: number }>('SELECT count(*) AS n FROM catalog WHERE profile_id = ?', query.profileId)?.n ?? 0
    const matching = where.length === 1 ? total : (this.db.get<{ n: number }>(`SELECT count(*) AS n FROM catalog WHERE ${filter}`, ...params)?.n ?? 0)
    // Missing values sort last in either direction (only nullable columns need the term, and an
    // index of the same shape serves it); ties fall back to the id, so windows never overlap.
    // Whether a token is kept is asked for the window's rows only, not for every row sorted.
    const nullsLast = NULLABLE_SORT_COLUMNS.has(column) ? `(${column} IS NULL), ` : ''
    // A search matches few rows: scanning the table and sorting those beats walking the sort
    // index row by row (the unary + keeps SQLite from choosing that index).
    const ordered = search ? `+${column}` : column
    const rows = this.db.all<CatalogRowRecord & { token_kept: number }>(
      `SELECT *, ${TOKEN_KEPT_SQL} AS token_kept FROM (
         SELECT * FROM catalog WHERE ${filter} ORDER BY ${nullsLast}${ordered} ${direction}, group_sort ASC LIMIT ? OFFSET ?
       ) AS catalog`,
      sessionIds,
      ...params,
      query.limit,
      query.offset,
    )
    return { total, matching, offset: query.offset, rows: rows.map(rowOf) }
  }
}
