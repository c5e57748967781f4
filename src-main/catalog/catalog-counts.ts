import type { Database } from '../storage/database'
import { type CatalogRowKeys, PAGED_SORT_COLUMNS, type PagedSort } from './catalog-keys'

/*
 * Counts kept with the catalog, in the transaction that changes a row, so that no window ever
 * counts a profile's groups:
 *
 * - catalog_counts: the groups of each profile, per environment (the list's totals);
 * - catalog_pages: each order's keys cut into consecutive pages of at most PAGE_MAX rows, each
 *   page with its first key and its rows per environment. A position in any order (the window a
 *   scrollbar was dragged to) is found by adding the pages' counts up to it (a few hundred rows
 *   at a million groups) and stepping inside one page on its covering index: no OFFSET over
 *   what comes before;
 * - catalog_tokens: the group tokens each profile keeps in the secrets table (kept by triggers
 *   there: the vault writes that table), for "groups whose token is kept".
 */

/** A page holding more rows than this is cut in two; one left empty goes. */
export const PAGE_MAX = 4096

const ENVIRONMENT_COLUMNS: Record<string, 'customer' | 'testing' | 'untagged'> = {
  Customer: 'customer',
  Testing: 'testing',
  '~': 'untagged',
}

/** A page's count for one environment, or for all of them. */
const countOf = (environmentKey: string | null) =>
  environmentKey === null ? 'customer + testing + untagged' : (ENVIRONMENT_COLUMNS[environmentKey] ?? '0')

export interface CatalogTotals {
  /** The profile's groups. */
  all: number
  /** Per environment key ("Customer", "Testing", "~"). */
  byEnvironment: Record<string, number>
}

/** A page as a transaction read it: its first key, the next page's (null for the last) and its size. */
interface Page {
  first: string
  next: string | null
  n: number
}

/** SQLite's order of text (its bytes in UTF-8, so code points), which JavaScript's < is not past U+FFFF. */
export function compareKeys(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let index = 0; index < length; index++) {
    let x = a.charCodeAt(index)
    let y = b.charCodeAt(index)
    if (x === y) continue
    // Surrogates (U+D800–DFFF, halves of code points past U+FFFF) come after U+E000–FFFF in code point order.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000
    }
    return x - y
  }
  return a.length - b.length
}

export class CatalogCounts {
  /** The pages read in this transaction (see pageOf), by profile and order. */
  private readonly pages = new Map<string, Page[]>()
  private pagesEpoch = -1

  constructor(
    private readonly db: Database,
    /** Smaller in tests, so that a few hundred rows cut pages. */
    private readonly pageMax = PAGE_MAX,
  ) {}

  /** A row added (`after` only), removed (`before` only) or changed: in the transaction that wrote it. */
  change(profileId: string, before: CatalogRowKeys | undefined, after: CatalogRowKeys | undefined): void {
    if (before?.environment_key !== after?.environment_key) {
      if (before) this.count(profileId, before.environment_key, -1)
      if (after) this.count(profileId, after.environment_key, 1)
    }
    // The orders the row moved in (a row written again mostly moves in the time order only).
    const moved = (Object.keys(PAGED_SORT_COLUMNS) as PagedSort[]).filter((sort) => {
      const column = PAGED_SORT_COLUMNS[sort]
      return !(before && after && before[column] === after[column] && before.environment_key === after.environment_key)
    })
    if (before) this.move(profileId, moved, before, -1)
    if (after) this.move(profileId, moved, after, 1)
  }

  private count(profileId: string, environmentKey: string, delta: number): void {
    this.db.run(
      `INSERT INTO catalog_counts (profile_id, environment_key, groups) VALUES (?, ?, ?)
       ON CONFLICT (profile_id, environment_key) DO UPDATE SET groups = groups + excluded.groups`,
      profileId,
      environmentKey,
      delta,
    )
  }

  /**
   * The page holding `key` in an order, with its next page's first key and its size: read once
   * per transaction and kept (no other process writes while it is open), so the rows a
   * transaction writes in order (a bulk run's) find theirs without a query.
   */
  private pageOf(profileId: string, sort: PagedSort, key: string): Page | undefined {
    if (this.pagesEpoch !== this.db.epoch()) {
      this.pages.clear()
      this.pagesEpoch = this.db.epoch()
    }
    const known = this.pages.get(`${profileId}\u0000${sort}`)
    const hit = known?.find((page) => compareKeys(page.first, key) <= 0 && (page.next === null || compareKeys(key, page.next) < 0))
    if (hit) return hit
    const row = this.db.get<{ first_key: string; n: number; next: string | null }>(
      `SELECT first_key, customer + testing + untagged AS n,
              (SELECT min(first_key) FROM catalog_pages WHERE profile_id = ?1 AND sort = ?2 AND first_key > page.first_key) AS next
         FROM catalog_pages AS page WHERE profile_id = ?1 AND sort = ?2 AND first_key <= ?3 ORDER BY first_key DESC LIMIT 1`,
      profileId,
      sort,
      key,
    )
    if (!row) return undefined
    const page = { first: row.first_key, next: row.next, n: row.n }
    this.pages.set(`${profileId}\u0000${sort}`, [...(known ?? []), page])
    return page
  }

