import {
  CATALOG_SEARCH_LISTED,
  type CatalogEntry,
  CatalogEntrySchema,
  type CatalogQuery,
  type CatalogRow,
} from '../../src-shared/catalog/schemas'
import type { Mapping, Properties, UserGroup } from '../../src-shared/user-api/schemas'
import { groupTokenKeySql, secretKeyRange } from '../profiles/vault-keys'
import type { Database, SqlValue } from '../storage/database'
import { fullTextMatch, fullTextTerms } from '../storage/full-text'
import type { Redactor } from '../user-api/redact'
import { CatalogCounts } from './catalog-counts'
import {
  CATALOG_SEARCH,
  type CatalogColumns,
  type CatalogRowKeys,
  environmentCursor,
  environmentKeyOf,
  joinEnvironmentCursor,
  rowKeys,
  searchTextOf,
  type SortOrder,
  sortOrder,
} from './catalog-keys'

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

interface CatalogRowRecord extends CatalogRowKeys, CatalogColumns {
  id: number
}

/** Whether a row's token is kept: a row of the secrets table, or a session key (bound as JSON). */
const tokenKeptSql = (
  table: string,
) => `(EXISTS (SELECT 1 FROM secrets WHERE secrets.key = ${groupTokenKeySql(`${table}.profile_id`, `${table}.group_id`)})
  OR ${table}.group_id IN (SELECT value FROM json_each(?)))`
const TOKEN_KEPT_SQL = tokenKeptSql('catalog')

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

const rowOf = (row: CatalogRowRecord & { token_kept: number }, key: string): CatalogRow => ({
  groupId: row.group_id,
  ...(row.name !== null ? { name: row.name } : {}),
  ...(row.environment_tag !== null ? { environmentTag: row.environment_tag as CatalogRow['environmentTag'] } : {}),
  ...(row.team_id !== null ? { teamId: row.team_id } : {}),
  ...(row.token_last4 !== null ? { tokenLast4: row.token_last4 } : {}),
  updatedAt: row.updated_at,
  ...(row.rotated_at !== null ? { rotatedAt: row.rotated_at } : {}),
  tokenKept: row.token_kept === 1,
  key,
})

export interface CatalogWindow {
  /** Groups of this profile. */
  total: number
  /** Groups that match the search and filter (at most CATALOG_SEARCH_LISTED when `more`). */
  matching: number
  /** More groups match the search than are listed: the first CATALOG_SEARCH_LISTED, in order. */
  more: boolean
  /** The first row's position, for a window asked by position. */
  position: number | null
  rows: CatalogRow[]
}

/** Environments in the environment order, ascending (untagged last). */
const ENVIRONMENT_ORDER = ['Customer', 'Testing', '~']

/** The SQL of one order: how rows are sorted, compared with a cursor, and which cursor a row has. */
function orderSql(order: SortOrder) {
  if (order.kind === 'column') {
    const column = `catalog.${order.column}`
    return {
      by: (direction: string) => `${column} ${direction}`,
      key: column,
      cursor: '?',
      params: (cursor: string): SqlValue[] => [cursor],
      of: (row: CatalogRowRecord) => row[order.column],
    }
  }
  return {
    by: (direction: string) => `catalog.environment_key ${direction}, catalog.group_key ${direction}`,
    key: '(catalog.environment_key, catalog.group_key)',
    cursor: '(?, ?)',
    params: (cursor: string): SqlValue[] => environmentCursor(cursor),
    of: (row: CatalogRowRecord) => joinEnvironmentCursor(row.environment_key, row.group_key),
  }
}

/**
 * Where the rows of a window come from: the order's index walked in order (every filter a
 * condition on the row), the search's matches (few: found through the full-text index, then
 * sorted), or the kept tokens' groups (few: found by id, then sorted).
 */
type Source = 'walk' | 'search' | 'tokens'

/**
 * The local catalog of groups, per profile: one row per group in the app database. Every window
 * is a seek on an index (after or before a row's key, in either direction), searched through a
 * full-text index, with counts kept as rows change (catalog-counts.ts): the Groups screen costs
 * the same at a million groups as at a thousand, and nothing is loaded at start.
 */
