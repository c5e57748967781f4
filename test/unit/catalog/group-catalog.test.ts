import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { appMigrations, openAppDatabase } from '../../../src-main/app-database'
import { GroupCatalog } from '../../../src-main/catalog/group-catalog'
import { type Database, openDatabase } from '../../../src-main/storage/database'
import {
  CATALOG_SEARCH_LISTED,
  type CatalogEntry,
  type CatalogQuery,
  CatalogQuerySchema,
  type CatalogRow,
} from '../../../src-shared/catalog/schemas'
import { checkCatalogCounts, randomCatalog, referenceOrder } from './catalog-fixtures'

const PROFILE = 'p1'
/** Pages of at most 8 rows: a few hundred groups cut and drop pages all the time. */
const PAGE_MAX = 8

async function freshCatalog() {
  const db = openAppDatabase(await mkdtemp(join(tmpdir(), 'ec-catalog-')))
  return { db, catalog: new GroupCatalog(db, { pageMax: PAGE_MAX }) }
}

// The schema's defaults (no search, every environment, newest first, from the top), 20 rows a window.
const ask = (catalog: GroupCatalog, query: Partial<CatalogQuery>) =>
  catalog.query(CatalogQuerySchema.parse({ profileId: PROFILE, limit: 20, ...query }))

const ids = (rows: CatalogRow[]) => rows.map((row) => row.groupId)

const SORTS = ['groupId', 'name', 'environmentTag', 'teamId', 'updatedAt'] as const
const ENVIRONMENTS = ['all', 'Customer', 'Testing', 'untagged'] as const

/** Every window of every order and filter, forward by key, backward by key and at positions, against a sort in the test. */
function expectEveryWindow(catalog: GroupCatalog, entries: CatalogEntry[]) {
  for (const sortBy of SORTS) {
    for (const sortDirection of ['asc', 'desc'] as const) {
      for (const environment of ENVIRONMENTS) {
        const expected = referenceOrder(entries, { sortBy, sortDirection, environment })
        const base = { sortBy, sortDirection, environment, limit: 7 }
        const label = `${sortBy} ${sortDirection} ${environment}`
        const first = ask(catalog, base)
        expect(first.matching, label).toBe(expected.length)
        expect(first.total, label).toBe(entries.length)
        // Forward, each window after the last row of the one before.
        const forward = [...first.rows]
        for (let rows = first.rows; rows.length > 0;) {
          rows = ask(catalog, { ...base, at: { after: rows.at(-1)!.key } }).rows
          forward.push(...rows)
        }
        expect(ids(forward), label).toEqual(expected)
        // Backward from the end, each window before the first row of the one after.
        const backward: CatalogRow[] = []
        for (let rows = [forward.at(-1)!]; rows.length > 0;) {
          backward.unshift(...rows)
          rows = ask(catalog, { ...base, at: { before: rows[0]!.key } }).rows
        }
        if (expected.length) expect(ids(backward), label).toEqual(expected)
        // At positions, through the kept counts.
        for (const position of [
          1,
          2,
          8,
          9,
          17,
          Math.floor(expected.length / 2),
          expected.length - 3,
          expected.length - 1,
          expected.length,
        ]) {
          if (position < 0) continue
          const window = ask(catalog, { ...base, at: { position } })
          expect(ids(window.rows), `${label} at ${position}`).toEqual(expected.slice(position, position + 7))
          expect(window.position).toBe(position)
        }
      }
    }
  }
}

