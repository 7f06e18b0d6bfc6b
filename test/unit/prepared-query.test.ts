import { type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { prepareQuery, prepareShapedQuery } from '../../src/db/prepared-query.js';
import { closeRawDatabase, openRawDatabase } from '../raw-database.js';
import { testEngine, type TestDatabase } from '../test-database.js';

/**
 * Prepared queries (src/db/prepared-query.ts): built and compiled once, then run with new
 * parameter values. Risks guarded against:
 * - a prepared query returning other rows than the same Kysely query built afresh (parameters
 *   bound to the wrong slots, values from an earlier call reused);
 * - a value baked into the query as a constant, silently the same on every later call
 *   (prepareQuery must refuse it);
 * - a shaped query compiled on every call (the cost it exists to save) or a shape served the
 *   SQL compiled for another shape;
 * - SQL compiled for one Kysely instance reused by another;
 * - a prepared read outside a transaction seeing (or waiting for) another transaction's
 *   uncommitted rows, or one inside it missing its own (on SQLite, reads through the root
 *   instance go to a second connection, database.ts);
 * - a prepared statement compiled anew for every transaction (the cost it exists to save), or
 *   run outside the transaction it was given: a write that survives its transaction's
 *   rollback, or a prepared write sent to SQLite's read-only connection.
 */

interface Item {
  id: number;
  name: string;
  kind: string;
  n: number;
}

const items: Item[] = [
  { id: 1, name: 'alpha', kind: 'x', n: 10 },
  { id: 2, name: 'beta', kind: 'y', n: 20 },
  { id: 3, name: 'gamma', kind: 'x', n: 30 },
  { id: 4, name: 'delta', kind: 'y', n: 40 },
  { id: 5, name: 'epsilon', kind: 'x', n: 50 },
];

describe(`prepared queries (${testEngine})`, () => {
  let database: TestDatabase;
  let opened: Database;
  let db: Kysely<any>;

  beforeAll(async () => {
    ({ database, opened, db } = await openRawDatabase());
    await db.schema
      .createTable('pq_items')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('n', 'integer', (c) => c.notNull())
      .execute();
    await db.insertInto('pq_items').values(items).execute();
  });

  afterAll(() => closeRawDatabase({ opened, database }));

  describe('prepareQuery', () => {
    it('returns the rows of the equivalent Kysely query for every parameter value', async () => {
      const build = vi.fn((d: Kysely<any>, kind: string, minN: number, limit: number) =>
        d.selectFrom('pq_items').select(['id', 'name', 'n']).where('kind', '=', kind).where('n', '>=', minN).orderBy('id').limit(limit),
      );
      const select = prepareQuery(build);
      const cases: [string, number, number][] = [
        ['x', 0, 10],
        ['y', 0, 10],
        ['x', 30, 10],
        ['y', 25, 1],
        ['x', 0, 2],
        ['z', 0, 10],
        ['x', 100, 10],
      ];
      for (const [kind, minN, limit] of cases) {
        const expected = await db.selectFrom('pq_items').select(['id', 'name', 'n']).where('kind', '=', kind).where('n', '>=', minN).orderBy('id').limit(limit).execute();
        expect(await select(db, kind, minN, limit), `${kind} ${minN} ${limit}`).toEqual(expected);
      }
      expect(build).toHaveBeenCalledTimes(1);
    });

    it('binds parameters by position even when the SQL uses them in another order or twice', async () => {
      const select = prepareQuery((d: Kysely<any>, low: number, high: number) =>
        d.selectFrom('pq_items').select('id').where('n', '<=', high).where('n', '>=', low).where('n', '<>', high).orderBy('id'),
      );
      expect((await select(db, 20, 40)).map((r) => r.id)).toEqual([2, 3]);
      expect((await select(db, 10, 50)).map((r) => r.id)).toEqual([1, 2, 3, 4]);
    });

    it('works with no parameters', async () => {
      const count = prepareQuery((d: Kysely<any>) => d.selectFrom('pq_items').select((eb) => eb.fn.countAll().as('c')));
      expect(Number((await count(db))[0].c)).toBe(items.length);
    });

    it('throws a clear error when the built query has a constant parameter', async () => {
      const select = prepareQuery((d: Kysely<any>, name: string) => d.selectFrom('pq_items').select('id').where('id', '=', 1).where('name', '=', name));
      await expect(select(db, 'alpha')).rejects.toThrow(/constant parameter/);
    });

    it('does not share compiled statements between Kysely instances', async () => {
      const other = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
      try {
        const otherDb = other.db as unknown as Kysely<any>;
        const built: Kysely<any>[] = [];
        const select = prepareQuery((d: Kysely<any>, id: number) => {
          built.push(d);
          return d.selectFrom('pq_items').select('name').where('id', '=', id);
        });
        expect(await select(db, 1)).toEqual([{ name: 'alpha' }]);
        expect(await select(otherDb, 2)).toEqual([{ name: 'beta' }]);
        expect(await select(db, 3)).toEqual([{ name: 'gamma' }]);
        expect(await select(otherDb, 4)).toEqual([{ name: 'delta' }]);
        // Built once per instance, each time with that instance.
        expect(built).toEqual([db, otherDb]);
        expect(built[0]).toBe(db);
        expect(built[1]).toBe(otherDb);
      } finally {
        await other.destroy();
      }
    });
  });

  describe('prepareShapedQuery', () => {
    type Shape = { columns: ('id' | 'name' | 'kind' | 'n')[] };

    it('compiles once per shape key and returns the rows of each shape', async () => {
      const build = vi.fn((d: Kysely<any>, shape: Shape, kind: string) => d.selectFrom('pq_items').select(shape.columns).where('kind', '=', kind).orderBy('id'));
      const select = prepareShapedQuery((shape: Shape) => shape.columns.join(','), build);
      const shapes: Shape[] = [{ columns: ['id', 'name'] }, { columns: ['id', 'n', 'kind'] }];
      for (let call = 0; call < 5; call++) {
        for (const shape of shapes) {
          const kind = call % 2 === 0 ? 'x' : 'y';
          const expected = items.filter((item) => item.kind === kind).map((item) => Object.fromEntries(shape.columns.map((c) => [c, item[c]])));
          // A new, equal shape object each call: the key, not the object, names the shape.
          expect(await select(db, { columns: [...shape.columns] }, kind)).toEqual(expected);
        }
      }
      expect(build).toHaveBeenCalledTimes(2);
      expect(build.mock.calls.map((args) => args[1].columns)).toEqual([
        ['id', 'name'],
        ['id', 'n', 'kind'],
      ]);
    });

    it('throws on a constant parameter in a shape too', async () => {
      const select = prepareShapedQuery(
        (shape: Shape) => shape.columns.join(','),
        (d: Kysely<any>, shape: Shape) => d.selectFrom('pq_items').select(shape.columns).where('kind', '=', 'x'),
      );
      await expect(select(db, { columns: ['id'] })).rejects.toThrow(/constant parameter/);
    });

    it('does not share compiled shapes between Kysely instances', async () => {
      const other = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
      try {
        const otherDb = other.db as unknown as Kysely<any>;
        const build = vi.fn((d: Kysely<any>, shape: Shape, id: number) => d.selectFrom('pq_items').select(shape.columns).where('id', '=', id));
        const select = prepareShapedQuery((shape: Shape) => shape.columns.join(','), build);
        const shape: Shape = { columns: ['name'] };
        expect(await select(db, shape, 1)).toEqual([{ name: 'alpha' }]);
        expect(await select(otherDb, shape, 2)).toEqual([{ name: 'beta' }]);
        expect(await select(db, shape, 3)).toEqual([{ name: 'gamma' }]);
        expect(build).toHaveBeenCalledTimes(2);
        expect(build.mock.calls[0][0]).toBe(db);
        expect(build.mock.calls[1][0]).toBe(otherDb);
      } finally {
        await other.destroy();
      }
    });
  });

  describe('statements inside transactions', () => {
    const insertItem = vi.fn((d: Kysely<any>, id: number, name: string, kind: string) => d.insertInto('pq_items').values({ id, name, kind, n: id }).returning(['id', 'name']));
    const insertW = prepareQuery(insertItem);
    const insert = (d: Kysely<any>, id: number, name: string) => insertW(d, id, name, 'w');
    const selectKind = prepareQuery((d: Kysely<any>, kind: string) => d.selectFrom('pq_items').select('name').where('kind', '=', kind).orderBy('id'));

    it('is compiled once for an instance and all its transactions, and runs in the transaction it is given', async () => {
      expect(await db.transaction().execute((trx) => insert(trx, 200, 'first'))).toEqual([{ id: 200, name: 'first' }]);
      await expect(
        db.transaction().execute(async (trx) => {
          expect(await insert(trx, 201, 'rolled back')).toEqual([{ id: 201, name: 'rolled back' }]);
          // The transaction's own prepared read sees the row; a read outside it does not.
          expect(await selectKind(trx, 'w')).toEqual([{ name: 'first' }, { name: 'rolled back' }]);
          expect(await selectKind(db, 'w')).toEqual([{ name: 'first' }]);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await db.transaction().execute((trx) => insert(trx, 202, 'third'))).toEqual([{ id: 202, name: 'third' }]);
      expect(await selectKind(db, 'w')).toEqual([{ name: 'first' }, { name: 'third' }]);
      expect(insertItem).toHaveBeenCalledTimes(1);
    });

    it("answers a statement's rows, or none for a write without returning, and throws the database's own error", async () => {
      const insertRow = prepareQuery((d: Kysely<any>, id: number, name: string, kind: string, n: number) => d.insertInto('pq_items').values({ id, name, kind, n }));
      const insertPlain = (d: Kysely<any>, id: number) => insertRow(d, id, 'plain', 'p', id);
      await db.transaction().execute(async (trx) => {
        // SQLite: the writer's transaction runs it at once on its connection, not through Kysely's executor.
        const throughKysely = vi.spyOn(trx, 'executeQuery');
        expect(await insertPlain(trx, 400)).toEqual([]);
        expect(await selectKind(trx, 'p')).toEqual([{ name: 'plain' }]);
        expect(throughKysely).toHaveBeenCalledTimes(testEngine === 'sqlite' ? 0 : 2);
        await expect(insertPlain(trx, 400)).rejects.toMatchObject({ code: testEngine === 'sqlite' ? 'SQLITE_CONSTRAINT_PRIMARYKEY' : '23505' });
      }).catch((error: unknown) => {
        // PostgreSQL aborts the transaction at the failed statement, and refuses its commit.
        if (testEngine === 'sqlite') throw error;
      });
      await db.deleteFrom('pq_items').where('kind', '=', 'p').execute();
    });

    it('runs a prepared write through the root instance on the main connection', async () => {
      expect(await insert(db, 203, 'outside')).toEqual([{ id: 203, name: 'outside' }]);
      expect(await selectKind(db, 'w')).toEqual([{ name: 'first' }, { name: 'third' }, { name: 'outside' }]);
      await db.deleteFrom('pq_items').where('kind', '=', 'w').execute();
    });

    it('is compiled once per shape across transactions too', async () => {
      // Each row: id, name, kind, n.
      const build = vi.fn((d: Kysely<any>, count: number, ...values: unknown[]) =>
        d.insertInto('pq_items').values(Array.from({ length: count }, (_, row) => ({ id: values[row * 4], name: values[row * 4 + 1], kind: values[row * 4 + 2], n: values[row * 4 + 3] }))),
      );
      const insertMany = prepareShapedQuery((count: number) => String(count), build);
      const rows = (...ids: number[]) => ids.flatMap((id) => [id, `item ${id}`, 'v', id]);
      await db.transaction().execute((trx) => insertMany(trx, 2, ...rows(300, 301)));
      await db.transaction().execute((trx) => insertMany(trx, 2, ...rows(302, 303)));
      await db.transaction().execute((trx) => insertMany(trx, 1, ...rows(304)));
      expect((await selectKind(db, 'v')).map((row) => row.name)).toEqual(['item 300', 'item 301', 'item 302', 'item 303', 'item 304']);
      expect(build).toHaveBeenCalledTimes(2);
      await db.deleteFrom('pq_items').where('kind', '=', 'v').execute();
    });
  });

  describe('reads and open transactions', () => {
    const selectName = prepareQuery((d: Kysely<any>, id: number) => d.selectFrom('pq_items').select('name').where('id', '=', id));

    it('reads outside a transaction see only committed rows, without waiting; inside it, its own rows', async () => {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('pq_items').values({ id: 100, name: 'uncommitted', kind: 'z', n: 0 }).execute();
        expect(await selectName(trx, 100)).toEqual([{ name: 'uncommitted' }]);
        // Awaited inside the open transaction: through the main connection's lock this would never return.
        expect(await selectName(db, 100)).toEqual([]);
        expect(await selectName(db, 1)).toEqual([{ name: 'alpha' }]);
      });
      expect(await selectName(db, 100)).toEqual([{ name: 'uncommitted' }]);
    });

    it('never shows the rows of a transaction that rolled back', async () => {
      await expect(
        db.transaction().execute(async (trx) => {
          await trx.insertInto('pq_items').values({ id: 101, name: 'rolled back', kind: 'z', n: 0 }).execute();
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await selectName(db, 101)).toEqual([]);
    });

    it('sees a change committed through the main connection at once', async () => {
      await db.updateTable('pq_items').set({ name: 'omega' }).where('id', '=', 100).execute();
      expect(await selectName(db, 100)).toEqual([{ name: 'omega' }]);
      await db.deleteFrom('pq_items').where('id', '=', 100).execute();
      expect(await selectName(db, 100)).toEqual([]);
    });
  });
});
