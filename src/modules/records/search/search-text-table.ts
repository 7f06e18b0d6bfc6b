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
 * The same on both engines: an upsert of the records that have text, a delete of those that
 * have none (a record whose searchable fields were all emptied).
 */
export async function writeSearchText(db: Kysely<any>, table: string, rows: readonly SearchText[]): Promise<void> {
  const name = searchTextTable(table);
  const present = rows.filter((row): row is { id: number; text: string } => row.text !== null);
  const absent = rows.filter((row) => row.text === null).map((row) => row.id);
  let offset = 0;
  for (const size of insertStatementSizes(present.length, textColumns.length)) {
    await upsertTexts(db, { table, rows: size }, ...present.slice(offset, offset + size).flatMap((row) => [row.id, row.text]));
    offset += size;
  }
  for (let start = 0; start < absent.length; start += idsPerDelete) {
    await db.deleteFrom(name).where('id', 'in', absent.slice(start, start + idsPerDelete)).execute();
  }
}