export class GroupCatalog {
  private readonly counts: CatalogCounts

  private readonly redact: Redactor

  /** `redact`: what every name, mapping and properties is cleared of before it is stored (every secret the vault keeps). */
  constructor(
    private readonly db: Database,
    options: { pageMax?: number; redact?: Redactor } = {},
  ) {
    this.counts = new CatalogCounts(db, options.pageMax)
    this.redact = options.redact ?? ((value) => value)
  }

  private row(profileId: string, groupId: string): CatalogRowRecord | undefined {
    return this.db.get<CatalogRowRecord>('SELECT * FROM catalog WHERE profile_id = ? AND group_id = ?', profileId, groupId)
  }

  get(profileId: string, groupId: string): CatalogEntry | undefined {
    const row = this.row(profileId, groupId)
    return row ? entryOf(row) : undefined
  }

  /**
   * Records what a call returned and says what deserves a warning: docs/user-group-api.md
   * section 2 (ids and environments) lets one id exist once per environment, so the same id
   * coming back under another tag is worth knowing.
   * Synchronous, so the caller can write it in one transaction with the group's token.
   */
  record(seen: SeenGroup): { entry: CatalogEntry; warnings: string[] } {
    return this.db.transaction(() => {
      const { group, profileId } = seen
      const groupId = group.provided_id
      const stored = this.row(profileId, groupId)
      const previous = stored ? entryOf(stored) : undefined
      const at = seen.at.toISOString()
      const warnings = this.changeWarnings(previous, group)
      const tag = group.api_environment_tag
      const entry = CatalogEntrySchema.parse({
        profileId,
        groupId,
        name: group.name ?? previous?.name,
        environmentTag: tag ?? previous?.environmentTag,
        teamId: group.team_id ?? previous?.teamId,
        mapping: seen.sent?.mapping ?? previous?.mapping,
        properties:
          group.properties !== undefined
            ? (group.properties as CatalogEntry['properties'])
            : (seen.sent?.properties ?? previous?.properties),
        tokenLast4: seen.tokenLast4 ?? previous?.tokenLast4,
        createdAt: previous?.createdAt ?? at,
        updatedAt: at,
        rotatedAt: seen.rotated ? at : previous?.rotatedAt,
      } satisfies CatalogEntry)
      // Not written (seen again as it was): the row as it stands.
      return { entry: this.write(entry, stored) === 0 && previous ? previous : entry, warnings }
    })
  }

  /** What `record` would warn of, seeing `group` over `previous`: an id that came back under another environment. */
  changeWarnings(previous: CatalogEntry | undefined, group: UserGroup): string[] {
    const tag = group.api_environment_tag
    if (!previous?.environmentTag || !tag || previous.environmentTag === tag) return []
    return [
      `Group "${group.provided_id}" was tagged ${previous.environmentTag} before and is now tagged ${tag}. Ids are unique per environment: check that this profile points at the environment you meant.`,
    ]
  }

  /**
   * A group as the team's catalog has it (team mode), for a profile here that reaches its server.
   * Its fields are taken when the team's change is newer than this row; the token's last 4
   * characters only for a group this machine has not seen (its own kept token's tail stays).
   */
  mergeShared(profileId: string, shared: SharedGroup): void {
    this.db.transaction(() => {
      const stored = this.row(profileId, shared.groupId)
      const previous = stored ? entryOf(stored) : undefined
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
      if (merged.success) this.write(merged.data, stored)
    })
  }

  /** Entries carried over from an earlier release's file; rows already here win. */
  importEntries(entries: readonly CatalogEntry[]): number {
    return this.db.transaction(() =>
      entries.reduce((added, entry) => added + (this.row(entry.profileId, entry.groupId) ? 0 : this.write(entry, undefined)), 0),
    )
  }

