import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { RecordSearch } from './record-search.js';
import { searchTextTable, searchTextWriters } from './search-text-table.js';
import { deferTextsToGroupEnd, deferredTextsOf } from './deferred-texts.js';
import { countPending, createPendingTriggers, pendingTable, startSearchCatchUp } from './search-catch-up.js';

/**
 * Every committed write adds a small FTS5 segment; with the default `automerge` of 4 the
 * merges of those segments cost a single-record insert about four times the insert itself
 * (measured: 565 µs against 142 µs on a million records). Merging at 8 segments a level
 * keeps searches on the merged levels and inserts cheap.
 */
async function tuneSearchIndex(db: Kysely<any>, table: string): Promise<void> {
  const fts = sql.table(`${table}_fts`);
  await sql`insert into ${fts}(${fts}, rank) values ('automerge', 8)`.execute(db);
}

/**
 * The search index keeps which records hold each trigram, not where (`detail=none`): indexing
 * a new record costs half as much (550 → 280 µs on a million records), at the price of
 * checking each candidate's text. The index narrows to the records holding every trigram of
 * the terms; `instr` then keeps those holding each term itself.
 */
const searchIndexOptions = sql.raw(`tokenize='trigram', detail=none`);

/** At most this many of a term's trigrams go to the index: a few already narrow it, `instr` decides. */
const trigramsPerTerm = 16;

/** A term's distinct trigrams (by code point), as FTS5 strings. */
function trigramsOf(term: string): string[] {
  const characters = [...term];
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= characters.length && trigrams.size < trigramsPerTerm; i += 1) trigrams.add(characters.slice(i, i + 3).join(''));
  return [...trigrams].map((trigram) => `"${trigram.replace(/"/g, '""')}"`);
}

const holdsEveryTermOf = (terms: readonly string[], text = sql`text`) =>
  sql.join(
    terms.map((term) => sql<boolean>`instr(${text}, ${term}) > 0`),
    sql` and `,
  );

const trigramsOfTerms = (terms: readonly string[]) => [...new Set(terms.flatMap(trigramsOf))];

/** The ids of `table`'s records whose text the index does not hold yet (search-catch-up.ts). */
const notYetIndexed = (table: string) => sql`select id from ${sql.table(pendingTable)} where table_name = ${sql.lit(table)}`;

/**
 * Terms of three characters or more narrow through the index, plus the records it does not
 * hold yet (their text was written since the last catch-up, which runs every few hundred
 * milliseconds); every term is then checked with `instr` on the search text, so a record the
 * index still holds with an older text is kept or dropped by its current one.
 *
 * FTS5 yields candidates in rowid order, so when only the first matches by id are wanted the
 * check runs inside the index query (each candidate's text joined by id: not read through the
 * index's external content, which fails for a record the index still holds and whose text is
 * gone), which stops at the first matches: a common term in a million records, 240 ms → 0.3
 * ms; the records not yet indexed are checked beside it. Otherwise the text of
 * each record the statement reaches is looked up by id (`exists`), so other conditions on the
 * record narrow first: a filtered, searched page costs what it did with the text in the row
 * (24 against 23 ms on 200,000 records), where a list of every matching id cost 35. Short
 * terms scan the search table, narrower than the record table.
 */
