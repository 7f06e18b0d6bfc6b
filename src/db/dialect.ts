import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type RawBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/**
 * The engine primitives where SQLite and PostgreSQL differ, in one place. Everything else goes
 * through Kysely unchanged; the SQL of a feature (the records' search index and counter
 * triggers) lives with that feature, one file per engine (src/modules/records/search/,
 * src/modules/records/counters/).
 */
export interface Dialect {
  readonly name: DialectName;
  /** Adds an auto-incrementing integer primary key named `id`. */
  addIdColumn<T extends string>(table: CreateTableBuilder<T, any>): CreateTableBuilder<T, any>;
  /** Column type of a JSON array or object. */
  readonly jsonType: 'text' | 'jsonb';
  /** Column type of a boolean. */
  readonly booleanType: 'integer' | 'boolean';
  /** Whether `select … for update` locks rows (PostgreSQL); SQLite has none to take, its writer lock serialising writes. */
  readonly rowLocks: boolean;
  /** A boolean constant as the boolean column type holds it (`1`/`0` on SQLite, `true`/`false` on PostgreSQL). */
  booleanLiteral(value: boolean): RawBuilder<unknown>;
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
   * An always-true condition a record query carries first in its WHERE so that it stops itself
   * at its deadline, where the engine cannot be stopped from outside (better-sqlite3 has no
   * interrupt); null where the engine stops it (PostgreSQL's `statement_timeout`).
   */
  readonly budgetGuard: RawBuilder<boolean> | null;
  /** The ids of the selected rows in `orderBy` order, as one comma-separated text ('' for none). */
  idList(orderBy: readonly RawBuilder<unknown>[]): RawBuilder<string>;
  /**
   * Whether writers queue their changes for a sequencer to append to the log (PostgreSQL: many
   * writers at once, whose seqs must still become visible in order), or append them themselves
   * (SQLite: its one writer commits in seq order already). See changes/write-unit.ts.
   */
  readonly queuesChanges: boolean;
  /**
   * Whether the reads by id of one turn (gets, lookup titles) go as one statement
   * (db/turn-gathering.ts): PostgreSQL, where a round trip costs more than the row; not SQLite,
   * whose reads of a turn already share one read transaction and cost least one by one.
   */
  readonly gathersReadsByTurn: boolean;
}

/**
 * The NOTIFY channel of change-log wake-ups (the log stays the truth; a wake-up carries nothing):
 * PostgreSQL's sequencer statement sends one when it moved changes into the log
 * (changes.repository.ts), delivered at its commit.
 */
export const changeLogChannel = 'tabula_changes';

/**
 * The change log's one lock (PostgreSQL), held by the sequencer's statement until its commit, so
 * that one sequencer moves changes at a time across processes (changes.repository.ts). Any
 * constant every process agrees on.
 */
export const changeLogLock = sql`pg_advisory_xact_lock(7215001)`;

/**
 * unicode_lower is JavaScript's toLowerCase, which applies two mappings PostgreSQL's lower()
 * does not: İ → i + U+0307 and a word-final Σ → ς. Mapping those two first makes both engines
 * fold (and so filter and sort) alike.
 */
const sqliteFold = (expression: RawBuilder<unknown>) => sql`unicode_lower(replace(replace(${expression}, 'İ', 'I'), 'Σ', 'σ'))`;

/**
 * Asks for the deadline on about one row in 64, picked at random (so that no choice of ids or
 * values can avoid it): a budget check on every row made a full scan 3.5 times slower, and
 * even a row that takes 1,000 conditions to judge is checked within milliseconds. Still, the
 * sampling alone about doubles a scan whose rows are cheap, so such queries go without it
 * (query-shape `isCheapPerRow`).
 */
const sqliteBudgetGuard = sql<boolean>`((random() & 63) <> 0 or tabula_within_budget())`;

const sqliteDialect: Dialect = {
  name: 'sqlite',
  addIdColumn: (table) => table.addColumn('id', 'integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement()),
  jsonType: 'text',
  booleanType: 'integer',
  booleanLiteral: (value) => (value ? sql`1` : sql`0`),
  rowLocks: false,
  quote: (identifier) => `"${identifier}"`,
  fold: sqliteFold,
  sortableText: sqliteFold,
  jsonArrayIncludes: (column, value) => sql<boolean>`exists (select 1 from json_each(${column}) where value = ${value})`,
  jsonArrayAnyLike: (column, pattern) =>
    sql<boolean>`exists (select 1 from json_each(${column}) where ${sqliteFold(sql.ref('value'))} like ${sqliteFold(sql`${pattern}`)} escape '\\')`,
  budgetGuard: sqliteBudgetGuard,
  idList: (orderBy) => sql<string>`coalesce(group_concat(id, ',' order by ${sql.join(orderBy)}), '')`,
  queuesChanges: false,
  gathersReadsByTurn: false,
};

const postgresDialect: Dialect = {
  name: 'postgres',
  addIdColumn: (table) => table.addColumn('id', 'serial', (c: ColumnDefinitionBuilder) => c.primaryKey()),
  jsonType: 'jsonb',
  booleanType: 'boolean',
  booleanLiteral: (value) => (value ? sql`true` : sql`false`),
  rowLocks: true,
  quote: (identifier) => `"${identifier}"`,
  fold: (expression) => sql`lower(${expression})`,
  sortableText: (expression) => sql`lower(${expression}) collate "C"`,
  jsonArrayIncludes: (column, value) => sql<boolean>`${column} @> ${JSON.stringify([value])}::jsonb`,
  jsonArrayAnyLike: (column, pattern) =>
    sql<boolean>`exists (select 1 from jsonb_array_elements_text(${column}) as element(value) where lower(element.value) like lower(${pattern}) escape '\\')`,
  budgetGuard: null,
  idList: (orderBy) => sql<string>`coalesce(string_agg(id::text, ',' order by ${sql.join(orderBy)}), '')`,
  queuesChanges: true,
  gathersReadsByTurn: true,
};

export function getDialect(name: DialectName): Dialect {
  return name === 'sqlite' ? sqliteDialect : postgresDialect;
}
