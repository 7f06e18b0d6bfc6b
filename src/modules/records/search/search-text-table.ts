import { sql, type Kysely } from 'kysely';
import { arrayLiteral } from '../../../db/postgres-arrays.js';
import { prepareShapedQuery } from '../../../db/prepared-query.js';
import type { SearchText } from './record-search.js';

/** The table beside record table `table` that holds its records' search text. */
export const searchTextTable = (table: string) => `${table}_search`;

/** Deletes of at most this many ids: well under either engine's limit on parameters. */
const idsPerDelete = 1000;

const textColumns = ['id', 'text'] as const;

/** An insert of texts, or an upsert (`replacing`) of texts some records may have already. */
interface TextShape {
  table: string;
  replacing: boolean;
}

/**
 * An upsert costs PostgreSQL a speculative insertion a row (a check of the key and one more WAL
 * record), measured on a create_batch of 1,000: the texts of records just inserted, which can
 * have none yet (a record's text goes with it), are plain inserts.
 */
function replacingIf<Builder extends { onConflict: (build: (conflict: any) => any) => Builder }>(replacing: boolean, insert: Builder): Builder {
  return replacing ? insert.onConflict((conflict) => conflict.column('id').doUpdateSet({ text: sql.ref('excluded.text') })) : insert;
}

/**
 * Any number of texts in one statement, prepared once per table:
 *
 * - SQLite: the rows as one JSON array of `[id, text]` pairs, read by `json_each`. Rows of
 *   values in statements of up to 128 (insertStatementSizes) made a batch's thousand texts ten
 *   statements, and SQLite opens a statement savepoint around each statement that writes to a
 *   virtual table, at which FTS5 writes out what it holds as a new segment: ten segments a batch
 *   instead of one, 2.5 times the insert's time (docs/performance.md, session 27).
 * - PostgreSQL: the ids and the texts as two array parameters (postgres-arrays.ts) expanded by
 *   `unnest` (records.repository insertRecordRows says why).
 *
 * `where true`: SQLite reads an `on conflict` after a bare `select … from` as a join's.
 */
const textsInOneStatement = prepareShapedQuery(
  (shape: TextShape & { sending: TextSending }) => `${shape.table}:${shape.replacing}:${shape.sending}`,
  (db: Kysely<any>, shape: TextShape & { sending: TextSending }, first: unknown, second: unknown) =>
    replacingIf(
      shape.replacing,
      db
        .insertInto(searchTextTable(shape.table))
        .columns([...textColumns])
        .expression(shape.sending === 'json' ? sql`select value ->> 0, value ->> 1 from json_each(${first}) where true` : sql`select * from unnest(${first}::integer[], ${second}::text[])`),
    ),
);

/** How an engine's texts are sent: one JSON parameter (SQLite) or one array a column (PostgreSQL). */
export type TextSending = 'json' | 'arrays';

async function writeTexts(db: Kysely<any>, sending: TextSending, shape: TextShape, rows: readonly SearchText[]): Promise<void> {
  const present = rows.filter((row): row is { id: number; text: string } => row.text !== null);
  if (present.length === 0) return;
  const statement = { ...shape, sending };
  if (sending === 'json') await textsInOneStatement(db, statement, JSON.stringify(present.map((row) => [row.id, row.text])), null);
  else await textsInOneStatement(db, statement, arrayLiteral(present.map((row) => row.id)), arrayLiteral(present.map((row) => row.text)));
}

/** An engine's two ways of writing search text (RecordSearch's writeText and insertText). */
export function searchTextWriters(sending: TextSending) {
  return {
    /**
     * The same on both engines: an upsert of the records that have text, a delete of those that
     * have none (a record whose searchable fields were all emptied).
     */
    async writeText(db: Kysely<any>, table: string, rows: readonly SearchText[]): Promise<void> {
      await writeTexts(db, sending, { table, replacing: true }, rows);
      const absent = rows.filter((row) => row.text === null).map((row) => row.id);
      for (let start = 0; start < absent.length; start += idsPerDelete) {
        await db.deleteFrom(searchTextTable(table)).where('id', 'in', absent.slice(start, start + idsPerDelete)).execute();
      }
    },
    /** The texts of records just inserted (created, restored): rows without text have nothing to remove. */
    insertText(db: Kysely<any>, table: string, rows: readonly SearchText[]): Promise<void> {
      return writeTexts(db, sending, { table, replacing: false }, rows);
    },
  };
}
