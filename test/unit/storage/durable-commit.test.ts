import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../../src-main/storage/database'

/*
 * A durable transaction (a rotation's journal entry, written before the rotation is sent) is
 * synced to the disk as it commits: SQLite's synchronous = FULL for its commit alone, NORMAL
 * before and after it (a commit then reaches the write-ahead log, not the disk).
 */

const opened: Database[] = []
afterEach(() => {
  for (const db of opened.splice(0)) db.close()
})

async function open(): Promise<Database> {
  const path = join(await mkdtemp(join(tmpdir(), 'ec-durable-')), 'notes.db')
  const db = openDatabase({
    path,
    migrations: [{ version: 1, name: 'notes', up: (db) => db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)') }],
  })
  opened.push(db)
  return db
}

const FULL = 2
const NORMAL = 1
const synchronous = (db: Database) => db.get<{ synchronous: number }>('PRAGMA synchronous')?.synchronous

describe('a durable transaction', () => {
  it('commits synced (synchronous = FULL), and the connection goes back to NORMAL after it', async () => {
    const db = await open()
    expect(synchronous(db)).toBe(NORMAL)
    db.transaction(
      () => {
        db.run("INSERT INTO notes (text) VALUES ('journaled')")
        expect(synchronous(db)).toBe(FULL)
      },
      { durable: true },
    )
    expect(synchronous(db)).toBe(NORMAL)
    db.transaction(() => expect(synchronous(db)).toBe(NORMAL))
  })

  it('goes back to NORMAL after one that failed', async () => {
    const db = await open()
    expect(() =>
      db.transaction(
        () => {
          throw new Error('refused')
        },
        { durable: true },
      ),
    ).toThrow('refused')
    expect(synchronous(db)).toBe(NORMAL)
  })
})
