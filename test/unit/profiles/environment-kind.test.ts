import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { APP_DATABASE_FILE, appMigrations, openAppDatabase } from '../../../src-main/app-database'
import { openDatabase } from '../../../src-main/storage/database'
import { draft, openProfiles, tempDataDir } from './helpers'

describe('a profile’s kind of environment', () => {
  it('is kept, changed, duplicated and exported with the profile; unspecified when not given', async () => {
    const { store } = await openProfiles(await tempDataDir())
    const production = await store.create(draft({ name: 'Production', baseUrl: 'https://api.example.com', environmentKind: 'customer' }))
    expect(production.environmentKind).toBe('customer')
    expect((await store.create(draft({ name: 'Old caller', baseUrl: 'https://old.example.com' }))).environmentKind).toBe('unspecified')
    expect((await store.duplicate(production.id)).environmentKind).toBe('customer')
    expect((await store.update(production.id, { environmentKind: 'testing' })).environmentKind).toBe('testing')
    expect(store.get(production.id).environmentKind).toBe('testing')
    expect(store.exportProfiles().profiles.map((profile) => profile.environmentKind)).toEqual(['testing', 'unspecified', 'customer'])
  })

  it('arrives by migration 2 on a database of schema 1, whose profiles say nothing and whose log keeps no bodies', async () => {
    const dataDir = await tempDataDir()
    const old = openDatabase({
      path: join(dataDir, APP_DATABASE_FILE),
      migrations: appMigrations.filter((migration) => migration.version === 1),
    })
    old.run(
      "INSERT INTO profiles (id, name, name_key, base_url, timeout_seconds, environment_label, created_at, updated_at) VALUES ('p1', 'Before', 'before', 'https://a.example', 15, '', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')",
    )
    old.run(
      "INSERT INTO activity (id, time, profile_id, profile_name, operation, outcome, duration_ms) VALUES ('a1', '2025-01-01T00:00:00.000Z', 'p1', 'Before', 'getOrCreate', 'success', 3)",
    )
    expect(old.schemaVersion()).toBe(1)
    old.close()

    const db = openAppDatabase(dataDir)
    expect(db.schemaVersion()).toBeGreaterThanOrEqual(2)
    expect(db.get('SELECT environment_kind FROM profiles WHERE id = ?', 'p1')).toEqual({ environment_kind: 'unspecified' })
    expect(db.get('SELECT request, response FROM activity WHERE id = ?', 'a1')).toEqual({ request: null, response: null })
    db.close()
  })
})
