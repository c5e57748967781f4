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
  /**
   * The indexed text carries word starts (written with `wordStartText`): a word of one or two
   * characters then finds the rows with a word that begins with it, through the index. Without
   * them such a word is matched anywhere, by a scan.
   */
  wordStarts?: boolean
}

/** Trigrams: a term shorter than this cannot use the index (it is matched by a scan instead). */
const TRIGRAM = 3

/**
 * Creates the index, its triggers, and fills it from the rows already there: for a migration,
 * inside its transaction. The triggers keep it in step on every insert, update and delete, and
 * an update only when an indexed column changed. Rows are never ranked, so the sizes ranking
 * needs are not kept (columnsize=0): one page less written with each commit.
 */
export function createFullTextIndex(db: Database, index: FullTextIndex): void {
  const { name, content, contentRowid, columns } = index
  const list = columns.join(', ')
  const values = (row: 'new' | 'old') => columns.map((column) => `${row}.${column}`).join(', ')
  db.exec(`
    CREATE VIRTUAL TABLE ${name} USING fts5(${list}, content='${content}', content_rowid='${contentRowid}', tokenize='trigram remove_diacritics 1', columnsize=0);
    CREATE TRIGGER ${name}_insert AFTER INSERT ON ${content} BEGIN
      INSERT INTO ${name} (rowid, ${list}) VALUES (new.${contentRowid}, ${values('new')});
    END;
    CREATE TRIGGER ${name}_delete AFTER DELETE ON ${content} BEGIN
      INSERT INTO ${name} (${name}, rowid, ${list}) VALUES ('delete', old.${contentRowid}, ${values('old')});
    END;
    CREATE TRIGGER ${name}_update AFTER UPDATE OF ${list} ON ${content} WHEN ${columns.map((column) => `old.${column} IS NOT new.${column}`).join(' OR ')} BEGIN
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

/** Text as searches compare it: lower case, accents and other marks removed ("Déjà" → "deja"). */
export const foldText = (text: string): string => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()

/**
 * Marks a word start in the indexed text. A control character: no word typed in a search box
 * holds one, so "\u0002\u0002a" (a word beginning with "a") and "\u0002ac" are trigrams of their own.
 */
const WORD_START = '\u0002'

/** What separates words, for word starts: anything but a letter or a digit. */
const WORD_SEPARATOR = /[^\p{L}\p{N}]+/u

/**
 * The text of an index with word starts: the parts, folded, then each word's first character and
 * first two behind markers ("Acme West" adds "␂␂a ␂ac ␂␂w ␂we"), so that one or two typed
 * characters find the words they begin through the trigram index.
 */
export function wordStartText(...parts: Array<string | undefined>): string {
  const folded = parts.filter((part): part is string => part !== undefined && part !== '').map(foldText)
  const starts = new Set<string>()
  for (const word of folded.join(' ').split(WORD_SEPARATOR)) {
    const characters = [...word]
    if (characters.length === 0) continue
    starts.add(`${WORD_START}${WORD_START}${characters[0]}`)
    if (characters.length > 1) starts.add(`${WORD_START}${characters[0]}${characters[1]}`)
  }
  return [...folded, [...starts].join(' ')].join('\n')
}

const quoted = (term: string) => `"${term.replaceAll('"', '""')}"`

/**
 * What every row found must hold in its indexed text, one string per word of `text`, when the
 * index can answer each: words of three characters or more as they are (folded, in an index
 * with word starts), and, in an index with word starts, shorter ones as the start of a word.
 * Null when a word is too short for the index (fullTextCondition matches those with LIKE) or
 * there is no word.
 */
export function fullTextTerms(index: FullTextIndex, text: string): string[] | null {
  const terms = searchTerms(text)
  const found = terms.flatMap((term): Array<string | null> => {
    // An index with word starts holds folded text (wordStartText); others leave folding to the tokenizer.
    const characters = [...(index.wordStarts ? foldText(term) : term)]
    if (characters.length >= TRIGRAM) return [characters.join('')]
    if (!index.wordStarts) return [null]
    // The words in it, each the start of a word ("a-" is a word starting with "a"); signs alone narrow nothing.
    return characters
      .join('')
      .split(WORD_SEPARATOR)
      .filter(Boolean)
      .map((word) => `${WORD_START.repeat(TRIGRAM - [...word].length)}${word}`)
  })
  if (found.length === 0 || found.some((term) => term === null)) return null
  return found as string[]
}

/** The FTS5 MATCH expression (a bound parameter, never SQL) of fullTextTerms: each a quoted string, all required. */
export function fullTextMatch(index: FullTextIndex, text: string): string | null {
  return fullTextTerms(index, text)?.map(quoted).join(' AND ') ?? null
}

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
  const match = fullTextMatch(index, text)
  if (match !== null)
    return { sql: `${index.contentRowid} IN (SELECT rowid FROM ${index.name} WHERE ${index.name} MATCH ?)`, params: [match] }
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
