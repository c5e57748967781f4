import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ActivityLog } from '../../../src-main/activity/activity-log'
import { appMigrations, openAppDatabase } from '../../../src-main/app-database'
import { openDatabase } from '../../../src-main/storage/database'
import { createFullTextIndex, fullTextCondition, type FullTextIndex } from '../../../src-main/storage/full-text'

const NOTES: FullTextIndex = { name: 'notes_search', content: 'notes', contentRowid: 'id', columns: ['title', 'body'] }

async function notesDatabase() {
  const dir = await mkdtemp(join(tmpdir(), 'ec-fts-'))
  return openDatabase({
    path: join(dir, 'notes.db'),
    migrations: [
      {
        version: 1,
        name: 'notes',
        up(db) {
          db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT, body TEXT, other TEXT)')
          db.run("INSERT INTO notes (title, body) VALUES ('Written before', 'the index existed')")
          createFullTextIndex(db, NOTES)
        },
      },
    ],
  })
}

describe('full-text index (FTS5, trigrams)', () => {
  it('finds rows written before it, and stays in step with inserts, updates and deletes', async () => {
    const db = await notesDatabase()
    const ids = (text: string) => {
      const condition = fullTextCondition(NOTES, text)!
      return db.all<{ id: number }>(`SELECT id FROM notes WHERE ${condition.sql} ORDER BY id`, ...condition.params).map((row) => row.id)
    }
    expect(ids('BEFORE')).toEqual([1])
    db.run("INSERT INTO notes (title, body) VALUES ('Déjà vu', 'a second note')")
    expect(ids('deja')).toEqual([2])
    expect(ids('note')).toEqual([2])
    db.run("UPDATE notes SET body = 'renamed entirely' WHERE id = 2")
    expect(ids('second')).toEqual([])
    expect(ids('entire')).toEqual([2])
    // A column outside the index changes nothing it finds.
    db.run("UPDATE notes SET other = 'entire' WHERE id = 1")
    expect(ids('entire')).toEqual([2])
    db.run('DELETE FROM notes WHERE id = 2')
    expect(ids('entire')).toEqual([])
    db.close()
  })

  it('reads the operator’s words as words, never as query syntax', async () => {
    const db = await notesDatabase()
    db.run(`INSERT INTO notes (title, body) VALUES ('a "quoted" OR NOT (odd) text*', '50% off_sale')`)
    const count = (text: string) => {
      const condition = fullTextCondition(NOTES, text)!
      return db.get<{ n: number }>(`SELECT count(*) AS n FROM notes WHERE ${condition.sql}`, ...condition.params)!.n
    }
    expect(count('"quoted"')).toBe(1)
    expect(count('OR NOT (odd)')).toBe(1)
    expect(count('text*')).toBe(1)
    expect(count('%')).toBe(1)
    expect(count('f_')).toBe(1)
    expect(count('x_')).toBe(0)
    expect(count('NEAR(')).toBe(0)
    expect(fullTextCondition(NOTES, '   ')).toBeNull()
    db.close()
  })
})

describe('migration 8 on a database of version 5', () => {
  it('gives the calls already logged their group name and makes them searchable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ec-fts-migrate-'))
    const path = join(dir, 'embed-console.db')
    const old = openDatabase({ path, migrations: appMigrations.filter((migration) => migration.version <= 5) })
    old.run(
      `INSERT INTO activity (id, time, profile_id, profile_name, operation, group_id, outcome, duration_ms, request, response)
       VALUES ('a', '2026-01-01T00:00:00.000Z', 'p', 'P', 'getOrCreate', 'acme-east', 'success', 1, '{"user_group_id":"acme-east"}', '{"user_group":{"name":"Acme East"}}'),
              ('b', '2026-01-01T00:00:01.000Z', 'p', 'P', 'update', 'zeta', 'failure', 1, '{"user_group_id":"zeta","name":"Zeta Sent"}', '"[omitted]"'),
              ('c', '2026-01-01T00:00:02.000Z', 'p', 'P', 'testConnection', NULL, 'failure', 1, NULL, 'not json')`,
    )
    old.close()

    const db = openAppDatabase(dir)
    expect(db.schemaVersion()).toBe(appMigrations.at(-1)!.version)
    const log = new ActivityLog(db)
    const groups = (search: string) => log.page({ search }, 10).entries.map((entry) => [entry.groupId, entry.groupName])
    expect(groups('east')).toEqual([['acme-east', 'Acme East']])
    expect(groups('zeta sent')).toEqual([['zeta', 'Zeta Sent']])
    db.close()
  })
})
