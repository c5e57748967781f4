import type { Mapping } from '../../src-shared/user-api/schemas'
import type { GroupCatalog } from '../catalog/group-catalog'
import type { SecretVault } from '../profiles/vault'
import { groupTokenKey } from '../profiles/vault-keys'

/** What a record waiting for its batch will write of a group: its token, and the mapping last sent. */
export interface WaitingRecord {
  token: string
  mapping?: Mapping
}

/**
 * The records of deferred calls (Database.defer) until their batch is written, by the group's
 * token key: a call on the same group before then reads their word, newer than the vault's or
 * the catalog's.
 */
export function createRecordsWaiting({ vault, catalog }: { vault: SecretVault; catalog: GroupCatalog }) {
  const waiting = new Map<string, WaitingRecord>()
  return {
    /** The group's token as the vault keeps it (or a record waiting will), if any: a secret to scrub from what the server says. */
    knownGroupToken(profileId: string, groupId: string): string[] {
      const key = groupTokenKey(profileId, groupId)
      const token = waiting.get(key)?.token ?? vault.get(key)
      return token ? [token] : []
    },

    /** The group as the catalog has it, with what a record waiting for its batch will write over it. */
    catalogEntry(profileId: string, groupId: string) {
      const entry = catalog.get(profileId, groupId)
      const mapping = waiting.get(groupTokenKey(profileId, groupId))?.mapping
      return mapping !== undefined && entry ? { ...entry, mapping } : entry
    },

    /**
     * Holds what a deferred record will write; the function returned lets it go, once written.
     * A later call on the same group holds its own in its place, which the earlier record's
     * writing leaves alone.
     */
    hold(tokenKey: string, record: WaitingRecord): () => void {
      waiting.set(tokenKey, record)
      return () => {
        if (waiting.get(tokenKey) === record) waiting.delete(tokenKey)
      }
    },
  }
}

export type RecordsWaiting = ReturnType<typeof createRecordsWaiting>
