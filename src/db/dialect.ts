import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, type RawBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/**
 * The real differences between SQLite and PostgreSQL, in one place. Everything else goes
 * through Kysely unchanged.
 */
export interface Dialect {
  readonly name: DialectName;
  /** Adds an auto-incrementing integer primary key named `id`. */
  addIdColumn<T extends string>(table: CreateTableBuilder<T, any>): CreateTableBuilder<T, any>;
  /** Column type of a JSON array or object. */
  readonly jsonType: 'text' | 'jsonb';
  /** Column type of a boolean. */
  readonly booleanType: 'integer' | 'boolean';
  /** A JSON value as a statement parameter for a `jsonType` column. */
  jsonParam(value: unknown): RawBuilder<unknown> | string;
  /** Quotes an identifier we generated ourselves (never user input). */
  quote(identifier: string): string;
  /** Unicode-aware lower-casing, the same on both engines. */
  fold(expression: RawBuilder<unknown>): RawBuilder<unknown>;
  /** Byte-order text for ORDER BY, so both engines sort identically whatever the database locale. */
  sortableText(expression: RawBuilder<unknown>): RawBuilder<unknown>;
  /** A JSON array column includes a scalar. */
  jsonArrayIncludes(column: RawBuilder<unknown>, value: string | number): RawBuilder<boolean>;
  /** Some element of a JSON array column, folded, matches a LIKE pattern, folded alike (escape `\\`). */
  jsonArrayAnyLike(column: RawBuilder<unknown>, pattern: string): RawBuilder<boolean>;
  /**
   * Substring search index over a record table's `_search` column (lower-cased text of its
   * searchable fields): an FTS5 trigram table kept in step by triggers on SQLite, a pg_trgm GIN
   * index on PostgreSQL.
   */
  createSearchIndex(db: Kysely<any>, table: string): Promise<void>;
  dropSearchIndex(db: Kysely<any>, table: string): Promise<void>;
  /**
   * Every lower-cased term is a substring of `_search`; uses the index where the engine can.
   * `firstMatches`: the caller keeps only that many matches in id order (the search is a page's
   * only condition and the page is ordered by id), so the index may stop there.
   */
  searchCondition(table: string, terms: readonly string[], firstMatches?: number): RawBuilder<boolean>;
  /**
   * Triggers that keep `table_counters` in step with every insert, delete and update of a
   * record table, inside the writing statement itself: no write path can forget them, and
   * nothing holds the counter row across a client round trip.
   */
  createCounterTriggers(db: Kysely<any>, tableId: number): Promise<void>;
  /**
   * An always-true condition a record query carries first in its WHERE so that it stops itself
   * at its deadline, where the engine cannot be stopped from outside (better-sqlite3 has no
   * interrupt); null where the engine stops it (PostgreSQL's `statement_timeout`).
   */
  readonly budgetGuard: RawBuilder<boolean> | null;
  /** The ids of the selected rows in `orderBy` order, as one comma-separated text ('' for none). */
  idList(orderBy: readonly RawBuilder<unknown>[]): RawBuilder<string>;
}

/**
 * Every committed write adds a small FTS5 segment; with the default `automerge` of 4 the
 * merges of those segments cost a single-record insert about four times the insert itself
 * (measured: 565 µs against 142 µs on a million records). Merging at 8 segments a level
 * keeps searches on the merged levels and inserts cheap.
 */
export async function tuneSqliteSearchIndex(db: Kysely<any>, table: string): Promise<void> {
  const fts = sql.table(`${table}_fts`);
  await sql`insert into ${fts}(${fts}, rank) values ('automerge', 8)`.execute(db);
}

/**
 * The search index keeps which records hold each trigram, not where (`detail=none`): indexing
 * a new record costs half as much (550 → 280 µs on a million records), at the price of
 * checking each candidate's text. The index narrows to the records holding every trigram of
 * the terms; `instr` then keeps those holding each term itself.
 */
const sqliteSearchIndexOptions = sql.raw(`tokenize='trigram', detail=none`);