  /**
   * Writes the row (over `stored`, the row it replaces) and moves the kept counts with it. A row
   * written again sets only the columns that changed: an index whose columns did not change is
   * not touched; one whose only change would be its time is not written at all (a group fetched
   * again as it was: the row, its time index and the page counts stay as they are).
   */
  private write(given: CatalogEntry, stored: CatalogRowRecord | undefined): number {
    const entry = { ...given, ...this.redact({ name: given.name, mapping: given.mapping, properties: given.properties }) }
    const keys = rowKeys(entry)
    const row: Record<string, SqlValue> = {
      name: entry.name ?? null,
      environment_tag: entry.environmentTag ?? null,
      team_id: entry.teamId ?? null,
      mapping: json(entry.mapping),
      properties: json(entry.properties),
      token_last4: entry.tokenLast4 ?? null,
      created_at: entry.createdAt,
      updated_at: entry.updatedAt,
      rotated_at: entry.rotatedAt ?? null,
      ...keys,
      search_text: searchTextOf(entry),
    }
    let changes: number
    if (stored) {
      const changed = Object.keys(row).filter((column) => row[column] !== stored[column as keyof CatalogRowRecord])
      // A group fetched again as it was is not written: its time says when it last changed.
      if (changed.every((column) => column === 'updated_at' || column === 'updated_key')) return 0
      changes = this.db.run(
        `UPDATE catalog SET ${changed.map((column) => `${column} = ?`).join(', ')} WHERE id = ?`,
        ...changed.map((column) => row[column]!),
        stored.id,
      ).changes
    } else {
      const columns = ['profile_id', 'group_id', ...Object.keys(row)]
      changes = this.db.run(
        `INSERT INTO catalog (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        entry.profileId,
        entry.groupId,
        ...Object.values(row),
      ).changes
    }
    this.counts.change(entry.profileId, stored, keys)
    return changes
  }

  removeProfile(profileId: string): void {
    this.db.transaction(() => {
      this.db.run('DELETE FROM catalog WHERE profile_id = ?', profileId)
      this.counts.removeProfile(profileId)
    })
  }

  /**
   * A window of the profile's groups, searched, filtered and sorted in SQL, by key: after or
   * before a row, or at a position (found through the kept counts). `sessionGroupIds` are the
   * groups whose token the vault keeps in memory for this session only.
   */
  query(query: CatalogQuery, sessionGroupIds: readonly string[] = []): CatalogWindow {
    const { profileId } = query
    const sessionIds = JSON.stringify(sessionGroupIds)
    const order = sortOrder(query.sortBy)
    const sql = orderSql(order)
    const descending = query.sortDirection === 'desc'
    const environmentKey = environmentKeyOf(query.environment)
    const totals = this.counts.totals(profileId)
    const match = fullTextMatch(CATALOG_SEARCH, query.search)

    // The filters, as conditions on a catalog row, and where the rows come from.
    const where = ['catalog.profile_id = ?']
    const params: SqlValue[] = [profileId]
    if (environmentKey !== null) {
      where.push('catalog.environment_key = ?')
      params.push(environmentKey)
    }
    let source: Source = 'walk'
    let from = 'catalog'
    const fromParams: SqlValue[] = []
    const countUpTo = () =>
      this.db.get<{ n: number }>(
        `SELECT count(*) AS n FROM (SELECT 1 FROM ${from} WHERE ${where.join(' AND ')} LIMIT ?)`,
        ...fromParams,
        ...params,
        CATALOG_SEARCH_LISTED + 1,
      )!.n
    let matching: number
    let more = false
    if (match === null && !query.tokenKept) {
      // Nothing narrows the list: the kept counts say how long it is.
      matching = environmentKey === null ? totals.all : (totals.byEnvironment[environmentKey] ?? 0)
    } else {
      if (query.tokenKept) {
        where.push(TOKEN_KEPT_SQL)
        params.push(sessionIds)
      }
      const kept = query.tokenKept ? this.counts.tokensKept(profileId) + sessionGroupIds.length : Number.POSITIVE_INFINITY
      if (match !== null) {
        // The search's matches, through the full-text index, counted up to what a list shows.
        source = 'search'
        from = 'catalog_search CROSS JOIN catalog ON catalog.id = catalog_search.rowid AND catalog_search MATCH ?'
        fromParams.push(match)
      } else if (kept <= CATALOG_SEARCH_LISTED) {
        // Few tokens kept: their groups, by id, from the secrets' key range and the session's.
        source = 'tokens'
        const [start, end] = secretKeyRange(profileId)[1]!
        where.push(
          'catalog.group_id IN (SELECT substr(key, ?, length(key) - ?) FROM secrets WHERE key > ? AND key < ? UNION ALL SELECT value FROM json_each(?))',
        )
        params.push(start.length + 1, start.length + ':token'.length, start, end, sessionIds)
      }
      // Counted through the source, up to what a list shows (the kept tokens' count is exact).
      const counted = source === 'walk' && environmentKey === null
      matching = counted ? kept : countUpTo()
      if (!counted && matching > CATALOG_SEARCH_LISTED) {
        // Many match: the list holds the first of them, and the order's index is walked, each
        // row asked whether it matches.
        matching = CATALOG_SEARCH_LISTED
        more = true
        if (match !== null) {
          // Each row's own indexed text holds the words (folded, with its word starts, as the
          // index has it): a string search in the row, cheaper than asking the index per row.
          source = 'walk'
          from = 'catalog'
          fromParams.length = 0
          for (const term of fullTextTerms(CATALOG_SEARCH, query.search)!) {
            where.push('instr(catalog.search_text, ?) > 0')
            params.push(term)
          }
        }
      }
    }

    /** Rows from a cursor (or the start) in the list's order, `forward` or back towards the start. */
    const window = (cursor: { op: 'after' | 'before' | 'from'; key: string } | null, offset = 0) => {
      const backward = cursor?.op === 'before'
      const scanDescending = descending !== backward
      const conditions = [...where]
      const cursorParams: SqlValue[] = []
      if (cursor) {
        const op = cursor.op === 'from' ? (descending ? '<=' : '>=') : scanDescending ? '<' : '>'
        conditions.push(`${sql.key} ${op} ${sql.cursor}`)
        cursorParams.push(...sql.params(cursor.key))
      }
      const rows = this.db.all<CatalogRowRecord & { token_kept: number }>(
        `SELECT *, ${tokenKeptSql('window')} AS token_kept FROM (
           SELECT catalog.* FROM ${from} WHERE ${conditions.join(' AND ')} ORDER BY ${sql.by(scanDescending ? 'DESC' : 'ASC')} LIMIT ? OFFSET ?
         ) AS window`,
        sessionIds,
        ...fromParams,
        ...params,
        ...cursorParams,
        query.limit,
        offset,
      )
      if (backward) rows.reverse()
      return rows.map((row) => rowOf(row, sql.of(row)))
    }

    const answer = (rows: CatalogRow[], position: number | null): CatalogWindow => ({ total: totals.all, matching, more, position, rows })
    const { at } = query
    if ('after' in at) return answer(window({ op: 'after', key: at.after }), null)
    if ('before' in at) return answer(window({ op: 'before', key: at.before }), null)
    const { position } = at
    if (position >= matching) return answer([], position)
    if (position === 0) return answer(window(null), 0)
    // A narrowed list is short (a search lists at most CATALOG_SEARCH_LISTED): its positions are steps on its source.
    if (match !== null || query.tokenKept) return answer(window(null, position), position)
    const key = this.keyAt(profileId, order, environmentKey, descending ? matching - 1 - position : position, totals.byEnvironment)
    return answer(key === undefined ? [] : window({ op: 'from', key }), position)
  }

  /** The cursor of the row at an ascending position of an order, from the kept counts. */
  private keyAt(
    profileId: string,
    order: SortOrder,
    environmentKey: string | null,
    position: number,
    byEnvironment: Record<string, number>,
  ): string | undefined {
    if (order.kind === 'column') return this.counts.keyAt(profileId, order.sort, environmentKey, position)
    // By environment: one environment's groups after another's, each in the group order.
    let start = 0
    for (const environment of environmentKey === null ? ENVIRONMENT_ORDER : [environmentKey]) {
      const size = environmentKey === null ? (byEnvironment[environment] ?? 0) : Number.POSITIVE_INFINITY
      if (position < start + size) {
        const group = this.counts.keyAt(profileId, 'group', environment, position - start)
        return group === undefined ? undefined : joinEnvironmentCursor(environment, group)
      }
      start += size
    }
    return undefined
  }
}
