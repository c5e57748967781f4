import { join } from 'node:path'
import { z } from 'zod'
import { CatalogEntrySchema, type CatalogEntry, type CatalogQuery, type CatalogRow } from '../../src-shared/catalog/schemas'
import type { Mapping, Properties, UserGroup } from '../../src-shared/user-api/schemas'
import { readJsonFile, SaveQueue, writeJsonFile } from '../storage/json-file'

export const CATALOG_FILE = 'catalog.json'

const CatalogFileSchema = z.object({ format: z.literal('embed-console-catalog'), version: z.literal(1), groups: z.array(CatalogEntrySchema) })

export interface SeenGroup {
  profileId: string
  group: UserGroup
  /** Fields the call sent, which the response may not echo (mapping is never returned). */
  sent?: { mapping?: Mapping; properties?: Properties }
  tokenLast4?: string
  rotated?: boolean
  at: Date
}

const keyOf = (profileId: string, groupId: string) => `${profileId}\u0000${groupId}`

/**
 * The local catalog of groups, per profile. Kept in memory and saved as one JSON file, written
 * atomically and coalesced so a burst of calls costs one write.
 */
export class GroupCatalog {
  private readonly saves: SaveQueue

  private constructor(
    private readonly file: string,
    private readonly entries: Map<string, CatalogEntry>,
    readonly loadProblem: string | null,
  ) {
    this.saves = new SaveQueue(() =>
      writeJsonFile(this.file, { format: 'embed-console-catalog', version: 1, groups: [...this.entries.values()] }),
    )
  }

  static async open(dataDir: string): Promise<GroupCatalog> {
    const file = join(dataDir, CATALOG_FILE)
    const loaded = await readJsonFile(file, CatalogFileSchema)
    const entries = new Map<string, CatalogEntry>()
    if (loaded.state === 'read') for (const entry of loaded.value.groups) entries.set(keyOf(entry.profileId, entry.groupId), entry)
    const problem = loaded.state === 'moved-aside' ? loaded.notice : null
    return new GroupCatalog(file, entries, problem)
  }

  get(profileId: string, groupId: string): CatalogEntry | undefined {
    return this.entries.get(keyOf(profileId, groupId))
  }

  /**
   * Records what a call returned and says what deserves a warning: spec section 2 lets one id
   * exist once per environment, so the same id coming back under another tag is worth knowing.
   */
  async record(seen: SeenGroup): Promise<{ entry: CatalogEntry; warnings: string[] }> {
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
    const entry: CatalogEntry = {
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
    }
    this.entries.set(keyOf(profileId, groupId), CatalogEntrySchema.parse(entry))
    await this.saves.request()
    return { entry, warnings }
  }

  async removeProfile(profileId: string): Promise<void> {
    for (const [key, entry] of this.entries) if (entry.profileId === profileId) this.entries.delete(key)
    await this.saves.request()
  }

  /** Filtered and sorted in main, so the renderer only virtualises rows. */
  query(query: CatalogQuery): { total: number; rows: CatalogRow[] } {
    const search = query.search.trim().toLowerCase()
    const rows: CatalogRow[] = []
    let total = 0
    for (const entry of this.entries.values()) {
      if (entry.profileId !== query.profileId) continue
      total += 1
      if (query.environment === 'untagged' ? entry.environmentTag : query.environment !== 'all' && entry.environmentTag !== query.environment) continue
      if (search && !entry.groupId.toLowerCase().includes(search) && !(entry.name ?? '').toLowerCase().includes(search)) continue
      rows.push({
        groupId: entry.groupId,
        name: entry.name,
        environmentTag: entry.environmentTag,
        teamId: entry.teamId,
        tokenLast4: entry.tokenLast4,
        updatedAt: entry.updatedAt,
        rotatedAt: entry.rotatedAt,
      })
    }
    const direction = query.sortDirection === 'asc' ? 1 : -1
    const key = query.sortBy
    const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })
    rows.sort((a, b) => {
      const left = a[key]
      const right = b[key]
      if (left === right) return 0
      if (left === undefined || left === null) return 1
      if (right === undefined || right === null) return -1
      return direction * (typeof left === 'number' && typeof right === 'number' ? left - right : collator.compare(String(left), String(right)))
    })
    return { total, rows }
  }
}
