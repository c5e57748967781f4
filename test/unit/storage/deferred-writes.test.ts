import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Libsql from 'libsql'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type Database, openDatabase } from '../../../src-main/storage/database'

/*
 * Deferred writes: works deferred are written later in one transaction, each atomic on its own
 * (a savepoint each); anything that must be committed on return (any other write or
 * transaction) writes the batch first. Seen from a second connection, as another process sees
 * the file.
 */

const opened: Array<{ close(): void }> = []
afterEach(() => {
  for (const db of opened.splice(0)) db.close()
})

async function notes(): Promise<{ db: Database; other: Libsql.Database }> {
  const path = join(await mkdtemp(join(tmpdir(), 'ec-deferred-')), 'notes.db')
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

describe('deferred writes', () => {
  it('are written together later, each atomic on its own, with their effects after the commit', async () => {
    const { db, other } = await notes()
    const effects: string[] = []
    const failures: string[] = []
    db.defer(() => {
      note(db, 'a')
      db.afterCommit(() => effects.push('a'))
    })
    db.defer(
      () => {
        // A transaction inside a deferred work is part of it, and goes with it.
        db.transaction(() => note(db, 'half'))
        db.afterCommit(() => effects.push('half'))
        throw new Error('the second one fails')
      },
      (error) => failures.push((error as Error).message),
    )
    db.deferTogether(() => {
      db.defer(() => note(db, 'b'))
      db.defer(() => note(db, 'c'))
    })
    // Nothing is written yet: not even for this process's reads.
    expect(db.all<{ text: string }>('SELECT text FROM notes')).toEqual([])
    expect(seen(other)).toEqual([])
    await db.committed()
    expect(seen(other)).toEqual(['a', 'b', 'c'])
    expect(effects).toEqual(['a'])
    expect(failures).toEqual(['the second one fails'])
    // Nothing waiting: committed() answers at once.
    await db.committed()
    db.defer(() => note(db, 'd'))
    db.flush()
    expect(seen(other)).toEqual(['a', 'b', 'c', 'd'])
  })

  it('are written before any write that must be committed when it returns', async () => {
    const { db, other } = await notes()
    db.defer(() => note(db, 'deferred 1'))
    note(db, 'plain write')
    expect(seen(other)).toEqual(['deferred 1', 'plain write'])

    // A write through get or all (one that answers rows) too.
    db.defer(() => note(db, 'deferred a'))
    expect(db.get<{ text: string }>("INSERT INTO notes (text) VALUES ('returning') RETURNING text")?.text).toBe('returning')
    expect(seen(other).slice(-2)).toEqual(['deferred a', 'returning'])
    db.defer(() => note(db, 'deferred b'))
    db.all("  update notes SET text = 'deferred b, updated' WHERE text = 'deferred b' RETURNING id")
    expect(seen(other).at(-1)).toBe('deferred b, updated')

    db.defer(() => note(db, 'deferred 2'))
    db.transaction(() => note(db, 'transaction'))
    expect(seen(other).slice(-2)).toEqual(['deferred 2', 'transaction'])

    // A durable transaction (a rotation's journal entry) is never refused for the batch before it, nor joins it.
    db.defer(() => note(db, 'deferred 3'))
    db.transaction(() => note(db, 'durable'), { durable: true })
    expect(seen(other).slice(-2)).toEqual(['deferred 3', 'durable'])

    db.defer(() => note(db, 'deferred 4'))
    db.close()
    opened.pop()
    expect(seen(other).at(-1)).toBe('deferred 4')
  })

  it('stay small: a batch is written once it holds its largest number of works', async () => {
    const { db, other } = await notes()
    for (let index = 0; index < 300; index++) db.defer(() => void note(db, String(index)))
    expect(seen(other)).toHaveLength(256)
    await db.committed()
    expect(seen(other)).toHaveLength(300)
  })

  it('are written in the next turns on their own, without a write to push them', async () => {
    const { db, other } = await notes()
    db.defer(() => void note(db, 'alone'))
    // No write follows and no one awaits committed(): the batch's own timer writes it.
    await vi.waitFor(() => expect(seen(other)).toEqual(['alone']), { timeout: 5_000, interval: 10 })
  })

  it('inside a transaction, are part of it', async () => {
    const { db, other } = await notes()
    db.transaction(() => {
      db.defer(() => void note(db, 'nested'))
      expect(() => db.transaction(() => note(db, 'x'), { durable: true })).toThrow(/outermost/)
    })
    expect(seen(other)).toEqual(['nested'])
  })
})
