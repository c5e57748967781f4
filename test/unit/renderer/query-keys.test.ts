import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { QueryClient, type QueryKey } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { queryKeys } from '../../../src-renderer/lib/query-keys'

// The screens invalidate by the factory's prefixes: these run a real QueryClient's cache, so a key
// that moves out from under its prefix leaves a screen showing stale data and fails here.
function cacheHolding(keys: QueryKey[]): QueryClient {
  const client = new QueryClient()
  for (const key of keys) client.setQueryData(key, 'cached')
  return client
}

async function invalidatedBy(prefix: QueryKey, keys: QueryKey[]): Promise<QueryKey[]> {
  const client = cacheHolding(keys)
  await client.invalidateQueries({ queryKey: prefix, refetchType: 'none' })
  return keys.filter((key) => client.getQueryState(key)?.isInvalidated)
}

const catalogWindow = queryKeys.catalog.window('p1', { search: 'acme' })
const catalogEntry = queryKeys.catalog.entry('p1', 'acme')
const teamGroup = queryKeys.team.group('p1', 'acme')
const teamStatus = queryKeys.team.status
const activityPage = queryKeys.activity.pages({})
const activityEntry = queryKeys.activity.entry('a1')
const bulkRuns = queryKeys.bulk.runs
const bulkRun = queryKeys.bulk.run('r1')
const bulkItems = queryKeys.bulk.items('r1', { outcome: '', search: '', done: 0 })
const every = [
  queryKeys.appInfo,
  queryKeys.profiles,
  queryKeys.fileDialogs,
  queryKeys.site.recent,
  queryKeys.site.drafts,
  catalogWindow,
  catalogEntry,
  teamGroup,
  teamStatus,
  activityPage,
  activityEntry,
  bulkRuns,
  bulkRun,
  bulkItems,
]

describe('queryKeys: one factory, prefixes that reach what they promise', () => {
  it('a group call (catalog.all) refreshes every catalog window and entry and the team note on a group, nothing else', async () => {
    expect(await invalidatedBy(queryKeys.catalog.all, every)).toEqual([catalogWindow, catalogEntry, teamGroup])
  })

  it('activity.all reaches the log’s pages and entries only', async () => {
    expect(await invalidatedBy(queryKeys.activity.all, every)).toEqual([activityPage, activityEntry])
  })

  it('team.all reaches the team’s status, not the group notes kept under the catalog', async () => {
    expect(await invalidatedBy(queryKeys.team.all, every)).toEqual([teamStatus])
  })

  it('bulk.all reaches the runs, a run and its rows; bulk.runs only the list', async () => {
    expect(await invalidatedBy(queryKeys.bulk.all, every)).toEqual([bulkRuns, bulkRun, bulkItems])
    expect(await invalidatedBy(queryKeys.bulk.runs, every)).toEqual([bulkRuns])
  })

  it('a run’s rows seen another way (outcome, search, rows sent) are another cache entry', () => {
    const client = cacheHolding([bulkItems])
    expect(client.getQueryData(queryKeys.bulk.items('r1', { outcome: '', search: '', done: 0 }))).toBe('cached')
    expect(client.getQueryData(queryKeys.bulk.items('r1', { outcome: 'failed', search: '', done: 0 }))).toBeUndefined()
    expect(client.getQueryData(queryKeys.bulk.items('r1', { outcome: '', search: '', done: 5 }))).toBeUndefined()
  })

  it('no renderer file writes a query key by hand: every queryKey and setQueryData goes through the factory', () => {
    const renderer = fileURLToPath(new URL('../../../src-renderer', import.meta.url))
    const sources = readdirSync(renderer, { recursive: true, encoding: 'utf8' }).filter(
      (file) => /\.tsx?$/.test(file) && !file.endsWith('query-keys.ts'),
    )
    const byHand: string[] = []
    for (const file of sources) {
      const text = readFileSync(join(renderer, file), 'utf8')
      // The paging hooks (lib/paged-query.ts) take the key as their first argument, and forward it
      // as a parameter typed QueryKey: their callers are held to the factory instead.
      for (const match of text.matchAll(
        /\bqueryKey:\s*([^,}\n]+)|\b(?:setQueryData|getQueryData|useCursorPages|useOffsetPages)\(\s*([^,)\n]+)/g,
      )) {
        const key = (match[1] ?? match[2])!.trim()
        const forwarded = file.endsWith('paged-query.ts') && key === 'QueryKey'
        if (!key.startsWith('queryKeys.') && !forwarded) byHand.push(`${relative(renderer, join(renderer, file))}: ${key}`)
      }
    }
    expect(sources.length).toBeGreaterThan(20)
    expect(byHand).toEqual([])
  })
})