/** At most this many of a term's trigrams go to the index: a few already narrow it, `instr` decides. */
const trigramsPerTerm = 16;

/** A term's distinct trigrams (by code point), as FTS5 strings. */
function trigramsOf(term: string): string[] {
  const characters = [...term];
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= characters.length && trigrams.size < trigramsPerTerm; i += 1) trigrams.add(characters.slice(i, i + 3).join(''));
  return [...trigrams].map((trigram) => `"${trigram.replace(/"/g, '""')}"`);
}

/**
 * Terms of three characters or more narrow through the index; every term is then checked with
 * `instr`. FTS5 yields candidates in rowid order, so when only the first matches by id are
 * wanted the check runs inside the index query, which stops at the first matches: a common
 * term in a million records, 240 ms → 0.3 ms. Otherwise the check runs on the table's rows,
 * which the statement reads anyway.
 */
function sqliteSearchCondition(table: string, terms: readonly string[], firstMatches?: number): RawBuilder<boolean> {
  const holdsEveryTerm = sql.join(
    terms.map((term) => sql<boolean>`instr(_search, ${term}) > 0`),
    sql` and `,
  );
  const trigrams = [...new Set(terms.flatMap(trigramsOf))];
  if (trigrams.length === 0) return sql<boolean>`(${holdsEveryTerm})`;
  const fts = sql.table(`${table}_fts`);
  const match = trigrams.join(' AND ');
  if (firstMatches !== undefined) {
    return sql<boolean>`id in (select rowid from ${fts} where ${fts} match ${match} and ${holdsEveryTerm} order by rowid limit ${firstMatches})`;
  }
  return sql<boolean>`(id in (select rowid from ${fts} where ${fts} match ${match}) and ${holdsEveryTerm})`;
}

/**
 * unicode_lower is JavaScript's toLowerCase, which applies two mappings PostgreSQL's lower()
 * does not: İ → i + U+0307 and a word-final Σ → ς. Mapping those two first makes both engines
 * fold (and so filter and sort) alike.
 */
const sqliteFold = (expression: RawBuilder<unknown>) => sql`unicode_lower(replace(replace(${expression}, 'İ', 'I'), 'Σ', 'σ'))`;

/**
 * Asks for the deadline on about one row in 64, picked at random (so that no choice of ids or
 * values can avoid it): a budget check on every row made a full scan 3.5 times slower, one in
 * 64 costs a few percent, and even a row that takes 1,000 conditions to judge is checked
 * within milliseconds.
 */
const sqliteBudgetGuard = sql<boolean>`((random() & 63) <> 0 or tabula_within_budget())`;

