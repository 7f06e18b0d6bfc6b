import { sql, type Kysely } from 'kysely';
import type { SearchText } from './record-search.js';

/** The table beside record table `table` that holds its records' search text. */
export const searchTextTable = (table: string) => `${table}_search`;

/** Statements of at most this many rows: well under either engine's limit on parameters. */
const rowsPerStatement = 1000;

/**
 * The same on both engines: an upsert of the records that have text, a delete of those that
 * have none (a record whose searchable fields were all emptied).
 */
export async function writeSearchText(db: Kysely<any>, table: string, rows: readonly SearchText[]): Promise<void> {
  const name = searchTextTable(table);
  const present = rows.filter((row): row is { id: number; text: string } => row.text !== null);
  const absent = rows.filter((row) => row.text === null).map((row) => row.id);
  for (let start = 0; start < present.length; start += rowsPerStatement) {
    await db
      .insertInto(name)
      .values(present.slice(start, start + rowsPerStatement))
      .onConflict((conflict) => conflict.column('id').doUpdateSet({ text: sql.ref('excluded.text') }))
      .execute();
  }
  for (let start = 0; start < absent.length; start += rowsPerStatement) {
    await db.deleteFrom(name).where('id', 'in', absent.slice(start, start + rowsPerStatement)).execute();
  }
}
