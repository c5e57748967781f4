import type { CatalogEntry, CatalogQuery } from '../../src-shared/catalog/schemas'
import { foldText, type FullTextIndex, wordStartText } from '../storage/full-text'

/*
 * Every order the catalog is listed in is one text column per row, unique in its profile: the
 * sort value in natural order, then the group's own key as the tie-break. A window is then a seek
 * on one index (`key > ?` after a row, `key < ?` before it), in either direction, at any depth,
 * and a row's key is the cursor the renderer asks the next window by. The keys are written by
 * the app (GroupCatalog, and migration 9 for the rows before it) with these functions alone.
 */

/** Between a key's parts. No part holds it (`clean`), so two rows never share a key. */
const SEPARATOR = '\u0001'

/** What a group lacks sorts after every value, in ascending order. */
const MISSING = '~'

const clean = (text: string) => text.replaceAll('\u0000', ' ').replaceAll(SEPARATOR, ' ')

/** Natural order: "g2" before "g10", whatever the case or accents. */
export const naturalKey = (text: string) => clean(foldText(text)).replace(/\d{1,20}/g, (digits) => digits.padStart(20, '0'))

/** Team ids as text that sorts as the numbers do (negative ones first). */
function teamIdText(teamId: number): string {
  // Safe integers: a negative one's complement to the largest sorts the other way round.
  const whole = Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Math.trunc(teamId)))
  return whole < 0 ? `n${String(Number.MAX_SAFE_INTEGER + whole).padStart(16, '0')}` : `p${String(whole).padStart(16, '0')}`
}

/** A catalog row's columns of its own (besides its id and keys), as migration 9 copies them and the app reads them. */
export interface CatalogColumns {
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

/** A row's key in each order, and its environment as the indexes file it ("~" when untagged). */
export interface CatalogRowKeys {
  environment_key: string
  group_key: string
  name_key: string
  team_key: string
  updated_key: string
}

export function rowKeys(entry: Pick<CatalogEntry, 'groupId' | 'name' | 'environmentTag' | 'teamId' | 'updatedAt'>): CatalogRowKeys {
  const group = `${naturalKey(entry.groupId)}${SEPARATOR}${entry.groupId}`
  return {
    environment_key: entry.environmentTag ?? MISSING,
    group_key: group,
    // "0" before "1": groups without a name come last.
    name_key: entry.name === undefined ? `1${SEPARATOR}${group}` : `0${naturalKey(entry.name)}${SEPARATOR}${group}`,
    team_key: entry.teamId === undefined ? `${MISSING}${SEPARATOR}${group}` : `${teamIdText(entry.teamId)}${SEPARATOR}${group}`,
    updated_key: `${entry.updatedAt}${SEPARATOR}${group}`,
  }
}

/** The environment filter as the column holds it; null for every environment. */
export const environmentKeyOf = (environment: CatalogQuery['environment']): string | null =>
  environment === 'all' ? null : environment === 'untagged' ? MISSING : environment

/** The orders whose positions are counted (catalog_pages): the environment order is made of the group order's. */
export type PagedSort = 'group' | 'name' | 'team' | 'updated'

export const PAGED_SORT_COLUMNS: Record<PagedSort, keyof CatalogRowKeys> = {
  group: 'group_key',
  name: 'name_key',
  team: 'team_key',
  updated: 'updated_key',
}

/**
 * How a sort key is read: one key column, or (by environment) the environment then the group's
 * key, as one cursor "<environment>\u0001<group key>".
 */
export type SortOrder = { kind: 'column'; sort: PagedSort; column: keyof CatalogRowKeys } | { kind: 'environment' }

export function sortOrder(sortBy: CatalogQuery['sortBy']): SortOrder {
  switch (sortBy) {
    case 'environmentTag':
      return { kind: 'environment' }
    case 'groupId':
      return { kind: 'column', sort: 'group', column: 'group_key' }
    case 'name':
      return { kind: 'column', sort: 'name', column: 'name_key' }
    case 'teamId':
      return { kind: 'column', sort: 'team', column: 'team_key' }
    case 'updatedAt':
      return { kind: 'column', sort: 'updated', column: 'updated_key' }
  }
}

/** The environment order's cursor, in its two parts. */
export const environmentCursor = (cursor: string): [environment: string, group: string] => {
  const at = cursor.indexOf(SEPARATOR)
  return at < 0 ? [cursor, ''] : [cursor.slice(0, at), cursor.slice(at + 1)]
}

export const joinEnvironmentCursor = (environment: string, group: string) => `${environment}${SEPARATOR}${group}`

/** The catalog's full-text index: ids and names, any part of three characters or more, or the start of a word. */
export const CATALOG_SEARCH: FullTextIndex = {
  name: 'catalog_search',
  content: 'catalog',
  contentRowid: 'id',
  columns: ['search_text'],
  wordStarts: true,
}

export const searchTextOf = (entry: Pick<CatalogEntry, 'groupId' | 'name'>) => wordStartText(entry.groupId, entry.name)
