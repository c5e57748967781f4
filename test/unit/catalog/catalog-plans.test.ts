import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openAppDatabase } from '../../../src-main/app-database'
import { GroupCatalog } from '../../../src-main/catalog/group-catalog'
import { groupTokenKey } from '../../../src-main/profiles/vault-keys'
import type { Database, SqlValue } from '../../../src-main/storage/database'
import {
  CATALOG_SEARCH_LISTED,
  CatalogEnvironmentFilterSchema,
  type CatalogQuery,
  CatalogQuerySchema,
  CatalogSortKeySchema,
} from '../../../src-shared/catalog/schemas'
import { randomCatalog } from './catalog-fixtures'

/*
 * Every statement a catalog window runs, for every order, direction, environment filter, start
 * (first window, a position, after a key, before a key), search and "token kept" filter, through
 * SQLite's EXPLAIN QUERY PLAN: none may scan the catalog, and none may sort it in a temporary
 * B-tree, except the two plans that sort what an index found and CATALOG_SEARCH_LISTED bounds:
 * a search's matches (few, from the full-text index) and the groups of the tokens kept (few,
 * from the secrets' key range).
 */

const PROFILE = 'p1'

/** The statements GroupCatalog ran, with their parameters. */
function recording(db: Database) {
  const statements: Array<{ sql: string; params: SqlValue[] }> = []
  const record = <T extends (sql: string, ...params: SqlValue[]) => unknown>(method: T) =>
    ((sql: string, ...params: SqlValue[]) => {
      statements.push({ sql, params })
      return method(sql, ...params)
    }) as T
  const recorded: Database = { ...db, get: record(db.get), all: record(db.all), run: record(db.run) }
  return { recorded, statements }
}

/**
 * The plan's lines that read the catalog badly: a scan of the table or of a whole index, a sort
 * of its rows, or a window of one environment walking an index of every environment (it would
 * read the other environments' rows to find its own: all of them when its own are few).
 */
function badSteps(db: Database, sql: string, params: SqlValue[]): string[] {
  const plan = db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...params).map((row) => row.detail)
  const bounded = /catalog_search CROSS JOIN catalog|catalog\.group_id IN \(SELECT substr\(key/.test(sql)
  const oneEnvironment = !bounded && /catalog\.environment_key = \?/.test(sql)
  return plan.filter(
    (step) =>
      /^SCAN catalog\b(?!_search VIRTUAL TABLE)/.test(step) ||
      (!bounded && /TEMP B-TREE/.test(step)) ||
      (oneEnvironment && /^SEARCH catalog USING/.test(step) && !/\(profile_id=\? AND environment_key=\?/.test(step)),
  )
}

describe('catalog query plans', () => {
  it('answers every window of every order × filter by a seek on an index: no scan, no sort of the catalog', async () => {
    const db = openAppDatabase(await mkdtemp(join(tmpdir(), 'ec-catalog-plans-')))
    // Enough groups, in both environments and none, for a search with many matches and one with few.
    const entries = randomCatalog(PROFILE, CATALOG_SEARCH_LISTED * 3, 7)
    new GroupCatalog(db, { pageMax: 64 }).importEntries(entries)
    for (const entry of entries.slice(0, 50))
      db.run(
        "INSERT INTO secrets (key, storage, secret, updated_at) VALUES (?, 'file', 'a-token-kept', '')",
        groupTokenKey(PROFILE, entry.groupId),
      )
    const { recorded, statements } = recording(db)
    const catalog = new GroupCatalog(recorded, { pageMax: 64 })
    const middleKey = (query: Partial<CatalogQuery>) =>
      catalog.query(base({ ...query, at: { position: 40 }, limit: 1 })).rows[0]?.key ?? 'acme'

    const failures: string[] = []
    let checked = 0
    for (const sortBy of CatalogSortKeySchema.options) {
      for (const sortDirection of ['asc', 'desc'] as const) {
        for (const environment of CatalogEnvironmentFilterSchema.options) {
          for (const search of ['', 'a', 'acme', 'om 1', 'zeta-99']) {
            for (const tokenKept of [false, true]) {
              const query = { sortBy, sortDirection, environment, search, tokenKept }
              const key = middleKey(query)
              for (const at of [{ position: 0 }, { position: 300 }, { after: key }, { before: key }]) {
                statements.length = 0
                catalog.query(base({ ...query, at }))
                for (const { sql, params } of statements) {
                  checked += 1
                  const bad = badSteps(db, sql, params)
                  if (bad.length) failures.push(`${JSON.stringify({ ...query, at })}\n  ${sql.replace(/\s+/g, ' ')}\n  ${bad.join('\n  ')}`)
                }
              }
            }
          }
        }
      }
    }
    expect(failures.slice(0, 5).join('\n\n')).toBe('')
    expect(checked).toBeGreaterThan(2000)
    db.close()
  })

  it('would see a window that sorts the catalog', async () => {
    const db = openAppDatabase(await mkdtemp(join(tmpdir(), 'ec-catalog-plans-')))
    // The window of "Customer only, sorted by team_id" as it was read before the indexes of migration 9.
    expect(
      badSteps(db, "SELECT * FROM catalog WHERE profile_id = ? AND environment_tag = 'Customer' ORDER BY team_id LIMIT 100", [PROFILE]),
    ).toEqual([expect.stringMatching(/TEMP B-TREE/)])
    expect(badSteps(db, 'SELECT count(*) FROM catalog WHERE instr(search_text, ?) > 0', ['acme'])).toEqual([
      expect.stringMatching(/^SCAN catalog/),
    ])
    // The same window walking the order's index of every environment, as it would without its own.
    expect(
      badSteps(
        db,
        'SELECT * FROM catalog INDEXED BY catalog_by_team WHERE catalog.profile_id = ? AND catalog.environment_key = ? ORDER BY team_key LIMIT 100',
        [PROFILE, 'Customer'],
      ),
    ).toEqual([expect.stringMatching(/USING INDEX catalog_by_team \(profile_id=\?\)/)])
    db.close()
  })
})

/** The schema's defaults (no search, every environment, newest first, from the top), 100 rows a window. */
const base = (query: Partial<CatalogQuery>): CatalogQuery => CatalogQuerySchema.parse({ profileId: PROFILE, limit: 100, ...query })