  /** Forgets what was read of an order's pages (they were cut, dropped or deleted). */
  private forget(profileId: string, sort?: PagedSort): void {
    for (const key of this.pages.keys()) if (key.startsWith(`${profileId}\u0000${sort ?? ''}`)) this.pages.delete(key)
  }

  /**
   * Adds `delta` to the page holding the row's key in each order (one update of them all, by
   * their primary keys), cuts a page grown past the largest size in two, drops one left empty.
   */
  private move(profileId: string, sorts: PagedSort[], keys: CatalogRowKeys, delta: number): void {
    const column = ENVIRONMENT_COLUMNS[keys.environment_key]!
    const pages: Array<{ sort: PagedSort; page: Page }> = []
    for (const sort of sorts) {
      const page = this.pageOf(profileId, sort, keys[PAGED_SORT_COLUMNS[sort]])
      // The profile's first row in this order: its first page starts below every key.
      if (!page)
        this.db.run(`INSERT INTO catalog_pages (profile_id, sort, first_key, ${column}) VALUES (?, ?, '', ?)`, profileId, sort, delta)
      else pages.push({ sort, page })
    }
    if (pages.length === 0) return
    this.db.run(
      `UPDATE catalog_pages SET ${column} = ${column} + ? WHERE profile_id = ? AND (sort, first_key) IN (VALUES ${pages.map(() => '(?, ?)').join(', ')})`,
      delta,
      profileId,
      ...pages.flatMap(({ sort, page }) => [sort, page.first]),
    )
    for (const { sort, page } of pages) {
      page.n += delta
      if (page.n > this.pageMax) {
        this.split(profileId, sort, page.first, page.n)
        this.forget(profileId, sort)
      } else if (page.n === 0 && page.first !== '') {
        this.db.run('DELETE FROM catalog_pages WHERE profile_id = ? AND sort = ? AND first_key = ?', profileId, sort, page.first)
        this.forget(profileId, sort)
      }
    }
  }

  private split(profileId: string, sort: PagedSort, firstKey: string, rows: number): void {
    const key = PAGED_SORT_COLUMNS[sort]
    const next =
      this.db.get<{ key: string | null }>(
        'SELECT min(first_key) AS key FROM catalog_pages WHERE profile_id = ? AND sort = ? AND first_key > ?',
        profileId,
        sort,
        firstKey,
      )?.key ?? null
    const middle = this.db.get<{ key: string }>(
      `SELECT ${key} AS key FROM catalog WHERE profile_id = ? AND ${key} >= ? ORDER BY ${key} LIMIT 1 OFFSET ?`,
      profileId,
      firstKey,
      rows >> 1,
    )!.key
    // The upper half: from the middle key to the next page (or the end), on each environment's covering index.
    const upper = (environmentKey: string) =>
      this.db.get<{ n: number }>(
        `SELECT count(*) AS n FROM catalog WHERE profile_id = ? AND environment_key = ? AND ${key} >= ?${next === null ? '' : ` AND ${key} < ?`}`,
        profileId,
        environmentKey,
        middle,
        ...(next === null ? [] : [next]),
      )!.n
    const moved = { customer: upper('Customer'), testing: upper('Testing'), untagged: upper('~') }
    this.db.run(
      'INSERT INTO catalog_pages (profile_id, sort, first_key, customer, testing, untagged) VALUES (?, ?, ?, ?, ?, ?)',
      profileId,
      sort,
      middle,
      moved.customer,
      moved.testing,
      moved.untagged,
    )
    this.db.run(
      'UPDATE catalog_pages SET customer = customer - ?, testing = testing - ?, untagged = untagged - ? WHERE profile_id = ? AND sort = ? AND first_key = ?',
      moved.customer,
      moved.testing,
      moved.untagged,
      profileId,
      sort,
      firstKey,
    )
  }

  totals(profileId: string): CatalogTotals {
    const byEnvironment: Record<string, number> = {}
    let all = 0
    for (const row of this.db.all<{ environment_key: string; groups: number }>(
      'SELECT environment_key, groups FROM catalog_counts WHERE profile_id = ?',
      profileId,
    )) {
      byEnvironment[row.environment_key] = row.groups
      all += row.groups
    }
    return { all, byEnvironment }
  }

  /** Groups whose token the secrets table keeps for this profile (session tokens are the caller's to add). */
  tokensKept(profileId: string): number {
    return this.db.get<{ kept: number }>('SELECT kept FROM catalog_tokens WHERE profile_id = ?', profileId)?.kept ?? 0
  }

