import type { Database, SqlValue } from './database'

/*
 * Full-text search over columns of a table, with SQLite's FTS5 (libsql ships it: checked with
 * `pragma_compile_options`, ENABLE_FTS5) and its trigram tokenizer: any part of a word matches
 * ("cme" finds "acme-west"), whatever its case or accents, through an index rather than a scan.
 * One place for the machinery: the activity log uses it, and any other list searched as the
 * operator types (the catalog) can declare an index the same way.
 */

/** An FTS5 index kept in step with a table by triggers ("external content": the text is stored once). */
export interface FullTextIndex {
  /** The FTS5 table's name. */
  name: string
  /** The table whose rows are searched; it must have an INTEGER rowid (not WITHOUT ROWID). */
  content: string
  /** The content table's integer key: `rowid`, or the INTEGER PRIMARY KEY column that is it. */
  contentRowid: string
  /** The columns searched, as named in the content table. */
  columns: readonly string[]
}

/** Trigrams: a term shorter than this cannot use the index (it is matched by a scan instead). */
const TRIGRAM = 3

/**
 * Creates the index, its triggers, and fills it from the rows already there: for a migration,
 * inside its transaction. The triggers keep it in step on every insert, update and delete.
 */
export function createFullTextIndex(db: Database, index: FullTextIndex): void {
  const { name, content, contentRowid, columns } = index
  const list = columns.join(', ')
  const values = (row: 'new' | 'old') => columns.map((column) => `${row}.${column}`).join(', ')
  db.exec(`
    CREATE VIRTUAL TABLE ${name} USING fts5(${list}, content='${content}', content_rowid='${contentRowid}', tokenize='trigram remove_diacritics 1');
    CREATE TRIGGER ${name}_insert AFTER INSERT ON ${content} BEGIN
      INSERT INTO ${name} (rowid, ${list}) VALUES (new.${contentRowid}, ${values('new')});
    END;
    CREATE TRIGGER ${name}_delete AFTER DELETE ON ${content} BEGIN
      INSERT INTO ${name} (${name}, rowid, ${list}) VALUES ('delete', old.${contentRowid}, ${values('old')});
    END;
    CREATE TRIGGER ${name}_update AFTER UPDATE OF ${list} ON ${content} BEGIN
      INSERT INTO ${name} (${name}, rowid, ${list}) VALUES ('delete', old.${contentRowid}, ${values('old')});
      INSERT INTO ${name} (rowid, ${list}) VALUES (new.${contentRowid}, ${values('new')});
    END;
    INSERT INTO ${name} (${name}) VALUES ('rebuild');
  `)
}

/** The words of a search: split on white space, each matched anywhere in any column, all required. */
export function searchTerms(text: string): string[] {
  return text.trim().split(/\s+/u).filter(Boolean)
}

const quoted = (term: string) => `"${term.replaceAll('"', '""')}"`
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`

/**
 * A condition on the content table's rows: every word of `text` appears in one of the indexed
 * columns. Words of three characters or more go through the index (an FTS5 MATCH of quoted
 * strings, so no word is read as query syntax); shorter ones, which trigrams cannot index, are
 * matched with LIKE on the same columns. Null when the text holds no word.
 */
export function fullTextCondition(index: FullTextIndex, text: string): { sql: string; params: SqlValue[] } | null {
  const terms = searchTerms(text)
  if (terms.length === 0) return null
  const long = terms.filter((term) => [...term].length >= TRIGRAM)
  const short = terms.filter((term) => [...term].length < TRIGRAM)
  const clauses: string[] = []
  const params: SqlValue[] = []
  if (long.length) {
    clauses.push(`${index.name} MATCH ?`)
    params.push(long.map(quoted).join(' AND '))
  }
  for (const term of short) {
    clauses.push(`(${index.columns.map((column) => `${column} LIKE ? ESCAPE '\\'`).join(' OR ')})`)
    params.push(...index.columns.map(() => likePattern(term)))
  }
  return { sql: `${index.contentRowid} IN (SELECT rowid FROM ${index.name} WHERE ${clauses.join(' AND ')})`, params }
}
