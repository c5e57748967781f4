import { expect } from 'vitest'
import type { Database } from '../../../src-main/storage/database'
import type { CatalogEntry, CatalogQuery } from '../../../src-shared/catalog/schemas'

/** A small deterministic generator (mulberry32), so a failing catalog can be built again. */
function random(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// With characters past U+FFFF (😀) and just below (\uE000, \uFFEE): SQLite orders text by code point, JavaScript's < does not.
const WORDS = ['acme', 'Acme', 'ÄCME', 'zeta', 'beta', 'Béta', 'omega', 'om', 'x😀', 'x\uE000', 'x\uFFEE']

/**
 * `count` groups of one profile: ids and names of a word, a number and sometimes a letter (cases
 * and accents mixed, numbers of 1 to 12 digits), some names missing, both environments and
 * none, team ids negative and positive, a few updates sharing their time.
 */
export function randomCatalog(profileId: string, count: number, seed: number): CatalogEntry[] {
  const next = random(seed)
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!
  const number = () => String(Math.floor(next() * 10 ** (1 + Math.floor(next() * 12))))
  const seen = new Set<string>()
  const entries: CatalogEntry[] = []
  while (entries.length < count) {
    const groupId = `${pick(WORDS)}-${number()}${next() < 0.2 ? pick(['a', 'B', 'é']) : ''}`
    if (seen.has(groupId)) continue
    seen.add(groupId)
    const name = next() < 0.2 ? undefined : `${pick(WORDS)} ${number()}`
    const environmentTag = pick(['Customer', 'Customer', 'Testing', undefined] as const)
    const teamId = next() < 0.1 ? undefined : Math.floor(next() * 2000) - 200
    const updatedAt = new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 40) * 60_000).toISOString()
    entries.push({
      profileId,
      groupId,
      ...(name === undefined ? {} : { name }),
      ...(environmentTag ? { environmentTag } : {}),
      ...(teamId === undefined ? {} : { teamId }),
      createdAt: updatedAt,
      updatedAt,
    })
  }
  return entries
}

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()

/** Text in code point order, as SQLite compares it. */
function byText(a: string, b: string): number {
  const x = Array.from(a, (character) => character.codePointAt(0)!)
  const y = Array.from(b, (character) => character.codePointAt(0)!)
  for (let index = 0; index < Math.min(x.length, y.length); index++) if (x[index] !== y[index]) return x[index]! - y[index]!
  return x.length - y.length
}

/** "g2" before "g10": letters by their folded text, runs of digits by their value. */
function compareNatural(a: string, b: string): number {
  const runs = (text: string) => fold(text).match(/\d+|\D+/g) ?? []
  const left = runs(a)
  const right = runs(b)
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const x = left[index]!
    const y = right[index]!
    const numbers = /^\d/.test(x) && /^\d/.test(y)
    const order = numbers ? Number(BigInt(x) - BigInt(y) > 0n) - Number(BigInt(x) - BigInt(y) < 0n) : byText(x, y)
    if (order !== 0) return order
  }
  return left.length - right.length
}

const byGroup = (a: CatalogEntry, b: CatalogEntry) => compareNatural(a.groupId, b.groupId) || byText(a.groupId, b.groupId)
const missingLast = <T>(a: T | undefined, b: T | undefined, compare: (x: T, y: T) => number) =>
  a === undefined ? (b === undefined ? 0 : 1) : b === undefined ? -1 : compare(a, b)
const ENVIRONMENT_RANK = { Customer: 0, Testing: 1 } as Record<string, number>

/** The ids of the list as the Groups screen should show it: an order written here, apart from the app's keys. */
export function referenceOrder(entries: CatalogEntry[], query: Pick<CatalogQuery, 'sortBy' | 'sortDirection' | 'environment'>): string[] {
  const compare: Record<CatalogQuery['sortBy'], (a: CatalogEntry, b: CatalogEntry) => number> = {
    groupId: byGroup,
    name: (a, b) => missingLast(a.name, b.name, compareNatural) || byGroup(a, b),
    environmentTag: (a, b) =>
      (ENVIRONMENT_RANK[a.environmentTag ?? ''] ?? 2) - (ENVIRONMENT_RANK[b.environmentTag ?? ''] ?? 2) || byGroup(a, b),
    teamId: (a, b) => missingLast(a.teamId, b.teamId, (x, y) => x - y) || byGroup(a, b),
    updatedAt: (a, b) => byText(a.updatedAt, b.updatedAt) || byGroup(a, b),
  }
  const shown = entries.filter((entry) =>
    query.environment === 'all'
      ? true
      : query.environment === 'untagged'
        ? !entry.environmentTag
        : entry.environmentTag === query.environment,
  )
  const sorted = shown.sort(compare[query.sortBy]).map((entry) => entry.groupId)
  return query.sortDirection === 'desc' ? sorted.reverse() : sorted
}

const KEY_COLUMNS = { group: 'group_key', name: 'name_key', team: 'team_key', updated: 'updated_key' } as const

/**
 * The kept counts agree with the rows: each profile's groups per environment, and each order's
 * pages, counted again row by row (each page within its size; no empty page but the first).
 */
export function checkCatalogCounts(db: Database, pageMax: number): void {
  const actual = db.all<{ profile_id: string; environment_key: string; n: number }>(
    'SELECT profile_id, environment_key, count(*) AS n FROM catalog GROUP BY 1, 2 ORDER BY 1, 2',
  )
  const kept = db.all<{ profile_id: string; environment_key: string; n: number }>(
    'SELECT profile_id, environment_key, groups AS n FROM catalog_counts WHERE groups <> 0 ORDER BY 1, 2',
  )
  expect(kept).toEqual(actual)
  for (const { profile_id: profileId } of db.all<{ profile_id: string }>('SELECT DISTINCT profile_id FROM catalog')) {
    for (const [sort, column] of Object.entries(KEY_COLUMNS)) {
      const pages = db.all<{ first_key: string; customer: number; testing: number; untagged: number }>(
        'SELECT first_key, customer, testing, untagged FROM catalog_pages WHERE profile_id = ? AND sort = ? ORDER BY first_key',
        profileId,
        sort,
      )
      expect(pages[0]?.first_key, `${profileId} ${sort}: the first page`).toBe('')
      pages.forEach((page, index) => {
        const next = pages[index + 1]?.first_key
        const counted = (environment: string) =>
          db.get<{ n: number }>(
            `SELECT count(*) AS n FROM catalog WHERE profile_id = ? AND environment_key = ? AND ${column} >= ?${next === undefined ? '' : ` AND ${column} < ?`}`,
            profileId,
            environment,
            page.first_key,
            ...(next === undefined ? [] : [next]),
          )!.n
        const label = `${profileId} ${sort} page ${index}`
        expect({ customer: page.customer, testing: page.testing, untagged: page.untagged }, label).toEqual({
          customer: counted('Customer'),
          testing: counted('Testing'),
          untagged: counted('~'),
        })
        const size = page.customer + page.testing + page.untagged
        expect(size, label).toBeLessThanOrEqual(pageMax)
        if (index > 0) expect(size, label).toBeGreaterThan(0)
      })
    }
  }
}
