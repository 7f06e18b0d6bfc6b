import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/modules/auth/actor.js';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

const BIG = 1200;

describe('records count and ids', () => {
  const ctx = useTestApp();
  let world: World;
  let actor: Actor;
  let spaceId: number;

  const post = (path: string, body: unknown) => call(ctx, 'POST', path, { key: world.accountKey, body });
  const count = (tableId: number, body: unknown) => post(`/api/table/${tableId}/records/count`, body);
  const ids = (tableId: number, body: unknown) => post(`/api/table/${tableId}/records/ids`, body);

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Counting')).id;
    actor = await ctx.container.services.keys.authenticateKey(world.accountKey, '127.0.0.1');
  });

  describe('on a small table', () => {
    let tableId: number;
    let all: Array<{ id: number; data: { name: string | null; size: number | null; color: string | null } }>;

    beforeAll(async () => {
      tableId = (
        await createTable(ctx, world, spaceId, {
          name: 'Small',
          fields: [
            { id: 'name', name: 'Name', type: 'text' },
            { id: 'size', name: 'Size', type: 'number' },
            { id: 'color', name: 'Color', type: 'select', options: [{ value: 'red' }, { value: 'blue' }] },
          ],
        })
      ).id;
      const rows = [
        { name: 'apple', size: 3, color: 'red' },
        { name: 'Banana', size: 1, color: 'blue' },
        { name: 'cherry', size: 3, color: 'red' },
        { name: null, size: null, color: null },
        { name: 'apple pie', size: 2, color: 'blue' },
        { name: 'Date', size: 3 },
      ];
      for (const data of rows) expect((await post(`/api/table/${tableId}/records/create`, { data })).status).toBe(200);
      all = (await post(`/api/table/${tableId}/records/query`, {})).body;
    });

    it('count without filters: the whole table, restricted false, count == total', async () => {
      for (const body of [{}, { where: {} }, { filters: [] }, { search: '  ' }, { order_by: 'name', order_dir: 'D' }, { fields: ['name'] }, { view_id: 0 }]) {
        const response = await count(tableId, body);
        expect(response.status, JSON.stringify(body)).toBe(200);
        expect(response.body, JSON.stringify(body)).toEqual({ count: 6, total: 6, total_approx: false, restricted: false });
      }
    });

    it('count with filters or search: exact count, restricted true', async () => {
      expect((await count(tableId, { where: { color: 'red' } })).body).toEqual({ count: 2, total: 6, total_approx: false, restricted: true });
      expect((await count(tableId, { filters: [{ column: 'size', compare: '>=', value: 2 }] })).body).toEqual({ count: 4, total: 6, total_approx: false, restricted: true });
      expect((await count(tableId, { search: 'apple' })).body).toEqual({ count: 2, total: 6, total_approx: false, restricted: true });
      expect((await count(tableId, { search: 'apple', where: { size: 2 } })).body).toEqual({ count: 1, total: 6, total_approx: false, restricted: true });
      expect((await count(tableId, { where: { name: 'nothing' } })).body).toEqual({ count: 0, total: 6, total_approx: false, restricted: true });
      // A filter that happens to keep every record still restricts the query.
      expect((await count(tableId, { where: { id: ['>', 0] } })).body).toEqual({ count: 6, total: 6, total_approx: false, restricted: true });
    });

    it('query and count answer while a write transaction is open, without its uncommitted change', async () => {
      // On SQLite reads go to a second connection (database.ts): awaited inside the open
      // transaction, a read through the main connection's lock would never return.
      const { db } = ctx.container.database;
      const fields = await db.selectFrom('fields').select(['id', 'slug']).where('table_id', '=', tableId).execute();
      const nameColumn = `f_${fields.find((f) => f.slug === 'name')!.id}`;
      const filter = { where: { name: 'uncommitted' } };
      await db.transaction().execute(async (trx) => {
        await trx.updateTable(`rec_${tableId}` as 'fields').set({ [nameColumn]: 'uncommitted' } as never).where('id', '=', all[0].id).execute();
        const page = await post(`/api/table/${tableId}/records/query`, filter);
        expect(page.status).toBe(200);
        expect(page.body).toEqual([]);
        expect((await count(tableId, filter)).body).toEqual({ count: 0, total: 6, total_approx: false, restricted: true });
        throw new Error('roll back');
      }).catch((error: Error) => expect(error.message).toBe('roll back'));
      expect((await post(`/api/table/${tableId}/records/query`, { where: { name: 'apple' } })).body.map((r: { id: number }) => r.id)).toEqual([all[0].id]);
    });

    it('count ignores limit and offset, even invalid ones', async () => {
      for (const paging of [{ limit: 1 }, { limit: 1, offset: 5 }, { limit: 0 }, { limit: 5000, offset: -1 }, { limit: 'x', offset: 1.5 }, { limit: null, offset: null }]) {
        expect((await count(tableId, paging)).body, JSON.stringify(paging)).toEqual({ count: 6, total: 6, total_approx: false, restricted: false });
        expect((await count(tableId, { ...paging, where: { color: 'blue' } })).body).toEqual({ count: 2, total: 6, total_approx: false, restricted: true });
      }
    });

    it('count validates everything else like a query', async () => {
      let response = await count(tableId, { where: { nope: 1 } });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toBe('Invalid filter: unknown field "nope"');
      response = await count(tableId, { order_by: 'nope' });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toBe('Invalid order_by: nope');
    });

    it('ids returns every matching id in id order by default', async () => {
      const response = await ids(tableId, {});
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual(all.map((r) => r.id));
      expect((await ids(tableId, { where: { color: 'red' } })).body).toEqual(all.filter((r) => r.data.color === 'red').map((r) => r.id));
      expect((await ids(tableId, { search: 'APPLE' })).body).toEqual(all.filter((r) => r.data.name?.startsWith('apple')).map((r) => r.id));
    });

    it('ids follows order_by and order_dir, ties by id', async () => {
      const bySize = (dir: 1 | -1) =>
        [...all]
          .sort((a, b) => {
            if (a.data.size === b.data.size) return a.id - b.id;
            if (a.data.size === null) return -dir;
            if (b.data.size === null) return dir;
            return dir * (a.data.size - b.data.size) || a.id - b.id;
          })
          .map((r) => r.id);
      expect((await ids(tableId, { order_by: 'size' })).body).toEqual(bySize(1));
      expect((await ids(tableId, { order_by: 'size', order_dir: 'D' })).body).toEqual(bySize(-1));
      expect((await ids(tableId, { order_by: 'id', order_dir: 'D' })).body).toEqual(all.map((r) => r.id).reverse());
      const byName = (await ids(tableId, { order_by: 'name', order_dir: 'A' })).body;
      const names = byName.map((id: number) => all.find((r) => r.id === id)!.data.name);
      expect(names).toEqual([null, 'apple', 'apple pie', 'Banana', 'cherry', 'Date']);
    });

    it('ids ignores limit and offset, even invalid ones', async () => {
      for (const paging of [{ limit: 1 }, { offset: 3 }, { limit: 0, offset: -1 }, { limit: 'all' }]) {
        expect((await ids(tableId, paging)).body, JSON.stringify(paging)).toEqual(all.map((r) => r.id));
      }
    });

    it('ids of an empty result is []', async () => {
      const response = await ids(tableId, { where: { name: 'nothing' } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
      expect((await ids(tableId, { search: 'zzzz' })).body).toEqual([]);
    });

    it('ids answers a JSON 400, not a broken stream, on a bad query', async () => {
      for (const [body, message] of [
        [{ where: { nope: 1 } }, 'Invalid filter: unknown field "nope"'],
        [{ order_by: 'color', order_dir: 'X' }, 'Invalid parameters: order_dir'],
        [{ where: { size: ['C', 1] } }, 'Invalid filter: size: operator contains does not apply to number fields'],
      ] as const) {
        const response = await ids(tableId, body);
        expect(response.status).toBe(400);
        expect(response.body.error.message).toBe(message);
      }
    });
  });

  describe('on an empty table', () => {
    it('count is zero and ids is []', async () => {
      const tableId = (await createTable(ctx, world, spaceId, { name: 'Empty', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
      expect((await count(tableId, {})).body).toEqual({ count: 0, total: 0, total_approx: false, restricted: false });
      expect((await count(tableId, { search: 'x' })).body).toEqual({ count: 0, total: 0, total_approx: false, restricted: true });
      expect((await ids(tableId, {})).body).toEqual([]);
    });
  });

  describe(`on a table bigger than one page (${BIG} records)`, () => {
    let tableId: number;
    /** Created records: id and the bucket value each was given. */
    let created: Array<{ id: number; bucket: number; label: string }>;

    beforeAll(async () => {
      tableId = (
        await createTable(ctx, world, spaceId, {
          name: 'Big',
          fields: [
            { id: 'bucket', name: 'Bucket', type: 'number' },
            { id: 'label', name: 'Label', type: 'text' },
          ],
        })
      ).id;
      created = [];
      // Through the service, in parallel batches: much faster than one HTTP request at a time.
      for (let start = 0; start < BIG; start += 100) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(100, BIG - start) }, (_, k) => {
            const n = start + k;
            return ctx.container.services.records.createRecord(actor, tableId, { data: { bucket: n % 7, label: n % 3 === 0 ? `fizz ${n}` : `item ${n}` } });
          }),
        );
        created.push(...batch.map((r) => ({ id: r.id, bucket: r.data.bucket as number, label: r.data.label as string })));
      }
    }, 120_000);

    it('count is exact, total is exact', async () => {
      expect((await count(tableId, {})).body).toEqual({ count: BIG, total: BIG, total_approx: false, restricted: false });
      expect((await count(tableId, { where: { bucket: 3 } })).body).toEqual({
        count: created.filter((r) => r.bucket === 3).length,
        total: BIG,
        total_approx: false,
        restricted: true,
      });
      expect((await count(tableId, { search: 'fizz' })).body).toEqual({ count: BIG / 3, total: BIG, total_approx: false, restricted: true });
    });

    it('ids returns every id with no limit, in id order', async () => {
      const response = await ids(tableId, {});
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(BIG);
      expect(response.body).toEqual(created.map((r) => r.id).sort((a, b) => a - b));
      // A query pages at 100 by default and 1000 at most.
      expect((await post(`/api/table/${tableId}/records/query`, {})).body).toHaveLength(100);
      expect((await post(`/api/table/${tableId}/records/query`, { limit: 1000 })).body).toHaveLength(1000);
    });

    it('ids follows order_by / order_dir with ties broken by id, and filters', async () => {
      const expected = (dir: 1 | -1, rows = created) => [...rows].sort((a, b) => dir * (a.bucket - b.bucket) || a.id - b.id).map((r) => r.id);
      expect((await ids(tableId, { order_by: 'bucket', order_dir: 'A' })).body).toEqual(expected(1));
      expect((await ids(tableId, { order_by: 'bucket', order_dir: 'D' })).body).toEqual(expected(-1));
      const fizz = created.filter((r) => r.label.startsWith('fizz'));
      expect((await ids(tableId, { search: 'fizz', order_by: 'bucket', order_dir: 'D' })).body).toEqual(expected(-1, fizz));
      expect((await ids(tableId, { where: { bucket: ['>=', 5] }, order_by: 'id', order_dir: 'D' })).body).toEqual(
        created.filter((r) => r.bucket >= 5).map((r) => r.id).sort((a, b) => b - a),
      );
    });

    it('ids agrees with paging through the query with the same order', async () => {
      const paged: number[] = [];
      for (let offset = 0; offset < BIG; offset += 1000) {
        const page = await post(`/api/table/${tableId}/records/query`, { order_by: 'bucket', order_dir: 'D', limit: 1000, offset, fields: [] });
        paged.push(...page.body.map((r: { id: number }) => r.id));
      }
      expect((await ids(tableId, { order_by: 'bucket', order_dir: 'D' })).body).toEqual(paged);
    });
  });
});
