import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Libsql from 'libsql'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../../src-main/storage/database'

/*
 * Group commits: grouped transactions of one turn of the event loop share one commit, each
 * atomic on its own; anything that must be committed on return (any other write or transaction)
 * commits the group first. Seen from a second connection, as another process sees the file.
 */

const opened: Array<{ close(): void }> = []
afterEach(() => {
  for (const db of opened.splice(0)) db.close()
})

async function notes(): Promise<{ db: Database; other: Libsql.Database }> {
  const path = join(await mkdtemp(join(tmpdir(), 'ec-group-')), 'notes.db')
  const db = openDatabase({
    path,
    migrations: [{ version: 1, name: 'notes', up: (db) => db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)') }],
  })
  const other = new Libsql(path, { readonly: true })
  opened.push(other, db)
  return { db, other }
}

const seen = (other: Libsql.Database) =>
  (other.prepare('SELECT text FROM notes ORDER BY id').all() as Array<{ text: string }>).map((row) => row.text)
const note = (db: Database, text: string) => db.run('INSERT INTO notes (text) VALUES (?)', text)
const turn = () => new Promise((next) => setImmediate(next))

describe('group commits', () => {
  it('commit the grouped work of one turn together, at the end of the turn, each piece atomic', async () => {
    const { db, other } = await notes()
    const effects: string[] = []
    db.transaction(
      () => {
        note(db, 'a')
        db.afterCommit(() => effects.push('a'))
      },
      { grouped: true },
    )
    expect(() =>
      db.transaction(
        () => {
          note(db, 'half')
          db.afterCommit(() => effects.push('half'))
          throw new Error('the second one fails')
        },
        { grouped: true },
      ),
    ).toThrow('the second one fails')
    db.transaction(() => note(db, 'b'), { grouped: true })
    // This process reads what it wrote; another sees nothing yet, and no effect ran.
    expect(db.all<{ text: string }>('SELECT text FROM notes').map((row) => row.text)).toEqual(['a', 'b'])
    expect(seen(other)).toEqual([])
    expect(effects).toEqual([])
    await db.committed()
    expect(seen(other)).toEqual(['a', 'b'])
    expect(effects).toEqual(['a'])
    // Nothing open: committed() answers at once.
    await db.committed()
    db.transaction(() => note(db, 'c'), { grouped: true })
    await turn()
    expect(seen(other)).toEqual(['a', 'b', 'c'])
  })

  it('commit before any write that must be committed when it returns', async () => {
    const { db, other } = await notes()
    db.transaction(() => note(db, 'grouped 1'), { grouped: true })
    note(db, 'plain write')
    expect(seen(other)).toEqual(['grouped 1', 'plain write'])

    // A write through get or all (one that answers rows) too.
    db.transaction(() => note(db, 'grouped a'), { grouped: true })
    expect(db.get<{ text: string }>("INSERT INTO notes (text) VALUES ('returning') RETURNING text")?.text).toBe('returning')
    expect(seen(other).slice(-2)).toEqual(['grouped a', 'returning'])
    db.transaction(() => note(db, 'grouped b'), { grouped: true })
    db.all("  update notes SET text = 'grouped b, updated' WHERE text = 'grouped b' RETURNING id")
    expect(seen(other).at(-1)).toBe('grouped b, updated')

    db.transaction(() => note(db, 'grouped 2'), { grouped: true })
    db.transaction(() => note(db, 'transaction'))
    expect(seen(other).slice(-2)).toEqual(['grouped 2', 'transaction'])

    // A durable transaction (a rotation's journal entry) is never refused for the group before it, nor joins it.
    db.transaction(() => note(db, 'grouped 3'), { grouped: true })
    db.transaction(() => note(db, 'durable'), { durable: true })
    expect(seen(other).slice(-2)).toEqual(['grouped 3', 'durable'])

    db.transaction(() => note(db, 'grouped 4'), { grouped: true })
    db.close()
    opened.pop()
    expect(seen(other).at(-1)).toBe('grouped 4')
  })

  it('stay small: a group is committed once it holds its largest number of transactions', async () => {
    const { db, other } = await notes()
    for (let index = 0; index < 300; index++) db.transaction(() => note(db, String(index)), { grouped: true })
    expect(seen(other)).toHaveLength(256)
    await db.committed()
    expect(seen(other)).toHaveLength(300)
  })

  it('inside another transaction, are part of it', async () => {
    const { db, other } = await notes()
    db.transaction(() => {
      db.transaction(() => note(db, 'nested'), { grouped: true })
      expect(() => db.transaction(() => note(db, 'x'), { durable: true })).toThrow(/outermost/)
    })
    expect(seen(other)).toEqual(['nested'])
  })
})
