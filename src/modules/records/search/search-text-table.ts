import { sql, type Kysely } from 'kysely';
import { insertStatementSizes, prepareShapedQuery, rowsOfValues } from '../../../db/prepared-query.js';
import type { SearchText } from './record-search.js';

/** The table beside record table `table` that holds its records' search text. */
export const searchTextTable = (table: string) => `${table}_search`;

/** Deletes of at most this many ids: well under either engine's limit on parameters. */
const idsPerDelete = 1000;

const textColumns = ['id', 'text'] as const;

/**
 * The upsert of search texts, compiled once per table and row count (insertStatementSizes, as
 * record inserts are): building it through Kysely's builder for every write cost a SQLite
 * create about 8 % of its CPU (docs/performance.md, session 22).
 */
const upsertTexts = prepareShapedQuery(
  (shape: { table: string; rows: number }) => `${shape.table}:${shape.rows}`,
  (db: Kysely<any>, shape: { table: string; rows: number }, ...values: unknown[]) =>
    db
      .insertInto(searchTextTable(shape.table))
      .values(rowsOfValues(textColumns, shape.rows, values))
      .onConflict((conflict) => conflict.column('id').doUpdateSet({ text: sql.ref('excluded.text') })),
);

/**
 * The texts of records just inserted, which can have none yet (a record's text goes with it):
 * plain inserts. An upsert costs PostgreSQL a speculative insertion a row (a check of the key
 * and one more WAL record), measured on a create_batch of 1,000.
 */
const insertTexts = prepareShapedQuery(
  (shape: { table: string; rows: number }) => `${shape.table}:${shape.rows}`,
  (db: Kysely<any>, shape: { table: string; rows: number }, ...values: unknown[]) => db.insertInto(searchTextTable(shape.table)).values(rowsOfValues(textColumns, shape.rows, values)),
);

type TextStatement = typeof upsertTexts;

async function writeTexts(db: Kysely<any>, table: string, statement: TextStatement, rows: readonly SearchText[]): Promise<void> {
  const present = rows.filter((row): row is { id: number; text: string } => row.text !== null);
  let offset = 0;
  for (const size of insertStatementSizes(present.length, textColumns.length)) {
    await statement(db, { table, rows: size }, ...present.slice(offset, offset + size).flatMap((row) => [row.id, row.text]));
    offset += size;
  }
}

/** The texts of records just inserted (created, restored): rows without text have nothing to remove. */
export function insertSearchText(db: Kysely<any>, table: string, rows: readonly SearchText[]): Promise<void> {
  return writeTexts(db, table, insertTexts, rows);
}

/**
 * The same on both engines: an upsert of the records that have text, a delete of those that
 * have none (a record whose searchable fields were all emptied).
 */
export async function writeSearchText(db: Kysely<any>, table: string, rows: readonly SearchText[]): Promise<void> {
  const name = searchTextTable(table);
  await writeTexts(db, table, upsertTexts, rows);
  const absent = rows.filter((row) => row.text === null).map((row) => row.id);
  for (let start = 0; start < absent.length; start += idsPerDelete) {
    await db.deleteFrom(name).where('id', 'in', absent.slice(start, start + idsPerDelete)).execute();
  }
}
