import { sql, type Kysely } from 'kysely';
import { arrayLiteral } from '../../../db/postgres-arrays.js';
import { insertStatementSizes, prepareShapedQuery, rowsOfValues } from '../../../db/prepared-query.js';
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
 * SQLite: texts as rows of values, compiled once per table and row count (insertStatementSizes,
 * as record inserts are): building the statement through Kysely's builder for every write cost
 * a SQLite create about 8 % of its CPU (docs/performance.md, session 22).
 */
const textsAsRows = prepareShapedQuery(
  (shape: TextShape & { rows: number }) => `${shape.table}:${shape.replacing}:${shape.rows}`,
  (db: Kysely<any>, shape: TextShape & { rows: number }, ...values: unknown[]) => replacingIf(shape.replacing, db.insertInto(searchTextTable(shape.table)).values(rowsOfValues(textColumns, shape.rows, values))),
);

/**
 * PostgreSQL: any number of texts in one statement, the ids and the texts two array parameters
 * (postgres-arrays.ts) expanded by `unnest`, prepared once per table (records.repository
 * insertRecordRows says why).
 */
const textsAsArrays = prepareShapedQuery(
  (shape: TextShape) => `${shape.table}:${shape.replacing}`,
  (db: Kysely<any>, shape: TextShape, ids: unknown, texts: unknown) =>
    replacingIf(shape.replacing, db.insertInto(searchTextTable(shape.table)).columns([...textColumns]).expression(sql`select * from unnest(${ids}::integer[], ${texts}::text[])`)),
);

/** How an engine's texts are sent: rows of values (SQLite) or one array a column (PostgreSQL). */
export type TextSending = 'rows' | 'arrays';

async function writeTexts(db: Kysely<any>, sending: TextSending, shape: TextShape, rows: readonly SearchText[]): Promise<void> {
  const present = rows.filter((row): row is { id: number; text: string } => row.text !== null);
  if (present.length === 0) return;
  if (sending === 'arrays') {
    await textsAsArrays(db, shape, arrayLiteral(present.map((row) => row.id)), arrayLiteral(present.map((row) => row.text)));
    return;
  }
  let offset = 0;
  for (const size of insertStatementSizes(present.length, textColumns.length)) {
    await textsAsRows(db, { ...shape, rows: size }, ...present.slice(offset, offset + size).flatMap((row) => [row.id, row.text]));
    offset += size;
  }
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
