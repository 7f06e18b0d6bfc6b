import type { Kysely } from 'kysely';
import { turnAfterNext } from '../shared/fresh-runs.js';

interface Gathered<Row> {
  ids: Set<number>;
  rows: Promise<Row[]>;
}

/**
 * PostgreSQL: reads by id of one shape (a table's record with a get's selection, a lookup
 * target's title) asked during two turns of the event loop run as one statement at the end of
 * the second, for all their ids. Under load the requests that arrive together are read by one
 * round trip, which costs the server and the database more than reading a row: a get's server
 * CPU is mostly the statement's message and its answer, not the row (docs/performance.md,
 * session 37). Two turns, because the requests read together reach their read a turn apart, as
 * the writes of SQLite's group commit do (changes/group-commit.ts): against one turn, gets +14 %
 * a second with 12 % less of the database's CPU, creates +6 % (session 39). A read alone waits
 * two turns, microseconds on an idle server. Each read still begins after it was asked (the
 * statement is sent turns later), so it sees every write acknowledged before its request.
 * SQLite does not gather: its reads of a turn already share one read transaction
 * (sqlite-turn-reads.ts), and one statement by id costs less there than one statement of an id
 * list.
 *
 * `readAll` reads the rows of the ids (of one shape, named by `keyOf`); a caller receives every
 * row of its statement and picks its own. An id that is not a safe integer is read alone: it
 * could fail the statement of every read gathered with it.
 */
export function createTurnGathering<Shape, Row>(keyOf: (shape: Shape) => string, readAll: (db: Kysely<any>, shape: Shape, ids: readonly number[]) => Promise<Row[]>) {
  const gathering = new WeakMap<Kysely<any>, Map<string, Gathered<Row>>>();
  return (db: Kysely<any>, shape: Shape, id: number): Promise<Row[]> => {
    if (!Number.isSafeInteger(id)) return readAll(db, shape, [id]);
    let ofDb = gathering.get(db);
    if (!ofDb) gathering.set(db, (ofDb = new Map()));
    const key = keyOf(shape);
    let gathered = ofDb.get(key);
    if (!gathered) {
      const ids = new Set<number>();
      const open = ofDb;
      const rows = turnAfterNext().then(() => {
        // Closed as its statement starts: a read asked from now on waits for the next one.
        open.delete(key);
        return readAll(db, shape, [...ids]);
      });
      gathered = { ids, rows };
      ofDb.set(key, gathered);
    }
    gathered.ids.add(id);
    return gathered.rows;
  };
}

interface Batch<Item, Result> {
  items: Item[];
  keys: Set<unknown>;
  results: Promise<Result[]>;
}

/**
 * PostgreSQL: writes of one shape (a table's new records with the same columns, its records'
 * updates of the same fields) asked during two turns of the event loop go as one statement at
 * the end of the second, as reads do above: one round trip and one transaction for the writes
 * that arrive together, where the database's work a record falls by half at three records
 * (docs/performance.md, session 44). `writeAll` writes `items` all or none and answers one
 * result per item, in their order. When a statement of several fails, each of its items is
 * written again alone, so that one item's failure is its own caller's only, and the others
 * stand or fail as they would have without company. Items of one `itemKey` (the record an
 * update writes) never share a statement: the later waits for the earlier's, and goes with the
 * next, so that it sees and replaces what the earlier wrote.
 */
export function createTurnBatching<Shape, Item, Result>(keyOf: (shape: Shape) => string, writeAll: (db: Kysely<any>, shape: Shape, items: readonly Item[]) => Promise<Result[]>, itemKey?: (item: Item) => unknown) {
  const gathering = new WeakMap<Kysely<any>, Map<string, Batch<Item, Result>>>();
  const write = async (db: Kysely<any>, shape: Shape, item: Item): Promise<Result> => {
    let ofDb = gathering.get(db);
    if (!ofDb) gathering.set(db, (ofDb = new Map()));
    const key = keyOf(shape);
    let batch = ofDb.get(key);
    const ownKey = itemKey?.(item);
    if (batch && ownKey !== undefined && batch.keys.has(ownKey)) {
      await batch.results.catch(() => undefined);
      return write(db, shape, item);
    }
    if (!batch) {
      const items: Item[] = [];
      const open = ofDb;
      const results = turnAfterNext().then(() => {
        // Closed as its statement starts: a write asked from now on goes with the next one.
        open.delete(key);
        return writeAll(db, shape, items);
      });
      batch = { items, keys: new Set(), results };
      ofDb.set(key, batch);
    }
    if (ownKey !== undefined) batch.keys.add(ownKey);
    const position = batch.items.push(item) - 1;
    const gathered = batch;
    try {
      return (await gathered.results)[position];
    } catch (error) {
      if (gathered.items.length === 1) throw error;
      return (await writeAll(db, shape, [item]))[0];
    }
  };
  return write;
}
