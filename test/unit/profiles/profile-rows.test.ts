import { describe, expect, it } from 'vitest'
import { openAppDatabase } from '../../../src-main/app-database'
import { openProfileRows } from '../../../src-main/profiles/profile-rows'
import type { Profile } from '../../../src-shared/profiles/schemas'
import { tempDataDir } from './helpers'

/*
 * The profiles table's own guard: the store checks a name is free before it writes, but another
 * process may take the name between the check and the write; the UNIQUE index on the lower-cased
 * name then refuses the second row, and the refusal is the same sentence the check gives.
 * Two connections to one data folder stand for two processes.
 */

const AT = '2024-05-01T10:00:00.000Z'
const profile = (id: string, name: string): Profile => ({
  id,
  name,
  baseUrl: 'https://api.example.com',
  timeoutSeconds: 15,
  environmentLabel: '',
  environmentKind: 'unspecified',
  proxyMode: 'environment',
  proxyUrl: '',
  proxyUsername: '',
  caBundlePath: '',
  createdAt: AT,
  updatedAt: AT,
})

async function twoProcesses() {
  const dataDir = await tempDataDir()
  const first = openAppDatabase(dataDir)
  const second = openAppDatabase(dataDir)
  return { first: openProfileRows(first), second: openProfileRows(second), close: () => [first, second].forEach((db) => db.close()) }
}

describe('profile rows: a name taken meanwhile', () => {
  it('refuses the second insert of a name, whatever its case, with the sentence the check gives, and keeps the first row', async () => {
    const { first, second, close } = await twoProcesses()
    try {
      expect(first.nameTaken('Production')).toBe(false)
      second.insert(profile('b', 'PRODUCTION'))
      expect(() => first.insert(profile('a', 'Production'))).toThrow(
        expect.objectContaining({ code: 'conflict', message: 'A profile named “Production” already exists. Choose another name.' }),
      )
      expect(first.all().map((row) => [row.id, row.name])).toEqual([['b', 'PRODUCTION']])
    } finally {
      close()
    }
  })

  it('refuses an update to a name taken meanwhile, and leaves the row as it was', async () => {
    const { first, second, close } = await twoProcesses()
    try {
      first.insert(profile('a', 'Staging'))
      second.insert(profile('b', 'Production'))
      expect(() => first.update({ ...profile('a', 'production'), updatedAt: '2024-05-02T10:00:00.000Z' })).toThrow(
        expect.objectContaining({ code: 'conflict' }),
      )
      expect(second.one('a')).toEqual(profile('a', 'Staging'))
      // The profile's own name, in another case, is no clash with itself.
      expect(first.nameTaken('STAGING', 'a')).toBe(false)
      expect(first.nameTaken('STAGING', 'b')).toBe(true)
    } finally {
      close()
    }
  })
})