describe('the catalog by keys', () => {
  it('answers every window of every order and filter, by key in both directions and at any position, as groups come and change', async () => {
    const { db, catalog } = await freshCatalog()
    const entries = randomCatalog(PROFILE, 260, 1)
    catalog.importEntries(entries.slice(0, 200))
    for (const entry of entries.slice(200)) catalog.record({ profileId: PROFILE, group: groupOf(entry), at: new Date(entry.updatedAt) })
    const byId = new Map(entries.map((entry) => [entry.groupId, catalog.get(PROFILE, entry.groupId)!]))
    expectEveryWindow(catalog, [...byId.values()])
    checkCatalogCounts(db, PAGE_MAX)

    // Groups come back renamed, in the other environment, with another team id; a new hour.
    const changed = randomCatalog(PROFILE, 260, 2).filter((_, index) => index % 3 === 0)
    for (const entry of changed) {
      const { entry: recorded } = catalog.record({
        profileId: PROFILE,
        group: groupOf({ ...entry, groupId: entries[changed.indexOf(entry) * 3]!.groupId }),
        at: new Date(entry.updatedAt),
      })
      byId.set(recorded.groupId, recorded)
    }
    expectEveryWindow(catalog, [...byId.values()])
    checkCatalogCounts(db, PAGE_MAX)
    db.close()
  })

  it('keeps each profile’s counts and pages its own, and forgets a deleted profile’s', async () => {
    const { db, catalog } = await freshCatalog()
    catalog.importEntries(randomCatalog('p2', 50, 3))
    catalog.importEntries(randomCatalog(PROFILE, 40, 4))
    expect(ask(catalog, {}).total).toBe(40)
    catalog.removeProfile('p2')
    expect(ask(catalog, { profileId: 'p2' }).total).toBe(0)
    expect(db.get<{ n: number }>("SELECT count(*) AS n FROM catalog_pages WHERE profile_id = 'p2'")!.n).toBe(0)
    expect(ask(catalog, {}).total).toBe(40)
    checkCatalogCounts(db, PAGE_MAX)
    db.close()
  })

  it('finds any part of an id or name of three characters or more, and one or two characters at the start of a word', async () => {
    const { db, catalog } = await freshCatalog()
    catalog.importEntries([
      entry('acme-west', 'Acme West Coast'),
      entry('acme-east', 'Acme East'),
      entry('Zeta-9', 'Déjà Vu'),
      entry('beta', undefined),
    ])
    const search = (text: string) => ids(ask(catalog, { search: text, sortBy: 'groupId', sortDirection: 'asc' }).rows)
    expect(search('cme')).toEqual(['acme-east', 'acme-west'])
    expect(search('EST CO')).toEqual(['acme-west'])
    expect(search('deja')).toEqual(['Zeta-9'])
    expect(search('z')).toEqual(['Zeta-9'])
    expect(search('ea')).toEqual(['acme-east'])
    expect(search('we')).toEqual(['acme-west'])
    // "et" is inside "beta" and "Zeta", but starts no word.
    expect(search('et')).toEqual([])
    expect(search('z- 9')).toEqual(['Zeta-9'])
    expect(search('"quoted" OR')).toEqual([])
    // Signs alone narrow nothing.
    expect(search('-')).toHaveLength(4)
    expect(ask(catalog, { search: 'acme', environment: 'Testing' }).matching).toBe(0)
    db.close()
  })

  it('lists the first of many matches in order, and says there are more', async () => {
    const { db, catalog } = await freshCatalog()
    const entries = Array.from({ length: CATALOG_SEARCH_LISTED + 200 }, (_, index) => entry(`many-${index}`, `Many ${index}`))
    catalog.importEntries([...entries, entry('few-1', 'Few')])
    const first = ask(catalog, { search: 'many', sortBy: 'groupId', sortDirection: 'desc', limit: 5 })
    expect(first).toMatchObject({ matching: CATALOG_SEARCH_LISTED, more: true })
    expect(ids(first.rows)).toEqual(['many-1199', 'many-1198', 'many-1197', 'many-1196', 'many-1195'])
    const next = ask(catalog, { search: 'many', sortBy: 'groupId', sortDirection: 'desc', limit: 5, at: { after: first.rows.at(-1)!.key } })
    expect(ids(next.rows)).toEqual(['many-1194', 'many-1193', 'many-1192', 'many-1191', 'many-1190'])
    expect(ids(ask(catalog, { search: 'many', sortBy: 'groupId', sortDirection: 'asc', limit: 2, at: { position: 998 } }).rows)).toEqual([
      'many-998',
      'many-999',
    ])
    expect(ask(catalog, { search: 'few' })).toMatchObject({ matching: 1, more: false })
    db.close()
  })
})

describe('migration 9', () => {
  it('keys, indexes and counts the groups of a catalog written before it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ec-catalog-migrate-'))
    const path = join(dir, 'embed-console.db')
    const old = openDatabase({ path, migrations: appMigrations.filter((migration) => migration.version <= 8) })
    const entries = randomCatalog(PROFILE, 120, 5)
    for (const item of entries) insertVersion8Row(old, item)
    old.close()

    const db = openAppDatabase(dir)
    expect(db.schemaVersion()).toBe(appMigrations.at(-1)!.version)
    const catalog = new GroupCatalog(db)
    expect(catalog.get(PROFILE, entries[0]!.groupId)).toEqual(entries[0])
    checkCatalogCounts(db, 4096)
    expectEveryWindow(catalog, entries)
    // Keyed as the app keys what it writes: the same groups written by this version hold the same keys.
    const fresh = await freshCatalog()
    fresh.catalog.importEntries(entries)
    const keys = (of: Database) =>
      of.all('SELECT group_id, environment_key, group_key, name_key, team_key, updated_key, search_text FROM catalog ORDER BY group_id')
    expect(keys(db)).toEqual(keys(fresh.db))
    fresh.db.close()
    db.close()
  })
})

function entry(groupId: string, name: string | undefined, extra: Partial<CatalogEntry> = {}): CatalogEntry {
  return {
    profileId: PROFILE,
    groupId,
    ...(name === undefined ? {} : { name }),
    environmentTag: 'Customer',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  }
}

/** A group as an answer carries it. */
function groupOf(item: CatalogEntry) {
  return {
    provided_id: item.groupId,
    token: 'token-of-a-group',
    team_id: item.teamId ?? 1,
    name: item.name ?? null,
    ...(item.environmentTag ? { api_environment_tag: item.environmentTag } : {}),
    properties: null,
  }
}

/** A row as migration 1 to 8 wrote it (group_sort, name_sort and search_text as they were). */
function insertVersion8Row(db: Database, item: CatalogEntry) {
  db.run(
    `INSERT INTO catalog (profile_id, group_id, group_sort, name, name_sort, search_text, environment_tag, team_id, mapping, properties, token_last4, created_at, updated_at, rotated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    item.profileId,
    item.groupId,
    item.groupId.toLowerCase(),
    item.name ?? null,
    item.name?.toLowerCase() ?? null,
    `${item.groupId} ${item.name ?? ''}`,
    item.environmentTag ?? null,
    item.teamId ?? null,
    item.mapping ? JSON.stringify(item.mapping) : null,
    item.properties === undefined ? null : JSON.stringify(item.properties),
    item.tokenLast4 ?? null,
    item.createdAt,
    item.updatedAt,
    item.rotatedAt ?? null,
  )
}