  /**
   * The key at `position` (from 0) of an order, ascending, among one environment's groups or all
   * of them: the page holding it by the pages' running counts, then a step inside that page.
   */
  keyAt(profileId: string, sort: PagedSort, environmentKey: string | null, position: number): string | undefined {
    const count = countOf(environmentKey)
    const page = this.db.get<{ first_key: string; before: number }>(
      `SELECT first_key, upto - n AS before FROM (
         SELECT first_key, ${count} AS n, sum(${count}) OVER (ORDER BY first_key ROWS UNBOUNDED PRECEDING) AS upto
           FROM catalog_pages WHERE profile_id = ? AND sort = ?
       ) WHERE upto > ?3 AND upto - n <= ?3`,
      profileId,
      sort,
      position,
    )
    if (!page) return undefined
    const key = PAGED_SORT_COLUMNS[sort]
    const environment = environmentKey === null ? '' : 'AND environment_key = ?'
    return this.db.get<{ key: string }>(
      `SELECT ${key} AS key FROM catalog WHERE profile_id = ? ${environment} AND ${key} >= ? ORDER BY ${key} LIMIT 1 OFFSET ?`,
      ...(environmentKey === null ? [profileId] : [profileId, environmentKey]),
      page.first_key,
      position - page.before,
    )?.key
  }

  removeProfile(profileId: string): void {
    this.forget(profileId)
    this.db.run('DELETE FROM catalog_counts WHERE profile_id = ?', profileId)
    this.db.run('DELETE FROM catalog_pages WHERE profile_id = ?', profileId)
  }
}

/**
 * The tables and triggers, and their content built from the catalog as it stands (migration 9):
 * pages of PAGE_MAX / 2 rows, so the first writes after it do not cut them at once.
 */
export function createCatalogCounts(db: Database): void {
  db.exec(`
    CREATE TABLE catalog_counts (
      profile_id TEXT NOT NULL,
      environment_key TEXT NOT NULL,
      groups INTEGER NOT NULL,
      PRIMARY KEY (profile_id, environment_key)
    ) WITHOUT ROWID;
    INSERT INTO catalog_counts (profile_id, environment_key, groups) SELECT profile_id, environment_key, count(*) FROM catalog GROUP BY profile_id, environment_key;

    CREATE TABLE catalog_pages (
      profile_id TEXT NOT NULL,
      sort TEXT NOT NULL,
      first_key TEXT NOT NULL,
      customer INTEGER NOT NULL DEFAULT 0,
      testing INTEGER NOT NULL DEFAULT 0,
      untagged INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (profile_id, sort, first_key)
    ) WITHOUT ROWID;

    CREATE TABLE catalog_tokens (profile_id TEXT PRIMARY KEY, kept INTEGER NOT NULL) WITHOUT ROWID;
    -- A group token's key is "group:<profile>:<group>:token"; profile ids hold no ":".
    CREATE TRIGGER catalog_tokens_insert AFTER INSERT ON secrets WHEN new.key GLOB 'group:*:token' BEGIN
      INSERT INTO catalog_tokens (profile_id, kept) VALUES (substr(new.key, 7, instr(substr(new.key, 7), ':') - 1), 1)
        ON CONFLICT (profile_id) DO UPDATE SET kept = kept + 1;
    END;
    -- The row goes with the profile's last token: a deleted profile leaves nothing of itself here.
    CREATE TRIGGER catalog_tokens_delete AFTER DELETE ON secrets WHEN old.key GLOB 'group:*:token' BEGIN
      UPDATE catalog_tokens SET kept = kept - 1 WHERE profile_id = substr(old.key, 7, instr(substr(old.key, 7), ':') - 1);
      DELETE FROM catalog_tokens WHERE profile_id = substr(old.key, 7, instr(substr(old.key, 7), ':') - 1) AND kept <= 0;
    END;
    INSERT INTO catalog_tokens (profile_id, kept)
      SELECT substr(key, 7, instr(substr(key, 7), ':') - 1), count(*) FROM secrets WHERE key GLOB 'group:*:token' GROUP BY 1;
  `)
  for (const [sort, key] of Object.entries(PAGED_SORT_COLUMNS)) {
    db.run(
      `INSERT INTO catalog_pages (profile_id, sort, first_key, customer, testing, untagged)
       SELECT profile_id, ?, CASE WHEN page = 0 THEN '' ELSE min(${key}) END,
              sum(environment_key = 'Customer'), sum(environment_key = 'Testing'), sum(environment_key = '~')
         FROM (SELECT profile_id, ${key}, environment_key, (row_number() OVER (PARTITION BY profile_id ORDER BY ${key}) - 1) / ? AS page FROM catalog)
        GROUP BY profile_id, page`,
      sort,
      PAGE_MAX / 2,
    )
  }
}