function searchCondition(table: string, terms: readonly string[], firstMatches?: number): RawBuilder<boolean> {
  const holdsEveryTerm = holdsEveryTermOf(terms);
  const texts = sql.table(searchTextTable(table));
  const trigrams = trigramsOfTerms(terms);
  const textHoldsEveryTerm = sql<boolean>`exists (select 1 from ${texts} as s where s.id = ${sql.ref(`${table}.id`)} and ${holdsEveryTerm})`;
  if (trigrams.length === 0) {
    if (firstMatches !== undefined) return sql<boolean>`id in (select id from ${texts} where ${holdsEveryTerm} order by id limit ${firstMatches})`;
    return textHoldsEveryTerm;
  }
  const fts = sql.table(`${table}_fts`);
  const match = trigrams.join(' AND ');
  if (firstMatches !== undefined) {
    const textHolds = holdsEveryTermOf(terms, sql`s.text`);
    const indexedMatches = sql`select ${fts}.rowid from ${fts} join ${texts} as s on s.id = ${fts}.rowid where ${fts} match ${match} and ${textHolds} order by ${fts}.rowid limit ${firstMatches}`;
    const pendingMatches = sql`select p.id from ${sql.table(pendingTable)} as p join ${texts} as s on s.id = p.id where p.table_name = ${sql.lit(table)} and ${textHolds}`;
    return sql<boolean>`(id in (${indexedMatches}) or id in (${pendingMatches}))`;
  }
  return sql<boolean>`(id in (select rowid from ${fts} where ${fts} match ${match} union all ${notYetIndexed(table)}) and ${textHoldsEveryTerm})`;
}

/** The search table's own rows holding every term: narrowed by the index as above, checked with `instr`. */
function textCondition(table: string, terms: readonly string[]): RawBuilder<boolean> {
  const trigrams = trigramsOfTerms(terms);
  if (trigrams.length === 0) return sql<boolean>`(${holdsEveryTermOf(terms)})`;
  const fts = sql.table(`${table}_fts`);
  return sql<boolean>`(id in (select rowid from ${fts} where ${fts} match ${trigrams.join(' AND ')} union all ${notYetIndexed(table)}) and ${holdsEveryTermOf(terms)})`;
}

const writeNow = searchTextWriters('json');

/** A text writer that puts the texts on the list of the group whose transaction `db` is, or writes them now. */
function deferredOrNow(write: RecordSearch['writeText']): RecordSearch['writeText'] {
  return async (db, table, rows) => {
    const deferred = deferredTextsOf(db);
    if (deferred) deferred.push({ table, rows });
    else await write(db, table, rows);
  };
}

/**
 * The search text table, and an FTS5 trigram table over it (external content: the text is
 * stored once, in the search table). Triggers on the search table do not index a text: they
 * note the record as not yet indexed, with the text the index holds for it (search-catch-up.ts
 * indexes them later, many in one segment); a trigger on the record table deletes a deleted
 * record's text.
 */
export const sqliteRecordSearch: RecordSearch = {
  async createIndex(db, table) {
    const texts = sql.table(searchTextTable(table));
    const fts = sql.table(`${table}_fts`);
    await sql`create table ${texts} (id integer primary key, text text not null)`.execute(db);
    await sql`create virtual table ${fts} using fts5(text, content=${sql.lit(searchTextTable(table))}, content_rowid='id', ${searchIndexOptions})`.execute(db);
    await tuneSearchIndex(db, table);
    await createPendingTriggers(db, table);
    await sql`create trigger ${sql.id(`${table}_delete_search`)} after delete on ${sql.table(table)} begin
      delete from ${texts} where id = old.id; end`.execute(db);
  },
  async dropIndex(db, table) {
    await sql`drop trigger if exists ${sql.id(`${table}_delete_search`)}`.execute(db);
    await sql`drop table if exists ${sql.table(`${table}_fts`)}`.execute(db);
    // Its triggers go with it.
    await sql`drop table if exists ${sql.table(searchTextTable(table))}`.execute(db);
    await sql`delete from ${sql.table(pendingTable)} where table_name = ${table}`.execute(db);
  },
  // Inside a group commit's transaction the texts wait for the group's end (deferred-texts.ts).
  writeText: deferredOrNow(writeNow.writeText),
  insertText: deferredOrNow(writeNow.insertText),
  groupDeferral: deferTextsToGroupEnd,
  condition: searchCondition,
  textCondition,
  startCatchUp: (db, onError) => startSearchCatchUp(db, { onError }),
  countPending,
};
