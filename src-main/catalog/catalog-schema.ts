import type { Database } from '../storage/database'
import { createFullTextIndex } from '../storage/full-text'
import { createCatalogCounts } from './catalog-counts'
import { CATALOG_SEARCH, type CatalogColumns, rowKeys, searchTextOf } from './catalog-keys'

/** Rows copied per statement batch by migration 9. */
const COPY_BATCH = 5000

/**
 * Migration 9: the catalog as a rowid table (FTS5 indexes rowid tables) with a key column per
 * order, an index per order and environment filter, the full-text index of ids and names, and
 * the kept counts (catalog-counts.ts). The rows are copied with the keys the app writes, computed
 * by the same functions (catalog-keys.ts); indexes are built after the copy, which is faster.
 */
export function migrateCatalogToKeys(db: Database): void {
  db.exec(`
    CREATE TABLE catalog_keyed (
      id INTEGER PRIMARY KEY,
      profile_id TEXT NOT NULL,
      group_id TEXT NOT NULL,
      name TEXT,
      environment_tag TEXT,
      team_id INTEGER,
      mapping TEXT,
      properties TEXT,
      token_last4 TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      rotated_at TEXT,
      -- "Customer", "Testing" or "~" (untagged): what the environment filter and order read.
      environment_key TEXT NOT NULL,
      -- One key per order, unique in the profile (catalog-keys.ts).
      group_key TEXT NOT NULL,
      name_key TEXT NOT NULL,
      team_key TEXT NOT NULL,
      updated_key TEXT NOT NULL,
      -- The id and name folded, with their word starts: what catalog_search indexes.
      search_text TEXT NOT NULL
    );
  `)
  const insert = `INSERT INTO catalog_keyed (profile_id, group_id, name, environment_tag, team_id, mapping, properties, token_last4, created_at, updated_at, rotated_at,
      environment_key, group_key, name_key, team_key, updated_key, search_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  for (let after: [string, string] = ['', '']; ;) {
    const rows = db.all<CatalogColumns>(
      `SELECT profile_id, group_id, name, environment_tag, team_id, mapping, properties, token_last4, created_at, updated_at, rotated_at
         FROM catalog WHERE (profile_id, group_id) > (?, ?) ORDER BY profile_id, group_id LIMIT ?`,
      ...after,
      COPY_BATCH,
    )
    for (const row of rows) {
      const entry = {
        groupId: row.group_id,
        name: row.name ?? undefined,
        environmentTag: (row.environment_tag ?? undefined) as 'Customer' | 'Testing' | undefined,
        teamId: row.team_id ?? undefined,
        updatedAt: row.updated_at,
      }
      const keys = rowKeys(entry)
      db.run(
        insert,
        row.profile_id,
        row.group_id,
        row.name,
        row.environment_tag,
        row.team_id,
        row.mapping,
        row.properties,
        row.token_last4,
        row.created_at,
        row.updated_at,
        row.rotated_at,
        keys.environment_key,
        keys.group_key,
        keys.name_key,
        keys.team_key,
        keys.updated_key,
        searchTextOf(entry),
      )
    }
    if (rows.length < COPY_BATCH) break
    const last = rows.at(-1)!
    after = [last.profile_id, last.group_id]
  }
  db.exec(`
    DROP TABLE catalog;
    ALTER TABLE catalog_keyed RENAME TO catalog;
    CREATE UNIQUE INDEX catalog_by_id ON catalog (profile_id, group_id);
    -- Each order, alone and within one environment (the filter): every window the Groups screen
    -- asks for is a seek on one of these (test/unit/catalog/catalog-plans.test.ts checks each).
    CREATE INDEX catalog_by_group ON catalog (profile_id, group_key);
    CREATE INDEX catalog_by_environment ON catalog (profile_id, environment_key, group_key);
    CREATE INDEX catalog_by_name ON catalog (profile_id, name_key);
    CREATE INDEX catalog_by_environment_name ON catalog (profile_id, environment_key, name_key);
    CREATE INDEX catalog_by_team ON catalog (profile_id, team_key);
    CREATE INDEX catalog_by_environment_team ON catalog (profile_id, environment_key, team_key);
    CREATE INDEX catalog_by_updated ON catalog (profile_id, updated_key);
    CREATE INDEX catalog_by_environment_updated ON catalog (profile_id, environment_key, updated_key);
  `)
  createFullTextIndex(db, CATALOG_SEARCH)
  createCatalogCounts(db)
}
