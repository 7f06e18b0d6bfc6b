import { sql, type Kysely } from 'kysely';
import { prepareShapedQuery } from '../../../db/prepared-query.js';
import type { GroupDeferral } from '../../changes/group-commit.js';
import type { SearchText } from './record-search.js';
import { searchTextTable } from './search-text-table.js';

/**
 * SQLite: the search texts of a group commit's writes, written once at the group's end
 * (docs/decisions.md, "A group's search texts at its end"). Each write of a group runs in a
 * savepoint of its own, and FTS5 writes out what it holds as a new segment at every savepoint:
 * a text written inside each write's savepoint made a segment per create. Put off to the end,
 * the group's texts go as one statement and one segment (a create's SQLite time 130–149 →
 * 94 µs, docs/performance.md, session 27).
 *
 * What the writes of the group see is unchanged: nothing reads a record's search text inside a
 * write (searches and counts read committed state, outside the group's transaction). Order is
 * kept: the last text a group gave a record is the one written, and a record deleted later in
 * the group (whose text its delete trigger removed) gets none.
 */

interface Deferred {
  table: string;
  rows: readonly SearchText[];
}

/** The texts put off in each open group's transaction. */
const deferredIn = new WeakMap<object, Deferred[]>();

/** Where `db` is a group's transaction, the list its texts wait in; otherwise undefined (write them now). */
export function deferredTextsOf(db: Kysely<any>): Deferred[] | undefined {
  return deferredIn.get(db);
}

/**
 * The group's texts of one table, in one statement each way: those set, upserted for records
 * that still exist (`where exists` also lets SQLite read the `on conflict` as the insert's);
 * those removed, deleted.
 */
const upsertExisting = prepareShapedQuery(
  (table: string) => table,
  (db: Kysely<any>, table: string, texts: unknown) =>
    db
      .insertInto(searchTextTable(table))
      .columns(['id', 'text'])
      .expression(sql`select value ->> 0, value ->> 1 from json_each(${texts}) where exists (select 1 from ${sql.table(table)} as r where r.id = value ->> 0)`)
      .onConflict((conflict) => conflict.column('id').doUpdateSet({ text: sql.ref('excluded.text') })),
);

const deleteTexts = prepareShapedQuery(
  (table: string) => table,
  (db: Kysely<any>, table: string, ids: unknown) => db.deleteFrom(searchTextTable(table)).where('id', 'in', sql`(select value from json_each(${ids}))`),
);

async function flush(trx: Kysely<any>, deferred: readonly Deferred[]): Promise<void> {
  // The last text each record was given, by table, in the order the writes gave them.
  const byTable = new Map<string, Map<number, string | null>>();
  for (const { table, rows } of deferred) {
    let texts = byTable.get(table);
    if (!texts) byTable.set(table, (texts = new Map()));
    for (const row of rows) texts.set(row.id, row.text);
  }
  for (const [table, texts] of byTable) {
    const set: Array<[number, string]> = [];
    const removed: number[] = [];
    for (const [id, text] of texts) {
      if (text === null) removed.push(id);
      else set.push([id, text]);
    }
    if (removed.length > 0) await deleteTexts(trx, table, JSON.stringify(removed));
    if (set.length > 0) await upsertExisting(trx, table, JSON.stringify(set));
  }
}

export const deferTextsToGroupEnd: GroupDeferral = {
  open(trx) {
    const deferred: Deferred[] = [];
    deferredIn.set(trx, deferred);
    return {
      mark: () => deferred.length,
      rollbackTo: (mark) => void deferred.splice(mark),
      async flush() {
        deferredIn.delete(trx);
        await flush(trx, deferred);
      },
    };
  },
};