const sqliteDialect: Dialect = {
  name: 'sqlite',
  addIdColumn: (table) => table.addColumn('id', 'integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement()),
  jsonType: 'text',
  booleanType: 'integer',
  jsonParam: (value) => JSON.stringify(value),
  quote: (identifier) => `"${identifier}"`,
  fold: sqliteFold,
  sortableText: sqliteFold,
  jsonArrayIncludes: (column, value) => sql<boolean>`exists (select 1 from json_each(${column}) where value = ${value})`,
  jsonArrayAnyLike: (column, pattern) =>
    sql<boolean>`exists (select 1 from json_each(${column}) where ${sqliteFold(sql.ref('value'))} like ${sqliteFold(sql`${pattern}`)} escape '\\')`,
  async createSearchIndex(db, table) {
    const fts = sql.table(`${table}_fts`);
    const base = sql.table(table);
    await sql`create virtual table ${fts} using fts5(_search, content=${sql.lit(table)}, content_rowid='id', ${sqliteSearchIndexOptions})`.execute(db);
    await tuneSqliteSearchIndex(db, table);
    await sql`create trigger ${sql.id(`${table}_search_insert`)} after insert on ${base} begin
      insert into ${fts}(rowid, _search) values (new.id, new._search); end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_search_delete`)} after delete on ${base} begin
      insert into ${fts}(${fts}, rowid, _search) values ('delete', old.id, old._search); end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_search_update`)} after update of _search on ${base} begin
      insert into ${fts}(${fts}, rowid, _search) values ('delete', old.id, old._search);
      insert into ${fts}(rowid, _search) values (new.id, new._search); end`.execute(db);
  },
  async dropSearchIndex(db, table) {
    for (const event of ['insert', 'delete', 'update']) await sql`drop trigger if exists ${sql.id(`${table}_search_${event}`)}`.execute(db);
    await sql`drop table if exists ${sql.table(`${table}_fts`)}`.execute(db);
  },
  searchCondition: sqliteSearchCondition,
  // One writer at a time: a single counter row per table (shard 0, created with the table).
  async createCounterTriggers(db, tableId) {
    const base = sql.table(`rec_${tableId}`);
    for (const [event, delta] of [['insert', 1], ['delete', -1], ['update', 0]] as const) {
      await sql`create trigger ${sql.id(`rec_${tableId}_count_${event}`)} after ${sql.raw(event)} on ${base} begin
        update table_counters set row_count = row_count + ${sql.lit(delta)}, change_count = change_count + 1
        where table_id = ${sql.lit(tableId)} and shard = 0; end`.execute(db);
    }
  },
  budgetGuard: sqliteBudgetGuard,
  idList: (orderBy) => sql<string>`coalesce(group_concat(id, ',' order by ${sql.join(orderBy)}), '')`,
};

const postgresDialect: Dialect = {
  name: 'postgres',
  addIdColumn: (table) => table.addColumn('id', 'serial', (c: ColumnDefinitionBuilder) => c.primaryKey()),
  jsonType: 'jsonb',
  booleanType: 'boolean',
  jsonParam: (value) => sql`${JSON.stringify(value)}::jsonb`,
  quote: (identifier) => `"${identifier}"`,
  fold: (expression) => sql`lower(${expression})`,
  sortableText: (expression) => sql`lower(${expression}) collate "C"`,
  jsonArrayIncludes: (column, value) => sql<boolean>`${column} @> ${JSON.stringify([value])}::jsonb`,
  jsonArrayAnyLike: (column, pattern) =>
    sql<boolean>`exists (select 1 from jsonb_array_elements_text(${column}) as element(value) where lower(element.value) like lower(${pattern}) escape '\\')`,
  async createSearchIndex(db, table) {
    await sql`create index ${sql.id(`${table}_search`)} on ${sql.table(table)} using gin (_search gin_trgm_ops)`.execute(db);
  },
  async dropSearchIndex() {
    // The GIN index goes with its table.
  },
  searchCondition: (_table, terms) =>
    sql<boolean>`(${sql.join(
      terms.map((term) => sql<boolean>`_search like ${`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`),
      sql` and `,
    )})`,
  // Statement-level, so a bulk insert adds its row count once; concurrent writers spread over
  // shards by backend, so they do not queue on one counter row (see migration 0003).
  async createCounterTriggers(db, tableId) {
    const base = sql.table(`rec_${tableId}`);
    const id = sql.lit(String(tableId));
    await sql`create trigger ${sql.id(`rec_${tableId}_count_insert`)} after insert on ${base}
      referencing new table as new_rows for each statement execute function tabula_count_rows(${id})`.execute(db);
    await sql`create trigger ${sql.id(`rec_${tableId}_count_delete`)} after delete on ${base}
      referencing old table as old_rows for each statement execute function tabula_count_rows(${id})`.execute(db);
    await sql`create trigger ${sql.id(`rec_${tableId}_count_update`)} after update on ${base}
      for each statement execute function tabula_count_rows(${id})`.execute(db);
  },
  budgetGuard: null,
  idList: (orderBy) => sql<string>`coalesce(string_agg(id::text, ',' order by ${sql.join(orderBy)}), '')`,
};

export function getDialect(name: DialectName): Dialect {
  return name === 'sqlite' ? sqliteDialect : postgresDialect;
}
